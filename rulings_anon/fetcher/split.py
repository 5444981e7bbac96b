"""The train/test split of a corpus, stored as compressed TAR files (thesis 5.2).

Each archive (``train.tar.gz``, ``test.tar.gz``) holds the raw text of every ruling as
``texts/<id>.txt`` and ``metadata.jsonl``: one line per ruling, its fields without ``text`` plus
``file``, the member holding the text (and gold ``spans`` when the corpus has them). Archives
are byte-for-byte reproducible: same corpus, same seed, same bytes (fixed member order, times
and owners). ``split.json`` beside them records the parameters and the ids of each side. Every command reads the archives back as documents.
"""

from __future__ import annotations

import io
import json
import random
import tarfile
from collections import Counter
from pathlib import Path

from rulings_anon.document import Document
from rulings_anon.errors import InputError
from rulings_anon.filenames import file_stems
from rulings_anon.jsonl import atomic_folder, atomic_writer, write_json

from .collect import court_matches


def random_split(ids: list[str], test_share: float, seed: int) -> set[str]:
    """The test ids: ``round(share * n)`` ids drawn with ``seed``, at least one on each side."""
    if not 0.0 < test_share < 1.0:
        raise InputError(f"--test-share must lie strictly between 0 and 1, got {test_share}")
    if len(ids) < 2:
        raise InputError(f"a split needs at least 2 rulings, the corpus has {len(ids)}")
    count = min(max(round(test_share * len(ids)), 1), len(ids) - 1)
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    return set(order[:count])


def court_split(documents: list[Document], court: str) -> set[str]:
    """The test ids when one court is held out: all of its rulings."""
    test = {d.id for d in documents if court_matches(d.meta.get("court"), court)}
    if not test:
        courts = sorted({str(d.meta.get("court")) for d in documents})
        raise InputError(f"no ruling of court {court!r} in the corpus (courts: {', '.join(courts)})")
    if len(test) == len(documents):
        raise InputError(f"every ruling is from court {court!r}: nothing would be left to train on")
    return test


def _member_names(documents: list[Document]) -> list[str]:
    """``texts/<stem>.txt`` per ruling: safe, distinct and bounded whatever the ids
    (:func:`rulings_anon.filenames.file_stems`), so the archive also unpacks on a disk."""
    return [f"texts/{stem}.txt" for stem in file_stems(d.id for d in documents)]


def _add(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    info.mtime = 0
    archive.addfile(info, io.BytesIO(data))


def write_archive(path, documents: list[Document]) -> None:
    """Write ``documents`` as a reproducible ``.tar.gz`` (atomically)."""
    names = _member_names(documents)
    lines = []
    for document, name in zip(documents, names):
        record = {"id": document.id, **document.meta, "file": name}
        if document.spans or document.gold:
            record["spans"] = [span.to_dict() for span in document.spans]
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    with atomic_writer(path, "wb") as handle, tarfile.open(fileobj=handle, mode="w", format=tarfile.PAX_FORMAT) as archive:
        _add(archive, "metadata.jsonl", "".join(lines).encode("utf-8"))
        for document, name in zip(documents, names):
            _add(archive, name, document.text.encode("utf-8"))


def split_corpus(
    documents: list[Document], out_dir, test_share: float = 0.13, seed: int = 0, holdout_court: str | None = None
) -> dict:
    """Split and write ``train.tar.gz``, ``test.tar.gz`` and ``split.json``; returns the summary."""
    ids = [d.id for d in documents]
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    if duplicates:
        raise InputError(f"the corpus holds duplicate ids: {', '.join(duplicates[:5])}")
    test = court_split(documents, holdout_court) if holdout_court else random_split(ids, test_share, seed)
    out_dir = Path(out_dir)
    sides = {
        "train": [d for d in documents if d.id not in test],
        "test": [d for d in documents if d.id in test],
    }
    summary = {
        "method": f"held-out court {holdout_court}" if holdout_court else "random",
        "test_share": None if holdout_court else test_share,
        "seed": None if holdout_court else seed,
        "holdout_court": holdout_court,
        **{side: len(members) for side, members in sides.items()},
        "ids": {side: [d.id for d in members] for side, members in sides.items()},
    }
    with atomic_folder(out_dir, earlier_split) as folder:  # the archives and split.json, or none of them
        for side, members in sides.items():
            write_archive(folder / f"{side}.tar.gz", members)
        write_json(folder / "split.json", summary)
    return summary


SPLIT_FILES = ("train.tar.gz", "test.tar.gz", "split.json")


def earlier_split(folder: Path) -> bool:
    """Whether ``folder`` holds only what :func:`split_corpus` writes (it is then replaced whole)."""
    return all(entry.name in SPLIT_FILES and entry.is_file() for entry in folder.iterdir())
