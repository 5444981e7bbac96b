"""Validate the placeholder detector against gold labels (thesis 5.3.2.1, Table 6.1).

Gold comes from documents with gold ``spans`` (the bundled LER corpus, a pseudonymization
test set's source) or from the decisions file of the terminal tool (``{"id", "start", "end",
"placeholder"}`` per decided element). Both are compared at element level: an element is a
gold placeholder when a gold span overlaps it.

The LER gold counts only placeholders inside person, company and place entities: an anonymized
court seat ("Amtsgericht P."), an authority ("Finanzamt X") or a redacted amount ("... €") is
not in it, while initials of authors named in clear are. *Hand-checked labels* (a decisions file
whose lines override the gold for the elements they name, ``rulings_anon/data/checked/<court>.jsonl``)
correct that for a court.
"""

from __future__ import annotations

from rulings_anon.confusion import Confusion
from rulings_anon.document import Document, element_labels
from rulings_anon.errors import InputError
from rulings_anon.jsonl import read_jsonl
from rulings_anon.placeholders.detector import PlaceholderDetector

CheckedLabels = dict[tuple[str, int, int], bool]


def read_checked_labels(path) -> CheckedLabels:
    """Hand-checked element labels: ``(doc id, start, end) -> placeholder`` from a decisions file."""
    labels: CheckedLabels = {}
    for number, line in enumerate(read_jsonl(path), 1):
        try:
            labels[(line["id"], int(line["start"]), int(line["end"]))] = bool(line["placeholder"])
        except (KeyError, TypeError, ValueError):
            raise InputError("a checked label needs 'id', 'start', 'end' and 'placeholder'", path, number) from None
    return labels


def bundled_checked_labels(courts) -> CheckedLabels:
    """The hand-checked labels shipped for bundled ``courts`` (``rulings_anon/data/checked/<court>.jsonl``)."""
    from rulings_anon import data
    labels: CheckedLabels = {}
    for court in courts:
        path = data.checked_labels_file(court)
        if path is None:
            raise InputError(f"no hand-checked labels for court {court!r}", data.path("checked"))
        labels.update(read_checked_labels(path))
    return labels


def validate_documents(documents, detector: PlaceholderDetector | None = None,
                       keep_errors: int = 0, checked: CheckedLabels | None = None,
                       ) -> tuple[Confusion, list[tuple[str, int, int, str]]]:
    """Compare detected placeholders with each document's gold ``spans`` element by element.

    ``checked`` labels replace the gold of the elements they name; one that names no element of
    its document means the labels were made on another text and is an error.
    Returns the counts and the first ``keep_errors`` disagreements ``(doc id, start, end, FP|FN)``.
    """
    detector = detector or PlaceholderDetector()
    confusion = Confusion()
    errors: list[tuple[str, int, int, str]] = []
    for document in documents:
        elements, predicted = detector.document_element_labels(document.text)
        gold = element_labels(elements, document.spans)
        if checked:
            gold = _with_checked(document.id, elements, gold, checked)
        confusion = confusion + Confusion.count(gold, predicted)
        for element, g, p in zip(elements, gold, predicted):
            if g != p and len(errors) < keep_errors:
                errors.append((document.id, element.start, element.end, "FN" if g else "FP"))
    return confusion, errors


def _with_checked(doc_id: str, elements, gold: list[bool], checked: CheckedLabels) -> list[bool]:
    wanted = {(start, end): label for (i, start, end), label in checked.items() if i == doc_id}
    if not wanted:
        return gold
    merged = [wanted.pop((e.start, e.end), g) for e, g in zip(elements, gold)]
    if wanted:
        (start, end), _ = next(iter(wanted.items()))
        raise InputError(f"checked label {doc_id}:{start}-{end} names no element of that document "
                         f"(labels made on another text?)")
    return merged


def validate_decisions(document: Document, decisions: list[dict],
                       detector: PlaceholderDetector | None = None) -> Confusion:
    """Compare the detector with a user's decisions (terminal tool) on the decided elements."""
    detector = detector or PlaceholderDetector()
    elements, predicted = detector.document_element_labels(document.text)
    by_offset = {(e.start, e.end): p for e, p in zip(elements, predicted)}
    decided = [d for d in decisions if (d["start"], d["end"]) in by_offset]
    return Confusion.count([bool(d["placeholder"]) for d in decided],
                           [by_offset[(d["start"], d["end"])] for d in decided])


def detection_metrics(confusion: Confusion) -> dict:
    """Table 6.1's rates plus the element counts behind them (what ``--json`` prints)."""
    return {"elements": confusion.total, "gold_placeholders": confusion.positives,
            "detected": confusion.tp + confusion.fp, **confusion.to_dict()}


def format_table(metrics: dict, title: str = "Placeholder detection") -> str:
    """Table 6.1 layout: metric values in %."""
    rows = [("Accuracy", "accuracy"), ("Precision", "precision"), ("Recall (Sensitivity)", "recall"),
            ("Specificity", "specificity"), ("F1 Score", "f1")]
    lines = [f"{title} ({metrics['elements']:,} elements, {metrics['gold_placeholders']:,} gold placeholders)",
             f"{'Metric':<22}{'%':>8}"]
    lines += [f"{name:<22}{100 * metrics[key]:>8.1f}" for name, key in rows]
    return "\n".join(lines)
