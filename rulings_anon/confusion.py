"""Element-level confusion counts, shared by detector validation and model evaluation.

The unit is the text element (thesis 5.5.3): placeholder detection (Table 6.1) and the
evaluation methods (Tables 6.2-6.4) report the same rates from the same counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass


@dataclass
class Confusion:
    """Counts of an element-level binary classification."""

    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0

    @classmethod
    def count(cls, gold: Iterable[bool], predicted: Iterable[bool], selected: Iterable[bool] | None = None
              ) -> Confusion:
        """Count ``gold`` against ``predicted``; with ``selected`` only where it is true."""
        confusion = cls()
        pairs = zip(gold, predicted, strict=True)
        if selected is not None:
            pairs = (p for p, s in zip(pairs, selected, strict=True) if s)
        for g, p in pairs:
            if g:
                if p:
                    confusion.tp += 1
                else:
                    confusion.fn += 1
            elif p:
                confusion.fp += 1
            else:
                confusion.tn += 1
        return confusion

    def __add__(self, other: Confusion) -> Confusion:
        return Confusion(self.tp + other.tp, self.fp + other.fp, self.tn + other.tn, self.fn + other.fn)

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    @property
    def positives(self) -> int:
        return self.tp + self.fn

    @property
    def negatives(self) -> int:
        return self.fp + self.tn

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def accuracy(self) -> float:
        return _ratio(self.tp + self.tn, self.total)

    @property
    def specificity(self) -> float:
        return _ratio(self.tn, self.tn + self.fp)

    @property
    def false_positive_rate(self) -> float:
        return _ratio(self.fp, self.fp + self.tn)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict:
        """Counts and rates, as ``evaluate --json`` prints them."""
        return {**asdict(self), "recall": self.recall, "precision": self.precision,
                "accuracy": self.accuracy, "specificity": self.specificity, "f1": self.f1}


def _ratio(numerator: int, denominator: int) -> float:
    """``numerator / denominator``; 0.0 for an empty denominator (nothing to find, nothing found)."""
    return numerator / denominator if denominator else 0.0
