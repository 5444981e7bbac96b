"""The review's state in SQLite: rulings, their spans and every decision, one row each.

SQLite in WAL mode with synchronous FULL: a decision is on disk when its request returns, so a
killed server loses none, and several server processes (two reviewers) can share one file.
Every ruling and span carries a ``version``; a write names the version it saw and fails with
:class:`Conflict` when another reviewer changed it since (optimistic concurrency).
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rulings_anon.entity_types import TYPES
from rulings_anon.errors import InputError

SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"

# What a reviewer may call a span (the surrogate generator's types).
SPAN_TYPES = TYPES
# A span's state: a suggestion not yet decided, accepted, rejected; an added span is accepted;
# a removed one (an undone addition) is kept for the audit trail but no longer shown.
ACTIVE = ("open", "accepted")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rulings (
    id TEXT PRIMARY KEY, position INTEGER NOT NULL, text TEXT, record TEXT NOT NULL DEFAULT '{}',
    source TEXT NOT NULL, error TEXT, done INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 1);
CREATE TABLE spans (
    id INTEGER PRIMARY KEY, ruling_id TEXT NOT NULL REFERENCES rulings(id), start INTEGER NOT NULL,
    "end" INTEGER NOT NULL, type TEXT, score REAL, origin TEXT NOT NULL, found_by TEXT,
    state TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 1);
CREATE INDEX spans_of_ruling ON spans(ruling_id, start);
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY, time TEXT NOT NULL, reviewer TEXT NOT NULL, ruling_id TEXT NOT NULL,
    span_id INTEGER, action TEXT NOT NULL, before TEXT, after TEXT, grp INTEGER NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0);
CREATE INDEX decisions_of_ruling ON decisions(ruling_id, id);
"""
# The file a ruling was read from when it is a document file (its export is written from it), and
# the SHA-256 of its bytes then. Created on open as well, for a review file written without it.
_DOCUMENT_FILES = ("CREATE TABLE IF NOT EXISTS document_files (ruling_id TEXT PRIMARY KEY REFERENCES rulings(id), "
                   "path TEXT NOT NULL, digest TEXT NOT NULL)")
# The engine's own type of a suggestion where it is a recognizer's (BIRTH_DATE, IBAN, ...) rather
# than the type shown: a court policy may give such a type its own operator.
_ENGINE_TYPES = ("CREATE TABLE IF NOT EXISTS engine_types (span_id INTEGER PRIMARY KEY REFERENCES spans(id), "
                 "type TEXT NOT NULL)")


class Conflict(Exception):
    """A write against a version another reviewer has changed since it was read."""


@dataclass(frozen=True)
class SpanRow:
    id: int
    ruling_id: str
    start: int
    end: int
    type: str | None
    score: float | None
    origin: str  # "suggested" or "added"
    found_by: str | None
    state: str
    version: int

    def to_dict(self) -> dict:
        return {"id": self.id, "start": self.start, "end": self.end, "type": self.type, "score": self.score,
                "origin": self.origin, "found_by": self.found_by, "state": self.state, "version": self.version}


@dataclass(frozen=True)
class RulingRow:
    id: str
    position: int
    text: str | None
    record: dict
    source: str
    error: str | None
    done: bool
    version: int


