"""Anonymized copies of document files (.docx, .odt, .pdf, .rtf): spans and an operator in, a file
of the input's format out (:mod:`rulings_anon.documents` writes it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulings_anon.document import Span
from rulings_anon.documents import output_suffix, text_map
from rulings_anon.documents import write_anonymized as write_replacements

from .operators import Operator, replace


def replacements(text: str, spans: Sequence[Span], operator: Operator) -> list[tuple[int, int, str]]:
    """``(start, end, value)`` over ``text``: what ``operator`` puts in place of each span."""
    replaced = replace(text, spans, operator)
    return [(edit.old_start, edit.old_end, replaced.text[edit.start:edit.end + edit.extra]) for edit in replaced.edits]


def write_anonymized(source_path, spans: Sequence[Span], operator: Operator, out_path=None) -> Path:
    """Write ``source_path`` with ``spans`` (offsets into the text ``score`` reports for it) replaced
    by ``operator``, in the input's format (a PDF or RTF file as .docx); returns the path written
    (default: beside the source, ``NAME.anonymized.SUFFIX``)."""
    source = Path(source_path)
    if out_path is None:
        out_path = source.with_name(f"{source.stem}.anonymized{output_suffix(source)}")
    text = text_map(source).text
    return write_replacements(source, replacements(text, spans, operator), out_path)
