"""File names for document ids: unique, safe and bounded for any id.

An id becomes a file name wherever a command writes one file per document (``score
--anonymize DIR``, the members of ``split``'s archives). Ids are arbitrary strings ("a/b",
"../x", ".hidden", 300 characters), so the name is the id itself only when the id is a
plain, short name; otherwise it is a sanitized prefix of the id plus a short hash of the whole id
(``a_b-3f2a9c41d0.txt``). Kept names never end like a hashed one, so the two kinds cannot collide,
and two ids that differ only in case (which a case-insensitive file system would merge) are both
hashed.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_UNSAFE_CHARS = re.compile(r"[^A-Za-z0-9._-]+")
_HASHED_TAIL = re.compile(r"-[0-9a-f]{10}$")
MAX_STEM = 100  # characters of the sanitized prefix; the whole name stays far below 255 bytes


def _hashed(doc_id: str) -> str:
    prefix = _UNSAFE_CHARS.sub("_", doc_id).strip("._-")[:MAX_STEM] or "document"
    return f"{prefix}-{hashlib.sha256(doc_id.encode('utf-8')).hexdigest()[:10]}"


def _keepable(doc_id: str) -> bool:
    return (len(doc_id) <= MAX_STEM and _SAFE.fullmatch(doc_id) is not None
            and not _HASHED_TAIL.search(doc_id) and not doc_id.endswith("."))


def file_stems(ids: Iterable[str]) -> list[str]:
    """One file stem per id, all distinct (also when compared case-insensitively), in order.

    Raises ``ValueError`` for a repeated id: one file cannot hold two documents.
    """
    ids = list(ids)
    repeated = [i for i, n in Counter(ids).items() if n > 1]
    if repeated:
        raise ValueError(f"the id {repeated[0]!r} is given twice; ids must be unique to be file names")
    folded = Counter(i.casefold() for i in ids if _keepable(i))
    return [i if _keepable(i) and folded[i.casefold()] == 1 else _hashed(i) for i in ids]


def file_stem(doc_id: str) -> str:
    """The file stem of one id on its own (see :func:`file_stems`)."""
    return doc_id if _keepable(doc_id) else _hashed(doc_id)
