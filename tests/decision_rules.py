"""A decision rule that weighs words down, asked of score's decision and of the measured one (the
feature rows of ``rulings_anon.analyzer.name_parts_rows``) on one fictitious text."""

from __future__ import annotations

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.document import split_elements


def weighed_words(text: str, text_rule, rows_rule, weight: float) -> tuple[list[str], list[str]]:
    """The words each version of a rule weighs down from 0.5, by ``weight`` exactly, as core words
    (punctuation around them stripped): its text version's elements and its rows version's rows."""
    elements = split_elements(text)
    weighed = text_rule(text, elements, np.full(len(elements), 0.5))
    assert all(p == 0.5 * weight for p in weighed if p < 0.5)
    court = sm.extract_court([{"id": "a", "text": text, "spans": []}])
    measured = rows_rule(court, np.full(len(court.words), 0.5))
    return ([sf.core_word(e.text) for e, p in zip(elements, weighed, strict=True) if p < 0.5],
            [w for w, p in zip(court.words, measured, strict=True) if p < 0.5])


def spans_at(text: str, probability_of: dict[str, float], threshold: float) -> list[tuple[int, str]]:
    """score's decision at ``threshold`` on ``text`` whose elements get the probability
    ``probability_of`` gives their text (0 elsewhere): each span's start and text."""
    from rulings_anon.analyzer.decisions import Settings, decide

    elements = split_elements(text)
    probabilities = np.array([probability_of.get(e.text, 0.0) for e in elements])
    return [(s.start, s.text) for s in decide(text, elements, probabilities, Settings(threshold))]