def is_review_database(path) -> bool:
    """Whether ``path`` is an SQLite file (a saved review) rather than rulings."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            return path.is_file() and f.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def now() -> str:
    """UTC to the millisecond, as the audit trail records it."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ReviewDatabase:
    """One connection to a review file; each method is one transaction."""

    def __init__(self, path, create: bool = False):
        self.path = Path(path)
        if create:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)  # holds names: private
            os.close(fd)
        elif not is_review_database(self.path):
            raise InputError("not a review database (SQLite)", self.path)
        self.connection = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=FULL")
        self.connection.execute("PRAGMA foreign_keys=ON")
        if create:
            with self.transaction() as c:
                for statement in filter(str.strip, _SCHEMA.split(";")):
                    c.execute(statement)
                c.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        found = self.meta("schema_version")
        if found != str(SCHEMA_VERSION):
            raise InputError(f"review database of schema {found}, this version reads {SCHEMA_VERSION}", self.path)
        self.connection.execute(_DOCUMENT_FILES)
        self.connection.execute(_ENGINE_TYPES)

    def close(self) -> None:
        self.connection.close()

    def transaction(self):
        return _Transaction(self.connection)

    # --- meta -------------------------------------------------------------------------------
    def meta(self, key: str, default: str | None = None) -> str | None:
        try:
            row = self.connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError as exc:
            raise InputError(f"unreadable review database: {exc}", self.path) from None
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as c:
            c.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                      (key, value))

    # --- loading a batch --------------------------------------------------------------------
    def add_ruling(self, c, position: int, doc_id: str, source: str, text: str | None = None,
                   record: dict | None = None, error: str | None = None) -> None:
        c.execute("INSERT INTO rulings (id, position, text, record, source, error) VALUES (?, ?, ?, ?, ?, ?)",
                  (doc_id, position, text, json.dumps(record or {}, ensure_ascii=False), source, error))

    def add_suggestion(self, c, ruling_id: str, start: int, end: int, type_: str | None, score: float | None,
                       found_by: str | None, engine_type: str | None = None) -> None:
        cursor = c.execute('INSERT INTO spans (ruling_id, start, "end", type, score, origin, found_by, state) '
                           "VALUES (?, ?, ?, ?, ?, 'suggested', ?, 'open')",
                           (ruling_id, start, end, type_, score, found_by))
        if engine_type is not None and engine_type != type_:
            c.execute("INSERT INTO engine_types VALUES (?, ?)", (cursor.lastrowid, engine_type))

    def add_document_file(self, c, ruling_id: str, path: str, digest: str) -> None:
        c.execute("INSERT INTO document_files VALUES (?, ?, ?)", (ruling_id, path, digest))

    # --- reading ----------------------------------------------------------------------------
    def rulings(self) -> list[RulingRow]:
        rows = self.connection.execute("SELECT id, position, text, record, source, error, done, version "
                                       "FROM rulings ORDER BY position").fetchall()
        return [_ruling(r) for r in rows]

    def ruling(self, ruling_id: str) -> RulingRow | None:
        row = self.connection.execute("SELECT id, position, text, record, source, error, done, version "
                                      "FROM rulings WHERE id = ?", (ruling_id,)).fetchone()
        return _ruling(row) if row else None

    def spans(self, ruling_id: str, shown: bool = True) -> list[SpanRow]:
        """A ruling's spans by start; ``shown`` leaves out removed ones."""
        where = " AND state != 'removed'" if shown else ""
        rows = self.connection.execute(f'SELECT {_SPAN_COLUMNS} FROM spans WHERE ruling_id = ?{where} '
                                       'ORDER BY start, "end", id', (ruling_id,)).fetchall()
        return [SpanRow(*r) for r in rows]

    def engine_types(self, ruling_id: str) -> dict[int, str]:
        """Span id -> the engine's own type, for a ruling's suggestions whose type is a recognizer's."""
        return dict(self.connection.execute("SELECT e.span_id, e.type FROM engine_types e JOIN spans s "
                                            "ON s.id = e.span_id WHERE s.ruling_id = ?", (ruling_id,)).fetchall())

    def document_file(self, ruling_id: str) -> tuple[str, str] | None:
        """``(path, digest)`` of the document file the ruling was read from, or None."""
        return self.connection.execute("SELECT path, digest FROM document_files WHERE ruling_id = ?",
                                       (ruling_id,)).fetchone()

    def progress(self) -> dict[str, dict]:
        """Per ruling: its spans by state."""
        counts: dict[str, dict] = {}
        for ruling_id, state, n in self.connection.execute(
                "SELECT ruling_id, state, count(*) FROM spans GROUP BY ruling_id, state"):
            counts.setdefault(ruling_id, {})[state] = n
        return counts

    def decisions(self) -> list[dict]:
        rows = self.connection.execute("SELECT id, time, reviewer, ruling_id, span_id, action, before, after, grp, "
                                       "undone FROM decisions ORDER BY id").fetchall()
        return [{"decision": r[0], "time": r[1], "reviewer": r[2], "id": r[3], "span": r[4], "action": r[5],
                 "before": json.loads(r[6]) if r[6] else None, "after": json.loads(r[7]) if r[7] else None,
                 "group": r[8], "undone": bool(r[9])} for r in rows]

    # --- decisions --------------------------------------------------------------------------
    def decide(self, reviewer: str, ruling_id: str, span_id: int, version: int, state: str) -> None:
        """Accept or reject one span seen at ``version``."""
        if state not in ("accepted", "rejected"):
            raise ValueError(f"unknown decision {state!r}")
        with self.transaction() as c:
            span = self._span(c, ruling_id, span_id, version)
            group = self._group(c)
            self._change(c, reviewer, span, {"state": state}, "accept" if state == "accepted" else "reject", group)

    def decide_mentions(self, reviewer: str, ruling_id: str, span_id: int, version: int, state: str) -> int:
        """Accept or reject every shown span of the ruling with the same text as ``span_id``; one
        decision group (one undo). Returns how many changed."""
        with self.transaction() as c:
            span = self._span(c, ruling_id, span_id, version)
            text = self._text(c, ruling_id)
            value = text[span.start:span.end]
            group = self._group(c)
            changed = 0
            for other in self._spans(c, ruling_id):
                if text[other.start:other.end] == value and other.state != state and other.state != "removed":
                    self._change(c, reviewer, other, {"state": state},
                                 "accept-all" if state == "accepted" else "reject-all", group)
                    changed += 1
            return changed

    def add_span(self, reviewer: str, ruling_id: str, ruling_version: int, start: int, end: int,
                 type_: str | None) -> int:
        """A span the suggestions missed, accepted; refused where it overlaps a span not rejected."""
        _check_type(type_)
        with self.transaction() as c:
            text = self._ruling_version(c, ruling_id, ruling_version)
            start, end = _checked_extent(text, start, end)
            self._refuse_overlap(c, ruling_id, start, end)
            type_ = type_ or guessed_type(text, start, end)
            cursor = c.execute('INSERT INTO spans (ruling_id, start, "end", type, origin, state) '
                               "VALUES (?, ?, ?, ?, 'added', 'accepted')", (ruling_id, start, end, type_))
            span = self._span(c, ruling_id, cursor.lastrowid, 1)
            self._log(c, reviewer, ruling_id, span.id, "add", None, _state(span), self._group(c))
            self._bump(c, ruling_id)
            return span.id

    def edit_span(self, reviewer: str, ruling_id: str, span_id: int, version: int, start: int | None = None,
                  end: int | None = None, type_: str | None = None) -> None:
        """Change a span's extent or type (the span is then accepted)."""
        with self.transaction() as c:
            span = self._span(c, ruling_id, span_id, version)
            text = self._text(c, ruling_id)
            changes: dict = {"state": "accepted"}
            if start is not None or end is not None:
                new_start, new_end = _checked_extent(text, span.start if start is None else start,
                                                     span.end if end is None else end)
                self._refuse_overlap(c, ruling_id, new_start, new_end, but=span.id)
                changes.update(start=new_start, end=new_end)
            if type_ is not None:
                _check_type(type_)
                changes["type"] = type_
            self._change(c, reviewer, span, changes, "edit", self._group(c))

    def set_done(self, reviewer: str, ruling_id: str, ruling_version: int, done: bool = True) -> None:
        with self.transaction() as c:
            self._ruling_version(c, ruling_id, ruling_version)
            c.execute("UPDATE rulings SET done = ? WHERE id = ?", (int(done), ruling_id))
            self._log(c, reviewer, ruling_id, None, "done" if done else "reopen", None, None, self._group(c))
            self._bump(c, ruling_id)

    def undo(self, reviewer: str, ruling_id: str, ruling_version: int) -> int:
        """Undo the last decision group of ``reviewer`` on the ruling not undone yet; returns how many
        span changes were reverted (0 when there was nothing to undo)."""
        with self.transaction() as c:
            self._ruling_version(c, ruling_id, ruling_version)
            row = c.execute("SELECT max(grp) FROM decisions WHERE ruling_id = ? AND reviewer = ? AND undone = 0 "
                            "AND action != 'undo'", (ruling_id, reviewer)).fetchone()
            if row[0] is None:
                return 0
            group = row[0]
            rows = c.execute("SELECT id, span_id, action, before FROM decisions WHERE grp = ? ORDER BY id DESC",
                             (group,)).fetchall()
            undo_group = self._group(c)
            for decision_id, span_id, action, before in rows:
                c.execute("UPDATE decisions SET undone = 1 WHERE id = ?", (decision_id,))
                if action in ("done", "reopen"):
                    c.execute("UPDATE rulings SET done = ? WHERE id = ?", (int(action == "reopen"), ruling_id))
                    self._log(c, reviewer, ruling_id, None, "undo", None, None, undo_group)
                    continue
                span = self._span(c, ruling_id, span_id, None)
                restore = json.loads(before) if before else {"state": "removed"}
                self._change(c, reviewer, span, restore, "undo", undo_group, bump=False)
            self._bump(c, ruling_id)
            return len(rows)

    # --- helpers ----------------------------------------------------------------------------
    def _group(self, c) -> int:
        return (c.execute("SELECT coalesce(max(grp), 0) + 1 FROM decisions").fetchone()[0])

    def _text(self, c, ruling_id: str) -> str:
        row = c.execute("SELECT text FROM rulings WHERE id = ?", (ruling_id,)).fetchone()
        if row is None or row[0] is None:
            raise LookupError(f"no ruling {ruling_id!r} to review")
        return row[0]

    def _ruling_version(self, c, ruling_id: str, version: int) -> str:
        row = c.execute("SELECT text, version FROM rulings WHERE id = ?", (ruling_id,)).fetchone()
        if row is None or row[0] is None:
            raise LookupError(f"no ruling {ruling_id!r} to review")
        if row[1] != version:
            raise Conflict(self._conflict_message(c, ruling_id, None, "this ruling"))
        return row[0]

    def _spans(self, c, ruling_id: str) -> list[SpanRow]:
        return [SpanRow(*r) for r in c.execute(f"SELECT {_SPAN_COLUMNS} FROM spans WHERE ruling_id = ? ORDER BY id",
                                                 (ruling_id,))]

    def _span(self, c, ruling_id: str, span_id: int, version: int | None) -> SpanRow:
        row = c.execute(f"SELECT {_SPAN_COLUMNS} FROM spans WHERE id = ? AND ruling_id = ?",
                        (span_id, ruling_id)).fetchone()
        if row is None:
            raise LookupError(f"no span {span_id} in ruling {ruling_id!r}")
        span = SpanRow(*row)
        if version is not None and span.version != version:
            raise Conflict(self._conflict_message(c, ruling_id, span_id, "this span"))
        return span

    def _conflict_message(self, c, ruling_id: str, span_id: int | None, what: str) -> str:
        query = ("SELECT reviewer, time FROM decisions WHERE ruling_id = ?" + (" AND span_id = ?" if span_id else "")
                 + " ORDER BY id DESC LIMIT 1")
        row = c.execute(query, (ruling_id, span_id) if span_id else (ruling_id,)).fetchone()
        who = f" by {row[0]} at {row[1]}" if row else ""
        return f"{what} was changed{who} after you loaded the page; reload to see the current state, then decide again"

    def _refuse_overlap(self, c, ruling_id: str, start: int, end: int, but: int | None = None) -> None:
        row = c.execute("SELECT id FROM spans WHERE ruling_id = ? AND state IN ('open', 'accepted') AND start < ? "
                        'AND "end" > ? AND id != ?', (ruling_id, end, start, but or -1)).fetchone()
        if row:
            raise ValueError("the selection overlaps a span that is not rejected; change that span's extent instead")

    def _change(self, c, reviewer: str, span: SpanRow, changes: dict, action: str, group: int,
                bump: bool = True) -> None:
        before = _state(span)
        columns = {"start": "start", "end": '"end"', "type": "type", "state": "state"}
        sets = ", ".join(f"{columns[k]} = ?" for k in changes)
        c.execute(f"UPDATE spans SET {sets}, version = version + 1 WHERE id = ?", (*changes.values(), span.id))
        after = {**before, **changes}
        self._log(c, reviewer, span.ruling_id, span.id, action, before, after, group)
        if bump:
            self._bump(c, span.ruling_id)

    def _log(self, c, reviewer, ruling_id, span_id, action, before, after, group) -> None:
        c.execute("INSERT INTO decisions (time, reviewer, ruling_id, span_id, action, before, after, grp) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  (now(), reviewer, ruling_id, span_id, action, json.dumps(before) if before else None,
                   json.dumps(after) if after else None, group))

    def _bump(self, c, ruling_id: str) -> None:
        c.execute("UPDATE rulings SET version = version + 1 WHERE id = ?", (ruling_id,))


