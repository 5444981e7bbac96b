"""The courts' own words below recall-first's reach: a common noun that the dev courts' rulings
print in clear ("Gramm", "Bargeld", "Notwehr", "Dritter") and the model scores under
:data:`COURT_WORD_FLOOR` is weighed down (times :data:`COURT_WORD_WEIGHT`).

``--recall-first`` flags what the model scores over 0.001, and most of its suggestions lie between
0.001 and 0.01: leaving one court out, on BGH's rulings with surrogate names 933 false flags there
against 6 true ones, on BVerfG's 1,040 against 5. One in six of those false flags is a common noun
of the dev courts' vocabulary (:func:`rulings_anon.analyzer.common_words.common_words`: seen at
least three times outside every entity) that the lexicon knows as no name or place, and none of
the true ones is (nor of BAG's 8). Weighed down, such a word
falls under recall-first's threshold; over 0.01 it stays as the model scored it, and the default
threshold (0.16) never sees the difference. The word keeps a probability above 0, so a rule that
names it still raises it ("Geschäftsführer Christen", a name's part beside a flagged first name).
Not a word the lexicon knows as a name or a place too ("Koch", "Berlin"), whose public mentions
``--recall-first`` must still reach (a public rule weighs a judge's name or an authority's seat down
by 0.1 there; docs/experiments.md, "The courts' own words below recall-first's reach").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.common_words import common_words
from rulings_anon.document import Element
from rulings_anon.lexicon import COMMON_NOUN, PERSON_NAME, PLACE_NAME, noun_bits

# whether score's decision applies the rule (the benchmark switches it off to compare)
COURT_WORDS = True
COURT_WORD_FLOOR = 0.01
COURT_WORD_WEIGHT = 0.1


@lru_cache(maxsize=65536)
def court_word(word: str) -> bool:
    """Whether ``word`` (a core word) is a common noun of the dev courts' vocabulary that the
    lexicon knows as no name and no place."""
    if word not in common_words():
        return False
    bits = noun_bits(word)
    return bool(bits & COMMON_NOUN) and not bits & (PERSON_NAME | PLACE_NAME)


def below_floor(probabilities: np.ndarray) -> np.ndarray:
    """The indices whose probability lies above 0 and under :data:`COURT_WORD_FLOOR`."""
    return np.flatnonzero((probabilities > 0) & (probabilities < COURT_WORD_FLOOR))


def without_court_words(elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`COURT_WORD_WEIGHT` for each court word (:func:`court_word`)
    scored above 0 and under :data:`COURT_WORD_FLOOR`."""
    probabilities = np.asarray(probabilities)
    if not COURT_WORDS:
        return probabilities
    low = [i for i in below_floor(probabilities).tolist()
           if elements[i].text[:1].isupper() and court_word(sf.core_word(elements[i].text))]
    if not low:
        return probabilities
    out = probabilities.astype(np.float64)
    out[low] *= COURT_WORD_WEIGHT
    return out
