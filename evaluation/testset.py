"""Pseudonymized gold test sets from the bundled LER rulings (thesis 5.5.1, automated).

The courts' placeholders in a LER record ("K.", "M-GmbH", "...") are its gold spans. Replacing each
by a realistic surrogate of its type that keeps what the placeholder shows (initials, legal form),
the same placeholder by the same surrogate within a document, gives text that reads like a
non-anonymized ruling, with gold spans that point exactly at the surrogates: the gold format of
DESIGN.md, ``{"id", "text", "spans": [{"start", "end", "type"}]}`` (types as in
:data:`interactive.surrogates.TYPES`). The surrogates come from the terminal tool's generator
(:func:`interactive.surrogates.pseudonymize_record`), seeded per document id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rulings_anon.errors import InputError
from rulings_anon.jsonl import read_jsonl

GOLD_KEYS = ("id", "court", "text", "spans")


def gold_records(paths: Iterable, seed: int = 0, limit: int | None = None) -> Iterator[dict]:
    """Gold records of the LER records in ``paths``, at most ``limit`` in all."""
    from interactive.surrogates import SurrogateGenerator, pseudonymize_record

    generator = SurrogateGenerator(seed)
    count = 0
    for path in paths:
        for line, record in enumerate(read_jsonl(path), 1):
            if limit is not None and count >= limit:
                return
            if not isinstance(record.get("text"), str) or not isinstance(record.get("spans", []), list):
                raise InputError("a LER record needs 'text' and a 'spans' list", path, line)
            try:
                pseudonymized = pseudonymize_record(record, generator)
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(f"cannot pseudonymize the record: {exc}", path, line) from None
            yield {key: pseudonymized[key] for key in GOLD_KEYS if key in pseudonymized}
            count += 1
