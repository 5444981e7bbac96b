"""A compound of two German words names a thing, not a person or a place: "Glasrohling", "Saugkanal",
"Merkfehler", "Helmschalen", "Sachangabe".

German writes most of its nouns as compounds, and no dictionary lists them all: the lexicon calls a
capitalized word it does not list but that ends in a listed common noun a compound
(:data:`rulings_anon.lexicon.COMPOUND`), and surnames and places are built the same way ("Kollmann",
"Neumeister", "Regensdorf", "Gamsjäger"). The model, which reads such a word as one it has never
seen, gives a technical ruling's compounds 0.2 to 0.5, as it would an unknown surname.

A word is taken for a compound of words (:func:`word_compound`) when both its parts are words:

- its head, the longest common noun it ends in (4 letters or more), is written with a Zipf
  frequency of 2 or more, is no name itself ("-müller", "-jäger"), no street's word ("-straße",
  "-platz") and no name's ending (:func:`name_ending`): it ends at most :data:`NAME_HEADS` of the
  names and places the lexicon and the places' table list ("-mann", "-dorf", "-meister" end many),
  and a long one's end without its first letter few ("Staudinger": "-inger");
- its modifier, 4 letters or more also without a linking element ("Sach-", "Merk-", "Helm-",
  "Lizenz-"; not "Bets-" of "Betschart"), is a German word: a common noun the lexicon lists, or a
  word or a verb's stem that German writes with a Zipf frequency of 3 or more, and no name or place
  of the lexicon;
- it is listed nowhere itself, neither in the lexicon nor as a place.

Where it stands counts too (:func:`compound_at`): no legal form follows it ("die Glasbau GmbH" is
a company), and no salutation, title or role stands in the three words before it, as the
``salutation_before`` and ``title_before`` features count them ("Herr Sachangabe" is a person,
whatever his name's parts are).

Such a word is weighed down (times :data:`COMPOUND_WEIGHT`), not zeroed: the default leaves it in
clear and ``--recall-first`` still reaches all but the least likely. The rows of
:mod:`rulings_anon.analyzer.name_parts_rows` read it the same way. How often it holds, and what it
gives, leaving each court out: docs/experiments.md, "A compound of two German words".
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.thing_names import weighed
from rulings_anon.document import Element
from rulings_anon.lexicon import (
    COMMON_NOUN,
    COMPOUND,
    DEFAULT,
    PERSON_NAME,
    PLACE_NAME,
    load_lexicon,
    noun_bits,
)
from rulings_anon.word_frequency import zipf

# whether score's decision applies the rule (the benchmark switches it off to compare)
WORD_COMPOUNDS = True
COMPOUND_WEIGHT = 0.1
# a head that ends more listed names or places than this is a name's ending, not a noun's, and so
# is a head of LONG_HEAD letters or more whose end without its first letter ends more than NAME_TAILS
# ("Staudinger": "-dinger" ends one listed name, "-inger" 26)
NAME_HEADS = 2
NAME_TAILS = 5
LONG_HEAD = 6
MIN_PART = 4
MIN_HEAD_ZIPF = 2.0
MIN_MODIFIER_ZIPF = 3.0
# the linking elements between a compound's parts ("Verfahrens-", "Sonnen-", "Kinder-"), longest first
LINKS = ("ens", "es", "en", "er", "ns", "s", "n", "e")
# the heads a street's name ends in: a street is a place (rulings_anon/analyzer/recognizers/street.py)
STREET_HEADS = ("straße", "strasse", "gasse", "allee", "chaussee", "weg", "platz", "damm", "steig", "pfad",
                "ring", "ufer")
# two parts of MIN_PART letters: the shortest word that may be one, which the loops over elements
# and rows ask first, before a word's core is looked at
MIN_LENGTH = 2 * MIN_PART
_SHAPE = re.compile(rf"^[A-ZÄÖÜ][a-zäöüß]{{{MIN_LENGTH - 1},}}$")


@lru_cache(maxsize=1)
def _reversed_names() -> list[str]:
    """The lexicon's names and places and the places' table, lower-cased and reversed, sorted: the
    names that end in a head are one range of it."""
    names = {w.lower() for w, bits in load_lexicon(DEFAULT).items() if bits & (PERSON_NAME | PLACE_NAME)}
    names.update(w.lower() for w in sf.places())
    return sorted(name[::-1] for name in names)


def names_ending(head: str) -> int:
    """How many listed names and places end in ``head`` (lower-cased), the head itself included."""
    table, key = _reversed_names(), head.lower()[::-1]
    return bisect.bisect_left(table, key + "\uffff") - bisect.bisect_left(table, key)


def name_ending(head: str) -> bool:
    """Whether a compound's ``head`` is the ending of names rather than a noun: it ends more than
    :data:`NAME_HEADS` listed names or places, or, of :data:`LONG_HEAD` letters or more, its end
    without the first letter ends more than :data:`NAME_TAILS` ("-dinger", "-inger")."""
    return names_ending(head) > NAME_HEADS or len(head) >= LONG_HEAD and names_ending(head[1:]) > NAME_TAILS


def _is_word(modifier: str) -> bool:
    """Whether a compound's first part, less a linking element, is a German word and no name."""
    low = modifier.lower()
    for base in [low, *(low[:-len(link)] for link in LINKS if low.endswith(link))]:
        if len(base) < MIN_PART:
            continue
        bits = noun_bits(base[:1].upper() + base[1:])
        if bits & (PERSON_NAME | PLACE_NAME):
            return False
        if bits & COMMON_NOUN or zipf(base, "de") >= MIN_MODIFIER_ZIPF or zipf(base + "en", "de") >= MIN_MODIFIER_ZIPF:
            return True
    return False


@lru_cache(maxsize=50_000)
def word_compound(word: str) -> bool:
    """Whether ``word`` (an element's core) is a compound of two German words (see the module)."""
    if not _SHAPE.match(word) or noun_bits(word) != COMPOUND or word in sf.places():
        return False
    for split in range(MIN_PART, len(word) - MIN_PART + 1):
        head = word[split].upper() + word[split + 1:]
        bits = noun_bits(head)
        if not bits & COMMON_NOUN:
            continue
        return (not bits & (PERSON_NAME | PLACE_NAME) and not head.lower().endswith(STREET_HEADS)
                and zipf(head.lower(), "de") >= MIN_HEAD_ZIPF and not name_ending(head)
                and _is_word(word[:split]))
    return False


@lru_cache(maxsize=1)
def name_openers() -> frozenset[str]:
    """The words a name follows within three words, as the features read them: salutations, ranks,
    role and family nouns (``salutation_before``) and academic titles (``title_before``)."""
    affixes = sf._affixes()
    return affixes["salutations"] | affixes["academic_titles"]


def compound_at(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` (of the elements' texts ``raw``) is a :func:`word_compound` that no
    legal form follows and no salutation, title or role precedes."""
    if not word_compound(sf.core_word(raw[i])):
        return False
    if i + 1 < len(raw) and sf.core_word(raw[i + 1]) in sf._affixes()["legal_forms"]:
        return False
    openers = name_openers()
    return not any(sf.core_word(raw[j]) in openers for j in range(max(0, i - 3), i))


def without_word_compounds(elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`COMPOUND_WEIGHT` for every word :func:`compound_at` finds."""
    probabilities = np.asarray(probabilities)
    if not WORD_COMPOUNDS:
        return probabilities
    maybe = [i for i in np.flatnonzero(probabilities > 0).tolist() if len(elements[i].text) >= MIN_LENGTH]
    return weighed(elements, probabilities, maybe, compound_at, COMPOUND_WEIGHT)
