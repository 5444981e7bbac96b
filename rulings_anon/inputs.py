"""Read input documents in every format the commands accept.

* ``.jsonl`` (also ``.jsonl.gz``/``.jsonl.xz``): one JSON object per line with ``text`` and
  usually ``id`` (documents, rulings and gold files alike);
* ``.txt``: one document, its id the file name without suffix;
* a corpus directory: its ``rulings.jsonl`` (what ``fetch`` writes), or else every supported
  file inside it;
* the portals' ``.xml``, ``.zip`` and ``.html`` files and the ``.tar.gz`` archives that
  ``split`` writes: parsed by :mod:`rulings_anon.formats`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from .document import Document
from .errors import InputError
from .jsonl import read_jsonl

JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.xz")
PORTAL_SUFFIXES = (".xml", ".zip", ".html", ".htm", ".tar.gz", ".tgz")
SUPPORTED = JSONL_SUFFIXES + (".txt",) + PORTAL_SUFFIXES


def _has_suffix(path: Path, suffixes: tuple[str, ...]) -> bool:
    name = path.name.lower()
    return any(name.endswith(s) for s in suffixes)


def decode_text(data: bytes, path, encoding: str | None = None) -> str:
    """Decode file bytes as UTF-8 (or ``encoding``); a clear error naming the file otherwise.

    ``encoding`` None means the command has no ``--encoding`` option: the advice for Latin-1 text
    is then to re-encode the file, else to pass the option (commands that have it pass their
    ``--encoding``, UTF-8 by default)."""
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        hint = ""
        try:
            data.decode("cp1252")
            advice = ("pass --encoding latin-1" if encoding is not None
                      else "re-encode it as UTF-8, e.g. iconv -f latin1 -t utf-8")
            hint = f" (it looks like ISO-8859-1/Windows-1252: {advice})"
        except UnicodeDecodeError:
            pass
        raise InputError(f"not UTF-8 text: invalid byte at offset {exc.start}{hint}", path) from None
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}", path) from None
    return text.lstrip("\ufeff")


def read_jsonl_documents(path) -> Iterator[Document]:
    """Documents of a JSONL file; a record without ``text`` is an error naming its line."""
    line = 0
    for line, record in enumerate(read_jsonl(path), 1):
        try:
            yield Document.from_record(record, where=f"{Path(path).stem}-{line}")
        except ValueError as exc:
            raise InputError(str(exc), path, line) from None


def read_text_document(path, encoding: str | None = None) -> Document:
    from .jsonl import MAX_LINE_BYTES

    path = Path(path)
    try:
        if path.stat().st_size > MAX_LINE_BYTES:
            raise InputError(f"larger than a ruling can be (more than {MAX_LINE_BYTES >> 20} MB)", path)
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror})", path) from None
    return Document(path.stem, decode_text(data, path, encoding), {"source": str(path)})


def input_files(raw) -> list[Path]:
    """The files an input path stands for: the file itself, or a corpus directory's
    ``rulings.jsonl`` or else its supported files (sorted); raises :class:`InputError`."""
    path = Path(raw)
    if not path.exists():
        raise InputError("no such file or directory", path)
    if not path.is_dir():
        return [path]
    rulings = path / "rulings.jsonl"
    if rulings.exists():
        return [rulings]
    files = sorted(p for p in path.iterdir() if p.is_file() and _has_suffix(p, SUPPORTED))
    if not files:
        raise InputError("directory holds no rulings.jsonl and no supported files", path)
    return files


def read_file_documents(path, encoding: str | None = None) -> Iterator[Document]:
    """The documents of one file (of :func:`input_files`), by its suffix."""
    path = Path(path)
    if _has_suffix(path, JSONL_SUFFIXES):
        yield from read_jsonl_documents(path)
    elif _has_suffix(path, (".txt",)):
        yield read_text_document(path, encoding)
    elif _has_suffix(path, PORTAL_SUFFIXES):
        from rulings_anon import formats

        yield from formats.read_portal_file(path)
    else:
        raise InputError(
            "unsupported file type (expected .jsonl, .txt, .xml, .zip, .html or .tar.gz)", path
        )


def read_documents(paths: Iterable, encoding: str | None = None) -> Iterator[Document]:
    """Yield the documents of every path in order; raises :class:`InputError` on bad input."""
    for raw in paths:
        for path in input_files(raw):
            yield from read_file_documents(path, encoding)


def source_of(document: Document, path) -> str:
    """The file a document came from, as precisely as known (a .txt file names itself)."""
    source = document.meta.get("source")
    return source if isinstance(source, str) and source.endswith(".txt") else str(path)


def text_digest(text: str) -> str:
    """What tells two documents of one id apart: the same text is the same document."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def repeated_id_error(doc_id: str, first: str, where: str) -> InputError:
    """Two input documents of id ``doc_id`` with different texts, read from ``first`` and ``where``."""
    also = f" ({first} and {where})" if first != where else f" (twice in {where})"
    return InputError(f"two input documents have the id {doc_id!r}{also}; "
                      "give them distinct ids (rename a file or set 'id')")


def read_input_documents(paths: Iterable, encoding: str | None = None) -> Iterator[Document]:
    """:func:`read_documents` with the rules every command applies to the files a user names.

    Each path holds at least one document: an empty file is an :class:`InputError`, not a silent
    nothing. Ids are unique across all paths: two files ``a/urteil.txt`` and ``b/urteil.txt``
    both giving the id ``urteil`` with different texts are an error naming both (spans, corpus
    lines and output files are matched by id); the very same document named twice (a file and
    the folder holding it) is read once.
    """
    seen: dict[str, tuple[str, str]] = {}
    for raw in paths:
        path = Path(raw)
        count = 0
        for document in read_documents([path], encoding):
            count += 1
            where = source_of(document, path)
            digest = text_digest(document.text)
            if document.id in seen:
                first, first_digest = seen[document.id]
                if first_digest == digest:
                    continue
                raise repeated_id_error(document.id, first, where)
            seen[document.id] = (where, digest)
            yield document
        if count == 0:
            raise InputError("holds no documents", path)
