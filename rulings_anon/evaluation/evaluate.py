"""The three evaluation methods of thesis 5.5.3 on a gold test set, at element level.

* ``random`` (5.5.3.1): every positive element plus 2.5 % random elements are candidates, masked
  with the mask token (scheme M7, as in training); the metrics count the candidates only, and the
  appendix A.2 estimate says what the precision would be if every element were classified.
* ``none`` (5.5.3.3): every element classified unmasked, as ``score`` does without a NER: the
  same decision (:func:`rulings_anon.analyzer.decisions.decide`: consistency, standalone recognizer hits)
  unless switched off.
* ``ner`` (5.5.3.2 with the combination of thesis 9.2): the legal NER and the recognizers propose
  references, which are masked; a reference is sensitive when the model says its context is,
  a standalone recognizer hit on its own. Table 6.3 adds the detected recall (recall over the
  positives that were proposed).

The model runs once per evaluation (:func:`observe`); :func:`measure` then decides and counts at
any threshold without running it again (the benchmark sweeps thresholds that way).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby

import numpy as np

from rulings_anon.analyzer.decisions import Settings, covered_elements
from rulings_anon.analyzer.evidence import Observation, observe
from rulings_anon.document import Document, Element, element_labels, split_elements
from rulings_anon.errors import InputError

from .metrics import (
    Confusion,
    detected_recall,
    leak_figures,
    per_type_recall,
    random_candidate_precision,
    reference_recall,
)

METHODS = ("random", "ner", "none")  # thesis 5.5.3 order: random, NER-chosen, none
RANDOM_CANDIDATE_RATE = 0.025  # thesis 5.5.3.1


@dataclass
class GoldDocument:
    """A test document split into elements, with the gold label and type of each element."""

    document: Document
    elements: list[Element]
    gold: list[bool]
    types: list[str | None]
    references: list[list[int]]

    @classmethod
    def from_document(cls, document: Document) -> GoldDocument:
        elements = split_elements(document.text)
        types: list[str | None] = [None] * len(elements)
        references = []
        for span in sorted(document.spans, key=lambda s: s.start):
            group = covered_elements(elements, span)
            references.append(group)
            for i in group:
                types[i] = types[i] or span.type or "untyped"
        return cls(document, elements, element_labels(elements, document.spans), types, references)


def gold_documents(documents: Sequence[Document]) -> list[GoldDocument]:
    """Gold documents of a test set; ids must be unique (predictions are matched by id)."""
    seen = set()
    for document in documents:
        if document.id in seen:
            raise InputError(f"document id {document.id!r} appears twice in the test set")
        seen.add(document.id)
    return [GoldDocument.from_document(d) for d in documents]


def random_candidates(gold: GoldDocument, rng: np.random.Generator, rate: float) -> list[bool]:
    """Every positive element plus each other element with probability ``rate`` (5.5.3.1)."""
    drawn = rng.random(len(gold.elements)) < rate
    return [bool(g or d) for g, d in zip(gold.gold, drawn, strict=True)]


def observe_gold(golds: Sequence[GoldDocument], model, method: str, *, ner=None, recognizers=True,
                 seed: int = 0, rate: float = RANDOM_CANDIDATE_RATE) -> list[Observation]:
    """Run the proposers and the model once (random candidates drawn with ``seed``)."""
    proposed = None
    if method == "random":
        rng = np.random.default_rng(seed)
        proposed = [random_candidates(g, rng, rate) for g in golds]
    return observe([g.document for g in golds], [g.elements for g in golds], model, method, ner=ner,
                   recognizers=recognizers, proposed=proposed)


def predicted_labels(gold: GoldDocument, observation: Observation, method: str, settings: Settings) -> list[bool]:
    """Per element: predicted sensitive (for ``none``/``ner`` exactly the elements ``score``'s spans cover)."""
    if method == "random":
        return [bool(c and p >= settings.threshold) for c, p in zip(observation.proposed, observation.probabilities,
                                                                     strict=True)]
    return element_labels(gold.elements, observation.spans(gold.document.text, gold.elements, settings))


def measure(golds: Sequence[GoldDocument], observations: Sequence[Observation], method: str,
            settings: Settings) -> dict:
    """The metrics of one method at ``settings`` (see the module docstring for what is counted)."""
    confusion = Confusion()
    all_gold: list[bool] = []
    all_predicted: list[bool] = []
    all_proposed: list[bool] = []
    types: list[str | None] = []
    reference_counts = {"references": 0, "whole": 0, "partly": 0, "missed": 0}
    per_document = []
    for gold, observation in zip(golds, observations, strict=True):
        predicted = predicted_labels(gold, observation, method, settings)
        selected = observation.proposed if method == "random" else None
        confusion = confusion + Confusion.count(gold.gold, predicted, selected)
        all_gold += gold.gold
        all_predicted += predicted
        all_proposed += observation.proposed or [False] * len(predicted)
        types += gold.types
        per_document.append((gold.gold, gold.types, predicted))
        for key, value in reference_recall(gold.references, predicted).items():
            if key != "recall":
                reference_counts[key] += value
    references = {**reference_counts, "recall": reference_counts["whole"] / reference_counts["references"]
                  if reference_counts["references"] else 0.0}
    result = {
        "method": method,
        "threshold": settings.threshold,
        "consistency": settings.consistency,
        "combination": settings.combination if method == "ner" else None,
        "documents": len(golds),
        "elements": len(all_gold),
        "positives": sum(all_gold),
        "metrics": confusion.to_dict(),
        "per_type": per_type_recall(types, all_predicted),
        "references": references,
        "leaks": leak_figures(per_document),
    }
    if method == "random":
        negatives = len(all_gold) - sum(all_gold)
        result["candidates"] = confusion.total
        result["candidate_rate"] = confusion.negatives / negatives if negatives else 0.0
        result["a2_precision"] = random_candidate_precision(confusion, negatives)
    if method == "ner":
        evaluated = [c or g or p for c, g, p in zip(all_proposed, all_gold, all_predicted, strict=True)]
        result["ner"] = {
            **detected_recall(all_gold, all_predicted, all_proposed),
            "candidates": sum(all_proposed),
            "candidate_accuracy": Confusion.count(all_gold, all_predicted, evaluated).accuracy,
        }
    return result


def evaluate(documents: Sequence[Document], model, method: str, settings: Settings, *, ner=None,
             recognizers=True, seed: int = 0, curve_thresholds: Sequence[float] | None = None,
             with_errors: bool = False) -> dict:
    """Observe and measure in one go; adds the time the model and proposers took, with
    ``curve_thresholds`` the precision-recall curve over them (``result["curve"]``,
    :func:`curve_points`) and ``with_errors`` the missed and false elements (``result["errors"]``,
    :func:`error_records`), from the same observations."""
    golds = gold_documents(documents)
    started = time.perf_counter()
    observations = observe_gold(golds, model, method, ner=ner, recognizers=recognizers, seed=seed)
    seconds = time.perf_counter() - started
    result = measure(golds, observations, method, settings)
    result["seconds"] = seconds
    result["elements_per_second"] = result["elements"] / seconds if seconds > 0 else 0.0
    if curve_thresholds:
        result["curve"] = curve_points(golds, observations, method, settings, curve_thresholds)
    if with_errors:
        result["errors"] = error_records(golds, observations, method, settings)
    return result


ERROR_CONTEXT = 60  # characters of context on each side of an error


def error_records(golds: Sequence[GoldDocument], observations: Sequence[Observation], method: str,
                  settings: Settings) -> list[dict]:
    """The elements the decision got wrong, as a reviewer reads them: each run of neighbouring
    elements of one kind ("missed": gold but not flagged, "false": flagged but not gold; for
    ``random`` only among the candidates) with its offsets, text, gold type, the highest element
    probability of the run and the text around it on one line. What a court looks at to see where
    a model trained on its rulings still leaks."""
    records = []
    for gold, observation in zip(golds, observations, strict=True):
        predicted = predicted_labels(gold, observation, method, settings)
        counted = observation.proposed if method == "random" else [True] * len(predicted)
        text, elements = gold.document.text, gold.elements
        kinds = [("missed" if g else "false") if c and g != p else None
                 for g, p, c in zip(gold.gold, predicted, counted, strict=True)]
        for (kind, kind_type), run in groupby(range(len(kinds)), key=lambda k: (kinds[k], gold.types[k])):
            if kind is None:
                continue
            run = list(run)
            start, end = elements[run[0]].start, elements[run[-1]].end
            records.append({
                "id": gold.document.id, "kind": kind, "start": start, "end": end, "text": text[start:end],
                "type": kind_type, "probability": round(float(observation.probabilities[run].max()), 4),
                "context": " ".join(text[max(0, start - ERROR_CONTEXT):end + ERROR_CONTEXT].split()),
            })
    return records


def curve_points(golds: Sequence[GoldDocument], observations: Sequence[Observation], method: str,
                 settings: Settings, thresholds: Sequence[float]) -> list[dict]:
    """The curve of observations already made: only the decision is repeated per threshold."""
    points = []
    for threshold in sorted(thresholds):
        metrics = measure(golds, observations, method, replace(settings, threshold=threshold))["metrics"]
        points.append({"threshold": threshold, "recall": metrics["recall"], "precision": metrics["precision"],
                       "f1": metrics["f1"]})
    return points
