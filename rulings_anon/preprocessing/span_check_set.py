"""Measure the placeholder detector on a check set labelled by spans, with regions left unscored.

A check set is a JSONL file of rulings, one per line: ``{"id", "text", "spans", "ignore"}``, where
``spans`` are the placeholders a person found (``{"start", "end", "type"}``) and ``ignore`` marks
``{"start", "end"}`` regions where it cannot be told whether something was removed. As in
:mod:`rulings_anon.preprocessing.detector_validation`, an element is a gold placeholder when a
gold span overlaps it; elements that overlap an ignored region are not counted at all. Recall is
also given per type (the detector gives no types, so precision is given only over all).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rulings_anon.confusion import Confusion
from rulings_anon.errors import InputError
from rulings_anon.jsonl import read_jsonl
from rulings_anon.placeholders.detector import PlaceholderDetector


@dataclass(frozen=True)
class CheckedRuling:
    """One ruling of a check set: its text, typed gold spans and unscored regions."""

    id: str
    text: str
    spans: tuple[tuple[int, int, str], ...]
    ignore: tuple[tuple[int, int], ...]


@dataclass
class CheckSetResult:
    """The element counts over all types, and per gold type the gold elements found and missed."""

    confusion: Confusion = field(default_factory=Confusion)
    found: Counter = field(default_factory=Counter)
    missed: Counter = field(default_factory=Counter)
    ignored: int = 0
    errors: list[tuple[str, int, int, str, str]] = field(default_factory=list)  # id, start, end, FP|FN, type

    def recall_by_type(self) -> dict[str, float]:
        return {t: self.found[t] / (self.found[t] + self.missed[t])
                for t in sorted(set(self.found) | set(self.missed))}

    def to_dict(self) -> dict:
        c = self.confusion
        return {"elements": c.total, "ignored_elements": self.ignored, "gold_placeholders": c.positives,
                "detected": c.tp + c.fp, "precision": c.tp / max(1, c.tp + c.fp),
                "recall": c.tp / max(1, c.positives), "recall_by_type": self.recall_by_type(),
                "gold_by_type": {t: self.found[t] + self.missed[t] for t in self.recall_by_type()}}


def read_check_set(path) -> list[CheckedRuling]:
    """The rulings of a check set file; a span outside its text is an error."""
    out = []
    for number, row in enumerate(read_jsonl(path), 1):
        try:
            text = row["text"]
            spans = tuple((int(s["start"]), int(s["end"]), str(s.get("type", "OTHER"))) for s in row["spans"])
            ignore = tuple((int(s["start"]), int(s["end"])) for s in row.get("ignore", ()))
            ruling = CheckedRuling(str(row["id"]), text, spans, ignore)
        except (KeyError, TypeError, ValueError):
            raise InputError("a check-set line needs 'id', 'text' and 'spans' with 'start' and 'end'",
                             path, number) from None
        if any(not 0 <= a < b <= len(text) for a, b, _ in spans + tuple((a, b, "") for a, b in ignore)):
            raise InputError("a span lies outside its ruling's text", path, number)
        out.append(ruling)
    return out


def measure_check_set(rulings, detector: PlaceholderDetector | None = None,
                      keep_errors: int = 0) -> CheckSetResult:
    """The detector's element counts on ``rulings`` (of :func:`read_check_set`)."""
    detector = detector or PlaceholderDetector()
    result = CheckSetResult()
    for ruling in rulings:
        elements, predicted = detector.document_element_labels(ruling.text)
        gold, scored = [], []
        for element, p in zip(elements, predicted):
            ignored = any(a < element.end and element.start < b for a, b in ruling.ignore)
            types = [t for a, b, t in ruling.spans if a < element.end and element.start < b]
            gold.append(bool(types))
            scored.append(not ignored)
            if ignored:
                result.ignored += 1
                continue
            if types:
                (result.found if p else result.missed)[types[0]] += 1
            if bool(types) != p and len(result.errors) < keep_errors:
                result.errors.append((ruling.id, element.start, element.end, "FN" if types else "FP",
                                      types[0] if types else ""))
        result.confusion = result.confusion + Confusion.count(gold, predicted, scored)
    return result
