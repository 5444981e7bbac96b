"""JSONL reading and writing, atomic outputs and crash-safe appends.

Every file a command writes goes through :func:`atomic_writer` (written to a temporary file
beside the target, then renamed), so an interrupted run never leaves a half-written output; a
set of files that belong together is written with :func:`atomic_folder` (a hidden folder swapped
in at the end).
Files that grow while a long job runs (fetched rulings, interactive decisions) are appended
line by line with :class:`JsonlAppender`; a torn last line from a killed process is ignored
when reading with ``allow_torn_tail=True`` and cut off before appending again.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import glob
import gzip
import io
import json
import lzma
import os
import re
import shutil
import stat
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator
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


class RefusedJson(ValueError):
    """Valid JSON that the readers refuse: the message says why, without the offending text."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """``object_pairs_hook``: a key given twice in one object is refused, since ``json`` would keep
    the last one silently (a second "text" replacing the first)."""
    record = dict(pairs)
    if len(record) < len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise RefusedJson(f"the key {key[:40]!r} appears twice in one object: give each key once")
    return record


def _lone_surrogate(value) -> str | None:
    """A lone UTF-16 surrogate in the strings and keys of a parsed JSON value: ``json``
    accepts an escaped one ("\\ud800"), and it fails only later, when the text is written."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return found.group()
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def parse_json(text: str):
    """``json.loads`` that refuses, as :class:`RefusedJson`, what it would silently get wrong: a
    key given twice, a lone surrogate, a number too long to convert."""
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys)
    except (json.JSONDecodeError, RefusedJson):
        raise
    except ValueError:  # Python's limit on int <-> str conversion
        limit = sys.get_int_max_str_digits()
        raise RefusedJson(f"a number of more than {limit} digits: too long to read") from None
    if _SURROGATE_ESCAPE.search(text):
        surrogate = _lone_surrogate(value)
        if surrogate is not None:
            raise RefusedJson(f"a lone UTF-16 surrogate \\u{ord(surrogate):04x} in a string: not valid text")
    return value


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
                    record = parse_json(line)
                except RefusedJson as exc:
                    raise InputError(str(exc), path, line_no) from None
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
    """Delete the temporary files (and folders of :func:`atomic_folder`) that a writer left beside
    ``path`` when its process was killed: ``.NAME.PID.*.tmp`` whose process no longer runs. Returns
    how many were removed."""
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
                if sibling.is_dir() and not sibling.is_symlink():
                    shutil.rmtree(sibling)
                else:
                    sibling.unlink()
                removed += 1
    return removed


def check_writable(path, option: str = "output", folder: bool = False) -> Path:
    """Refuse, as an :class:`InputError` naming ``option``, an output path that cannot be written:
    "-" (no output goes to standard output), a folder where a file is expected (or a file where a
    folder is), or a place that cannot be created or written. Called before any work starts, so a
    bad path costs nothing."""
    if str(path) == "-":  # the shell's "standard output": a file named "-" would be written instead
        raise InputError(f"{option} -: outputs are files (written whole at the end, readable only by you), "
                         "not standard output; give a file name")
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


# Failures of a write to an open file: reported as "cannot write" naming the target, never as a
# bare OSError without a path.
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _write_error(exc: BaseException, path) -> InputError | None:
    """The one-line error for a failed write of ``path`` (a full disk, a lone surrogate that UTF-8
    cannot store), or None for an exception that is not about writing ``path``."""
    if isinstance(exc, UnicodeEncodeError):
        return InputError("cannot write: the text holds a lone surrogate, which UTF-8 cannot store", path)
    if isinstance(exc, OSError) and exc.filename is None and exc.errno in _WRITE_ERRNOS:
        return InputError(f"cannot write: {exc.strerror}", path)
    return None


