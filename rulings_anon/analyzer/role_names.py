"""A person named right after their role: "Geschäftsführer Christen", "Kandidat Dorn", "der
Mitangeklagten Freitag", "Kriminaloberkommissarin Dörfer", "Rechtsanwältin Hell", a first name
after a relative's noun ("das Kind Jonas": :data:`RELATIVE_FIRST_NAMES`); and an
institution named right after its kind: "des Landkreises Mann", "des Kreiskrankenhauses Reiter",
"der Tarifgemeinschaft Vogel"; and a party named after their role by a surname that is also a
word: "der Kläger Wagner", "die Beklagte Koch" (:data:`PARTY_ROLE_NAMES`).

Surnames that are common nouns or adjectives stay below the threshold in such sentences: the
sensitivity features count salutations, ranks and relatives before a name (``person_roles``,
``relatives``), not these roles, and a feature for them moved other courts' precision more than
it found names when the trees were refitted (docs/experiments.md, "A person named after their
role"). So it is a decision rule, as the common nouns after an article are: a capitalized word
right after one of the ``naming_roles`` or ``naming_institutions`` of
``rulings_anon/data/name_affixes.json`` is flagged (its probability raised to the threshold) unless

- a rule made it public (probability 0);
- an indefinite determiner stands before the role: "ein Rechtsanwalt Fristen ausschöpfen" names
  nobody;
- it is a salutation, a title or a prefix ("Rechtsanwalt Dr. Kern": the name comes later);
- a capitalized common noun follows it ("Rechtsanwältin Freie Mitarbeiterin");
- the lexicon calls it a common noun and the same ruling writes it with a determiner before it
  somewhere ("der Verteidiger Beschwerde eingelegt" beside "die Beschwerde"), the
  ``doc_determiner`` feature the rows of :mod:`rulings_anon.analyzer.name_parts_rows` read.

A role with punctuation or a line break after it ("Geschäftsführer, Herr", a list of keywords
ending in "Geschäftsführer") names nobody here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.common_words import name_key
from rulings_anon.analyzer.name_parts import (
    PARTY_NAME_ZIPF,
    name_part,
    raised,
    unlisted_word,
    word_surname,
    written_first_name,
)
from rulings_anon.document import INITIAL, WORD_PUNCTUATION, Element
from rulings_anon.word_frequency import zipf

# whether score's decision applies the rule, and to the institutions' kinds too (the benchmark
# switches each off to compare)
ROLE_NAMES = True
INSTITUTION_NAMES = True
# A party's, a witness's or an expert's role ("Kläger", "Antragsgegnerin", "Angeklagten", "Zeugin":
# ``party_roles``) names the person after it only where the lexicon knows the word as a person's
# name too and German does not write it too often (name_parts.PARTY_NAME_ZIPF): "der Kläger Wagner",
# "die Zeugin Vogel", not "dem Kläger Zeit geben" or "Art." (Zipf 6.0 and 5.5; "Müller" 4.8,
# "Sommer" 5.1). Those roles precede nouns as often as names; after them the six LER courts'
# rulings print 264 capitalized words in clear, 2 of them names to the lexicon, both "Art.". Not
# a word the lexicon does not list: 5 of them, abbreviations and nouns it lacks ("bewilligte die
# Beklagte Alg"), which consistency would spread to 51 mentions
PARTY_ROLE_NAMES = True
# A relative's noun ("Kind", "Tochter", ``relatives``) names the first name after it: "das Kind
# Jonas" (the model alone 0.09 in a fictitious ruling, "Lukas" 0.21), and a word the lexicon knows
# not at all ("seine Tochter Laimer"). Not a common noun: the relatives precede nouns too ("der
# Ehefrau Rentenzahlungen"); after them the six courts' rulings print 22 capitalized words in clear,
# one a first name ("Bruder Paul Kirchhof"), one unlisted (an author, "Harich")
RELATIVE_FIRST_NAMES = True
# A co-defendant tried separately is named as the ``naming_roles`` name a person ("des gesondert
# verfolgten Denk", "dem anderweitig Verfolgten Dorn"), in small letters too, the participle only after
# one of :data:`SEPARATELY` ("der verfolgte Sinn" names nobody). After them the six courts' rulings
# hold 7 placeholders and 1 capitalized word in clear, a relative ("Bruder E. K.", not taken)
SEPARATELY = frozenset({"gesondert", "anderweitig", "getrennt"})
PROSECUTED = frozenset({"verfolgte", "verfolgten", "verfolgter"})
_PROSECUTED_FORMS = PROSECUTED | {w.capitalize() for w in PROSECUTED}
# determiners that make the role a kind of person, not one person ("ein Rechtsanwalt", "jeder Betreuer")
INDEFINITE = frozenset("ein eine einer eines einem einen kein keine keiner keines keinem keinen "
                       "jeder jede jedes jedem jeden".split())


@lru_cache(maxsize=2)
def naming_words(institutions: bool = True) -> frozenset[str]:
    """The ``naming_roles`` of ``name_affixes.json`` and, with ``institutions``, its
    ``naming_institutions``: the nouns a name follows."""
    affixes = sf._affixes()
    return affixes["naming_roles"] | (affixes["naming_institutions"] if institutions else frozenset())


@lru_cache(maxsize=2)
def role_keys(institutions: bool = True) -> frozenset[str]:
    """:func:`naming_words` as context keys (lower case), as the feature rows keep the word before."""
    return frozenset(sf.context_key(w) for w in naming_words(institutions))


@lru_cache(maxsize=1)
def _no_names() -> frozenset[str]:
    """Salutations, titles and prefixes as core words ("Dr." -> "Dr", "Dipl.-Ing." -> "Dipl.-Ing"), and
    a degree broken at its hyphen ("Dipl. -Ing.", "Dip. -Ing.")."""
    affixes = sf._affixes()
    words = affixes["salutations"] | affixes["academic_titles"] | affixes["prefixes"]
    return frozenset(sf.core_word(w) for w in words) | frozenset(w.rstrip(".") for w in words) | {"Dipl", "Dip"}


@lru_cache(maxsize=65536)
def common_noun(word: str) -> bool:
    """Whether the lexicon calls ``word`` (a core word) a common noun, as the ``lex_common`` feature does."""
    return bool(sf._word_features(word)[sf._WORD_COLUMNS.index("lex_common")])


def nameable(word: str, before_role: str | None, next_noun: bool, noun_in_ruling: bool) -> bool:
    """Whether ``word``, right after a role, is the person's name (see the module docstring).

    :param before_role: the context key of the word before the role (lower case, no punctuation).
    :param next_noun: a capitalized common noun that is no name part follows ``word``.
    :param noun_in_ruling: the ruling writes ``word`` as a common noun with a determiner elsewhere.
    """
    return (before_role not in INDEFINITE and name_key(word) is not None and word not in _no_names()
            and not next_noun and not noun_in_ruling)


@lru_cache(maxsize=4)
def cue_words(name: str) -> frozenset[str]:
    """The list ``name`` of ``name_affixes.json`` a name follows: ``party_roles`` ("Kläger",
    "Beklagte", "Zeugin") or ``relatives`` ("Kind", "Tochter", "Ehemann")."""
    return sf._affixes()[name]


@lru_cache(maxsize=4)
def cue_keys(name: str) -> frozenset[str]:
    """:func:`cue_words` as context keys (lower case), as the feature rows keep the word before."""
    return frozenset(sf.context_key(w) for w in cue_words(name))


def prosecuted_separately(role: str | None, before_role: str | None, word: str) -> bool:
    """Whether ``word`` names a co-defendant tried separately: ``role``, the context key before it,
    is a form of "Verfolgte" and ``before_role``, the key before that, one of :data:`SEPARATELY`;
    not a relative's noun ("des gesondert verfolgten Bruder E. K.")."""
    return role in PROSECUTED and before_role in SEPARATELY and word not in cue_words("relatives")


