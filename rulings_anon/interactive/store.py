"""The output folder of ``replace``: decisions saved at once, derived files rewritten atomically.

Files in ``--out DIR``:

* ``decisions.jsonl``: one line per decided element, appended (flush + fsync) the moment the
  user decides, so Ctrl-C or a closed terminal loses nothing: ``{"id", "element", "start", "end",
  "placeholder", "type", "span": [start, end], "text", "replacement", "suggested", "by"}``.
  ``start``/``end`` are the element's offsets in the input text (what
  ``preprocessing.detector_validation.validate_decisions`` reads), ``span`` the placeholder's, which may
  cover several elements ("K. B.") or part of one ("(K.)"). ``by`` is ``user``, ``suggestion``
  (the user accepted the detector's suggestion with Enter) or ``auto``. Undo rewrites the file
  without the undone lines.
* ``corrections.jsonl``: the document corrections offered (5.5.2), ``{"id", "start", "end",
  "before", "after", "reason", "accepted"}``, offsets into the pseudonymized text before correction.
* ``pseudonymized.jsonl``: gold format ``{"id", "text", "spans": [{"start", "end", "type"}]}`` of
  every finished document, the input of ``evaluate``.
* ``replacements.jsonl``: ``{"id", "replacements": [{"placeholder", "type", "replacement"}]}``.
* ``input.json``: a fingerprint of each document's text, so a run on changed input does not
  resume on wrong offsets.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path

from rulings_anon.errors import InputError
from rulings_anon.jsonl import JsonlAppender, read_json, read_jsonl, write_json, write_jsonl

DECISIONS = "decisions.jsonl"
CORRECTIONS = "corrections.jsonl"
PSEUDONYMIZED = "pseudonymized.jsonl"
REPLACEMENTS = "replacements.jsonl"
FINGERPRINTS = "input.json"


def fingerprint(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class Store:
    """Reads what an earlier run left in ``out`` and keeps every file of the folder up to date."""

    def __init__(self, out, durable: bool = True):
        self.out = Path(out)
        if self.out.exists() and not self.out.is_dir():
            raise InputError("--out must be a folder, this is a file", self.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.durable = durable
        self.decisions: dict[str, list[dict]] = defaultdict(list)
        self.corrections: dict[str, list[dict]] = defaultdict(list)
        self.results: dict[str, dict] = {}
        self.replacements: dict[str, dict] = {}
        self.fingerprints: dict[str, str] = {}
        self.order: list[str] = []
        self._load()
        self._decisions = JsonlAppender(self.out / DECISIONS, fsync=durable, private=True)
        self._corrections = JsonlAppender(self.out / CORRECTIONS, fsync=durable, private=True)

    def _load(self) -> None:
        for name, target in ((DECISIONS, self.decisions), (CORRECTIONS, self.corrections)):
            path = self.out / name
            if path.exists():
                for record in read_jsonl(path, allow_torn_tail=True):
                    target[record["id"]].append(record)
        for name, target in ((PSEUDONYMIZED, self.results), (REPLACEMENTS, self.replacements)):
            path = self.out / name
            if path.exists():
                for record in read_jsonl(path, allow_torn_tail=True):
                    target[record["id"]] = record
                    if record["id"] not in self.order:
                        self.order.append(record["id"])
        if (self.out / FINGERPRINTS).exists():
            self.fingerprints = read_json(self.out / FINGERPRINTS).get("documents", {})

    def check(self, doc_id: str, text: str) -> None:
        """Remember the document's text; refuse to resume on a document whose text changed."""
        if doc_id not in self.order:
            self.order.append(doc_id)
        known = self.fingerprints.get(doc_id)
        if known is None:
            self.fingerprints[doc_id] = fingerprint(text)
            write_json(self.out / FINGERPRINTS, {"documents": self.fingerprints})
        elif known != fingerprint(text) and (self.decisions.get(doc_id) or self.corrections.get(doc_id)):
            raise InputError(f"the text of document {doc_id!r} differs from the one decided in this folder; "
                             "use another --out for the changed input", self.out)

    def append_decisions(self, records: list[dict]) -> None:
        for record in records:
            self._decisions.append(record)
            self.decisions[record["id"]].append(record)

    def remove_last_decision(self, doc_id: str) -> list[dict]:
        """Drop the last decided placeholder/element group of ``doc_id`` from the file; returns it."""
        mine = self.decisions.get(doc_id) or []
        if not mine:
            return []
        span = mine[-1]["span"]
        removed = []
        while mine and mine[-1]["span"] == span:
            removed.insert(0, mine.pop())
        self._decisions.close()
        kept = [r for r in read_jsonl(self.out / DECISIONS, allow_torn_tail=True)
                if not (r["id"] == doc_id and r in removed)]
        write_jsonl(self.out / DECISIONS, kept, private=True)
        self._decisions = JsonlAppender(self.out / DECISIONS, fsync=self.durable, private=True)
        return removed

    def append_correction(self, record: dict) -> None:
        self._corrections.append(record)
        self.corrections[record["id"]].append(record)

    def set_result(self, doc_id: str, gold: dict, replacements: list[dict]) -> None:
        self.results[doc_id] = gold
        self.replacements[doc_id] = {"id": doc_id, "replacements": replacements}

    def write_outputs(self) -> None:
        """Rewrite the gold file and the replacement table (atomically), in input order."""
        ids = [i for i in self.order if i in self.results]
        self._decisions.touch()
        self._corrections.touch()
        write_jsonl(self.out / PSEUDONYMIZED, (self.results[i] for i in ids), private=True)
        write_jsonl(self.out / REPLACEMENTS, (self.replacements[i] for i in ids), private=True)

    def close(self) -> None:
        self._decisions.close()
        self._corrections.close()
