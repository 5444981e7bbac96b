"""JSONL reading and writing, atomic outputs and crash-safe appends.

Every file a command writes goes through :func:`atomic_writer` (written to a temporary file
beside the target, then renamed), so an interrupted run never leaves a half-written output.
Files that grow while a long job runs (fetched rulings, interactive decisions) are appended
line by line with :class:`JsonlAppender`; a torn last line from a killed process is ignored
when reading with ``allow_torn_tail=True`` and cut off before appending again.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import lzma
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import InputError

_UMASK = os.umask(0)
os.umask(_UMASK)


def open_text(path, mode: str = "rt"):
    """Open a text file, transparently (de)compressing ``.gz`` and ``.xz``; UTF-8."""
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, mode, encoding="utf-8")
    if path.suffix == ".xz":
        return lzma.open(path, mode, encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def read_jsonl(path, allow_torn_tail: bool = False) -> Iterator[dict]:
    """Yield the JSON objects of a JSONL file (blank lines skipped).

    Raises :class:`InputError` naming the file and line for a missing file, bytes that are not
    UTF-8 or a line that is not a JSON object. With ``allow_torn_tail`` an unparsable *last*
    line without a newline (a write cut short) is skipped instead.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", path)
    try:
        with open_text(path) as handle:
            line_no = 0
            pending = None
            for line_no, line in enumerate(handle, 1):
                if pending is not None:
                    raise pending
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    error = InputError(f"line is not valid JSON ({exc.msg})", path, line_no)
                    if allow_torn_tail and not line.endswith("\n"):
                        pending = error
                        continue
                    raise error from None
                if not isinstance(record, dict):
                    raise InputError("line is not a JSON object", path, line_no)
                yield record
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start} of a line): re-encode it as UTF-8", path) from None
    except (EOFError, lzma.LZMAError, gzip.BadGzipFile, OSError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"cannot read ({exc})", path) from None


@contextlib.contextmanager
def atomic_writer(path, mode: str = "w", compress: bool | None = None):
    """Write ``path`` atomically: a temporary file in the same folder, renamed at the end.

    On an exception the temporary file is removed and the old ``path`` (if any) is untouched.
    ``.gz``/``.xz`` targets are compressed unless ``compress`` is False.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    binary = "b" in mode
    try:
        raw = os.fdopen(fd, "wb")
        if compress is None:
            compress = path.suffix in (".gz", ".xz")
        if compress and path.suffix == ".gz":
            stream = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0)
        elif compress and path.suffix == ".xz":
            stream = lzma.LZMAFile(raw, mode="wb", preset=6)
        else:
            stream = raw
        handle = stream if binary else io.TextIOWrapper(stream, encoding="utf-8", newline="\n")
        try:
            yield handle
            handle.flush()
        finally:
            handle.close()
            if stream is not raw:
                raw.close()
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_jsonl(path, records: Iterable[dict]) -> int:
    """Write records atomically as JSONL; returns the number written."""
    count = 0
    with atomic_writer(path) as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def write_json(path, obj) -> None:
    """Write one JSON document atomically (indented, UTF-8)."""
    with atomic_writer(path) as handle:
        json.dump(obj, handle, ensure_ascii=False, indent=2)
        handle.write("\n")


def read_json(path):
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", path)
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg} at line {exc.lineno})", path) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path) from None


def repair_torn_tail(path) -> int:
    """Cut a trailing partial line (no final newline) left by a killed writer; returns bytes cut."""
    path = Path(path)
    if not path.exists():
        return 0
    with open(path, "rb+") as handle:
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        if size == 0:
            return 0
        block = min(size, 1 << 20)
        handle.seek(size - block)
        tail = handle.read(block)
        if tail.endswith(b"\n"):
            return 0
        cut = tail.rfind(b"\n")
        new_size = size - block + cut + 1 if cut >= 0 else (0 if block == size else size)
        handle.truncate(new_size)
        return size - new_size


class JsonlAppender:
    """Append JSON lines durably: each record is one ``write`` + flush + fsync.

    A record is either entirely on disk or (after a crash mid-write) a torn last line, which
    :func:`repair_torn_tail` removes when the appender is opened again.
    """

    def __init__(self, path, fsync: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        repair_torn_tail(self.path)
        self._handle = open(self.path, "a", encoding="utf-8")
        self._fsync = fsync

    def append(self, record: dict) -> None:
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()
        if self._fsync:
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
