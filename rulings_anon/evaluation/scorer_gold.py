"""Reviewed rulings for ``train-scorer --gold``: read, checked, and described for ``config.json``.

Gold is a ruling with the spans a person confirmed: the ``gold.jsonl`` of a review export, or a
test set of ``replace`` or ``build-testset`` (the format ``evaluate --test`` reads). Its labels
are exact, so they are learnt as they are. An anonymized ruling is no gold: its spans are the
court's placeholders ("K.", "..."), which the weak labels already hold (give it as CORPUS).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

from rulings_anon.errors import InputError

# a span that is a placeholder, not a name: one to three capitals with their periods or
# hyphens ("K.", "M-", "B. K."), or an ellipsis
_PLACEHOLDER = re.compile(r"(?:[A-ZÄÖÜ][.\-]?\s?){1,3}|\.{3}|…")


def placeholder_spans(text: str, spans: Sequence[dict]) -> int:
    """How many of ``spans`` hold a placeholder rather than a name."""
    return sum(bool(_PLACEHOLDER.fullmatch(text[s["start"]:s["end"]].strip())) for s in spans)


def read_gold(paths: Sequence[Path]) -> tuple[list[dict], dict]:
    """The reviewed rulings of ``paths`` as ``{"id", "text", "spans"}``, and what ``config.json``
    records of them: each file's name, SHA-256, rulings and spans. A record without a ``spans``
    list, or whose spans are mostly placeholders, is an error naming its file and line."""
    from rulings_anon.inputs import read_input_documents, repeated_id_error, text_digest

    records: list[dict] = []
    files = []
    seen: dict[str, tuple[str, str]] = {}
    for path in map(Path, paths):
        if path.is_dir():
            raise InputError("--gold takes files of reviewed rulings (.jsonl), not a folder", path)
        count = spans = 0
        for line, document in enumerate(read_input_documents([path]), 1):
            if not document.gold:
                raise InputError("not gold: no 'spans' list; --gold takes reviewed rulings "
                                 "{\"id\", \"text\", \"spans\"} (review's gold.jsonl, build-testset's or "
                                 "replace's test sets)", path, line)
            record = {"id": document.id, "text": document.text,
                      "spans": [{"start": s.start, "end": s.end, **({"type": s.type} if s.type else {})}
                                for s in document.spans]}
            marked = placeholder_spans(document.text, record["spans"])
            if marked >= 2 and 2 * marked >= len(record["spans"]):
                raise InputError(f"not gold: {marked} of its {len(record['spans'])} spans are placeholders "
                                 "(an anonymized ruling: give it as CORPUS, the weak labels)", path, line)
            digest = text_digest(document.text)
            if document.id in seen:
                if seen[document.id][1] == digest:
                    continue
                raise repeated_id_error(document.id, seen[document.id][0], str(path))
            seen[document.id] = (str(path), digest)
            records.append(record)
            count, spans = count + 1, spans + len(record["spans"])
        files.append({"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                      "rulings": count, "spans": spans})
    return records, {"files": files, "rulings": len(records), "spans": sum(f["spans"] for f in files)}
