"""Rulings as courts keep them: Word, OpenDocument, PDF, RTF and HTML files, read and written back.

Each reader gives the :class:`~rulings_anon.document.Document` whose text ``score`` reports and
keeps, internally, where every character of it lives (:mod:`.segments`). :func:`write_anonymized`
writes a file with replacements over that text in the input's format: a ``.docx`` for a Word file,
an ``.odt`` for an OpenDocument file (runs, tables, headers, footers and footnotes kept; the
metadata that names people removed), a ``.docx`` of plain paragraphs for a PDF or RTF file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from rulings_anon.document import Document
from rulings_anon.errors import InputError

from .segments import PARAGRAPH_BREAK, TextMap, replaced_text

# Suffix -> the suffix of the anonymized file written for it.
OUTPUT_SUFFIXES = {".docx": ".docx", ".odt": ".odt", ".pdf": ".docx", ".rtf": ".docx"}
DOCUMENT_SUFFIXES = tuple(OUTPUT_SUFFIXES)

# Documents read in this process: id -> the file, so that a command writing outputs finds the file
# a document's anonymized copy is written from.
_SOURCES: dict[str, Path] = {}


def _reader(path: Path):
    suffix = path.suffix.lower()
    if suffix == ".docx":
        from . import word_files as module
    elif suffix == ".odt":
        from . import opendocument as module
    elif suffix == ".pdf":
        from . import pdf_text as module
    elif suffix == ".rtf":
        from . import rtf_text as module
    else:
        raise InputError(f"not a document file (expected {', '.join(DOCUMENT_SUFFIXES)})", path)
    return module


def text_map(path) -> TextMap:
    """The reported text of a document file and where its characters live."""
    path = Path(path)
    return _reader(path).read_text(path)


def read_document(path) -> Document:
    """The ruling of a .docx, .odt, .pdf or .rtf file (its id the file name without suffix)."""
    path = Path(path)
    document = Document(path.stem, text_map(path).text, {"source": str(path)})
    _SOURCES[document.id] = path
    return document


def remember_source(doc_id: str, path) -> None:
    """Note that document ``doc_id`` was read from the document file ``path`` (in another process:
    a worker of ``score --runner``), so that its anonymized copy is written in that file's format."""
    _SOURCES[doc_id] = Path(path)


def source_file(doc_id: str) -> Path | None:
    """The document file ``doc_id`` was read from in this process, if it was one."""
    return _SOURCES.get(doc_id)


def output_suffix(path) -> str:
    """The suffix of the anonymized file written for ``path`` (a PDF or RTF ruling gets a .docx)."""
    return OUTPUT_SUFFIXES[Path(path).suffix.lower()]


def write_anonymized(source_path, replacements: Iterable[tuple[int, int, str]], out_path,
                     private: bool = True) -> Path:
    """Write ``source_path`` with ``replacements`` (``(start, end, value)`` over its reported text)
    to ``out_path`` in the format :func:`output_suffix` names; returns ``out_path``.

    Written atomically (nothing is left on an error), 0600 unless ``private`` is False."""
    from rulings_anon.jsonl import atomic_writer

    source, out = Path(source_path), Path(out_path)
    module = _reader(source)
    if out.suffix.lower() != output_suffix(source):
        raise InputError(f"an anonymized {source.suffix.lower()} file is written as {output_suffix(source)}: "
                         f"name the output *{output_suffix(source)}", out)
    replacements = list(replacements)
    with atomic_writer(out, "wb", compress=False, private=private) as handle:
        if hasattr(module, "write"):
            module.write(source, replacements, handle)
        else:
            from . import plain_docx

            plain_docx.write(replaced_text(module.read_text(source).text, replacements), handle)
    return out


def write_document_copy(folder, stem: str, doc_id: str, text: str) -> str | None:
    """Write the anonymized ``text`` of document ``doc_id`` as ``folder/stem.SUFFIX`` in its file's
    format when it was read from a document file in this process; returns the file name, or None
    for a document of another source (which the caller writes as text)."""
    source = _SOURCES.get(doc_id)
    if source is None:
        return None
    name = f"{stem}{output_suffix(source)}"
    write_anonymized(source, edits_between(text_map(source).text, text), Path(folder) / name)
    return name


def edits_between(original: str, anonymized: str) -> list[tuple[int, int, str]]:
    """``(start, end, value)`` that turn ``original`` into ``anonymized`` (for outputs whose
    replacements are known only as the text they made). Replacements leave the paragraphs as they
    are, so paragraphs are paired in order and only the words of those that differ are aligned."""
    old_paragraphs = original.split(PARAGRAPH_BREAK)
    new_paragraphs = anonymized.split(PARAGRAPH_BREAK)
    if len(old_paragraphs) != len(new_paragraphs):
        return _word_edits(original, anonymized, (0, len(original)), (0, len(anonymized)))
    edits, old_start, new_start = [], 0, 0
    for old, new in zip(old_paragraphs, new_paragraphs, strict=True):
        if old != new:
            edits += _word_edits(original, anonymized, (old_start, old_start + len(old)),
                                 (new_start, new_start + len(new)))
        old_start += len(old) + len(PARAGRAPH_BREAK)
        new_start += len(new) + len(PARAGRAPH_BREAK)
    return edits


def _starts(tokens: list[str]) -> list[int]:
    starts = [0]
    for token in tokens:
        starts.append(starts[-1] + len(token))
    return starts


_TOKENS = re.compile(r"\w+\s*|[^\w\s]\s*|\s+")


def _word_edits(original: str, anonymized: str, old_range, new_range) -> list[tuple[int, int, str]]:
    import difflib

    old = _TOKENS.findall(original[old_range[0]:old_range[1]])
    new = _TOKENS.findall(anonymized[new_range[0]:new_range[1]])
    starts = [old_range[0] + s for s in _starts(old)]
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(starts[i1], starts[i2], "".join(new[j1:j2]))
            for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