def relative_nameable(word: str) -> bool:
    """Whether ``word`` (a core word) after a relative's noun is a name: a first name written out
    (:func:`rulings_anon.analyzer.name_parts.written_first_name`) or a word the lexicon does not
    list (:func:`unlisted_word`)."""
    return written_first_name(word) or unlisted_word(word)


def party_nameable(word: str) -> bool:
    """Whether ``word`` (a core word) after a party's role is a name: a surname the lexicon knows
    as a person's name too, below :data:`PARTY_NAME_ZIPF` ("Wagner", "Koch"; not "Zeit")."""
    return word_surname(word) and zipf(word, "de") < PARTY_NAME_ZIPF


def sentence_end(element: str) -> bool:
    """Whether ``element`` (the word after a role) ends with a period, which is no initial's: the word
    after it starts a sentence and says nothing of the name ("die Tochter Laimer. Für ..."), as the
    ``period_after`` feature reads it."""
    return element.rstrip(WORD_PUNCTUATION).endswith(".") and not INITIAL.match(element.strip(WORD_PUNCTUATION))


def next_noun(word: str) -> bool:
    """Whether ``word`` (the core word after a role's name) is a capitalized common noun and no name part."""
    return sf.is_candidate(word) and common_noun(word) and not name_part(word)


def with_role_names(text: str, elements: Sequence[Element], probabilities: np.ndarray,
                    threshold: float) -> np.ndarray:
    """``probabilities`` with each word a role or an institution's kind names (:func:`nameable`)
    raised to ``threshold`` where it is below it and above 0; the others as they are."""
    roles = naming_words(INSTITUTION_NAMES)
    parties = cue_words("party_roles") if PARTY_ROLE_NAMES else frozenset()
    relatives = cue_words("relatives") if RELATIVE_FIRST_NAMES else frozenset()
    cues = roles | parties | relatives | _PROSECUTED_FORMS
    after = [i + 1 for i, e in enumerate(elements[:-1]) if e.text in cues]
    if not after:
        return probabilities
    probabilities = np.asarray(probabilities)
    named = []  # (element, word) of each word a role names, before the ruling's determiners are read
    for i in after:
        if not 0 < probabilities[i] < threshold or "\n" in text[elements[i - 1].end:elements[i].start]:
            continue
        word = sf.core_word(elements[i].text)
        role = elements[i - 1].text
        before = sf.context_key(elements[i - 2].text) if i > 1 else None
        if role not in roles and not (role in parties and party_nameable(word)) \
                and not (role in relatives and relative_nameable(word)) \
                and not prosecuted_separately(role.lower(), before, word):
            continue
        following = sf.core_word(elements[i + 1].text) if i + 1 < len(elements) and not sentence_end(elements[i].text) \
            else ""
        if nameable(word, before, next_noun(following), False):
            named.append((i, word))
    nouns = determined_words(elements, {w for _, w in named if common_noun(w)}) if named else set()
    return raised(probabilities, [i for i, word in named if word not in nouns], threshold)


def determined_words(elements: Sequence[Element], words: set[str]) -> set[str]:
    """Those of ``words`` that a mention in the ruling has a determiner before (one pass over its
    elements), not as a company's article ("die Christen GmbH")."""
    if not words:
        return set()
    forms = sf._affixes()["legal_forms"]
    raw = [e.text for e in elements]
    found = set()
    for j, text in enumerate(raw):
        if text[:1].islower() or text[:1].isdigit():  # no capitalized word: spare core_word
            continue
        word = sf.core_word(text)
        if word not in words or word in found:
            continue
        following = sf.core_word(raw[j + 1]) if j + 1 < len(raw) else ""
        if following not in forms and sf._determined(raw, j):
            found.add(word)
    return found
