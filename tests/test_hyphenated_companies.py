"""A company's name hyphenated to a legal form's abbreviation that alone stands for other things
("die Danninger-KAG", "die Stockhammer-BV") is flagged, in score's decision and in the measured one
alike (``rulings_anon.analyzer.name_parts.hyphenated_company``).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from rulings_anon.analyzer import name_parts
from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import sensitivity_model as sm
from tests.decision_rules import spans_at

TEXT = ("Die Danninger-KAG verwaltete den Fonds der Stockhammer-BV und der Müller-NV; die Rahmen-BV und die "
        "Gesamt-BV gelten, BFH/NV 2010, 12; nach dem KAG.")


@pytest.mark.parametrize("word, company", [
    ("Danninger-KAG", True), ("Stockhammer-BV", True), ("Müller-NV", True),
    # a common noun or a word German writes often before the hyphen, a journal, another tail: none
    ("Rahmen-BV", False), ("Gesamt-BV", False), ("BFH/NV", False), ("KAG", False), ("Deka-Bank", False),
    ("Meier-Müller-KAG", False),
])
def test_a_company_s_name_hyphenated_to_its_legal_form(word, company):
    assert name_parts.hyphenated_company(word) is company


def test_score_flags_the_company_and_the_measured_decision_alike():
    """0.01 for every word (as the model gave "Danninger-KAG"): the companies reach the threshold,
    the other words stay; a word a rule made public (0) stays 0."""
    flagged = [text for _, text in spans_at(TEXT, {w: 0.01 for w in TEXT.split()}, 0.16)]
    assert flagged == ["Danninger-KAG", "Stockhammer-BV", "Müller-NV"]
    court = sm.extract_court([{"id": "a", "text": TEXT, "spans": []}])
    raised = npr.with_hyphenated_companies(court, np.full(len(court.words), 0.01), 0.16)
    assert [w for w, p in zip(court.words, raised, strict=True) if p >= 0.16] == \
        ["Danninger-KAG", "Stockhammer-BV", "Müller-NV"]
    assert not npr.with_hyphenated_companies(court, np.zeros(len(court.words)), 0.16).any()
