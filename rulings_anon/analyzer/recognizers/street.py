"""Street names, with or without a house number: "Kirchstraße 12", "Am Lindenweg 3a", "in der Rosenallee",
"Frankfurter Straße 12", and any street before a house number, a postcode and a town ("Am Anger 7,
85540 Haar").

A street has a street-like form: a compound ending in a street word (-straße, -weg, -allee,
-platz, -gasse, -ring, -damm, -ufer, ...; "Konrad-Adenauer-Straße" with a hyphen). German
nouns end in these words too ("Rechtsweg", "Arbeitsplatz", "Kardanring", "Käufer"), so

* a compound ending in -straße, -str., -gasse, -allee or -chaussee names a street by itself
  ("Kranzstraße"), unless it is a road-type noun (the ``common_nouns`` option of
  ``rulings_anon/data/recognizers.json``: "Bundesstraße", "Sackgasse");
* any other street word needs a house number ("Lindenweg 3a") or a street context right before
  it ("in der Hövelring", "wohnhaft Lindenweg", "Anschrift: Marktplatz"), or a postcode or the
  word "Straße" after it ("Lindenweg, 12345 Halle", "Finkeweg str." where a surrogate replaced
  only part of "Fstr.");
* "-ring" and "-ufer" follow a consonant: "Hohenzollernring", "Mainufer", but not "Sharing",
  "Thiering", "Käufer";
* an adjective before a street word ("Frankfurter Straße 12", "Tegernseer Landstraße 161") needs
  a house number, a postcode after it or a street context, like the ambiguous street words.

The house number belongs to the reference; the separators never cross a line break. A street
alone is a candidate for the contextual model ("Wilhelmstraße" may name a ministry); a street
with a house number or a postcode after it is an address and scores :data:`ADDRESS_SCORE`, which
``rulings_anon/data/recognizers.json`` makes sensitive on its own (``standalone_min_score``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from rulings_anon.document import Span

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
# Words that start a street name ("Am Lindenweg", "In der Au").
_LEAD_ALTERNATIVES = rf"Am|An{_SPACE}der|Im|In{_SPACE}der|Zum|Zur|Auf{_SPACE}der"
_LEAD = rf"(?:(?:{_LEAD_ALTERNATIVES}){_SPACE}+)?"
# Capitalized word parts, hyphens allowed ("Konrad-Adenauer", "Sankt-Georgs").
_STEM = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ]?[a-zäöüß]+)*"
_CONSONANT = r"(?:(?<=[bcdfgjklmnpqrstvwxzß])|(?<=ch))"
# Street words that make the compound a street by themselves.
_NAMING = r"(?:straße|strasse|str\.|gasse|allee|chaussee)"
_NAMING_HYPHEN = r"-(?:Straße|Strasse|Str\.|Gasse|Allee|Chaussee)"
# Street words that common nouns end in too.
_AMBIGUOUS = rf"(?:weg|platz|damm|steig|pfad|{_CONSONANT}(?:ring|ufer))"
_AMBIGUOUS_HYPHEN = r"-(?:Weg|Platz|Damm|Steig|Pfad|Ring|Ufer)"
# Most capitalized words end in no street word: a quick look at the word's end, without
# backtracking, rules them out before the stem is matched.
_ENDINGS = ("straße", "strasse", "str.", "gasse", "allee", "chaussee", "weg", "platz", "damm", "steig", "pfad",
            "ring", "ufer", "Straße", "Strasse", "Str.", "Gasse", "Allee", "Chaussee", "Weg", "Platz", "Damm",
            "Steig", "Pfad", "Ring", "Ufer")
_ENDS_IN_STREET_WORD = r"(?=[A-ZÄÖÜ][\w-]*+\.?(?:" + "|".join(rf"(?<={re.escape(e)})" for e in _ENDINGS) + r"))"
_ANY_STREET = rf"{_ENDS_IN_STREET_WORD}{_STEM}(?:{_NAMING}|{_AMBIGUOUS}|{_NAMING_HYPHEN}|{_AMBIGUOUS_HYPHEN})"
_NAMES_A_STREET = re.compile(rf"(?:{_NAMING}|{_NAMING_HYPHEN})$")
# "12", "3a", "3 a", "12-14": at most three digits, so a year is no house number.
_NUMBER = rf"\d{{1,3}}(?:{_SPACE}?[a-z])?(?:{_SPACE}?[-–/]{_SPACE}?\d{{1,3}}(?:{_SPACE}?[a-z])?)?(?![\w.,]\d)"
# Words right before a street that say it is one ("in der", "wohnhaft", "Anschrift:").
_CONTEXT = (rf"(?<![\w-])(?:(?:in|an|auf|aus|von|bis{_SPACE}zur|Ecke|Höhe){_SPACE}der|zur|wohnhaft(?:{_SPACE}in)?|"
            r"wh\.|Anschrift|Adresse|Wohnsitz|Wohnanschrift|Ecke)[:,]?")
# Right after a street: a postcode ("Lindenweg, 12345 Halle") or the word street ("Finkeweg str.").
_POSTCODE = rf"\d{{5}}{_SPACE}"
_ADDRESS_AFTER = rf"(?=,?{_SPACE}+(?:{_POSTCODE}|[Ss]tr\.|[Ss]tra(?:ß|ss)e(?!\w)))"
_END = r"(?![\w-])"
_CONTEXT_BEFORE = re.compile(rf"{_CONTEXT}{_SPACE}+$")  # searched in the 40 characters before a street
_LEAD_WORDS = re.compile(rf"^{_LEAD}")
_HOUSE_NUMBER = re.compile(rf"{_SPACE}+\d.*$")
_POSTCODE_AFTER = re.compile(rf",?{_SPACE}+{_POSTCODE}")
# A street alone is an address where the words before it say that someone lives or works there
# ("wohnhaft: Lindenweg", "die Wohnung des Klägers in der Kohlstraße", "Anschrift Marktplatz"),
# where a town follows it ("in der Kohlstraße in Artern"), or where a court's placeholder of the house
# number follows it ("Kohlstraße, ..."). The words before are searched in the
# :data:`_ADDRESS_REACH` characters before the street.
_RESIDENCE = (r"(?<![\w-])(?:wohnhaft|wh\.?|wohn(?:t|te|ten|en|end)|(?:(?:Neben|Zweit|Erst|Haupt|Miet|Eigentums)w|W)ohnung(?:en)?"
              r"|Wohnsitz(?:es)?|(?:Wohn)?[Aa]nschrift(?:en)?|Adressen?|Hausstand(?:es)?|Wohnräume?n?"
              r"|Privathaus(?:es)?|Firmensitz(?:es)?|Geschäftsräume?n?)")
_ADDRESS_BEFORE = re.compile(rf"{_RESIDENCE}[:,]?(?:{_SPACE}+[^\s.;:!?]+){{0,4}}{_SPACE}+$")
_ADDRESS_REACH = 60
_IN_THE = re.compile(rf"(?<![\w-])(?:in|an|aus|auf|von)(?:{_SPACE}der|{_SPACE}dem|{_SPACE}die)?{_SPACE}+$")
# after "in" the nouns that name no town ("in Richtung", "in Höhe der Einmündung")
_NO_TOWN = r"(?:Richtung|Fahrtrichtung|Höhe|Nähe|Ecke|Kraft|Betrieb|Verbindung|Zusammenhang|Bezug|Hinblick|Frage|Form)"
_TOWN_AFTER = re.compile(rf",?{_SPACE}+in{_SPACE}+(?!{_NO_TOWN}(?!\w))[A-ZÄÖÜ]")
_PLACEHOLDER_AFTER = re.compile(rf",?{_SPACE}*(?:\.\.\.|…)")
# The score of an address: a street with a house number or a postcode after it.
ADDRESS_SCORE = 0.85


# An adjective and a street word: "Frankfurter Straße", "Tegernseer Landstraße", "Berliner Platz".
_ADJECTIVE_STREET = (rf"[A-ZÄÖÜ][a-zäöüß]+(?:er|e|en){_SPACE}+(?:Straße|Strasse|Str\.|Landstraße|Allee|Gasse|"
                     r"Chaussee|Weg|Platz|Ring|Damm|Ufer|Steig|Pfad)")


def _street_pattern(street: str) -> str:
    """A pattern of ``street`` (with its ``street`` group), an optional house number and, looked at
    only, an address after it: the groups ``ref``, ``number`` and ``address`` of :meth:`candidates`."""
    return rf"""(?<![\w-])(?P<ref>{street}{_END}
                 (?:{_SPACE}{{1,2}}(?P<number>{_NUMBER}){_END})?)
                 (?P<address>{_ADDRESS_AFTER})?"""


# A street of any words before a house number and a postcode with its town: the address line of a
# party ("Am Anger 7, 85540 Haar", "Hauptmarkt 4, 90403 Nürnberg", "Alter Markt 3, 50667 Köln"),
# whose street word the name may lack; the postcode and the town after the number make it one. Its
# street may start with the lead words of any street or these besides ("Unter den Linden 3").
_ADDRESS_LEAD = (rf"(?:(?:{_LEAD_ALTERNATIVES}|Beim|An{_SPACE}den|In{_SPACE}den|Auf{_SPACE}dem|Unter{_SPACE}den|"
                 rf"Hinter{_SPACE}de[mr]|Vor{_SPACE}dem|Bei{_SPACE}der){_SPACE}+)?")
_ADDRESS_LINE = rf"""(?<![\w-])(?P<ref>(?P<street>{_ADDRESS_LEAD}{_STEM}(?:{_SPACE}{_STEM})?)
                     {_SPACE}{{1,2}}(?P<number>{_NUMBER}){_END})
                     (?P<address>(?=,?{_SPACE}+{_POSTCODE}[A-ZÄÖÜ]))"""


class StreetRecognizer(Recognizer):
    name = "street"
    entity_type = "STR"
    # One scan finds every street-like word with what may come around it; :meth:`candidates`
    # keeps those with a street context, a house number or a naming street word. A street of an
    # adjective and a street word ("Frankfurter Straße") always needs a number or a context.
    PATTERNS = (
        Pattern("street", _street_pattern(rf"{_LEAD}(?P<street>{_ANY_STREET})"), 0.6),
        Pattern("adjective_street", _street_pattern(rf"(?P<street>{_ADJECTIVE_STREET})"), 0.6),
        Pattern("address_line", _ADDRESS_LINE, 0.6),
    )

    def __init__(self, common_nouns: tuple[str, ...] = ()):
        super().__init__()
        self.common_nouns = frozenset(common_nouns)

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        for pattern, regex in self._compiled:
            for match in regex.finditer(text):
                if (match["number"] or match["address"] is not None or _NAMES_A_STREET.search(match["street"])
                        or _CONTEXT_BEFORE.search(text, max(0, match.start() - 40), match.start())):
                    yield pattern, *match.span("ref")

    def analyze(self, text: str) -> list[Span]:
        """The streets of ``text``; addresses (a house number, or a postcode after) score higher."""
        return [replace(s, score=max(s.score or 0.0, ADDRESS_SCORE)) if self.is_address(text, s) else s
                for s in super().analyze(text)]

    @staticmethod
    def is_address(text: str, street: Span) -> bool:
        """A street with a house number or a postcode after it, or one that the words around it
        make the place where someone lives or works (:data:`_RESIDENCE` before it, "in der" before
        and a town after it, a placeholder of its house number after it)."""
        return bool(_HOUSE_NUMBER.search(street.text) or _POSTCODE_AFTER.match(text, street.end)
                    or _PLACEHOLDER_AFTER.match(text, street.end)
                    or _TOWN_AFTER.match(text, street.end) and _IN_THE.search(text, max(0, street.start - 12), street.start)
                    or _ADDRESS_BEFORE.search(text, max(0, street.start - _ADDRESS_REACH), street.start))

    def validate_result(self, reference: str) -> bool | None:
        street = _HOUSE_NUMBER.sub("", _LEAD_WORDS.sub("", reference))
        return False if street in self.common_nouns else None
