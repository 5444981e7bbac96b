"""A common noun of the courts' vocabulary scored under 0.01 is weighed down, in score's decision
and in the measured one alike (``rulings_anon.analyzer.court_words``): recall-first (0.001) no
longer suggests it, the default never sees the difference, and a rule that names it still does.

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import numpy as np

from rulings_anon.analyzer import court_words
from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.document import split_elements
from tests.decision_rules import spans_at

TEXT = "Koch trug Bargeld und 20 Gramm bei sich, handelte in Notwehr und fuhr nach Berlin."


def weighed(text: str, probability: float) -> tuple[list[str], list[str]]:
    """The words each version weighs down from ``probability``: score's elements (the candidates,
    as the model scores only them), the rows."""
    elements = split_elements(text)
    court = sm.extract_court([{"id": "a", "text": text, "spans": []}])
    candidates = [sf.core_word(e.text) in court.words for e in elements]
    out = court_words.without_court_words(elements, np.where(candidates, probability, 0.0))
    rows = npr.without_court_words(court, np.full(len(court.words), probability, np.float32))
    assert np.allclose(out[(out > 0) & (out < probability)], probability * court_words.COURT_WORD_WEIGHT)
    return ([sf.core_word(e.text) for e, p in zip(elements, out, strict=True) if 0 < p < probability],
            [w for w, p in zip(court.words, rows, strict=True) if p < probability])


def test_court_words_under_the_floor_are_weighed_down_not_names_or_places():
    assert weighed(TEXT, 0.005) == (["Bargeld", "Gramm", "Notwehr"], ["Bargeld", "Gramm", "Notwehr"])


def test_over_the_floor_nothing_moves():
    assert weighed(TEXT, 0.02) == ([], [])


def test_recall_first_leaves_a_court_word_the_default_is_untouched_and_a_role_still_names_one():
    probabilities = {"Bargeld": 0.005, "Koch": 0.005}
    assert spans_at(TEXT, probabilities, 0.001) == [(0, "Koch")]
    assert spans_at(TEXT, probabilities, 0.16) == []
    named = "Das Schreiben unterzeichnete ihr Geschäftsführer Bargeld."
    assert spans_at(named, {"Bargeld.": 0.005}, 0.001) == [(named.index("Bargeld"), "Bargeld")]
