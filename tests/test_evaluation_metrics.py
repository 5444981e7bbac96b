"""Element-level metrics: confusion counts, per-type and reference recall, A.2, detected recall."""

import pytest

from rulings_anon.evaluation.metrics import (
    Confusion,
    detected_recall,
    per_type_recall,
    random_candidate_precision,
    reference_recall,
)


def test_confusion_counts_and_rates():
    gold = [True, True, True, False, False, False, False, False]
    pred = [True, True, False, True, False, False, False, False]
    c = Confusion.count(gold, pred)
    assert (c.tp, c.fp, c.tn, c.fn) == (2, 1, 4, 1)
    assert c.recall == pytest.approx(2 / 3)
    assert c.precision == pytest.approx(2 / 3)
    assert c.accuracy == pytest.approx(6 / 8)
    assert c.specificity == pytest.approx(4 / 5)
    assert c.f1 == pytest.approx(2 / 3)


def test_rates_on_a_confusion_matrix_with_fp_unlike_fn():
    """fp != fn tells specificity tn/(tn+fp) from tn/(tn+fn), and F1 (the harmonic mean of precision
    and recall) from their arithmetic mean."""
    c = Confusion(tp=3, fp=1, tn=4, fn=2)
    assert (c.recall, c.precision) == (3 / 5, 3 / 4)
    assert c.specificity == 4 / 5 and c.specificity != 4 / 6
    assert c.false_positive_rate == 1 / 5
    assert c.accuracy == 7 / 10
    assert c.f1 == pytest.approx(2 * 0.75 * 0.6 / (0.75 + 0.6)) and c.f1 == pytest.approx(2 / 3)
    assert c.f1 != pytest.approx((0.75 + 0.6) / 2)
    assert c.to_dict() == {"tp": 3, "fp": 1, "tn": 4, "fn": 2, "recall": 0.6, "precision": 0.75, "accuracy": 0.7,
                           "specificity": 0.8, "f1": pytest.approx(2 / 3)}


def test_confusion_counts_only_selected_elements():
    c = Confusion.count([True, False, False, True], [True, True, False, False], [True, True, False, False])
    assert (c.tp, c.fp, c.tn, c.fn) == (1, 1, 0, 0)


def test_when_nothing_to_find_then_rates_are_zero_not_errors():
    c = Confusion.count([False, False], [False, False])
    assert (c.recall, c.precision, c.f1, c.accuracy) == (0.0, 0.0, 0.0, 1.0)


def test_per_type_recall():
    types = ["person", "person", None, "place", None]
    pred = [True, False, True, True, False]
    assert per_type_recall(types, pred) == {
        "person": {"elements": 2, "found": 1, "recall": 0.5},
        "place": {"elements": 1, "found": 1, "recall": 1.0},
    }


def test_reference_recall_counts_whole_partial_and_missed():
    pred = [True, True, False, True, False, False]
    result = reference_recall([[0, 1], [2, 3], [4], [5]], pred)
    assert result == {"references": 4, "whole": 1, "partly": 1, "missed": 2, "recall": 0.25}


def test_a2_reproduces_the_thesis_estimate():
    # Thesis 7.1: 0.7 % sensitive elements, 2.5 % random candidates, recall 97.6 % and precision
    # 92.6 % on the candidates -> about 23.9 % precision when every element is classified.
    positives, negatives_total = 7_000, 993_000
    negative_candidates = 25_000
    tp = round(0.976 * positives)
    fp = round(tp * (1 - 0.926) / 0.926)
    candidates = Confusion(tp=tp, fp=fp, tn=negative_candidates - fp, fn=positives - tp)
    assert candidates.precision == pytest.approx(0.926, abs=1e-3)
    estimate = random_candidate_precision(candidates, negatives_total)
    assert estimate == pytest.approx(0.239, abs=0.002)


def test_a2_equals_the_closed_form():
    # TP stays, every negative is a false positive as often as a negative candidate was:
    # precision = TP / (TP + FP / (negative candidates / all negatives)).
    candidates = Confusion(tp=90, fp=20, tn=380, fn=10)
    negatives_total = 4000
    expected = 90 / (90 + 20 * negatives_total / 400)
    assert random_candidate_precision(candidates, negatives_total) == pytest.approx(expected)
    # When every negative was a candidate the estimate is the measured precision.
    assert random_candidate_precision(candidates, 400) == pytest.approx(candidates.precision)


def test_a2_rejects_fewer_negatives_than_candidates():
    with pytest.raises(ValueError):
        random_candidate_precision(Confusion(tp=1, fp=5, tn=5, fn=0), 3)


def test_detected_recall_counts_proposed_positives_only():
    gold = [True, True, True, True, False, False]
    proposed = [True, True, True, False, True, False]
    pred = [True, True, False, False, True, False]
    result = detected_recall(gold, pred, proposed)
    assert result == {"detected_recall": pytest.approx(2 / 3), "candidate_recall": 0.75,
                      "baseline_precision": 0.75}
