"""Ids that carry no names: a document named after its parties gets a safe id in the outputs.

A file saved as "Wimmer_Thomas_gegen_Öztürk.txt" has the id "Wimmer_Thomas_gegen_Öztürk", and
``score`` would write it into every output line and into the anonymized copy's file name. An id
holding a word that the document's own sensitive spans hold is replaced by ``document-`` and a
hash of it; the spans record keeps the original as ``source_id`` (the spans file holds the names
anyway, and is readable by its owner only), so the user can map back. The texts folder and the
file names see only the safe id.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from .diagnostics import LOG
from .normalization import normalize

_WORD = re.compile(r"[^\W\d_]{3,}")


def names_in_id(doc_id: str, span_texts: Iterable[str]) -> list[str]:
    """The words of ``doc_id`` (three letters or more) that a sensitive span of its document holds."""
    flagged = {w.casefold() for text in span_texts for w in _WORD.findall(normalize(text).text)}
    return [w for w in _WORD.findall(normalize(doc_id).text) if w.casefold() in flagged]


def safe_id(doc_id: str) -> str:
    """``document-`` and 12 hex digits: a plain file name as it is (a 10-digit tail would be hashed again)."""
    return f"document-{hashlib.sha256(doc_id.encode('utf-8')).hexdigest()[:12]}"


def without_names(records: list[dict]) -> list[dict]:
    """``score``'s records (``{"id", "spans": [{"text", ...}], ...}``) with every id that names a
    person of its document replaced by :func:`safe_id` (``source_id`` keeps it); one warning line each."""
    taken = {r["id"] for r in records}
    safe = []
    for record in records:
        doc_id = record["id"]
        if names_in_id(doc_id, (s.get("text") or "" for s in record.get("spans", ()))):
            replacement = safe_id(doc_id)
            if replacement not in taken:
                taken.add(replacement)
                LOG.warning(f"score: warning: the id {doc_id!r} holds a name of its document; written as "
                            f"{replacement!r} (its spans record keeps the id as 'source_id')")
                record = {"id": replacement, "source_id": doc_id, **{k: v for k, v in record.items() if k != "id"}}
        safe.append(record)
    return safe
