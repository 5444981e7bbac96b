"""Pack paragraphs into sequences of at most the maximum length, and draw candidate vectors.

Thesis 5.3.3: tokenized paragraphs are joined until the next one would exceed the maximum
sequence length; a paragraph longer than that is split recursively, preferably at a sentence
end near its middle, and never inside a text element. Thesis 5.4.2.1: a candidate vector marks
every positive element plus about 2 % of the other elements (whole elements), and several are
drawn per sequence so training can pick one at random.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

# An element ending a sentence: final punctuation, optionally followed by closing quotes/brackets.
_SENTENCE_END = re.compile(r"[.!?:;][\"'“”)\]]*$")
# Abbreviations that end in a period without ending the sentence (lower-cased).
ABBREVIATIONS = frozenset({
    "abs.", "nr.", "rn.", "rdnr.", "vgl.", "bzw.", "z.b.", "s.", "art.", "i.v.m.", "u.a.", "d.h.",
    "gem.", "ggf.", "dr.", "hr.", "fr.", "az.", "bl.", "ziff.", "lit.", "buchst.", "aufl.", "a.a.o.",
    "v.", "vom.", "ca.", "bd.", "f.", "ff.", "o.", "u.", "i.", "a.", "e.v.", "m.w.n.", "sog.", "st.",
})


def is_sentence_end(element: str) -> bool:
    """Whether a text element closes a sentence (a split there keeps sentences whole)."""
    if not _SENTENCE_END.search(element):
        return False
    return len(element) > 2 and element.lower() not in ABBREVIATIONS


@dataclass(frozen=True)
class Chunk:
    """Elements ``[first, end)`` of paragraph ``paragraph`` holding ``tokens`` tokens."""

    paragraph: int
    first: int
    end: int
    tokens: int


def split_paragraph(paragraph: int, counts: Sequence[int], sentence_ends: Sequence[bool],
                    capacity: int, first: int = 0, end: int | None = None) -> list[Chunk]:
    """Split elements ``[first, end)`` of a paragraph into chunks of at most ``capacity`` tokens.

    Recursive: a range that does not fit is cut at the sentence end closest to its token
    middle, or at the element boundary closest to it when no sentence ends inside. Every count
    must be ``<= capacity`` (the caller truncates over-long elements).
    """
    end = len(counts) if end is None else end
    total = sum(counts[first:end])
    if total <= capacity or end - first <= 1:
        return [Chunk(paragraph, first, end, total)]
    half = total / 2
    best, best_key = None, None
    running = 0
    for cut in range(first + 1, end):
        running += counts[cut - 1]
        # Prefer sentence ends, then the cut closest to the token middle.
        key = (not sentence_ends[cut - 1], abs(running - half))
        if best_key is None or key < best_key:
            best, best_key = cut, key
    return (split_paragraph(paragraph, counts, sentence_ends, capacity, first, best)
            + split_paragraph(paragraph, counts, sentence_ends, capacity, best, end))


def pack(paragraphs: Sequence[tuple[Sequence[int], Sequence[bool]]], capacity: int) -> list[list[Chunk]]:
    """Group a document's paragraphs into sequences of at most ``capacity`` tokens.

    ``paragraphs`` holds per paragraph the token count and the sentence-end flag of each
    element. Consecutive chunks are joined greedily while they fit; chunks never overlap and
    together cover every element once, in order.
    """
    if capacity < 1:
        raise ValueError(f"sequence capacity must be positive, got {capacity}")
    sequences: list[list[Chunk]] = []
    current: list[Chunk] = []
    used = 0
    for index, (counts, ends) in enumerate(paragraphs):
        if not counts:
            continue
        for chunk in split_paragraph(index, counts, ends, capacity):
            if current and used + chunk.tokens > capacity:
                sequences.append(current)
                current, used = [], 0
            current.append(chunk)
            used += chunk.tokens
    if current:
        sequences.append(current)
    return sequences


def candidate_vectors(labels: Sequence[int], count: int, rate: float, rng: random.Random) -> list[list[int]]:
    """``count`` 0/1 vectors over the elements: all positives plus random negatives.

    Each vector adds ``rate`` of the negative elements on average (the fraction is rounded up
    or down at random, so small sequences still get their share in expectation).
    """
    negatives = [i for i, label in enumerate(labels) if not label]
    vectors = []
    for _ in range(count):
        expected = rate * len(negatives)
        picks = int(expected) + (rng.random() < expected - int(expected))
        vector = [1 if label else 0 for label in labels]
        for i in rng.sample(negatives, picks):
            vector[i] = 1
        vectors.append(vector)
    return vectors
