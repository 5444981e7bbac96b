"""A judge named after the role's abbreviation in the signatures ("Becker RiBGH Dr. Tiemann befindet
sich im Urlaub") is weighed down, in score's decision and in the measured one alike
(``rulings_anon.analyzer.signed_judges``; the measured one reads the ``judge_abbreviation`` mark).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import signed_judges
from rulings_anon.analyzer.exemptions import after_judge_abbreviation, judge_abbreviation_reach
from rulings_anon.document import split_elements
from tests.decision_rules import spans_at, weighed_words

SIGNED = ("Die Revision wird verworfen. Becker RiBGH Dr. Tiemann befindet sich im Urlaub. Stresemann RinBGH "
          "Prof. Dr. Schmidt-Räntsch ist gehindert. VRiBGH Galke, RiAG Lorenz, VorsRiOLG Hahn.")


def test_a_judge_named_after_the_role_s_abbreviation_is_weighed_down():
    """The role's abbreviation with a federal or a local court's, titles between; not after a role
    written out, an abbreviation of no court's or a title alone."""
    def weighed(text):
        return weighed_words(text, signed_judges.without_signed_judges, npr.without_signed_judges,
                             signed_judges.SIGNED_JUDGE_WEIGHT)

    names = ["Tiemann", "Schmidt-Räntsch", "Galke", "Lorenz", "Hahn"]
    assert weighed(SIGNED) == (names, names)
    assert weighed("Richter Meier und RiXYZ Huber; RiBGH Dr. und Ri Bauer.") == ([], [])


def test_the_default_leaves_the_judge_and_recall_first_reaches_it():
    """0.19 for "Tiemann" (as the model gave him) falls to 0.019: under the default threshold,
    over recall-first's."""
    text = "Becker RiBGH Dr. Tiemann befindet sich im Urlaub."
    assert spans_at(text, {"Tiemann": 0.19}, 0.16) == []
    assert spans_at(text, {"Tiemann": 0.19}, 0.001) == [(17, "Tiemann")]


def test_the_test_is_asked_only_after_an_abbreviated_role():
    text = "Becker RiBGH Dr. Tiemann befindet sich; Richter Meier"
    elements = split_elements(text)
    raw = [e.text for e in elements]
    assert judge_abbreviation_reach(text, elements) == [2, 3, 4, 5]
    assert [w for i, w in enumerate(raw) if after_judge_abbreviation(raw, i)] == ["Tiemann"]
