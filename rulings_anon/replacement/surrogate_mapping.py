"""The surrogates chosen so far, kept across the rulings of one case and between runs.

A court pseudonymizes the judgment, the appeal and the later decisions of one case: a reader of
all of them must meet the same "Weber" for the same Schulze. The mapping file (``score --mapping
FILE``) holds one JSON object a line, ``{"type", "original", "surrogate"}``: ``type`` is what
keeps entities apart (``person`` for the words of a person's name, ``name`` for places and
organizations, or the kind of a formatted value), ``original`` the normalized real value. It holds
real names, so it is written atomically with permissions 0600.
"""

from __future__ import annotations

from pathlib import Path

from rulings_anon.errors import InputError


def normalized(original: str) -> str:
    """What two mentions of one entity share: the words without case and extra white space."""
    return " ".join(original.split()).casefold()


class SurrogateMapping:
    """``(type, normalized original) -> surrogate``, with the entries added since it was read."""

    def __init__(self, entries: dict[tuple[str, str], str] | None = None):
        self.entries: dict[tuple[str, str], str] = dict(entries or {})
        self.added: list[dict] = []

    def get(self, kind: str, original: str) -> str | None:
        return self.entries.get((kind, normalized(original)))

    def put(self, kind: str, original: str, surrogate: str) -> None:
        key = (kind, normalized(original))
        if key not in self.entries:
            self.entries[key] = surrogate
            self.added.append({"type": key[0], "original": key[1], "surrogate": surrogate})

    def surrogates(self) -> set[str]:
        """Every surrogate in use (two entities never share one)."""
        return set(self.entries.values())

    def take_added(self) -> list[dict]:
        """The entries added since the last call (what one ruling added)."""
        added, self.added = self.added, []
        return added

    def extend(self, records) -> None:
        """Add ``{"type", "original", "surrogate"}`` records (of an interrupted run)."""
        for record in records:
            self.entries.setdefault((record["type"], record["original"]), record["surrogate"])

    def records(self) -> list[dict]:
        return [{"type": k, "original": o, "surrogate": s} for (k, o), s in sorted(self.entries.items())]


def read_mapping(path) -> SurrogateMapping:
    """The mapping of ``path``; a file not there yet is an empty mapping, a wrong one an
    :class:`InputError` naming it (and its line)."""
    from rulings_anon.jsonl import read_jsonl

    path = Path(path)
    if not path.exists():
        return SurrogateMapping()
    mapping = SurrogateMapping()
    for number, record in enumerate(read_jsonl(path), start=1):
        if not (isinstance(record, dict) and all(isinstance(record.get(k), str) and record.get(k)
                                                 for k in ("type", "original", "surrogate"))):
            raise InputError("not a mapping file: each line is {\"type\", \"original\", \"surrogate\"}", path, number)
        mapping.entries.setdefault((record["type"], normalized(record["original"])), record["surrogate"])
    return mapping


def write_mapping(path, mapping: SurrogateMapping) -> None:
    """Write ``mapping`` to ``path`` atomically, readable by its owner alone."""
    from rulings_anon.jsonl import write_jsonl

    write_jsonl(Path(path), mapping.records(), private=True)