_SPAN_COLUMNS = 'id, ruling_id, start, "end", type, score, origin, found_by, state, version'


def _state(span: SpanRow) -> dict:
    return {"start": span.start, "end": span.end, "type": span.type, "state": span.state}


def _ruling(row) -> RulingRow:
    return RulingRow(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], bool(row[6]), row[7])


def guessed_type(text: str, start: int, end: int) -> str:
    """The type of an untyped span: the one the export's operators infer from its context, so the
    page shows what the export does ("in Aichach" is a place)."""
    from rulings_anon.document import Span
    from rulings_anon.replacement.court_style import reference_type, surrogate_type

    return surrogate_type(reference_type(text, Span(start, end)))


def _check_type(type_: str | None) -> None:
    if type_ is not None and type_ not in SPAN_TYPES:
        raise ValueError(f"unknown type {type_!r}; known: {', '.join(SPAN_TYPES)}")


def _checked_extent(text: str, start: int, end: int) -> tuple[int, int]:
    """The extent without surrounding whitespace; refused when empty or outside the text."""
    if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start < end <= len(text):
        raise ValueError(f"[{start}, {end}) is no span of this ruling's {len(text)} characters")
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start == end:
        raise ValueError("the selection holds only white space")
    return start, end


class _Transaction:
    """``BEGIN IMMEDIATE`` .. ``COMMIT`` (rolled back on an exception): writers queue, never interleave."""

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    def __enter__(self) -> sqlite3.Connection:
        self.connection.execute("BEGIN IMMEDIATE")
        return self.connection

    def __exit__(self, kind, exc, tb) -> None:
        self.connection.execute("COMMIT" if kind is None else "ROLLBACK")
