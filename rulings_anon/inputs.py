"""Read input documents in every format the commands accept.

* ``.jsonl`` (also ``.jsonl.gz``/``.jsonl.xz``): one JSON object per line with ``text`` and
  usually ``id`` (documents, rulings and gold files alike);
* ``.txt``: one document, its id the file name without suffix;
* a corpus directory: its ``rulings.jsonl`` (what ``fetch`` writes), or else every supported
  file under it, subfolders included (:func:`input_files`);
* the portals' ``.xml``, ``.zip`` and ``.html`` files and the ``.tar.gz`` archives that
  ``split`` writes: parsed by :mod:`rulings_anon.formats`.
"""

from __future__ import annotations

import codecs
import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from .document import Document
from .errors import InputError
from .jsonl import read_jsonl

JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.xz")
PORTAL_SUFFIXES = (".xml", ".zip", ".html", ".htm", ".tar.gz", ".tgz")
DOCUMENT_SUFFIXES = (".docx", ".odt", ".pdf", ".rtf")  # read by rulings_anon.documents
SUPPORTED = JSONL_SUFFIXES + (".txt",) + PORTAL_SUFFIXES + DOCUMENT_SUFFIXES


def _has_suffix(path: Path, suffixes: tuple[str, ...]) -> bool:
    name = path.name.lower()
    return any(name.endswith(s) for s in suffixes)


# Byte-order marks and the text they announce; the UTF-32 ones first, as they begin like UTF-16's.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"))


def decode_text(data: bytes, path, encoding: str | None = None) -> str:
    """Decode file bytes as UTF-8 (or ``encoding``); a clear error naming the file otherwise.

    A byte-order mark decides: UTF-16 and UTF-32 text (what Windows editors save as "Unicode") is
    read as such, unless ``encoding`` names another family, which is then refused. ``encoding`` None
    means the command has no ``--encoding`` option: the advice is then to re-encode the file, else
    to pass the option (commands that have it pass their ``--encoding``, UTF-8 by default)."""
    try:
        family = codecs.lookup(encoding or "utf-8").name
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}", path) from None
    bom = next((found for found in _BOMS if data.startswith(found[0])), None)
    if bom is not None:
        return _decode_by_bom(data, path, bom, family, encoding)
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        if detected := _detected(data, family):
            return detected
        raise InputError(f"not UTF-8 text: invalid byte at offset {exc.start}{_advice(data, encoding)}",
                         path) from None
    if "\x00" in text:
        if detected := _detected(data, family):
            return detected
        raise InputError(f"holds NUL characters, which no text has{_advice(data, encoding)}", path)
    return text.lstrip("\ufeff")


def _detected(data: bytes, family: str) -> str | None:
    """Text that is not UTF-8, when the encoding asked for is the default (UTF-8) and
    charset-normalizer tells a common one (Windows-1252, Latin-1, UTF-16 without a mark)."""
    if family != "utf-8":
        return None
    from rulings_anon.documents.text_encoding import detected_text

    found = detected_text(data)
    return found[0] if found else None


