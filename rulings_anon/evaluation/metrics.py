"""Element-level metrics of the evaluation (thesis 5.5.3, chapter 6, appendix A.2).

The unit is the text element: an element is positive when a gold span overlaps it, predicted
positive when a predicted span does (one sensitive token makes the whole element sensitive).

* :class:`Confusion`: TP/FP/TN/FN with recall, precision, accuracy, specificity and F1.
* :func:`per_type_recall`: recall of the elements of each gold type.
* :func:`reference_recall`: the share of gold references whose elements are *all* found (a name
  found in part still leaks).
* :func:`random_candidate_precision`: the precision estimate of appendix A.2, what the precision
  measured on random candidates becomes when every element has to be classified.
* :func:`leak_figures`: what a court fears: sensitive elements missed per 10,000 elements, and the
  share of documents in which at least one name (a person's) or any sensitive element was missed.
* :func:`detected_recall`: Table 6.3's "Det-Rec", the recall over the positives that were
  proposed as candidates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from rulings_anon.confusion import Confusion, _ratio
from rulings_anon.entity_types import PERSON_TYPES


def per_type_recall(types: Iterable[str | None], predicted: Iterable[bool]) -> dict[str, dict]:
    """Recall per gold type: ``types`` holds each element's gold type (None for negatives).

    Returns ``{type: {"elements", "found", "recall"}}`` sorted by type.
    """
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for kind, flagged in zip(types, predicted, strict=True):
        if kind is not None:
            counts[kind][0] += 1
            counts[kind][1] += int(bool(flagged))
    return {kind: {"elements": n, "found": found, "recall": _ratio(found, n)}
            for kind, (n, found) in sorted(counts.items())}


def reference_recall(groups: Iterable[list[int]], predicted: list[bool]) -> dict:
    """How many gold references (each a list of element indices) were found whole, in part, not at all."""
    whole = partly = missed = 0
    for group in groups:
        hits = sum(bool(predicted[i]) for i in group)
        if group and hits == len(group):
            whole += 1
        elif hits:
            partly += 1
        else:
            missed += 1
    total = whole + partly + missed
    return {"references": total, "whole": whole, "partly": partly, "missed": missed,
            "recall": _ratio(whole, total)}


def random_candidate_precision(candidates: Confusion, negatives_total: int) -> float:
    """Appendix A.2: the precision if every element were classified, from random-candidate counts.

    Every positive is a candidate, so true positives and recall stay as measured; the negative
    candidates are a random sample of all negatives, so a negative outside the candidates is
    assumed to be predicted positive as often as one inside (``P(T=1|X=0,M=0) = P(T=1|X=0,M=1)``).
    With ``X`` the true label, ``T`` the prediction and ``M`` "is a candidate" (A.2-A.4)::

        P(X=1|T=1) = P(X=1|T=1,M=1) * P(M=1|T=1)
        P(M=1|T=1) = P(T=1|M=1) * P(M=1) / P(T=1)
        P(T=1)     = P(T=1|X=1,M=1) * P(X=1) + P(T=1|X=0,M=1) * P(X=0)

    :param candidates: the confusion over the candidate elements.
    :param negatives_total: all negative elements of the test set, candidates or not.
    """
    if negatives_total < candidates.negatives:
        raise ValueError(f"negatives_total {negatives_total} is less than the {candidates.negatives} "
                         "negative candidates")
    elements = candidates.positives + negatives_total
    if not elements or not candidates.tp + candidates.fp:
        return 0.0
    p_masked = candidates.total / elements
    p_predicted_given_masked = (candidates.tp + candidates.fp) / candidates.total
    p_predicted = (candidates.recall * candidates.positives / elements
                   + candidates.false_positive_rate * negatives_total / elements)
    p_masked_given_predicted = p_predicted_given_masked * p_masked / p_predicted
    return candidates.precision * p_masked_given_predicted


def detected_recall(gold: Iterable[bool], predicted: Iterable[bool], proposed: Iterable[bool]) -> dict:
    """Table 6.3's detected recall: recall over the positive elements that were proposed.

    Also returns the candidate recall (the share of positives proposed at all) and the baseline
    precision (the share of proposed elements that are positive: what flagging every candidate
    would reach).
    """
    positives = found = proposed_positives = proposed_total = 0
    for g, p, c in zip(gold, predicted, proposed, strict=True):
        positives += bool(g)
        proposed_total += bool(c)
        if g and c:
            proposed_positives += 1
            found += bool(p)
    return {
        "detected_recall": _ratio(found, proposed_positives),
        "candidate_recall": _ratio(proposed_positives, positives),
        "baseline_precision": _ratio(proposed_positives, proposed_total),
    }


def leak_figures(documents: Iterable[tuple[list[bool], list[str | None], list[bool]]]) -> dict:
    """Leaks over ``(gold, types, predicted)`` per document: ``missed`` sensitive elements,
    ``missed_per_10k`` elements, ``documents_with_missed_name`` (a person's element missed) and
    ``documents_with_miss`` (any sensitive element missed), each also as a share of the documents."""
    elements = missed = documents_with_miss = documents_with_name = count = 0
    for gold, types, predicted in documents:
        count += 1
        elements += len(gold)
        misses = [kind for g, kind, p in zip(gold, types, predicted, strict=True) if g and not p]
        missed += len(misses)
        documents_with_miss += bool(misses)
        documents_with_name += any(kind in PERSON_TYPES for kind in misses)  # a miss that reveals a person
    return {"missed": missed, "missed_per_10k": _ratio(10_000 * missed, elements),
            "documents": count, "documents_with_missed_name": documents_with_name,
            "share_with_missed_name": _ratio(documents_with_name, count),
            "documents_with_miss": documents_with_miss, "share_with_miss": _ratio(documents_with_miss, count)}
