"""JSONL reading and writing, atomic outputs and crash-safe appends.

Every file a command writes goes through :func:`atomic_writer` (written to a temporary file
beside the target, then renamed), so an interrupted run never leaves a half-written output.
Files that grow while a long job runs (fetched rulings, interactive decisions) are appended
line by line with :class:`JsonlAppender`; a torn last line from a killed process is ignored
when reading with ``allow_torn_tail=True`` and cut off before appending again.
"""

from __future__ import annotations

import contextlib
import glob
import gzip
import io
import json
import lzma
import os
import tempfile
import zlib
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


# The longest line read: one ruling (the largest known are a few MB). A longer line (a
# compressed file inflating to gigabytes without a newline) is refused as it is read.
MAX_LINE_BYTES = 64 << 20


def _open_binary(path: Path):
    if path.suffix == ".gz":
        return gzip.open(path, "rb")
    if path.suffix == ".xz":
        return lzma.open(path, "rb")
    return open(path, "rb")


def read_jsonl(path, allow_torn_tail: bool = False) -> Iterator[dict]:
    """Yield the JSON objects of a JSONL file (blank lines skipped).

    Raises :class:`InputError` naming the file and line for a missing file or a folder, bytes
    that are not UTF-8 or a line that is not a JSON object. With ``allow_torn_tail`` an
    unparsable *last* line without a newline (a write cut short, perhaps inside a multi-byte
    character) is skipped instead.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", path)
    if path.is_dir():
        raise InputError("is a folder, not a JSONL file", path)
    try:
        with _open_binary(path) as handle:
            pending = None
            lines = iter(lambda: handle.readline(MAX_LINE_BYTES + 1), b"")
            for line_no, raw in enumerate(lines, 1):
                if pending is not None:
                    raise pending
                if len(raw) > MAX_LINE_BYTES:  # a gzip bomb, or no JSONL: stop before it fills memory
                    raise InputError(f"line longer than {MAX_LINE_BYTES >> 20} MB: no document is that long",
                                     path, line_no)
                torn = allow_torn_tail and not raw.endswith(b"\n")
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    error = InputError(f"not UTF-8 text (byte {exc.start} of the line): re-encode it as UTF-8",
                                       path, line_no)
                    if torn:
                        pending = error
                        continue
                    raise error from None
                if line_no == 1:
                    line = line.lstrip("\ufeff")
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except (json.JSONDecodeError, RecursionError) as exc:
                    message = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
                    error = InputError(f"line is not valid JSON ({message})", path, line_no)
                    if torn:
                        pending = error
                        continue
                    raise error from None
                if not isinstance(record, dict):
                    raise InputError("line is not a JSON object", path, line_no)
                yield record
    except (EOFError, lzma.LZMAError, gzip.BadGzipFile, zlib.error, OSError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"cannot read ({exc})", path) from None


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def remove_orphaned_temporaries(path) -> int:
    """Delete the temporary files that :func:`atomic_writer` left beside ``path`` when its process
    was killed: ``.NAME.PID.*.tmp`` whose process no longer runs. Returns how many were removed."""
    path = Path(path)
    removed = 0
    prefix = f".{path.name}."
    try:
        siblings = list(path.parent.glob(f".{glob.escape(path.name)}.*.tmp"))
    except OSError:
        return 0
    for sibling in siblings:
        pid = sibling.name[len(prefix):].split(".", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                sibling.unlink()
                removed += 1
    return removed


def check_writable(path, option: str = "output", folder: bool = False) -> Path:
    """Refuse, as an :class:`InputError` naming ``option``, an output path that cannot be written:
    a folder where a file is expected (or a file where a folder is), or a place that cannot be
    created or written. Called before any work starts, so a bad path costs nothing."""
    path = Path(path)
    if not folder and path.is_dir():
        raise InputError(f"{option} names a folder; give a file name", path)
    if folder and path.exists() and not path.is_dir():
        raise InputError(f"{option} names a file; give a folder (or a .jsonl file)", path)
    parent = path if folder else path.parent
    existing = parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(f"{option}: {existing} is a file, so no folder can be created under it", path)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"{option}: no permission to write in {existing}", path)
    if len(path.name.encode("utf-8")) > 200:
        raise InputError(f"{option}: the file name is too long", path)
    return path


@contextlib.contextmanager
def atomic_writer(path, mode: str = "w", compress: bool | None = None):
    """Write ``path`` atomically: a temporary file in the same folder, renamed at the end.

    On an exception the temporary file (and any folder made for it) is removed and the old
    ``path`` (if any) is untouched. The temporary file's name carries the writer's process id (``.NAME.PID.XXXX.tmp``), so one
    left by a killed process is recognised and removed by the next writer of ``path``.
    ``.gz``/``.xz`` targets are compressed unless ``compress`` is False. A target that is a
    folder, or a place that cannot be written, is an :class:`InputError`.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder; give a file name", path)
    created = [d for d in (path.parent, *path.parent.parents) if not d.exists()]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_orphaned_temporaries(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise InputError(f"cannot write ({exc.strerror or exc})", path) from None
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
        for folder in created:  # deepest first: the folders made for this file, if still empty
            with contextlib.suppress(OSError):
                folder.rmdir()
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
    """One JSON document; a missing file, a folder or bad JSON is an :class:`InputError`."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", path)
    if path.is_dir():
        raise InputError("is a folder, not a JSON file", path)
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg} at line {exc.lineno})", path) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path) from None
    except RecursionError:
        raise InputError("not valid JSON (nested too deeply)", path) from None
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or exc})", path) from None


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
    :func:`repair_torn_tail` removes when the appender is opened again. The file (and its
    folder) is only created by the first :meth:`append` or by :meth:`touch`, so a run that fails
    before storing anything leaves nothing behind.
    """

    def __init__(self, path, fsync: bool = True):
        self.path = Path(path)
        if self.path.is_dir():
            raise InputError("is a folder, not a JSONL file", self.path)
        repair_torn_tail(self.path)
        self._handle = None
        self._fsync = fsync

    def _open(self):
        if self._handle is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._handle = open(self.path, "a", encoding="utf-8")
            except OSError as exc:
                raise InputError(f"cannot write ({exc.strerror or exc})", self.path) from None
        return self._handle

    def touch(self) -> None:
        """Create the file (empty) if it does not exist yet."""
        self._open()

    def append(self, record: dict) -> None:
        handle = self._open()
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        handle.flush()
        if self._fsync:
            os.fsync(handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
