"""Validate the placeholder detector against gold labels (thesis 5.3.2.1, Table 6.1).

Gold comes from documents with gold ``spans`` (the bundled LER corpus, a pseudonymization
test set's source) or from the decisions file of the terminal tool (``{"id", "start", "end",
"placeholder"}`` per decided element). Both are compared at element level: an element is a
gold placeholder when a gold span overlaps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulings_anon.document import Document, element_labels

from .placeholders import PlaceholderDetector


@dataclass
class Confusion:
    """Element-level confusion counts and the metrics of Table 6.1."""

    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0
    errors: list[tuple[str, int, int, str]] = field(default_factory=list, repr=False)

    def add(self, gold: bool, predicted: bool) -> None:
        if gold and predicted:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif gold:
            self.fn += 1
        else:
            self.tn += 1

    @staticmethod
    def _ratio(a: int, b: int) -> float:
        return a / b if b else 0.0

    def metrics(self) -> dict:
        precision = self._ratio(self.tp, self.tp + self.fp)
        recall = self._ratio(self.tp, self.tp + self.fn)
        return {
            "elements": self.tp + self.fp + self.tn + self.fn,
            "gold_placeholders": self.tp + self.fn,
            "detected": self.tp + self.fp,
            "accuracy": self._ratio(self.tp + self.tn, self.tp + self.fp + self.tn + self.fn),
            "precision": precision,
            "recall": recall,
            "specificity": self._ratio(self.tn, self.tn + self.fp),
            "f1": self._ratio(2 * precision * recall, precision + recall) if precision + recall else 0.0,
            "tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn,
        }


def validate_documents(documents, detector: PlaceholderDetector | None = None,
                       keep_errors: int = 0) -> Confusion:
    """Compare detected placeholders with each document's gold ``spans`` element by element."""
    detector = detector or PlaceholderDetector()
    confusion = Confusion()
    for document in documents:
        elements, predicted = detector.document_element_labels(document.text)
        gold = element_labels(elements, document.spans)
        for element, g, p in zip(elements, gold, predicted):
            confusion.add(g, p)
            if g != p and len(confusion.errors) < keep_errors:
                confusion.errors.append((document.id, element.start, element.end, "FN" if g else "FP"))
    return confusion


def validate_decisions(document: Document, decisions: list[dict],
                       detector: PlaceholderDetector | None = None) -> Confusion:
    """Compare the detector with a user's decisions (terminal tool) on the decided elements."""
    detector = detector or PlaceholderDetector()
    elements, predicted = detector.document_element_labels(document.text)
    by_offset = {(e.start, e.end): p for e, p in zip(elements, predicted)}
    confusion = Confusion()
    for decision in decisions:
        key = (decision["start"], decision["end"])
        if key in by_offset:
            confusion.add(bool(decision["placeholder"]), by_offset[key])
    return confusion


def format_table(metrics: dict, title: str = "Placeholder detection") -> str:
    """Table 6.1 layout: metric values in %."""
    rows = [("Accuracy", "accuracy"), ("Precision", "precision"), ("Recall (Sensitivity)", "recall"),
            ("Specificity", "specificity"), ("F1 Score", "f1")]
    lines = [f"{title} ({metrics['elements']:,} elements, {metrics['gold_placeholders']:,} gold placeholders)",
             f"{'Metric':<22}{'%':>8}"]
    lines += [f"{name:<22}{100 * metrics[key]:>8.1f}" for name, key in rows]
    return "\n".join(lines)
