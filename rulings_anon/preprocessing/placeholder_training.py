"""Training data and folds of the placeholder classifier.

The examples are the candidate elements of rulings with gold (``rulings_anon/data/ler`` for the
bundled courts) with their gold: the placeholder spans corrected by the hand-checked labels
(``rulings_anon/data/checked``). :func:`train` fits :mod:`rulings_anon.placeholders.judge` on the
documents of the courts it is given and no others: a leave-one-court-out fold sees nothing of the
court it is measured on. :func:`corpus_examples` reads any corpus with gold ``spans``
(``train-placeholder-judge``).
"""

from __future__ import annotations

import re

from rulings_anon import data
from rulings_anon.document import element_labels, split_elements
from rulings_anon.inputs import read_documents
from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.placeholders.judge import PlaceholderModel, WindowFeatures
from rulings_anon.placeholders.judge_training import SETTINGS, JudgeExamples, fit_judge
from rulings_anon.placeholders.judge_training import document_examples as text_examples

from .detector_validation import _with_checked, read_checked_labels

COURTS = ["bag", "bfh", "bgh", "bpatg", "bsg", "bverfg"]


def court_documents(court: str) -> list:
    return list(read_documents(data.ler_corpus_files([court])))


def court_checked(court: str) -> dict:
    file = data.checked_labels_file(court)
    return read_checked_labels(file) if file else {}


def group_of(document) -> str:
    """A ruling's group: its court, lower case, runs of other characters a hyphen ("BAG" -> "bag")."""
    court = document.meta.get("court")
    name = re.sub(r"[^0-9a-zäöüß]+", "-", str(court).casefold()).strip("-") if court else ""
    return name or "unknown"


def document_examples(detector, featurizer, document, checked) -> list[tuple[list[str], bool]]:
    """``(features, gold)`` of every candidate element of a document (gold: its spans corrected by
    the hand-checked labels)."""
    elements = split_elements(document.text)
    gold = element_labels(elements, document.spans)
    if checked:
        gold = _with_checked(document.id, elements, gold, checked)
    return text_examples(detector, featurizer, document.text, gold)


def corpus_examples(documents, checked=None, progress=None) -> JudgeExamples:
    """The examples of ``documents`` (those with gold spans), each in its court's group."""
    detector = PlaceholderDetector()
    featurizer = WindowFeatures(detector)
    examples = JudgeExamples()
    for document in documents:
        rows = document_examples(detector, featurizer, document, checked)
        examples.add(document.id, group_of(document), rows)
        if progress is not None:
            progress(document)
    return examples


class Examples(JudgeExamples):
    """The bundled courts' examples, computed once; a fold takes the documents it may see."""

    def __init__(self, courts=COURTS, max_documents: int | None = None):
        super().__init__()
        detector = PlaceholderDetector()
        featurizer = WindowFeatures(detector)
        for court in courts:
            checked = court_checked(court)
            for document in court_documents(court)[:max_documents]:
                self.add(document.id, court, document_examples(detector, featurizer, document, checked))


def train(examples: JudgeExamples, courts, settings=SETTINGS) -> PlaceholderModel:
    """The classifier fitted on the documents of ``courts`` only."""
    return fit_judge(examples, courts, settings)
