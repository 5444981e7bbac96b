"""Capitalized words that are words, not names: the ones consistency never propagates.

German capitalizes nouns, so "Vertrag" looks like a name to a shape test. The bundled LER rulings
of the dev courts (BSG is held out) tell them apart: their ``entities`` mark every name, court,
law and citation, so a capitalized word seen often *outside* all entities is a common word.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from data import ler_corpus_files
from rulings_anon.jsonl import read_jsonl

DEV_COURTS = ("bag", "bfh", "bgh", "bpatg", "bverfg")
# Seen this often outside every entity, a capitalized word is a common word.
MIN_COUNT = 3
_WORD = re.compile(r"[A-ZÄÖÜ][\w'’-]*\w")


def count_outside_entities(records) -> Counter:
    """Counts of capitalized words outside the ``entities`` and ``spans`` of LER records."""
    counts: Counter = Counter()
    for record in records:
        text = record["text"]
        taken = sorted((e["start"], e["end"]) for e in (record.get("entities") or []) + (record.get("spans") or []))
        pos = 0
        for start, end in taken + [(len(text), len(text))]:
            if start > pos:
                counts.update(_WORD.findall(text, pos, start))
            pos = max(pos, end)
    return counts


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """The common capitalized words of the dev courts' rulings."""
    counts: Counter = Counter()
    for path in ler_corpus_files(DEV_COURTS):
        counts += count_outside_entities(read_jsonl(path))
    return frozenset(word for word, n in counts.items() if n >= MIN_COUNT)