def _sync_folder(folder) -> None:
    """Make a rename in ``folder`` durable: after a power loss the old or the new file is there,
    never an empty one."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno != errno.EINVAL:  # a file system that cannot sync folders
            raise
    finally:
        os.close(fd)


def _close_quietly(*streams) -> None:
    """Close what a failed write left open; its own errors would hide the first one."""
    for stream in streams:
        with contextlib.suppress(Exception):
            stream.close()


@contextlib.contextmanager
def atomic_writer(path, mode: str = "w", compress: bool | None = None, private: bool = False):
    """Write ``path`` atomically: a temporary file in the same folder, renamed at the end.

    On an exception the temporary file (and any folder made for it) is removed and the old
    ``path`` (if any) is untouched. The temporary file is created exclusively under an
    unpredictable name (``.NAME.PID.XXXX.tmp``: a planted link is never followed); its process id
    lets the next writer of ``path`` remove one left by a killed process. The data is synced
    before the rename and the folder after it, so a power loss never leaves an empty file.
    ``private`` files (names in clear) are created 0600 whatever the umask, others as the umask
    says. ``.gz``/``.xz`` targets are compressed unless ``compress`` is False. A target that is a
    folder, a place that cannot be written or a full disk is an :class:`InputError` naming ``path``.
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
        try:
            raw = os.fdopen(fd, "wb", closefd=False)
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
            except BaseException as exc:
                _close_quietly(handle, stream, raw)
                error = _write_error(exc, path)
                if error is not None:
                    raise error from None
                raise
            try:
                handle.close()
                stream.close()
                raw.close()
                os.fsync(fd)
                os.fchmod(fd, 0o600 if private else 0o666 & ~_UMASK)
            except (OSError, UnicodeEncodeError) as exc:
                _close_quietly(handle, stream, raw)
                raise (_write_error(exc, path) or InputError(f"cannot write: {exc.strerror}", path)) from None
        finally:
            os.close(fd)
        try:
            os.replace(tmp, path)
            _sync_folder(path.parent)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror}", path) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        for folder in created:  # deepest first: the folders made for this file, if still empty
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _staging_folder(path: Path) -> Path:
    """A hidden folder beside ``path`` that this process alone can enter (``.NAME.PID.XXXX.tmp``,
    created exclusively, 0700), once the ones that killed writers left are removed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_orphaned_temporaries(path)
        return Path(tempfile.mkdtemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent))
    except OSError as exc:
        raise InputError(f"cannot write ({exc.strerror or exc})", path) from None


@contextlib.contextmanager
def atomic_path(path):
    """For writers that need a file name (TensorFlow's record writer): yields a name inside a hidden
    folder beside ``path`` that this process alone can enter (created exclusively, 0700), so no
    planted link is followed; the file written there then replaces ``path`` as in :func:`atomic_writer`."""
    path = Path(path)
    staging = _staging_folder(path)
    try:
        yield staging / path.name
        fd = os.open(staging / path.name, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            os.fsync(fd)
            os.fchmod(fd, 0o666 & ~_UMASK)
        finally:
            os.close(fd)
        os.replace(staging / path.name, path)
        _sync_folder(path.parent)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror}", path) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


_RENAME_EXCHANGE = 2  # renameat2's flag: swap two paths in one step


def _exchange(staging: Path, target: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2``); False where the system cannot."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    at_cwd = -100
    if renameat2(at_cwd, os.fsencode(staging), at_cwd, os.fsencode(target), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code))


def _swap_in(staging: Path, target: Path) -> None:
    """Put the complete ``staging`` folder in ``target``'s place; ``staging`` then holds the old
    output (if any), to be removed. Without an atomic swap the old folder is renamed aside first."""
    if not target.exists():
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
    os.rename(target, aside)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(aside, target)
        raise
    os.rename(aside, staging)


def check_replaceable(path, earlier_output: Callable[[Path], bool] | None = None) -> Path:
    """Refuse a folder output whose place holds something that is not an earlier output of the
    same command (``earlier_output`` says which it is), as the whole folder is replaced."""
    path = Path(path)
    if path.is_symlink():  # the output goes where the link points; the link stays
        path = Path(os.path.realpath(path))
    if not path.exists():
        return path
    if not path.is_dir():
        raise InputError("names a file; give a folder", path)
    if any(path.iterdir()) and not (earlier_output is not None and earlier_output(path)):
        raise InputError("holds files that are not an earlier output of this command, and the folder is "
                         "replaced as a whole: give a new or empty folder", path)
    return path


@contextlib.contextmanager
def atomic_folder(path, earlier_output: Callable[[Path], bool] | None = None, private: bool = False):
    """Write a set of files as one output: complete or absent, never some of them.

    Yields a hidden folder beside ``path`` (``.NAME.PID.XXXX.tmp``, created exclusively) to write
    into; when the block ends without an error it takes ``path``'s place in one step, and an old
    ``path`` is kept intact until then. ``path`` must be absent, empty or an earlier output of the
    command (:func:`check_replaceable`); a link to a folder is followed. The folder is 0700 if
    ``private``, else as the umask says. A failed write is an :class:`InputError` naming the file
    under ``path``, not the hidden folder.
    """
    path = check_replaceable(path, earlier_output)
    created = [d for d in (path.parent, *path.parent.parents) if not d.exists()]
    staging = _staging_folder(path)
    try:
        try:
            yield staging
        except InputError as exc:
            if exc.path is None or not Path(exc.path).is_relative_to(staging):
                raise
            message = str(exc).removeprefix(f"{exc.path}: ")
            raise InputError(message, path / Path(exc.path).relative_to(staging)) from None
        try:
            os.chmod(staging, 0o700 if private else 0o777 & ~_UMASK)
            _sync_folder(staging)
            _swap_in(staging, path)
            _sync_folder(path.parent)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror}", path) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        for folder in created:  # deepest first: the folders made for the output, if still empty
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    shutil.rmtree(staging, ignore_errors=True)  # the old output, swapped out


def write_jsonl(path, records: Iterable[dict], private: bool = False) -> int:
    """Write records atomically as JSONL (0600 if ``private``); returns the number written."""
    count = 0
    with atomic_writer(path, private=private) as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def write_json(path, obj, private: bool = False) -> None:
    """Write one JSON document atomically (indented, UTF-8; 0600 if ``private``)."""
    with atomic_writer(path, private=private) as handle:
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
            return parse_json(handle.read())
    except RefusedJson as exc:
        raise InputError(str(exc), path) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg} at line {exc.lineno})", path) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path) from None
    except RecursionError:
        raise InputError("not valid JSON (nested too deeply)", path) from None
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or exc})", path) from None


def _refuse_unless_plain(path: Path) -> bool:
    """Whether ``path`` exists; a symbolic link or anything but a plain file where a file is written
    in place is refused: following a planted link would write (or cut) another file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or exc})", path) from None
    if stat.S_ISLNK(info.st_mode):
        raise InputError("is a symbolic link, not a plain file: remove it and run the command again", path)
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a folder, not a JSONL file", path)
    if not stat.S_ISREG(info.st_mode):
        raise InputError("is not a plain file: remove it and run the command again", path)
    return True


