"""A medicine named after its kind: "des Medikaments Isentress", "das Kombinationspräparat Stribild".

A patent court's licence case or a social court's claim to a drug speaks of the drug, not of a
person, and the name a drug's kind precedes is its brand, which its maker prints on every box. The
model flags such words (unknown to the lexicon: 0.2 to 0.9) as it would a surname. In the six LER
courts' rulings 13 words that are no common noun stand right after a drug noun ("Isentress",
"Genvoya", "Buscopan"), with 58 mentions, none a placeholder. A public rule (probability 0, a
feature the trees read) was tried and needed a refit that moved `--recall-first`'s threshold
(docs/experiments.md, "A medicine's name after a drug noun"); this is a decision rule instead: the
word and its other mentions in the ruling are weighed down (times :data:`PRODUCT_WEIGHT`), so the
default leaves them and `--recall-first` still reaches them. The rows of
:mod:`rulings_anon.analyzer.name_parts_rows` read it the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.name_parts import starts_no_name
from rulings_anon.document import Element
from rulings_anon.lexicon import COMMON_NOUN, noun_bits

# whether score's decision applies the rule (the benchmark switches it off to compare)
PRODUCT_NAMES = True
PRODUCT_WEIGHT = 0.1
# the ends of the nouns that name a medicine's kind, as context keys: "Arzneimittel",
# "Fertigarzneimittels", "Medikaments", "Kombinationspräparat", "Impfstoffe"
DRUG_NOUN_ENDINGS = ("arzneimittel", "arzneimittels", "medikament", "medikaments", "medikamentes", "medikamente",
                     "präparat", "präparats", "präparates", "präparate", "impfstoff", "impfstoffs", "impfstoffes",
                     "impfstoffe")
# what a ruling that names a drug's kind holds somewhere: one scan of its text before any element is read
_DRUG_STEM = re.compile("[Aa]rzneimittel|[Mm]edikament|[Pp]räparat|[Ii]mpfstoff")


def drug_noun(key: str | None) -> bool:
    """Whether ``key`` (a context key: lower case, no punctuation) is a noun that names a medicine's kind."""
    return key is not None and key.endswith(DRUG_NOUN_ENDINGS)


def product_word(word: str) -> bool:
    """Whether ``word`` (a core word) may be a product's name: capitalized, two letters or more, no
    common noun of the lexicon and no word that starts no name ("dem Arzneimittel Zur Verfügung"
    gives nothing, nor "des Präparats Art")."""
    return (len(word) > 1 and word[:1].isupper() and not noun_bits(word) & COMMON_NOUN
            and not starts_no_name(word))


def product_names(text: str, elements: Sequence[Element]) -> set[str]:
    """The core words that stand right after a drug noun in ``text`` (a space between, no
    punctuation after the noun): "Isentress" of "des Medikaments Isentress"."""
    if not _DRUG_STEM.search(text):  # most rulings name no medicine: one scan of the text
        return set()
    found = set()
    for i in range(1, len(elements)):
        noun = elements[i - 1].text
        if noun[:1].isupper() and noun == sf.core_word(noun) and drug_noun(sf.context_key(noun)) \
                and text[elements[i - 1].end:elements[i].start] == " ":
            word = sf.core_word(elements[i].text)
            if product_word(word):
                found.add(word)
    return found


def without_product_names(text: str, elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`PRODUCT_WEIGHT` for every mention of a word a drug noun
    precedes somewhere in the ruling (:func:`product_names`)."""
    probabilities = np.asarray(probabilities)
    if not PRODUCT_NAMES:
        return probabilities
    names = product_names(text, elements)
    if not names:
        return probabilities
    out = probabilities.astype(np.float64)
    for i, element in enumerate(elements):
        if out[i] > 0 and sf.core_word(element.text) in names:
            out[i] *= PRODUCT_WEIGHT
    return out