def _decode_by_bom(data: bytes, path, bom: tuple[bytes, str, str], family: str, encoding: str | None) -> str:
    """The text of a file that starts with a byte-order mark, decoded as the mark says."""
    _, codec, name = bom
    if not family.startswith("utf"):
        raise InputError(f"starts with a {name} byte-order mark, so it is {name} text, not {encoding}: "
                         "leave out --encoding", path)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise InputError(f"not {name} text, as its byte-order mark says: invalid bytes at offset {exc.start}",
                         path) from None
    if "\x00" in text:
        raise InputError(f"holds NUL characters, which no text has (read as {name}, as its byte-order mark "
                         "says)", path)
    return text.lstrip("\ufeff")


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when NUL bytes fill every other byte, as in UTF-16 text of Latin
    letters saved without a byte-order mark; None otherwise."""
    sample = data[:4096]
    half = len(sample) // 2
    odd, even = sample[1::2].count(0), sample[0::2].count(0)
    if half >= 2 and odd > 0.3 * half and even < 0.05 * half:
        return "utf-16-le"
    if half >= 2 and even > 0.3 * half and odd < 0.05 * half:
        return "utf-16-be"
    return None


def _advice(data: bytes, encoding: str | None) -> str:
    """What to do about bytes that are not the expected text: UTF-16 without a mark, or Latin-1."""
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        advice = (f"pass --encoding {utf16}" if encoding is not None
                  else f"re-encode it as UTF-8, e.g. iconv -f {utf16} -t utf-8")
        return f" (it looks like UTF-16 without a byte-order mark: {advice})"
    if b"\x00" in data:
        return ""
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return ""
    advice = ("pass --encoding latin-1" if encoding is not None
              else "re-encode it as UTF-8, e.g. iconv -f latin1 -t utf-8")
    return f" (it looks like ISO-8859-1/Windows-1252: {advice})"


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


CORPUS_RULINGS = "rulings.jsonl"
CORPUS_BOOKKEEPING = ("metadata.jsonl",)  # what fetch keeps beside rulings.jsonl: no rulings


def _visible_entries(folder: Path) -> list[Path]:
    """The folder's entries in sorted order, without hidden ones (a leading dot: partial and
    temporary files, stage stamps, version control)."""
    return sorted(p for p in folder.iterdir() if not p.name.startswith("."))


def _folder_files(folder: Path, seen: set[Path]) -> list[Path]:
    """The ruling files under ``folder``, recursively (see :func:`input_files`)."""
    real = folder.resolve()
    if real in seen:  # a link back to a folder read already
        return []
    seen.add(real)
    entries = _visible_entries(folder)
    if (folder / CORPUS_RULINGS).is_file():
        return [_corpus_file(folder, entries, seen)]
    files: list[Path] = []
    for entry in entries:
        if entry.is_dir():
            files += _folder_files(entry, seen)
        elif entry.is_file() and _has_suffix(entry, SUPPORTED):
            files.append(entry)
    return files


def _corpus_file(folder: Path, entries: list[Path], seen: set[Path]) -> Path:
    """A corpus folder's ``rulings.jsonl``; other rulings beside it are an :class:`InputError`."""
    skipped = [e.name + ("/" if e.is_dir() else "") for e in entries
               if e.name not in (CORPUS_RULINGS, *CORPUS_BOOKKEEPING)
               and (_folder_files(e, seen) if e.is_dir() else e.is_file() and _has_suffix(e, SUPPORTED))]
    if skipped:
        shown = ", ".join(skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
        raise InputError(f"holds a corpus (rulings.jsonl) and also other rulings ({shown}), which would be "
                         "skipped; name the corpus file and the others separately", folder)
    return folder / CORPUS_RULINGS


def input_files(raw) -> list[Path]:
    """The files an input path stands for; raises :class:`InputError`.

    A file stands for itself. A folder stands for every supported file under it, read
    recursively in sorted order, hidden files and folders (a leading dot) left out, so no ruling
    in a subfolder is silently skipped; a ``.txt`` file's id is its name, so two ``urteil.txt`` in
    two subfolders meet the clear "two input documents have the id" error rather than one hiding
    the other. A folder holding ``rulings.jsonl`` is a corpus written by ``fetch``: that file
    alone is read (``metadata.jsonl`` beside it is fetch's bookkeeping). Other rulings beside it
    are refused, naming them, instead of being read: they may be the very files the corpus was
    fetched from, and which of two copies the user means cannot be told."""
    path = Path(raw)
    if not path.exists():
        raise InputError("no such file or directory", path)
    if not path.is_dir():
        return [path]
    files = _folder_files(path, set())
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
    elif _has_suffix(path, DOCUMENT_SUFFIXES):
        from rulings_anon import documents

        yield documents.read_document(path)
    elif _has_suffix(path, (".html", ".htm")) and not _is_portal_page(path):
        from rulings_anon.documents import html_text

        yield html_text.read_document(path)
    elif _has_suffix(path, PORTAL_SUFFIXES):
        from rulings_anon import formats

        yield from formats.read_portal_file(path)
    else:
        raise InputError(
            "unsupported file type (expected .jsonl, .txt, .docx, .odt, .pdf, .rtf, .html, .xml, .zip or .tar.gz)",
            path)


def _is_portal_page(path: Path) -> bool:
    """Whether an HTML file is a gesetze-bayern.de page (else it is read as generic HTML, whole)."""
    from rulings_anon.documents import html_text

    try:
        with open(path, "rb") as handle:
            return html_text.is_portal_page(handle.read(1 << 20))
    except OSError:
        return True  # the portal reader reports the error


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