def _open_plain(path: Path, flags: int, private: bool = False) -> int:
    """A descriptor on the plain file ``path``, never through a link (``O_NOFOLLOW``), so one
    planted after the check above is refused too; created 0600 if ``private``."""
    _refuse_unless_plain(path)
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600 if private else 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError("is a symbolic link, not a plain file: remove it and run the command again",
                             path) from None
        raise InputError(f"cannot write ({exc.strerror or exc})", path) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError("is not a plain file: remove it and run the command again", path)
    if private:
        with contextlib.suppress(OSError):  # a file of another owner keeps its mode
            os.fchmod(fd, 0o600)
    return fd


def repair_torn_tail(path) -> int:
    """Cut a trailing partial line (no final newline) left by a killed writer; returns bytes cut.
    A link or a non-plain file in its place is refused (never cut what it points to)."""
    path = Path(path)
    if not _refuse_unless_plain(path):
        return 0
    with open(_open_plain(path, os.O_RDWR), "rb+") as handle:
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
    """Append JSON lines durably: each record is one ``write`` (+ fsync).

    A record is either entirely on disk or (after a crash mid-write) a torn last line, which
    :func:`repair_torn_tail` removes when the appender is opened again. The file (and its
    folder) is only created by the first :meth:`append` or by :meth:`touch`, so a run that fails
    before storing anything leaves nothing behind. The file is opened without following links and
    must be a plain file; ``private`` files (names in clear) are 0600 whatever the umask. A failed
    write (a full disk) is an :class:`InputError` naming the file.
    """

    def __init__(self, path, fsync: bool = True, private: bool = False):
        self.path = Path(path)
        repair_torn_tail(self.path)
        self._fd: int | None = None
        self._fsync = fsync
        self._private = private

    def _open(self) -> int:
        if self._fd is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"cannot write ({exc.strerror or exc})", self.path) from None
            self._fd = _open_plain(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, self._private)
        return self._fd

    def touch(self) -> None:
        """Create the file (empty) if it does not exist yet."""
        self._open()

    def append(self, record: dict) -> None:
        fd = self._open()
        try:
            line = memoryview((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
            while line:
                line = line[os.write(fd, line):]
            if self._fsync:
                os.fsync(fd)
        except (OSError, UnicodeEncodeError) as exc:
            raise (_write_error(exc, self.path) or InputError(f"cannot write: {exc.strerror}", self.path)) from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
