"""Document corrections (thesis 5.5.2), offered to the user after the replacements.

Text extracted from court portals has spacing and bracket mistakes that a non-anonymized
original would not have: words split by a space ("Anw alt"), a bracket left open before the
sentence end ("(siehe Anlage K 1 ."), a space before punctuation ("Beklagten ,"). They are found
here as edits of the pseudonymized text; the user accepts each (``--auto`` only reports them).
Placeholder replacements are never touched.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass
from functools import lru_cache

from rulings_anon.data import ler_corpus_files

# Courts whose words make up the reference vocabulary: the dev courts (BSG is held out).
VOCABULARY_COURTS = ("bag", "bfh", "bgh", "bpatg", "bverfg")

# A fragment seen at most this often as a word of its own may be half of a split word.
RARE_FRAGMENT = 5

_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")
# Two letter runs separated by one space, the second lower-case: "Anw alt", "Gesch äftsführer".
_SPLIT_PAIR = re.compile(r"(?<![\w-])([A-Za-zÄÖÜäöüß]{2,}) ([a-zäöüß]{2,})(?![\w-])")
# An opening bracket whose sentence ends before it is closed: "(siehe Anlage K 1 ."
_OPEN_BRACKET = re.compile(r"\(([^()\n]{1,80}?)\s+\.(?=\s|$)")
# A single punctuation mark after a space: "des Beklagten , der"
_SPACE_BEFORE_PUNCT = re.compile(r"(?<=[A-Za-zÄÖÜäöüß\d)]) ([,;:!?]|\.(?!\.))(?=\s|$)")


@dataclass(frozen=True)
class Correction:
    """Replace ``text[start:end]`` (``before``) by ``after``; ``reason`` says why."""

    start: int
    end: int
    before: str
    after: str
    reason: str

    def to_dict(self) -> dict:
        return asdict(self)


@lru_cache(maxsize=1)
def reference_vocabulary() -> Counter:
    """Word counts of the bundled corpus (dev courts), the lexicon that tells "Anwalt" from "Anw"."""
    counts: Counter = Counter()
    for path in ler_corpus_files(VOCABULARY_COURTS):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                counts.update(_WORD.findall(json.loads(line)["text"]))
    return counts


def document_vocabulary(texts) -> Counter:
    counts: Counter = Counter()
    for text in texts:
        counts.update(_WORD.findall(text))
    return counts


def find_corrections(text: str, vocabulary: Counter, protected=()) -> list[Correction]:
    """Corrections for ``text``, none overlapping a ``protected`` ``(start, end)`` range."""
    found: list[Correction] = []
    for m in _SPLIT_PAIR.finditer(text):
        left, right = m.group(1), m.group(2)
        joined = left + right
        # one fragment is (almost) never a word on its own, the joined word is a commoner one
        rarer = min(vocabulary[left], vocabulary[right])
        if rarer <= RARE_FRAGMENT and rarer < vocabulary[joined]:
            found.append(Correction(m.start(), m.end(), m.group(), joined, "split word"))
    for m in _OPEN_BRACKET.finditer(text):
        found.append(Correction(m.start(), m.end(), m.group(), f"({m.group(1)}).", "bracket not closed"))
    for m in _SPACE_BEFORE_PUNCT.finditer(text):
        found.append(Correction(m.start(), m.end(), m.group(), m.group(1), "space before punctuation"))
    found.sort(key=lambda c: (c.start, c.end))
    kept: list[Correction] = []
    for c in found:
        if kept and c.start < kept[-1].end:
            continue
        if any(c.start < b and a < c.end for a, b in protected):
            continue
        kept.append(c)
    return kept


def apply_corrections(text: str, spans: list[dict], corrections: list[Correction]) -> tuple[str, list[dict]]:
    """Apply non-overlapping corrections; spans (not overlapping them) move with the text."""
    pieces, last, shift = [], 0, 0
    moves: list[tuple[int, int]] = []  # (old offset from which, cumulative shift)
    for c in sorted(corrections, key=lambda c: c.start):
        pieces.append(text[last:c.start])
        pieces.append(c.after)
        last = c.end
        shift += len(c.after) - (c.end - c.start)
        moves.append((c.end, shift))

    def moved(offset: int) -> int:
        delta = 0
        for at, total in moves:
            if offset >= at:
                delta = total
        return offset + delta

    pieces.append(text[last:])
    return "".join(pieces), [{**s, "start": moved(s["start"]), "end": moved(s["end"])} for s in spans]
