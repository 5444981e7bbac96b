"""Precision and recall over the score threshold, from one prediction pass.

The model and the proposers run once (:func:`evaluation.evaluate.observe_gold`); only the
decision step is repeated per threshold, so a curve of twenty points costs a fraction of an
``evaluate`` run. ``evaluate --curve FILE.json`` writes the curve of what it measured
(:func:`write_curve`), and the pipeline report draws those files as ``precision-recall.png``
(thesis 7.1: recall matters more than precision, the curve shows what a lower threshold buys).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulings_anon.analyzer.decisions import Settings
from rulings_anon.document import Document
from rulings_anon.jsonl import atomic_writer, read_json, write_json

from .evaluate import curve_points, gold_documents, observe_gold

DEFAULT_THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 20))


def threshold_curve(documents: Sequence[Document], model, method: str, settings: Settings, *, ner=None,
                    recognizers: bool = True, thresholds: Sequence[float] = DEFAULT_THRESHOLDS) -> list[dict]:
    """``[{"threshold", "recall", "precision", "f1"}]`` for each threshold, ascending."""
    golds = gold_documents(documents)
    observations = observe_gold(golds, model, method, ner=ner, recognizers=recognizers)
    return curve_points(golds, observations, method, settings, thresholds)


def curve_label(method: str, combination: str | None) -> str:
    """How the report names a curve: the method, and for ``ner`` the combination that decides."""
    return f"ner ({combination})" if method == "ner" else method


def write_curve(path, method: str, combination: str | None, points: list[dict]) -> None:
    """The curve as a stage output: ``{"label", "method", "combination", "points"}``."""
    write_json(path, {"label": curve_label(method, combination), "method": method,
                      "combination": combination if method == "ner" else None, "points": points})


def read_curve(path) -> tuple[str, list[dict]]:
    """``(label, points)`` of a curve file that :func:`write_curve` wrote."""
    curve = read_json(path)
    return curve["label"], curve["points"]


def plot_curve(curves: dict[str, list[dict]], path, title: str = "Precision and recall over the threshold") -> None:
    """Write a PNG with one precision-recall line per method (threshold annotated)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 4.5), dpi=110)
    for label, points in curves.items():
        recalls = [p["recall"] for p in points]
        precisions = [p["precision"] for p in points]
        axis.plot(recalls, precisions, marker="o", markersize=3, label=label)
        for p in points[::4]:
            axis.annotate(f"{p['threshold']:.2f}", (p["recall"], p["precision"]), fontsize=7,
                          textcoords="offset points", xytext=(3, 3))
    axis.set_xlabel("recall")
    axis.set_ylabel("precision")
    axis.set_xlim(0, 1.02)
    axis.set_ylim(0, 1.02)
    axis.grid(alpha=0.3)
    axis.set_title(title, fontsize=10)
    axis.legend(fontsize=8)
    figure.tight_layout()
    with atomic_writer(path, "wb") as handle:
        figure.savefig(handle, format="png")
    plt.close(figure)
