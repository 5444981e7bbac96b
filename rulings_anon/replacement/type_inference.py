"""Infer a placeholder's reference type from its form and context (thesis 5.5.1).

The user of the terminal tool infers the type from the context; ``--auto`` and the suggestion
shown to the user do the same with the cues below: first the placeholder's own form ("M-GmbH",
"Kstraße", "x@y.de"), then the word after it ("K GmbH", "L Straße"), then the words before it
("Herr K.", "in B.", "Verein S"), nearest first. The cue lists are data; the measured agreement
with the LER gold types is in the README ("Measured").
"""

from __future__ import annotations

import re

from rulings_anon.data import path as data_path
from rulings_anon.jsonl import read_json

# Salutations and academic titles ("Herr", "Dr.") of rulings_anon/data/name_affixes.json, written as the words
# before a placeholder are compared: lower-case, without the period; one word each.
_AFFIXES = read_json(data_path("name_affixes.json"))
TITLE_CUES = tuple(dict.fromkeys(w.strip(".").lower() for w in _AFFIXES["salutations"] + _AFFIXES["academic_titles"]
                                 if " " not in w))

# The placeholder's own form, checked in this order.
FORM_CUES = (
    ("email/url", r"@|www\.|https?:"),
    ("street", r"(?i:stra(?:ß|ss)e|str\.|weg\b|platz|gasse|allee|ring\b|damm\b|ufer\b)"),
    ("organization", r"\be\.\s?V\.|-(?:Verein|Stiftung|Klinik|Schule|Verband|Kirche)\b"),
    ("company", r"(?:^|[\s-])(?:g?GmbH|mbH|AG|KG|KGaA|OHG|GbR|UG|SE|e\.\s?K\.|Co\.|Konzern|Bank|Holding|BV)\b"),
    ("place", r"-(?:Stadt|Dorf|Land|Kreis)\b"),
    ("date", r"\d{1,2}\.\s?\d{1,2}\.|(?:19|20)\d\d"),
    ("account", r"^DE\d\d"),
    ("person", r"^(?:[A-ZÄÖÜ][a-zäöü]?\.\s?){2,}$"),
)

# The element right after the placeholder.
NEXT_CUES = {
    "company": ("GmbH", "gGmbH", "mbH", "AG", "KG", "KGaA", "OHG", "GbR", "UG", "SE", "&", "Co.", "GmbH,",
                "Bank", "Versicherung", "Aktiengesellschaft", "Holding", "Gruppe"),
    "organization": ("e.", "e.V.", "Stiftung", "Verein"),
    "street": ("Straße", "Str.", "Weg", "Platz", "Allee", "Ring", "Gasse", "Damm", "straße", "str.", "allee"),
    "date": ("geboren", "geb", "verstorben", "verstarb"),  # "am ... geboren" is a date, not a person
}
# Endings of words before the placeholder that name a person's role ("Patentanwalt K…").
PERSON_ROLE_ENDINGS = ("anwalt", "anwältin", "anwälte", "anwalts")

