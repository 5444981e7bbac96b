"""The corpus directory that ``fetch`` fills and every later stage reads.

* ``rulings.jsonl``: one ruling per line (the ruling format of docs/architecture.md) with its ``placeholders``
  count; only rulings that are anonymized with placeholders (unless asked to keep all);
* ``metadata.jsonl``: one line per ruling *fetched*, keyed by ``id``: the ruling's fields
  without ``text``, plus ``kept`` (false: dropped without placeholders).

Both files are appended one complete line per ruling (:class:`JsonlAppender`), ruling first,
metadata second, so a killed run loses at most the ruling in flight. Opening the corpus cuts a
torn last line and writes the metadata line of a ruling whose run died between the two
appends. The folder and its files are created with the first ruling stored (or when a run
ends without error), never by a run that fails first. ``metadata.jsonl`` is the record of what was fetched: its ids are skipped next time.
A stored ruling whose file changed (``--source files``) is replaced: both files are rewritten
atomically, once, when the corpus is closed; a run killed before that replaces it next time.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulings_anon.document import Document
from rulings_anon.errors import InputError
from rulings_anon.inputs import text_digest
from rulings_anon.jsonl import JsonlAppender, atomic_writer, read_jsonl

RULINGS = "rulings.jsonl"
METADATA = "metadata.jsonl"


def metadata_record(record: dict, kept: bool) -> dict:
    """The metadata line of a ruling record."""
    return {**{k: v for k, v in record.items() if k != "text"}, "kept": kept}


def _records(path: Path):
    return read_jsonl(path) if path.exists() else iter(())


class Corpus:
    """A corpus directory open for appending; use as a context manager."""

    def __init__(self, directory):
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise InputError("--out names a file; give the corpus folder", self.directory)
        self._rulings = JsonlAppender(self.directory / RULINGS)
        self._metadata = JsonlAppender(self.directory / METADATA)
        fetched = {r["id"] for r in _records(self._metadata.path) if "id" in r}
        self.kept = 0
        self.digests: dict[str, str] = {}  # id -> text digest of each stored ruling
        self._updates: dict[str, tuple[dict, bool]] = {}  # id -> new record, kept
        for record in _records(self._rulings.path):
            self.kept += 1
            self.digests[record.get("id")] = text_digest(str(record.get("text", "")))
            if record.get("id") not in fetched:
                self._metadata.append(metadata_record(record, kept=True))
                fetched.add(record.get("id"))
        self.fetched = fetched

    def __contains__(self, doc_id: str) -> bool:
        return doc_id in self.fetched

    def add(self, document: Document, placeholders: int, keep: bool) -> None:
        """Store a complete ruling (or only its metadata when ``keep`` is False)."""
        record = {"id": document.id, **document.meta, "placeholders": placeholders, "text": document.text}
        if keep:
            self._rulings.append(record)
            self.kept += 1
        self._metadata.append(metadata_record(record, kept=keep))
        self.fetched.add(document.id)

    def changed(self, document: Document) -> bool:
        """Whether a ruling of this id is stored with another text."""
        stored = self.digests.get(document.id)
        return stored is not None and stored != text_digest(document.text)

    def update(self, document: Document, placeholders: int, keep: bool) -> None:
        """Replace a stored ruling by a changed text (drop it from ``rulings.jsonl`` unless ``keep``);
        written when the corpus is closed."""
        record = {"id": document.id, **document.meta, "placeholders": placeholders, "text": document.text}
        self._updates[document.id] = (record, keep)
        self.digests[document.id] = text_digest(document.text)
        if not keep:
            self.kept -= 1

    def _write_updates(self) -> None:
        """Rewrite both files with the updated rulings in place of the stored ones."""
        if not self._updates:
            return
        self.close_files()
        rulings = [self._updates.get(r.get("id"), (r, True)) for r in _records(self._rulings.path)]
        with atomic_writer(self._rulings.path) as handle:
            for record, keep in rulings:
                if keep:
                    handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        metadata = [self._updates.get(r.get("id"), (r, None)) for r in _records(self._metadata.path)]
        with atomic_writer(self._metadata.path) as handle:
            for record, keep in metadata:
                line = record if keep is None else metadata_record(record, keep)
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._updates.clear()

    def touch(self) -> None:
        """Create both files (empty) when nothing was stored: a finished run leaves a corpus, a
        failed one (created nothing) leaves no empty files behind."""
        self._rulings.touch()
        self._metadata.touch()

    def close_files(self) -> None:
        self._rulings.close()
        self._metadata.close()

    def close(self) -> None:
        self.close_files()
        self._write_updates()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
