"""When a training run resumes: the one rule of ``train``, ``pretrain`` and ``train-ner``.

A run directory records what its run started with: a fingerprint of the training data and the
settings that shape its checkpoints. Started again with the same output directory, a command

* resumes from the last checkpoint when both match (an interrupted run goes on where it stopped);
* with ``--restart``, starts over when they do not (the earlier run's checkpoints are deleted);
* otherwise stops with a one-line error that names what changed.

Settings a run may change on resuming (more epochs or steps) are left out of the comparison by
each command. A record without a fingerprint or a setting (written before they were recorded)
matches any.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError
from .jsonl import read_json, write_json

RESTART_HELP = ("start over when OUT holds a run on other data or with other settings (its checkpoints are "
                "deleted); without it such a run is an error, and a run on the same data and settings resumes "
                "from its last checkpoint")


def add_restart_argument(parser) -> None:
    """The ``--restart`` flag every training command takes."""
    parser.add_argument("--restart", action="store_true", help=RESTART_HELP)


def fingerprint_files(paths) -> str:
    """sha256 over the names and bytes of ``paths`` (folders: every file below them), in name order."""
    files = []
    for path in map(Path, paths):
        files += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.name.encode("utf-8") + b"\0")
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class RunRecord:
    """What a run started with: its data's fingerprint and the settings its checkpoints depend on."""

    fingerprint: str = ""
    settings: dict = field(default_factory=dict)

    def write(self, path: Path) -> None:
        write_json(path, {"fingerprint": self.fingerprint, "settings": self.settings})

    @classmethod
    def read(cls, path: Path) -> RunRecord | None:
        """The record in ``path``; None when there is none."""
        if not Path(path).exists():
            return None
        record = read_json(path)
        return cls(record.get("fingerprint", ""), record.get("settings", {}))


def changed_settings(previous: RunRecord, current: RunRecord) -> list[str]:
    """The settings of ``current`` that ``previous`` recorded with another value (compared as JSON,
    the form a record is kept in)."""
    def plain(value):
        return json.loads(json.dumps(value))

    return sorted(k for k, v in current.settings.items()
                  if k in previous.settings and plain(previous.settings[k]) != plain(v))


def resumes(out, previous: RunRecord | None, current: RunRecord, restart: bool, *,
            other_data: str = "holds a run on other data", error: type[Exception] = InputError) -> bool:
    """Whether the run in ``out`` resumes; False: start (over), the caller deletes old checkpoints.

    :param previous: what the run in ``out`` recorded; None when there is no run to resume.
    :param other_data: the error's words for a changed fingerprint ("holds a model trained on other data").
    :raises error: when the data or settings changed and ``restart`` is not set.
    """
    if previous is None:
        return False
    changed = changed_settings(previous, current)
    other = bool(previous.fingerprint and current.fingerprint and previous.fingerprint != current.fingerprint)
    if not changed and not other:
        return True
    if restart:
        return False
    what = other_data if other else f"holds a run with other settings ({', '.join(changed)})"
    if other and changed:
        what += f" and other settings ({', '.join(changed)})"
    raise error(f"{out} {what}; pass --restart to train it again from the start, or choose another --out")