# Words before the placeholder (lower-cased, punctuation stripped), nearest first.
BEFORE_CUES = {
    "person": (
        *TITLE_CUES, "kläger", "klägerin", "klägers", "beklagte", "beklagten", "beklagter",
        "zeuge", "zeugin", "zeugen", "rechtsanwalt", "rechtsanwältin", "rechtsanwälte", "rechtsanwalts",
        "angeklagte", "angeklagten", "angeklagter", "antragsteller", "antragstellerin",
        "geschäftsführer", "geschäftsführerin", "sohn", "tochter", "ehefrau", "ehemann", "mutter", "vater",
        "betroffene", "betroffenen", "versicherte", "versicherten", "staatsanwalt", "staatsanwältin",
        "notar", "notarin", "sachverständige", "sachverständigen", "gutachter", "gutachterin", "arzt",
        "ärztin", "schuldner", "schuldnerin", "gläubiger", "gläubigerin", "erblasser", "erblasserin",
        "mitarbeiter", "mitarbeiterin", "bewerber", "bewerberin", "nebenkläger", "nebenklägerin",
        "verteidiger", "verteidigerin", "geschädigte", "geschädigten", "eheleute", "familie", "patient",
        "patientin", "vorsitzende", "vorsitzenden", "inhaber", "inhaberin", "torhüter", "spieler",
    ),
    "company": (
        "bei", "firma", "fa", "unternehmen", "unternehmens", "arbeitgeberin", "arbeitgeber", "gesellschaft",
        "konzern", "konzerns", "bank", "sparkasse", "versicherung", "bauträgerin", "tochtergesellschaft",
        "muttergesellschaft", "firmierend", "insolvenzschuldnerin", "betreiberin",
    ),
    "organization": (
        "verein", "vereins", "stiftung", "klinik", "krankenhaus", "krankenhauses", "schule", "schulzentrum",
        "schulzentrums", "berufsschulzentrum", "verband", "verbands", "universität", "hochschule",
        "kirchengemeinde", "partei", "gewerkschaft", "behörde", "jobcenter", "kanzlei", "seniorenzentrum",
        "sozietät", "wirtschaft", "drk",
    ),
    "place": (
        "in", "aus", "nach", "stadt", "gemeinde", "landkreis", "landkreises", "kreis", "kreises", "ort",
        "wohnhaft", "sitz", "ortsteil", "gemarkung", "bezirk", "region", "raum", "großraum", "standort",
        "flurstück", "flurstücks", "flurstücke", "grundstück", "grundstücke", "stadtgebiet", "land",
        "bundesland", "städtischen", "amt", "innenstadt", "stadtteil", "umgebung", "nähe",
    ),
    "street": ("adresse", "anschrift"),
    "date": ("geboren", "geb", "geburtsdatum"),
    "account": ("konto", "kontonummer", "iban", "bankverbindung"),
    "number": ("nr", "nummer", "az", "aktenzeichen", "telefon", "tel", "fax", "kennzeichen",
               "steuernummer", "versicherungsnummer"),
}

_FORM = [(kind, re.compile(pattern)) for kind, pattern in FORM_CUES]
_NEXT = {word: kind for kind, words in NEXT_CUES.items() for word in words}
_BEFORE = {word: kind for kind, words in BEFORE_CUES.items() for word in words}
_WORD = re.compile(r"\S+")
_SENTENCE_END = re.compile(r"[.!?:;]$")
_STRIP = "()[]{}„“\"'‚‘»«,;:."
_INITIAL_LIKE = re.compile(r"^[A-ZÄÖÜ][a-zäöü]?(?:\.|…)?$|^(?:\.{3}|…)$|^[A-ZÄÖÜ][a-zäöü]?\.?-")
_LOOK_BACK = 3
# "geb." and "geborene" right before a name or after one: a birth name ("Frau Klement, geb. Burger",
# "Frau K. geb. M."), not a birth date, which is written with digits or elided ("geb. am ...")
_BIRTH = frozenset({"geb", "geboren", "geborene"})
_NAMED = re.compile(r"^[A-ZÄÖÜ][^\d]*$")


def infer_type(text: str, start: int, end: int) -> str:
    """The reference type of the placeholder ``text[start:end]`` (one of ``surrogates.TYPES``)."""
    placeholder = text[start:end].strip()
    for kind, pattern in _FORM:
        if pattern.search(placeholder):
            return kind
    named = bool(_NAMED.match(placeholder))
    following = _WORD.search(text, end)
    if following and following.group().rstrip(",;:.)") in _NEXT:
        kind = _NEXT[following.group().rstrip(",;:.)")]
        if not (kind == "date" and named and following.group().rstrip(",;:.)") in _BIRTH):
            return kind
    before = _WORD.findall(text[max(0, start - 120):start])
    if named and before and before[-1].strip(_STRIP).lower() in _BIRTH:
        return "person"
    for word in reversed(before[-_LOOK_BACK:]):
        if word.endswith(("!", "?", ";")) or (_SENTENCE_END.search(word) and len(word) > 4):
            break
        word = word.strip(_STRIP).lower()
        kind = _BEFORE.get(word) or ("person" if word.endswith(PERSON_ROLE_ENDINGS) else None)
        if kind:
            return kind
    return "person" if _INITIAL_LIKE.match(placeholder) else "other"
