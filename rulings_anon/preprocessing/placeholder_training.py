"""Training data and folds of the placeholder classifier.

The examples are the candidate elements of the bundled LER courts (``rulings_anon/data/ler``) with their gold:
the LER placeholder spans corrected by the hand-checked labels (``rulings_anon/data/checked``). :func:`train`
fits :mod:`rulings_anon.placeholders.judge` on the documents of the courts it is given and no
others: a leave-one-court-out fold sees nothing of the court it is measured on.
"""

from __future__ import annotations

from rulings_anon import data
from rulings_anon.document import element_labels, split_elements
from rulings_anon.inputs import read_documents
from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.placeholders.judge import (
    PlaceholderModel,
    WindowFeatures,
    fit_logistic,
    overlaps,
    paragraph_candidates,
    positive_intervals,
)
from rulings_anon.placeholders.paragraphs import extract_paragraphs

from .detector_validation import _with_checked, read_checked_labels

COURTS = ["bag", "bfh", "bgh", "bpatg", "bsg", "bverfg"]
# Chosen before the last runs and the same in every fold: L2 3, positives weighted 2 (a missed
# placeholder costs more than a false one), every training court weighted alike (the patent court's
# many letter labels must not outvote the others), features seen at least twice.
SETTINGS = {"l2": 3.0, "positive_weight": 2.0, "balance_courts": True, "court_copies": True, "iterations": 300,
            "min_count": 2, "threshold": 0.5}
# ``court_copies``: each feature also enters training as a copy for its court ("bpatg|p:cap:noun"),
# which absorbs what is peculiar to that court (the patent court's letter labels after technical
# nouns) so that the shared weights keep what holds across courts (Daume 2007, "frustratingly easy
# domain adaptation"). A new court has no copy: only the shared weights are kept and shipped.


def court_documents(court: str) -> list:
    return list(read_documents(data.ler_corpus_files([court])))


def court_checked(court: str) -> dict:
    file = data.checked_labels_file(court)
    return read_checked_labels(file) if file else {}


def document_examples(detector, featurizer, document, checked) -> list[tuple[list[str], bool]]:
    """``(features, gold)`` of every candidate element of a document (gold: the LER spans
    corrected by the hand-checked labels)."""
    elements = split_elements(document.text)
    gold = element_labels(elements, document.spans)
    if checked:
        gold = _with_checked(document.id, elements, gold, checked)
    intervals = positive_intervals(elements, gold)
    starts = [a for a, _ in intervals]
    out = []
    paragraphs = extract_paragraphs(document.text)
    with detector.document(paragraphs):
        for paragraph in paragraphs:
            texts = paragraph.text.split()
            p_elements = split_elements(paragraph.text)
            for i, _, features in paragraph_candidates(detector, featurizer, texts):
                a, b = paragraph.to_document_span(p_elements[i].start, p_elements[i].end)
                out.append((features, overlaps(intervals, starts, a, b)))
    return out


class Examples:
    """Training examples per document, computed once; a fold takes the documents it may see."""

    def __init__(self, courts=COURTS, max_documents: int | None = None):
        detector = PlaceholderDetector()
        featurizer = WindowFeatures(detector)
        self.by_document: dict[str, list] = {}
        self.court_of: dict[str, str] = {}
        for court in courts:
            checked = court_checked(court)
            for document in court_documents(court)[:max_documents]:
                self.by_document[document.id] = document_examples(detector, featurizer, document, checked)
                self.court_of[document.id] = court

    def documents(self, courts) -> list[str]:
        wanted = set(courts)
        return [d for d, c in self.court_of.items() if c in wanted]


def train(examples: Examples, courts, settings=SETTINGS) -> PlaceholderModel:
    """The classifier fitted on the documents of ``courts`` only."""
    documents = examples.documents(courts)
    sizes = {c: sum(len(examples.by_document[d]) for d in examples.documents([c])) for c in courts}
    rows, labels, weights_ = [], [], []
    for doc_id in documents:
        court = examples.court_of[doc_id]
        share = sum(sizes.values()) / (len(sizes) * sizes[court]) if settings["balance_courts"] else 1.0
        for features, gold in examples.by_document[doc_id]:
            rows.append(features + [f"{court}|{f}" for f in features] if settings["court_copies"] else features)
            labels.append(gold)
            weights_.append(share)
    weights = fit_logistic(rows, labels, l2=settings["l2"], iterations=settings["iterations"],
                           min_count=settings["min_count"], positive_weight=settings["positive_weight"],
                           weights=weights_)
    weights = {f: w for f, w in weights.items() if "|" not in f or f.split("|", 1)[0] not in COURTS}
    meta = {"trained_on": sorted(courts), "documents": len(documents), "examples": len(rows),
            "positives": sum(labels), **{k: v for k, v in settings.items() if k != "threshold"}}
    model = PlaceholderModel(weights, settings["threshold"], meta)
    model.trained_documents = frozenset(documents)  # for the fold-isolation test; not saved
    return model
