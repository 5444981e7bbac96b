"""A name's parts decided together, and common nouns that a flag must not reach.

The model judges each capitalized word on its own, so a first name or an initial beside a surname
it flags can stay in clear ("Thomas" in "Thomas Wimmer", "U." in "Frau U. Koch"): one reference,
half anonymized. :func:`name_part_flags` flags such a neighbour with the flagged word, in the
decision (:mod:`rulings_anon.analyzer.decisions`) and in its measurement
(:mod:`rulings_anon.analyzer.decision_metrics`) alike.

A name part is a one-letter initial ("U.") or a word in the person-name branch of the word
clusters (first names and surnames of many languages share the branch whose first four steps are
:data:`PERSON_BRANCH`: "Thomas", "Wimmer", "Öztürk") or that the lexicon calls a name and not a
common noun; the salutations, titles and roles before a name are none. Both words must be name
parts and stand side by side, spaces alone between them (no comma, no sentence end, one
paragraph). The evidence is the feature's (:mod:`rulings_anon.analyzer.sensitivity`), never the
surrogate generator's name lists.

:func:`common_noun_after_article` names the other side: a surname that is a common noun ("Koch",
"Sommer") right after an article and before no capitalized word is the noun ("im Sommer 2019",
"der Koch des Restaurants"), whatever the mentions of the name elsewhere in the document say.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.common_words import elided_part
from rulings_anon.document import INITIAL, WORD_PUNCTUATION, Element, comma_next, joined, joined_next
from rulings_anon.letters import CAPITAL, SMALL
from rulings_anon.lexicon import COMMON_NOUN, COMPOUND, PERSON_NAME, noun_bits
from rulings_anon.references import before_legal_form
from rulings_anon.word_frequency import ENGLISH_MARGIN, zipf

# the first four steps of the cluster path that first names and surnames share (checked on common
# German and foreign first names and surnames; 80,000 capitalized words, 1,400 of them also nouns)
PERSON_BRANCH = 8
# the first six steps of the branches of first names: "Thomas", "Sabine", "Mehmet" (56), and the
# Romance names the clusters keep with German first names such as "Anna", "Maria", "Katharina" and
# with Romance surnames ("Hélène", "Madeleine", "Corrales": 24), where a surname beside a flagged one
# is rare (leaving one court out: mean recall 92.9 -> 93.0, precision 70.5 as before; docs/experiments.md,
# "A company's one-word name, and an editor cited with a title")
FIRST_NAME_BRANCHES = (56, 24)
# A first name and a surname side by side are a name whatever the model says of each (leaving one
# court out, F1.5 rule: mean recall 84.6 -> 85.1, BPatG 68.7 -> 71.5, precision 77.2 as before) and a
# common noun right after an article is never flagged (off: mean recall 84.5 -> 83.4, BFH lost
# "des Pfeifer"); docs/experiments.md, "A name's parts, names that are words, exemptions"
FULL_NAMES = True
# and a first name neither the lexicon nor the clusters know after a salutation or a person's role,
# with the surname after it (addressed_name)
UNKNOWN_FIRST_NAMES = True
UNKNOWN_FIRST_ZIPF = 4.0
NOUNS_AFTER_ARTICLES = False
# A surname that is also a common noun ("Thomas Sommer", "Hans Winter", "Eva Vogel") is a name part
# right after a first name: the lexicon knows the word as a person's name too, and a first name before
# it says which of the two it is. Without it "Der Kläger Thomas Sommer" stayed in clear, both words
# judged alone as words (docs/experiments.md, "A first name before a surname that is a word, a town's
# district, a user name after its account")
WORD_SURNAMES = True
# A word a name's part flagged ("Taucher" of "Frau Anna Taucher") is flagged at its other mentions
# too, as consistency spreads the words the model flagged: the decision spreads once more after the
# name's parts (without it "Frau «Anna Taucher» ... Hat Taucher den Antrag gestellt?" left the
# second mention in clear)
SPREAD_PARTS = True
# Consistency never spreads the dev courts' common words ("Vertrag"), so a party named "Sommer" or
# "Koch", flagged once, stayed in clear at its other mentions ("Frau Ingrid Sommer. Sommer kündigte").
# Such a word that the lexicon knows as a person's name too spreads to its bare mentions: no
# determiner before it, no number or legal form after it ("im Sommer 2021", "seit Sommer 2021" stay)
SURNAME_WORDS_SPREAD = True
# A surname joined by "und", "oder" or "sowie" to a flagged part of a person's name is a person's
# too, whatever word it also is: "Geschäftsführer sind Christen und Dorner", "zusammen mit Christen
# und Dobler"; not after a determiner ("der Taucher und Müller"), nor before a legal form or a number
COORDINATED_NAMES = True
LINKS = frozenset({"und", "oder", "sowie"})
# A common noun that "und", "oder" or "sowie" joins to another common noun is one of a list of
# things, not a name: "Wiedergabe von Sprache, Ton oder Bild", "öffnete er Knopf und
# Reißverschluss". Its probability is weighed down (times LISTED_NOUN_WEIGHT), not zeroed, so that
# --recall-first still reaches it. Not a word the lexicon knows as a person's name too or as a
# name's part ("Koch und Partner", "Heiligabend und Silvester" alike), a town, nor beside a role, a
# relative or a group ("zwischen dem Kläger und Bischof"); measured in docs/experiments.md, "A
# relative's surname the lexicon does not list, a co-defendant tried separately, things listed with "und"")
LISTED_NOUNS = True
LISTED_NOUN_WEIGHT = 0.1
# the partner may be a word the lexicon knows as a name too where German writes it this often
# ("Ton oder Bild", 5.4), not a surname's frequency ("Taucher und Sommer", 5.1; "Koch" 4.5)
LISTED_PARTNER_ZIPF = 5.2
# and a common noun a comma joins to another, on one line, in a list a link closes ("von Feuer,
# Rauch oder dergleichen", "Küche, Bad und Flur"; not "BSG, Urteil vom"), at most this many items back
LISTED_WITH_COMMAS = True
MAX_COMMA_ITEMS = 8
_NOT_THINGS = frozenset({"Partner", "Partnerin", "Partnern", "Kollegen", "Kolleginnen", "Mitarbeiter"})
# a surname that is also a word names a person after a party's role, or joined so, only below this
# German Zipf frequency (rulings_anon.analyzer.role_names.PARTY_ROLE_NAMES)
PARTY_NAME_ZIPF = 5.5
# a common noun joined so is a name only below this German Zipf frequency ("Christen" 4.5, "Taucher"
# 3.4; not "Wimmer und Recht", 5.6), or below PARTY_NAME_ZIPF where the lexicon knows it as a
# person's name too ("Huber und Sommer", 5.1)
COORDINATED_NOUN_ZIPF = 4.5
# nouns of a group a name is joined to ("Müller und Erben", "Meier und Konsorten")
_GROUP_NOUNS = frozenset({"Erben", "Geschwister", "Genossen", "Konsorten", "Mitstreiter", "Gefährten"})
NAME_WORD = re.compile(rf"^[{CAPITAL}][{SMALL}]+(?:['’-][{CAPITAL}]?[{SMALL}]+)*$")
# The words of a company's name right before its legal form are decided together: courts replace
# each of them ("die V B GmbH": 90 mentions in 29 of the bundled courts' rulings, against 16 with a
# word kept; benchmarks/count_company_forms.py), and the model judging each alone left a partner's
# name in clear beside its flagged neighbours ("die Denk Pirker Taucher Strohmayer GmbH")
COMPANY_NAMES = True
# The words of a place's name are decided together, as a person's: a flagged place and the capitalized
# word after a place particle ("Ybbs an der Donau", "Neusiedl am See"), a place prefix and the word after
# it ("Sankt Valentin", "Bad Hall"); the particles, prefixes and the words that end no place's name are
# name_affixes.json's. Leaving one court out it flagged 15 words more, all sensitive (one booster), and
# gave mean recall 88.0 -> 88.9 at the same precision (three): docs/experiments.md, "A determiner
# before the word, a place's words together"
PLACE_NAMES = True
# A company named by a name hyphenated to a legal form's abbreviation that alone stands for other
# things, so that name_affixes.json's legal_forms leave it out (its hyphenated_legal_forms;
# docs/experiments.md, "A legal form after a hyphen"): "die Danninger-KAG" (a
# Kapitalanlagegesellschaft; "KAG" alone is also the Kommunalabgabengesetz), "die Stockhammer-BV" (a
# Dutch besloten vennootschap; "BV" alone a Betriebsvereinbarung), "-NV" (a naamloze vennootschap;
# "BFH/NV" a journal). The model reads the whole word as one it never saw (0.01); the name before the
# hyphen flags it. Not a word German writes often ("Gesamt-BV", "Rahmen-BV": Zipf 3 or more) unless
# it is a name part
HYPHENATED_COMPANIES = True
HYPHENATED_NAME_ZIPF = 3.0
# One word between an article and a legal form is the company's name ("der Christen GmbH") and is
# flagged whatever the model says of it: the six courts' anonymized rulings replace it in 162 of the
# 175 places the rule takes, and print in clear there public companies ("die PreussenElektra GmbH",
# "die InEK GmbH") and "die Holding GmbH"; the model, judging a surname that is also a common noun,
# left it in clear ("der Christen GmbH", "der Trieben Dienstleistungs GmbH"). Not before a bracketed
# form ("die Leasinggeberin (KG)") (benchmarks/count_single_company_names.py; docs/experiments.md, "A
# company's one-word name, and an editor cited with a title")
SINGLE_COMPANY_NAMES = True
# A name joined by a hyphen to an institution's noun ("Kitzler-Klinik", "Bürger-Fonds", "Macher-
# Partnership") is flagged whatever the model says of it: German writes a compound with a proper name
# with a hyphen and a generic one closed ("Kinderklinik"), so the hyphen marks the first part as a name
# even where it is also a common noun, which the model, judging the word, leaves in clear
NAMED_INSTITUTIONS = True
# A town and its district joined by a hyphen after a word that introduces a place ("wohnt in
# Grünwald-Geiselgasteig", "nach München-Pasing") is flagged whatever the model says of it: the town
# alone is a place the model flags, the district joined to it only makes the party easier to find,
# and the model, reading an unknown compound, left it in clear (0.003). The six courts' rulings name
# two in clear (an authority's office in "Berlin-Dahlem", "München-Fasangarten"); the states joined
# so ("Baden-Württemberg") are public names, which no rule raises (benchmarks/count_name_words.py)
TOWN_DISTRICTS = True
_BEFORE_DISTRICT = frozenset({"in", "nach", "aus", "bei", "von"})
_INSTITUTION_NOUNS = frozenset({"Klinik", "Kliniken", "Fonds", "Partnership", "Zentrum", "Zentrums", "Zentrale",
                                "Gruppe", "Konzern", "Konzerns", "Holding", "Praxis", "Kanzlei", "Apotheke",
                                "Stiftung", "Verein", "Vereins", "Bank"})
# first parts that are no name and still take a hyphen: shortened words ("Reha-Klinik", "Uni-Klinik")
_GENERIC_FIRST_PARTS = frozenset({"Reha", "Uni", "Kita", "Kur", "Akut", "Privat", "Tages", "Fach", "Spezial",
                                  "Hotel", "Sport", "Park"})
_TITLE_CASE = re.compile(rf"^[{CAPITAL}][{SMALL}]{{2,}}$")  # of any Latin alphabet: "Kovačič-Klinik"
# the words before a word that make it a place when no list knows it as one ("in Purbach", "Stadt Ybbs")
_BEFORE_PLACE = frozenset({"in", "nach", "aus", "von", "bei", "stadt", "gemeinde", "markt"})
# words before a legal form that are no part of the company's name
_NOT_COMPANY = frozenset({"Firma", "Fa.", "Gesellschaft", "Unternehmen", "Muttergesellschaft", "Tochtergesellschaft"})
# articles and prepositions merged with one: a common noun after them is the noun
ARTICLES = frozenset({"der", "die", "das", "des", "dem", "den", "ein", "eine", "einer", "eines", "einem", "einen",
                      "im", "am", "vom", "zum", "zur", "beim", "ins", "ans"})


@lru_cache(maxsize=1)
def _not_parts() -> frozenset[str]:
    affixes = sf._affixes()
    return frozenset().union(*(affixes[k] for k in ("salutations", "academic_titles", "judge_roles", "prefixes",
                                                   "public_offices", "court_designations")))


@lru_cache(maxsize=200_000)
def name_part(word: str) -> bool:
    """Whether ``word`` (an element's core word) may be a part of a person's name."""
    if INITIAL.match(word):
        return True
    if len(word) < 2 or not word[:1].isupper() or word.isupper() or word in _not_parts():
        return False
    bits = noun_bits(word)
    return sf.cluster_prefixes(word)[0] == PERSON_BRANCH or bool(bits & PERSON_NAME and not bits & COMMON_NOUN)


@lru_cache(maxsize=200_000)
def word_surname(word: str) -> bool:
    """Whether ``word`` (an element's core word) is a surname after a first name though it is also a
    common noun: a capitalized word the lexicon knows as a person's name too ("Sommer", "Koch")."""
    return (len(word) > 2 and word[:1].isupper() and not word.isupper() and word not in _not_parts()
            and bool(noun_bits(word) & PERSON_NAME))


def spreads_bare(word: str) -> bool:
    """Whether ``word``, one of the dev courts' common words, spreads to its bare mentions once
    flagged (:data:`SURNAME_WORDS_SPREAD`): a surname that is also a word (:func:`word_surname`)."""
    return SURNAME_WORDS_SPREAD and word_surname(word)


def bare_mention(text: str, raw: Sequence[str], i: int, end: int) -> bool:
    """Whether element ``i`` (``raw``: the elements' texts; its word ending at ``end``) stands as a
    name stands: no determiner before it (only adjectives or numbers between), no legal form and no
    number after it ("Sommer kündigte", not "im Sommer", "seit Sommer 2021", "die Sommer GmbH"); the
    rows read it as :func:`rulings_anon.analyzer.name_parts_rows.bare_rows` does."""
    following = raw[i + 1] if i + 1 < len(raw) else ""
    return not before_legal_form(text, end) and not sf._determined(raw, i) and not following[:1].isdigit()


def starts_no_name(word: str) -> bool:
    """Whether ``word`` (a capitalized core word) is a salutation, a title, a role or a function word
    that starts no name ("Frau", "Dr", "Kläger", "Die")."""
    return word in _not_parts() or word in _not_name_words()


def coordinated(word: str, partner: str, noun_in_ruling: bool) -> bool:
    """Whether ``word`` (a core word without a determiner before it) is a person's name where a
    link joins it to ``partner``, a flagged core word (:data:`COORDINATED_NAMES`): ``partner`` a part
    of a person's name or a surname that is also a word ("Jäger und Sommer"), neither a place the
    lexicon knows nor a town ("Stuttgart und München"),
    ``word`` one capitalized word that starts no name ("Frau", not "Palandt/Grüneberg") and,
    where the lexicon calls it a common noun, a rare one
    (:data:`COORDINATED_NOUN_ZIPF`) that the ruling writes with no determiner before it
    (``noun_in_ruling`` not set: "Christen und Dorner", not "der Posch und Bescheide" beside "die
    Bescheide")."""
    if not ((name_part(partner) or word_surname(partner)) and NAME_WORD.match(word) and not starts_no_name(word)
            and not noun_in_ruling) or town(partner) or town(word) or role_word(word):
        return False
    if not noun_bits(word) & COMMON_NOUN:
        return True
    return zipf(word, "de") < (PARTY_NAME_ZIPF if word_surname(word) else COORDINATED_NOUN_ZIPF)


@lru_cache(maxsize=1)
def _roles() -> frozenset[str]:
    """The roles, relatives and groups a name is joined to ("Müller und Ehefrau"), lower case."""
    affixes = sf._affixes()
    words = frozenset().union(*(affixes[k] for k in ("person_roles", "relatives", "naming_roles", "party_roles")))
    return frozenset(w.lower() for w in words | _GROUP_NOUNS)


def role_word(word: str) -> bool:
    """Whether ``word`` is one of :func:`_roles` or a compound ending in one ("Revisionskläger")."""
    lower, roles = word.lower(), _roles()
    return any(lower[k:] in roles for k in range(len(lower) - 3))


# a place's population from which the gazetteer's place is a town ("Stuttgart und München"), 10,000
_TOWN_POPULATION = 4.0


def town(word: str) -> bool:
    """Whether the lexicon knows ``word`` as a place or the gazetteer as a town
    (:data:`_TOWN_POPULATION`): "München", not the hamlet "Sommer"."""
    features = sf._word_features(word)
    return bool(features[sf._WORD_COLUMNS.index("lex_place")]) \
        or features[sf._WORD_COLUMNS.index("place_pop")] >= _TOWN_POPULATION


def coordinated_names(text: str, elements: Sequence[Element], flagged: set[int], open_: np.ndarray,
                      nouns_in_ruling: Callable[[set[str]], set[str]]) -> list[int]:
    """The unflagged elements that a link joins to a flagged one (:func:`coordinated`): "P und W",
    "W oder P", within a line, the first of the two with no punctuation after it but an initial's
    period, the unflagged one capitalized, no determiner before it, no legal form or number after
    it, before "und" no capitalized word before it, and ``open_`` (no rule made it public);
    ``nouns_in_ruling(words)``: those of ``words`` the ruling writes with a determiner before them."""
    if not COORDINATED_NAMES or not flagged:
        return []
    raw, found = [e.text for e in elements], {}
    for i in sorted(flagged):
        partner = sf.core_word(raw[i])
        if not name_part(partner) and not word_surname(partner):
            continue
        for link, other in ((i + 1, i + 2), (i - 1, i - 2)):
            if not 0 <= other < len(raw) or other in flagged or other in found or not open_[other] \
                    or raw[link] not in LINKS:
                continue
            first, last = min(i, other), max(i, other)
            if raw[first] != sf.core_word(raw[first]) and not INITIAL.fullmatch(raw[first]) \
                    or not raw[last][:1].isupper() or "\n" in text[elements[first].start:elements[last].end]:
                continue
            if not bare_mention(text, raw, other, elements[other].end):
                continue
            if other < i and other and sf.core_word(raw[other - 1])[:1].isupper():
                continue  # the last word of a longer name: "Lilly ICOS Corporation und Eli Lilly"
            word = sf.core_word(raw[other])
            if coordinated(word, partner, False):
                found[other] = word
    nouns = nouns_in_ruling({w for w in found.values() if noun_bits(w) & COMMON_NOUN}) if found else set()
    return sorted(i for i, word in found.items() if word not in nouns)


@lru_cache(maxsize=65536)
def thing_noun(word: str) -> bool:
    """Whether ``word`` (a core word) is a common noun and nothing else a name could be: no name's
    part, no surname the lexicon knows, no town, no role, relative or group ("Ton", "Knopf", "Bild")."""
    return (bool(NAME_WORD.match(word)) and bool(noun_bits(word) & COMMON_NOUN) and not name_part(word)
            and not word_surname(word) and not starts_no_name(word) and not town(word) and not role_word(word)
            and word not in _NOT_THINGS)


def listed_with_noun(word: str, partner: str) -> bool:
    """Whether ``word``, joined by a link to ``partner`` (core words), is a thing of a list: both
    :func:`thing_noun`, or the partner a :func:`frequent_word` (:data:`LISTED_NOUNS`)."""
    return LISTED_NOUNS and thing_noun(word) and (thing_noun(partner) or frequent_word(partner))


@lru_cache(maxsize=65536)
def frequent_word(word: str) -> bool:
    """Whether ``word`` is a common noun that the lexicon knows as a name too but German writes at
    :data:`LISTED_PARTNER_ZIPF` or more, and no name's part, role or town ("Bild")."""
    return (word_surname(word) and not name_part(word) and zipf(word, "de") >= LISTED_PARTNER_ZIPF
            and bool(noun_bits(word) & COMMON_NOUN) and not town(word) and not role_word(word))


def without_listed_nouns(text: str, elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`LISTED_NOUN_WEIGHT` for each common noun a link joins to
    another (:func:`listed_with_noun`), within a line, no punctuation after the first of the two
    ("Knopf und Reißverschluss"), and each two a comma joins in a list a link closes ("von Feuer,
    Rauch oder dergleichen")."""
    probabilities = np.asarray(probabilities)
    if not LISTED_NOUNS:
        return probabilities
    raw, listed = [e.text for e in elements], set()
    for k in [k for k, t in enumerate(raw) if t in LINKS and 0 < k < len(raw) - 1]:
        first, last = raw[k - 1], raw[k + 1]
        if not first[:1].isupper() or first != sf.core_word(first):
            continue
        if last[:1].isupper() and "\n" not in text[elements[k - 1].start:elements[k + 1].end]:
            listed.update(_listed_pair(raw, probabilities, k - 1, k + 1))
        j = k - 1  # the items a comma joins before the link: "von Feuer, Rauch oder dergleichen"
        while LISTED_WITH_COMMAS and j > 0 and k - j <= MAX_COMMA_ITEMS and comma_next(text, elements, j - 1) \
                and raw[j - 1][:1].isupper():
            listed.update(_listed_pair(raw, probabilities, j - 1, j))
            j -= 1
    if not listed:
        return probabilities
    out = probabilities.astype(np.float64)
    out[sorted(listed)] *= LISTED_NOUN_WEIGHT
    return out


def _listed_pair(raw: Sequence[str], probabilities: np.ndarray, first: int, last: int) -> list[int]:
    """Which of elements ``first`` and ``last``, two items of a list, are things of it
    (:func:`listed_with_noun`, a probability above 0)."""
    a, b = sf.core_word(raw[first]), sf.core_word(raw[last])
    return [i for i, word, partner in ((first, a, b), (last, b, a))
            if probabilities[i] > 0 and listed_with_noun(word, partner)]


def first_then_surname(first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` (neighbouring core words) are a first name written out and
    a surname that is also a word (:func:`word_surname`): "Thomas Sommer", not "U. Sommer"."""
    return not INITIAL.match(first) and first_name(first) and word_surname(second)


@lru_cache(maxsize=200_000)
def first_name(word: str) -> bool:
    """Whether ``word`` lies in a first names' branch of the word clusters (:data:`FIRST_NAME_BRANCHES`)."""
    return sf.cluster_prefixes(word)[1] in FIRST_NAME_BRANCHES


def written_first_name(word: str) -> bool:
    """Whether ``word`` (a core word) is a first name written out: no initial, a first name
    (:func:`first_name`) and a name's part (:func:`name_part`): "Anton", "Jonas"."""
    return not INITIAL.match(word) and first_name(word) and name_part(word)


@lru_cache(maxsize=1)
def _addresses() -> frozenset[str]:
    """The salutations proper ("Herr", "Frau", "Hr."), as context keys (lower case, no period)."""
    return frozenset(sf.context_key(w) for w in sf._affixes()["addresses"])


def addressed(previous: str | None) -> bool:
    """Whether ``previous`` (the context key of the word before an initial) is a salutation."""
    return previous in _addresses()


@lru_cache(maxsize=1)
def _title_keys() -> frozenset[str]:
    """The pieces of the academic titles ("Dr.", "Prof.", "med."), as context keys."""
    return frozenset(k for t in sf._affixes()["academic_titles"] for piece in t.split()
                     if (k := sf.context_key(piece)))


@lru_cache(maxsize=1)
def _name_cues() -> frozenset[str]:
    """The words after which a first name and the capitalized word after it are a person's name, as
    context keys: the salutations proper, ranks and role nouns (``person_roles``), the roles that
    name a person (``naming_roles``) and the parties' roles (``party_roles``); not the relatives
    ("mit seiner Tochter Anna Urlaub machen")."""
    affixes = sf._affixes()
    return frozenset(sf.context_key(w) for key in ("addresses", "person_roles", "naming_roles", "party_roles")
                     for w in affixes[key])


def addressed_first(previous: str | None, before_previous: str | None = None) -> bool:
    """Whether a salutation or a person's role (:func:`_name_cues`) stands right before a word
    (``previous``, its context key), or before one academic title there (``before_previous``: "Frau
    Dr. Eva Helm")."""
    cues = _name_cues()
    return previous in cues or (previous in _title_keys() and before_previous in cues)


def addressed_name(first: str, second: str, previous: str | None, before_previous: str | None = None) -> bool:
    """Whether ``first`` and ``second`` (neighbouring core words) are a first name written out after
    a salutation or a person's role (:func:`addressed_first`) and the surname after it, whatever word
    the surname also is: "Frau Anna Taucher", "der Kläger Thomas Christen" (the lexicon knows
    "Taucher" and "Christen" as common nouns only). After "Frau" or "Kläger" and a first name a
    capitalized word is the surname; without the cue "Fritz Nachteilsausgleich" ends a signature.
    With :data:`UNKNOWN_FIRST_NAMES` also a first name that neither the lexicon nor the clusters
    know (:func:`unknown_first_name`: "des Angeklagten Teuta Denk", "den Zeugen Wischa Kern") before
    a word that may be a surname: one the lexicon does not list or knows as a person's name too, no
    common noun nor a compound of one ("der Zeuge Laimer Angaben", "Klägerin: Unsere
    Klagebegründung")."""
    if not (second and len(second) > 1 and second[:1].isupper() and not starts_no_name(second)
            and not INITIAL.match(first) and addressed_first(previous, before_previous)):
        return False
    if first_name(first):
        return True
    return UNKNOWN_FIRST_NAMES and unknown_first_name(first) and bool(NAME_WORD.match(second)) and len(second) > 2 \
        and (not noun_bits(second) or word_surname(second))


@lru_cache(maxsize=65536)
def unknown_first_name(word: str) -> bool:
    """Whether ``word`` (a core word) may be a first name nothing here knows: one title-case word
    without a hyphen that the lexicon lists in no form (:func:`unlisted_word`) and German writes
    rarely (under :data:`UNKNOWN_FIRST_ZIPF`; not "Unsere")."""
    return bool(_TITLE_CASE.match(word)) and unlisted_word(word) and zipf(word, "de") < UNKNOWN_FIRST_ZIPF


def hyphenated_company(word: str) -> bool:
    """Whether ``word`` (a core word) is a company's name hyphenated to one of
    the ``hyphenated_legal_forms`` of ``name_affixes.json``: "Danninger-KAG", "Stockhammer-BV"; not
    "Rahmen-BV"."""
    name, _, form = word.rpartition("-")
    return form in sf._affixes()["hyphenated_legal_forms"] and "-" not in name and (
        name_part(name) or unlisted_word(name) and zipf(name, "de") < HYPHENATED_NAME_ZIPF)


def with_hyphenated_companies(elements: Sequence[Element], probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with each :func:`hyphenated_company` raised to ``threshold`` where it is
    below it and above 0."""
    probabilities = np.asarray(probabilities)
    if not HYPHENATED_COMPANIES:
        return probabilities
    named = [i for i in np.flatnonzero((probabilities > 0) & (probabilities < threshold)).tolist()
             if "-" in elements[i].text and hyphenated_company(sf.core_word(elements[i].text))]
    return raised(probabilities, named, threshold)


def raised(probabilities: np.ndarray, named: Sequence[int], threshold: float) -> np.ndarray:
    """``probabilities`` with the elements ``named`` set to ``threshold`` (the same array where none
    is), in float64: a float32 array would hold 0.16 as 0.1599999964, under the threshold the
    decision compares in float64."""
    if not len(named):
        return probabilities
    out = probabilities.astype(np.float64)
    out[named] = threshold
    return out


@lru_cache(maxsize=65536)
def unlisted_word(word: str) -> bool:
    """Whether ``word`` (a core word) is one capitalized word that the lexicon lists in no form, as
    no noun, name, place or compound's head, and no town or word that starts no name: a surname it
    does not know ("Laimer", "Denk"), a first name ("Teuta"), or a noun it lacks."""
    return (len(word) > 2 and bool(NAME_WORD.match(word)) and not noun_bits(word)
            and not starts_no_name(word) and not town(word))


@lru_cache(maxsize=1)
def _not_name_words() -> frozenset[str]:
    """Capitalized function words and parties' roles that start no name ("Die", "Kläger")."""
    return frozenset(sf._affixes()["not_name_words"])


def full_names(pairs: np.ndarray, words: Sequence[str], before: Sequence[str | None] | None = None,
               word_surnames: bool | None = None,
               before_previous: Sequence[str | None] | None = None, unknown_first: bool | None = None) -> np.ndarray:
    """Which of ``pairs`` (indices into ``words``) are a first name and a surname: the first word in
    a first names' branch, the second in the person names'. An initial and a surname only after a
    salutation ("Frau U. Koch"; ``before``: the context key of the word before each pair's first,
    ``before_previous`` of the word before that): initials share a first names' branch, and "J.
    Schmidt" alone is as often a cited author as a party (leaving one court out, counting them all
    cost 3 points of precision for 0.2 of recall); a flagged surname still takes its initial along
    (:func:`name_part_flags`). With ``word_surnames`` (default :data:`WORD_SURNAMES`) also a first
    name and a surname that is a word (:func:`first_then_surname`), and any capitalized word after
    a first name that a salutation or a person's role opens (:func:`addressed_name`); with
    ``unknown_first`` (default :data:`UNKNOWN_FIRST_NAMES`) also one nothing knows there
    (:func:`unknown_first_name`)."""
    word_surnames = WORD_SURNAMES if word_surnames is None else word_surnames
    unknown_first = UNKNOWN_FIRST_NAMES if unknown_first is None else unknown_first

    def full(k: int, a: int, b: int) -> bool:
        def addressed_pair() -> bool:
            return before is not None and addressed_name(
                words[a], words[b], before[k], before_previous[k] if before_previous is not None else None)

        if sf.cluster_prefixes(words[b])[0] != PERSON_BRANCH:
            return word_surnames and (first_then_surname(words[a], words[b]) or addressed_pair())
        if sf._INITIAL.match(words[a]):
            return before is not None and addressed(before[k])
        return first_name(words[a]) or (unknown_first and unknown_first_name(words[a]) and addressed_pair())
    return np.fromiter((full(k, a, b) for k, (a, b) in enumerate(pairs.tolist())), bool, len(pairs))


# how far back a judge's or an official's role reaches to the name it introduces ("Richter am
# Sozialgericht Jonas Brandl", "Vorsitzende Richterin am Landgericht Eva Maier")
OFFICE_REACH = 4
_SENTENCE_END = (".", "!", "?", ":", ";")


@lru_cache(maxsize=1)
def _office_words() -> frozenset[str]:
    affixes = sf._affixes()
    return frozenset().union(*(affixes[k] for k in ("judge_roles", "court_designations", "public_offices")))


def after_office(elements: Sequence[Element], first: int) -> bool:
    """Whether a judge's role, a court or a public office stands at most :data:`OFFICE_REACH` words
    before element ``first`` in its sentence: the deciding judges and officials are printed in full
    by convention, so a first name and a surname there are no name because they look like one
    (what the model says of them still counts)."""
    for i in range(first - 1, max(first - 1 - OFFICE_REACH, -1), -1):
        text = elements[i].text
        word = sf.core_word(text)
        if word in _office_words() or word.lower().endswith(("richter", "richterin")):
            return True
        if text.rstrip().endswith(_SENTENCE_END):
            return False
    return False


def given(word: str) -> bool:
    """Whether ``word`` (a name part) is an initial or in a first names' branch: two surnames side
    by side are a list (a panel's signatures "Franke Bender Roloff"), not one name."""
    return bool(INITIAL.match(word)) or first_name(word)


def capitalized_words(elements: Sequence[Element]) -> list[str]:
    """Each element's core word where it is capitalized, else ""."""
    return [sf.core_word(e.text) if e.text.lstrip(WORD_PUNCTUATION)[:1].isupper() else "" for e in elements]


def adjacent_pairs(text: str, elements: Sequence[Element], words: list[str] | None = None) -> list[tuple[int, int]]:
    """The pairs of neighbouring elements that may be parts of one name: both name parts, one of
    them a first name or an initial (:func:`given`), the first without a break after it, at most
    one line break between."""
    words = capitalized_words(elements) if words is None else words
    parts = [bool(w) and name_part(w) for w in words]

    def key(i: int) -> str | None:
        return sf.context_key(elements[i].text) if i >= 0 else None

    return [(i, i + 1) for i in range(len(elements) - 1)
            if (parts[i] and parts[i + 1] and (given(words[i]) or given(words[i + 1]))
                or (WORD_SURNAMES and parts[i] and words[i + 1] and first_then_surname(words[i], words[i + 1]))
                or (WORD_SURNAMES and words[i + 1] and (parts[i] or unknown_first_name(words[i]))
                    and addressed_name(words[i], words[i + 1], key(i - 1), key(i - 2))))
            and joined(elements[i].text, elements[i + 1].text)
            and text.count("\n", elements[i].end, elements[i + 1].start) < 2]


@lru_cache(maxsize=1)
def _place_affixes() -> tuple[tuple[tuple[str, ...], ...], frozenset[str], frozenset[str]]:
    affixes = sf._affixes()
    return (tuple(tuple(p.split()) for p in affixes["place_particles"]), frozenset(affixes["place_prefixes"]),
            frozenset(affixes["not_place_tails"]))


def place_like(word: str, previous: str | None) -> bool:
    """Whether ``word`` (an element's core word) reads as a place: the lexicon or the gazetteer
    knows it as one, or a word that introduces a place stands before it (``previous``, lower case)."""
    features = sf._word_features(word)
    return bool(features[sf._WORD_COLUMNS.index("lex_place")]) or features[sf._WORD_COLUMNS.index("place_pop")] > 0 \
        or previous in _BEFORE_PLACE


def place_link(word: str, previous: str | None, between: Sequence[str], last_word: str) -> bool:
    """Whether ``word`` and ``last_word`` are one place's name with the lower-case words ``between``
    them (the texts of the elements between): ``word`` a place prefix right before, or a place
    particle between, ``word`` read as a place (:func:`place_like`, ``previous`` the word before it
    in lower case) and ``last_word`` one that may end a place's name: no weekday or month, no
    abbreviation of a road ("an der St 2045", "an der B 12")."""
    particles, prefixes, not_tails = _place_affixes()
    if not between:
        return word in prefixes
    return (tuple(between) in particles and len(last_word) > 2 and not last_word.isupper()
            and last_word not in not_tails and place_like(word, previous))


def place_adjective(word: str) -> bool:
    """Whether the word after a place particle is an adjective that a noun of the name follows
    ("am Neusiedler See", "am Steinernen Meer")."""
    return word.endswith(("er", "en"))


def place_pairs(text: str, elements: Sequence[Element], words: list[str] | None = None) -> np.ndarray:
    """``[first, last]`` of every two neighbouring capitalized elements of one place's name
    (:func:`place_link`, and the noun after a :func:`place_adjective` there), within one paragraph,
    nothing after the first but spaces (a prefix keeps its period)."""
    if not PLACE_NAMES:
        return np.zeros((0, 2), int)
    words = capitalized_words(elements) if words is None else words
    longest = max(len(p) for p in _place_affixes()[0]) + 1
    pairs = []
    for first, word in enumerate(words):
        if not word:
            continue
        raw = elements[first].text
        previous = sf.context_key(elements[first - 1].text) if first else None
        for last in range(first + 1, min(first + 1 + longest, len(elements))):
            if not words[last]:
                continue
            between = [e.text for e in elements[first + 1:last]]
            if (raw[-1:].isalnum() or raw == word) and elements[last].text[:1].isalnum() \
                    and "\n\n" not in text[elements[first].end:elements[last].start] \
                    and place_link(word, previous, between, words[last]):
                pairs.append((first, last))
                after = last + 1
                if between and place_adjective(words[last]) and after < len(elements) and words[after] \
                        and joined(elements[last].text, elements[after].text):
                    pairs.append((last, after))
            break  # the next capitalized word only
    return np.array(pairs, int).reshape(-1, 2)


def company_word(word: str) -> bool:
    """Whether ``word`` (an element's core word) may be a part of a company's name before its legal form."""
    return (len(word) > 1 and word[:1].isupper() and word not in _not_parts() and word not in _NOT_COMPANY
            and word.lower() not in ARTICLES and word not in sf._affixes()["legal_forms"])


def linking_s(word: str) -> bool:
    """Whether ``word`` is a compound's first part with its linking "s" ("Dienstleistungs",
    "Verwaltungs"): a generic word of a company's name, not the name."""
    return word.endswith("s") and bool(noun_bits(word[:-1]) & (COMMON_NOUN | COMPOUND))


# the articles before a company's one-word name ("der", "zur", "beim"), not "im" ("im Folgenden GmbH")
_COMPANY_ARTICLES = ARTICLES - {"im", "am", "ins", "ans"}


def single_company_name(word: str, previous: str | None) -> bool:
    """Whether ``word`` (an element's core word), when a legal form follows it, is a company's
    one-word name: right after an article (``previous``, a context key), a :func:`company_word`
    that is no acronym ("DRK"), no compound's first part (:func:`linking_s`) and no compound ending
    in a common noun ("die Wirkstoffkombination AB") unless it may be a surname."""
    return previous in _COMPANY_ARTICLES and company_word(word) and not word.isupper() and not linking_s(word) \
        and (name_part(word) or not noun_bits(word) & COMPOUND)


def single_company_names(elements: Sequence[Element], words: Sequence[str]) -> np.ndarray:
    """The indices of ``elements`` (``words``: their :func:`capitalized_words`) that are
    :func:`single_company_name`, the legal form after the word, maybe past compounds' first parts
    ("die Trieben Dienstleistungs GmbH"), with nothing but spaces between (not "die
    Leasinggeberin (KG)")."""
    if not (SINGLE_COMPANY_NAMES and COMPANY_NAMES):
        return np.zeros(0, int)
    forms = sf._affixes()["legal_forms"]
    found = []
    for i in range(1, len(elements) - 1):
        if not words[i] or not single_company_name(words[i], sf.context_key(elements[i - 1].text)):
            continue
        j = i + 1
        while j < len(elements) and words[j] and linking_s(words[j]) and joined(elements[j - 1].text, elements[j].text):
            j += 1
        if j < len(elements) and words[j] in forms and joined(elements[j - 1].text, elements[j].text):
            found.append(i)
    return np.array(found, int)


def company_runs(members: np.ndarray, before_form: np.ndarray, near: np.ndarray) -> np.ndarray:
    """Which elements belong to a company's name: ``members`` (:func:`company_word`) reaching a
    legal form through neighbours, ``before_form`` those right before one, ``near[i]`` whether
    element ``i`` and ``i + 1`` stand side by side with nothing but spaces between."""
    run = members & before_form
    for i in range(len(run) - 2, -1, -1):
        run[i] |= members[i] and near[i] and run[i + 1]
    return run


def run_pairs(run: np.ndarray, near: np.ndarray) -> np.ndarray:
    """``[first, second]`` of every two elements of one company's name (``run`` and ``near`` as
    :func:`company_runs` reads them): a flag reaches each word of the name directly, past a word
    that takes none ("Vogler Christen Schön GmbH")."""
    pairs, start = [], None
    for i in range(len(run) + 1):
        inside = i < len(run) and run[i] and start is not None and near[i - 1]
        if not inside:
            if start is not None:
                pairs += [(a, b) for a in range(start, i) for b in range(a + 1, i)]
            start = i if i < len(run) and run[i] else None
    return np.array(pairs, int).reshape(-1, 2)


def takes_company_flag(word: str) -> bool:
    """Whether a word of a company's name is flagged with its flagged neighbours: a name part or a
    word the lexicon knows as no common noun ("Pirker", "Denk"), not a generic word the courts keep
    ("Erste", "Holding", "Lebensversicherung"), nor a compound ending in a common noun
    ("Wirtschaftsprüfungsgesellschaft Pinter AG", "Grundstücksgesellschaft Fehringer GbR": in the
    five development courts' gold sets none of the 24 in a company's name is sensitive), nor one
    with the linking "s" of a compound ("Dienstleistungs GmbH", "Verwaltungs GmbH"), nor an acronym
    ("DRK"), nor a party's role the lexicon lacks (:func:`feminine_role`: "der Anmelderin
    Rettenbacher GmbH"), nor an English word (:func:`english_word`: "Research and Development
    Ivoclar Vivadent AG")."""
    if name_part(word):
        return True
    return not word.isupper() and not noun_bits(word) & (COMMON_NOUN | COMPOUND) and not linking_s(word) \
        and not feminine_role(word) and not english_word(word)


# a feminine noun of a person's role or occupation, built on the masculine one with "-in" ("Anmelderin",
# "Lizenznehmerin", "Inhaberin"); the lexicon lacks many such words of a court's own field
_FEMININE_ROLE = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]+er(?:in|innen)$")
ROLE_BASE_ZIPF = 1.5  # the masculine noun is a German word


def feminine_role(word: str) -> bool:
    """Whether ``word`` is a feminine role noun ("Anmelderin" of "Anmelder"): its masculine form,
    without "-in", is a German word; not a name part (checked by the caller)."""
    if not _FEMININE_ROLE.match(word):
        return False
    base = word[:-2] if word.endswith("in") else word[:-5]
    return zipf(base, "de") >= ROLE_BASE_ZIPF


ENGLISH_WORD_ZIPF = 4.5  # a common English word ("Development" 5.3, "Research" 5.4)


def english_word(word: str) -> bool:
    """Whether ``word`` is a common English word that German writes far less ("Development",
    "Research", "Group"): a generic word of a company's name, as "Holding" is."""
    english = zipf(word, "en")
    return english >= ENGLISH_WORD_ZIPF and english > zipf(word, "de") + ENGLISH_MARGIN


def company_pairs(text: str, elements: Sequence[Element], words: list[str] | None = None) -> np.ndarray:
    """Every two elements of one company's name (:func:`company_runs`, :func:`run_pairs`);
    ``words``: :func:`capitalized_words` of ``elements`` where the caller has them."""
    n = len(elements)
    if n < 2 or not COMPANY_NAMES:
        return np.zeros((0, 2), int)
    words = capitalized_words(elements) if words is None else words
    forms = sf._affixes()["legal_forms"]
    members, near, before_form = np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool)
    for i in range(n - 1):
        if not words[i] or not company_word(words[i]):
            continue
        members[i] = True
        if joined_next(text, elements, i):
            near[i] = True
            before_form[i] = sf.core_word(elements[i + 1].text) in forms
    if not before_form.any():
        return np.zeros((0, 2), int)
    return run_pairs(company_runs(members, before_form, near), near)


def company_flags(pairs: np.ndarray, flagged: np.ndarray, open_: np.ndarray, takes: np.ndarray) -> np.ndarray:
    """The indices a flagged word of a company's name flags in it (``pairs``: :func:`run_pairs`),
    those that take a flag (``takes``: :func:`takes_company_flag`) or stand between two flagged
    words of the name, and are ``open_``."""
    if not len(pairs):
        return np.zeros(0, int)
    first, second = pairs[:, 0], pairs[:, 1]
    reached = np.concatenate([first[flagged[second]], second[flagged[first]]])
    reached = np.unique(reached[~flagged[reached] & open_[reached] & takes[reached]])
    # a word between two flagged words of one name is a partner's name, whatever the lexicon says of
    # it ("Denk Pirker Taucher Strohmayer GmbH"); a generic word stands at the name's end or start
    now = flagged.copy()
    now[reached] = True
    linked = pairs[second - first == 1]
    left, right = np.zeros(len(flagged), bool), np.zeros(len(flagged), bool)
    left[linked[:, 1]] = now[linked[:, 0]]
    right[linked[:, 0]] = now[linked[:, 1]]
    between = np.flatnonzero(left & right & ~now & open_)
    return np.union1d(reached, between).astype(int)


def name_and_company_flags(pairs: np.ndarray, company: np.ndarray, flagged: np.ndarray, open_: np.ndarray,
                           takes) -> np.ndarray:
    """The indices a flag reaches: a name's parts beside a flagged one (:func:`name_part_flags`),
    then the words of a company's name one of them is in (:func:`company_flags`; ``takes()`` gives
    :func:`takes_company_flag` per element, asked only where a company's name was found). The
    decision and its measurement (:mod:`rulings_anon.analyzer.name_parts_rows`) both call this."""
    added = name_part_flags(pairs, flagged, open_)
    if not len(company):
        return added
    flagged = flagged.copy()
    flagged[added] = True
    return np.union1d(added, company_flags(company, flagged, open_, takes())).astype(int)


# the most steps a flag travels along a name's neighbouring parts ("Hans Peter Müller": two); the
# loop ends as soon as nothing more is reached
_REACH = 12


def name_part_flags(pairs: np.ndarray, flagged: np.ndarray, open_: np.ndarray) -> np.ndarray:
    """The indices (into ``flagged``) a name's flagged part flags beside it: ``pairs`` are
    ``[first, second]`` indices of neighbouring name parts, ``open_`` whether each may still be
    flagged (not public). Until nothing more is reached, so a name of three parts ("Hans Peter
    Müller") is reached whole."""
    flagged = flagged.copy()
    added = []
    for _ in range(_REACH):
        if not len(pairs):
            break
        first, second = pairs[:, 0], pairs[:, 1]
        new = np.concatenate([first[flagged[second] & ~flagged[first] & open_[first]],
                              second[flagged[first] & ~flagged[second] & open_[second]]])
        if not len(new):
            break
        flagged[new] = True
        added.append(new)
    return np.unique(np.concatenate(added)) if added else np.zeros(0, int)


def named_institution(word: str) -> bool:
    """Whether ``word`` (an element's core word) is a name and an institution's noun joined by one
    hyphen ("Kitzler-Klinik"; not "Reha-Klinik", "DRK-Klinik" nor "Max-Planck-Institut")."""
    first, hyphen, last = word.partition("-")
    return bool(hyphen) and last in _INSTITUTION_NOUNS and bool(_TITLE_CASE.match(first)) \
        and first not in _GENERIC_FIRST_PARTS


def named_institutions(words: Sequence[str]) -> np.ndarray:
    """The indices of ``words`` (core words, "" for none) that are :func:`named_institution`."""
    if not NAMED_INSTITUTIONS:
        return np.zeros(0, int)
    return np.array([i for i, w in enumerate(words) if "-" in w and named_institution(w)], int)


def town_district(word: str, previous: str | None) -> bool:
    """Whether ``word`` (an element's core word) is a town and its district joined by one hyphen
    after a word that introduces a place (``previous``, a context key): the first part a place the
    lexicon or the gazetteer knows (:func:`place_like`), and neither part a common noun nor the
    second an institution's noun ("in Grünwald-Geiselgasteig"; not "von Riegel-Fallenschlössern")."""
    if previous not in _BEFORE_DISTRICT or word.count("-") != 1:
        return False
    town, district = word.split("-")
    return bool(_TITLE_CASE.match(town) and _TITLE_CASE.match(district)) and district not in _INSTITUTION_NOUNS \
        and not (noun_bits(district) | noun_bits(town)) & COMMON_NOUN and place_like(town, None)


def town_districts(words: Sequence[str], previous: Callable[[int], str | None]) -> np.ndarray:
    """The indices of ``words`` (core words, "" for none) that are :func:`town_district`;
    ``previous(i)``: the context key of the word before word ``i``, asked only of hyphenated ones."""
    if not TOWN_DISTRICTS:
        return np.zeros(0, int)
    return np.array([i for i, w in enumerate(words) if "-" in w and town_district(w, previous(i))], int)


def common_noun_after_article(word: str, previous: str | None, next_word: str | None) -> bool:
    """Whether ``word`` is a common noun used as one: the lexicon's common noun right after an
    article (``previous``, lower case) and before no capitalized word (``next_word``)."""
    return (previous in ARTICLES and not (next_word or "")[:1].isupper()
            and bool(noun_bits(word) & COMMON_NOUN))


def neighbour_scores(text: str, elements: Sequence[Element], scores: dict[int, float],
                     certain: np.ndarray | None = None,
                     threshold: float = 0.0) -> dict[int, tuple[float, str | None]]:
    """The elements a flagged name part flags beside it (:func:`name_part_flags`), each with the
    best score of the flagged elements (``scores``: element index -> score) of its name and the
    type its name gives it: "person" for a person's name ("Thomas Wimmer"), "place" for a place's
    ("Ybbs an der Donau") or a town's district, None for a company's (its legal form types it) or a
    named institution; not those whose probability in ``certain`` is 0 (a public name). With
    :data:`FULL_NAMES` a first name and a surname side by side are flagged at ``threshold`` too, and
    so is a :func:`named_institution`, a company's one-word name (:func:`single_company_names`) or a
    :func:`town_district` under it (with ``certain``)."""
    if not scores and not FULL_NAMES:
        return {}
    words = capitalized_words(elements)
    names = adjacent_pairs(text, elements, words)
    pairs = np.array(names, int).reshape(-1, 2)
    open_ = np.ones(len(elements), bool) if certain is None else np.asarray(certain) > 0
    original, scores = scores, dict(scores)
    if FULL_NAMES and len(pairs):
        before = [sf.context_key(elements[a - 1].text) if a else None for a in pairs[:, 0]]
        before_previous = [sf.context_key(elements[a - 2].text) if a > 1 else None for a in pairs[:, 0]]
        full = pairs[full_names(pairs, words, before, before_previous=before_previous)]
        for a, b in full.tolist():
            if open_[a] and open_[b] and (a not in scores or b not in scores) and not after_office(elements, a):
                scores.setdefault(a, threshold)
                scores.setdefault(b, threshold)
    districts = []
    if certain is not None:  # a named institution, a company's one-word name or a town's district under it
        districts = town_districts(words, lambda i: sf.context_key(elements[i - 1].text) if i else None).tolist()
        for i in (*named_institutions(words).tolist(), *single_company_names(elements, words).tolist(), *districts):
            if open_[i] and certain[i] < threshold:
                scores.setdefault(i, threshold)
    if not scores:
        return {}
    flagged = np.zeros(len(elements), bool)
    flagged[list(scores)] = True
    persons = pairs
    places = place_pairs(text, elements, words)
    pairs = np.concatenate([pairs, places])
    company = company_pairs(text, elements, words)

    def takes() -> np.ndarray:
        out = np.zeros(len(elements), bool)
        for i in np.unique(company):
            out[i] = takes_company_flag(words[i])
        return out

    added = name_and_company_flags(pairs, company, flagged, open_, takes)
    pairs = np.concatenate([pairs, company])  # a flagged word of a company's name passes its score on
    new_full = {i for i in scores if i not in original}
    if not len(added) and not new_full:
        return {}
    best, reached = dict(scores), {int(i) for i in added} | new_full
    for _ in range(_REACH):  # the score of a name's flagged part reaches the parts it flags
        for a, b in pairs.tolist():
            for source, target in ((a, b), (b, a)):
                if source in best and target in reached:
                    best[target] = max(best.get(target, 0.0), best[source])
    kinds = {**dict.fromkeys(persons.ravel().tolist(), "person"),
             **dict.fromkeys([*places.ravel().tolist(), *districts], "place"), **dict.fromkeys(company.ravel().tolist())}
    return {i: (best[i], kinds.get(i)) for i in reached if i in best}


def without_elided(elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` with 0 for each compound's part whose head is left out ("Sonn- und
    Feiertage": :func:`rulings_anon.analyzer.common_words.elided_part`), a fact of grammar, not a
    convention: 0 under ``--recall-first`` too, and consistency spreads nothing from it."""
    probabilities = np.asarray(probabilities)
    out = None
    for i in np.flatnonzero(probabilities > 0):
        if elided_part(elements[i].text, elements[i + 1].text if i + 1 < len(elements) else None):
            if out is None:
                out = probabilities.copy()
            out[i] = 0.0
    return probabilities if out is None else out


def without_nouns(text: str, elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` with 0 for each common noun after an article
    (:func:`common_noun_after_article`)."""
    probabilities = np.asarray(probabilities)
    out = None
    for i in np.flatnonzero(probabilities > 0):
        if i == 0:
            continue
        previous = elements[i - 1].text.strip(WORD_PUNCTUATION)
        if previous.lower() not in ARTICLES or previous.endswith("."):
            continue
        raw = elements[i].text
        next_word = sf.core_word(elements[i + 1].text) if i + 1 < len(elements) else None
        if common_noun_after_article(sf.core_word(raw), previous.lower(), next_word):
            if out is None:
                out = probabilities.copy()
            out[i] = 0.0
    return probabilities if out is None else out
