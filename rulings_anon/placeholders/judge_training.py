"""Fitting the learned judge of :mod:`rulings_anon.placeholders.judge` on rulings with gold labels.

The examples are the candidate elements of each ruling (every element the rules call an obvious or
potential placeholder) with the ruling's gold: whether the element lies inside one of its
placeholders. Rulings come in groups (courts): each group is weighted alike, and each feature also
enters the fit as a copy for its group ("bpatg|p:cap:noun"), which absorbs what is peculiar to that
group so that the shared weights keep what holds across courts (Daume 2007, "frustratingly easy
domain adaptation"). A new court has no copy: only the shared weights are kept. Both
``train-placeholder-judge`` and the leave-one-court-out benchmark fit through :func:`fit_judge`.
"""

from __future__ import annotations

from rulings_anon.document import split_elements

from .judge import (
    PlaceholderModel,
    WindowFeatures,
    fit_logistic,
    overlaps,
    paragraph_candidates,
    positive_intervals,
)
from .paragraphs import extract_paragraphs

# Chosen before the last runs of the benchmark and the same in every fold: L2 3, positives weighted
# 2 (a missed placeholder costs more than a false one), every group weighted alike (the patent
# court's many letter labels must not outvote the others), features seen at least twice.
SETTINGS = {"l2": 3.0, "positive_weight": 2.0, "balance_courts": True, "court_copies": True,
            "iterations": 300, "min_count": 2, "threshold": 0.5}


def document_examples(detector, featurizer: WindowFeatures, text: str,
                      gold: list[bool]) -> list[tuple[list[str], bool]]:
    """``(features, gold)`` of every candidate element of a ruling; ``gold`` holds one label per
    whitespace-separated element of ``text`` (:func:`rulings_anon.document.split_elements`)."""
    elements = split_elements(text)
    intervals = positive_intervals(elements, gold)
    starts = [a for a, _ in intervals]
    out = []
    paragraphs = extract_paragraphs(text)
    with detector.document(paragraphs):
        for paragraph in paragraphs:
            texts = paragraph.text.split()
            p_elements = split_elements(paragraph.text)
            for i, _, features in paragraph_candidates(detector, featurizer, texts):
                a, b = paragraph.to_document_span(p_elements[i].start, p_elements[i].end)
                out.append((features, overlaps(intervals, starts, a, b)))
    return out


class JudgeExamples:
    """Training examples per ruling, computed once, and each ruling's group; a fit (or a fold)
    takes the groups it may see."""

    def __init__(self):
        self.by_document: dict[str, list[tuple[list[str], bool]]] = {}
        self.court_of: dict[str, str] = {}

    def add(self, doc_id: str, group: str, examples: list[tuple[list[str], bool]]) -> None:
        self.by_document[doc_id] = examples
        self.court_of[doc_id] = group

    def documents(self, groups) -> list[str]:
        wanted = set(groups)
        return [d for d, c in self.court_of.items() if c in wanted]

    def groups(self) -> list[str]:
        return sorted(set(self.court_of.values()))


def fit_judge(examples: JudgeExamples, groups, settings=SETTINGS, progress=None) -> PlaceholderModel:
    """The judge fitted on the rulings of ``groups`` only (``progress``: called with each step of
    the fit). Deterministic: the same examples give the same weights."""
    groups = list(groups)
    documents = examples.documents(groups)
    sizes = {c: sum(len(examples.by_document[d]) for d in examples.documents([c])) for c in groups}
    total = sum(sizes.values())
    rows, labels, weights_ = [], [], []
    for doc_id in documents:
        group = examples.court_of[doc_id]
        share = total / (len(sizes) * sizes[group]) if settings["balance_courts"] else 1.0
        for features, gold in examples.by_document[doc_id]:
            copies = [f"{group}|{f}" for f in features] if settings["court_copies"] else []
            rows.append(features + copies)
            labels.append(gold)
            weights_.append(share)
    weights = fit_logistic(rows, labels, l2=settings["l2"], iterations=settings["iterations"],
                           min_count=settings["min_count"], positive_weight=settings["positive_weight"],
                           weights=weights_, progress=progress)
    copies = set(groups)
    weights = {f: w for f, w in weights.items() if "|" not in f or f.split("|", 1)[0] not in copies}
    meta = {"trained_on": sorted(groups), "documents": len(documents), "examples": len(rows),
            "positives": sum(labels), **{k: v for k, v in settings.items() if k != "threshold"}}
    model = PlaceholderModel(weights, settings["threshold"], meta)
    model.trained_documents = frozenset(documents)  # for the fold-isolation test; not saved
    return model
