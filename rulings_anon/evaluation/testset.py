"""Pseudonymized gold test sets from the bundled LER rulings (thesis 5.5.1, automated).

The courts' placeholders in a LER record ("K.", "M-GmbH", "...") are its gold spans. Replacing each
by a realistic surrogate of its type that keeps what the placeholder shows (initials, legal form),
the same placeholder by the same surrogate within a document, gives text that reads like a
non-anonymized ruling, with gold spans that point exactly at the surrogates' names (not their
titles or legal forms: :func:`rulings_anon.replacement.operators.sensitive_part`): the gold format of
docs/architecture.md, ``{"id", "text", "spans": [{"start", "end", "type"}]}`` (types as in
:data:`rulings_anon.replacement.surrogates.TYPES`). The surrogates come from the terminal tool's generator
(:func:`rulings_anon.replacement.operators.pseudonymize_record`), seeded per document id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rulings_anon.errors import InputError
from rulings_anon.jsonl import read_jsonl

GOLD_KEYS = ("id", "court", "text", "spans")


_LEADING = "([{„\"‚'»«<"
_TRAILING = ")]}“\"‘'«»>,;:!?"


def apply_checked(record: dict, checked: dict) -> dict:
    """``record`` with its placeholder ``spans`` corrected by hand-checked element labels.

    ``checked`` maps ``(doc id, start, end)`` of an element to whether it is a placeholder
    (:func:`preprocessing.detector_validation.read_checked_labels`). An element checked "no" is cut out of
    the spans; one checked "yes" that no span covers becomes a span of its own (without brackets,
    quotes, a trailing comma, or a sentence period after a full word), typed later from its form.
    """
    from rulings_anon.document import split_elements

    text = record["text"]
    labels = {(start, end): label for (doc_id, start, end), label in checked.items() if doc_id == record.get("id")}
    if not labels:
        return record
    marked = bytearray(len(text))
    types: list[str | None] = [None] * len(text)
    for span in record.get("spans") or []:
        for i in range(span["start"], span["end"]):
            marked[i], types[i] = 1, span.get("type")
    for element in split_elements(text):
        label = labels.get((element.start, element.end))
        if label is False:
            marked[element.start:element.end] = bytes(element.end - element.start)
        elif label is True and not any(marked[element.start:element.end]):
            start, end = element.start, element.end
            while start < end and text[start] in _LEADING:
                start += 1
            while end > start and text[end - 1] in _TRAILING:
                end -= 1
            word = text[start:end]
            if word.endswith(".") and not word.endswith("...") and len(word.rstrip(".")) > 2:
                end -= 1  # "Gmünd." ends a sentence; "K." and "Dr." keep their period
            marked[start:end] = b"\x01" * (end - start)
    spans = []
    i = 0
    while i < len(text):
        if not marked[i]:
            i += 1
            continue
        j = i
        while j < len(text) and marked[j]:
            j += 1
        start, end = i, j
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            kind = next((t for t in types[start:end] if t), None)
            spans.append({"start": start, "end": end, **({"type": kind} if kind else {})})
        i = j
    return {**record, "spans": spans}


def gold_records(paths: Iterable, seed: int = 0, limit: int | None = None,
                 checked: dict | None = None, names: str = "foreign") -> Iterator[dict]:
    """Gold records of the LER records in ``paths``, at most ``limit`` in all; ``checked``
    element labels correct the records' placeholder spans first (:func:`apply_checked`).

    Surrogates come from the ``foreign`` names, which no model of this project trains on
    (``rulings_anon.replacement.surrogates.NAME_HALVES``): a test must not reward names learnt by heart."""
    from rulings_anon.replacement.operators import pseudonymize_record
    from rulings_anon.replacement.surrogates import SurrogateGenerator

    generator = SurrogateGenerator(seed, names)
    count = 0
    for path in paths:
        for line, record in enumerate(read_jsonl(path), 1):
            if limit is not None and count >= limit:
                return
            if not isinstance(record.get("text"), str) or not isinstance(record.get("spans", []), list):
                raise InputError("a LER record needs 'text' and a 'spans' list", path, line)
            if checked:
                record = apply_checked(record, checked)
            try:
                pseudonymized = pseudonymize_record(record, generator)
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(f"cannot pseudonymize the record: {exc}", path, line) from None
            yield {key: pseudonymized[key] for key in GOLD_KEYS if key in pseudonymized}
            count += 1
