"""The NER tag set (``rulings_anon/data/ner_tags.json``) and BIO encoding/decoding of entity spans.

Token tags are ``O``, ``B-<type>`` (first token of an entity) and ``I-<type>`` (the others).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rulings_anon.data import path as data_path
from rulings_anon.jsonl import read_json


@dataclass(frozen=True)
class TagSet:
    """``tag_of`` maps LER types to NER types; ``candidate_types`` are the ones proposed."""

    tag_of: dict
    candidate_types: tuple[str, ...]

    @property
    def types(self) -> list[str]:
        return sorted(set(self.tag_of.values()))

    @property
    def tags(self) -> list[str]:
        return ["O"] + [f"{p}-{t}" for t in self.types for p in ("B", "I")]


@lru_cache(maxsize=1)
def default_tagset() -> TagSet:
    config = read_json(data_path("ner_tags.json"))
    return TagSet(dict(config["tag_of"]), tuple(config["candidate_types"]))


def encode_bio(token_spans: list[tuple[int, int]], entities: list[dict], tags: list[str], tag_of: dict) -> np.ndarray:
    """Tag ids of the tokens: a token belongs to the entity its first character lies in."""
    index = {t: i for i, t in enumerate(tags)}
    starts = [s for s, _ in token_spans]
    labels = np.zeros(len(token_spans), dtype=np.int32)
    for entity in entities:
        kind = tag_of.get(entity["type"])
        if kind is None:
            continue
        first = bisect.bisect_left(starts, entity["start"])
        last = bisect.bisect_left(starts, entity["end"])
        for i in range(first, last):
            labels[i] = index[("B-" if i == first else "I-") + kind]
    return labels


def decode_bio(tag_ids: np.ndarray, probs: np.ndarray, tags: list[str]) -> list[tuple[int, int, str, float]]:
    """``(first_token, last_token_exclusive, type, score)`` of each entity; an ``I-`` without a
    matching predecessor opens an entity. ``score`` is the mean probability of its tags."""
    found = []
    current = None  # [first, type, probability sum]
    for i, tag_id in enumerate(tag_ids):
        tag = tags[tag_id]
        if tag == "O" or tag.startswith("B-") or (current is not None and tag[2:] != current[1]):
            if current is not None:
                found.append((current[0], i, current[1], current[2] / (i - current[0])))
                current = None
        if tag != "O":
            if current is None:
                current = [i, tag[2:], 0.0]
            current[2] += float(probs[i])
    if current is not None:
        n = len(tag_ids)
        found.append((current[0], n, current[1], current[2] / (n - current[0])))
    return found


def sensitive_tokens(token_spans: list[tuple[int, int]], entities: list[dict], anonymized: list[tuple[int, int]],
                     tag_of: dict) -> np.ndarray:
    """Per token 1.0 when the court anonymized the reference it belongs to, else 0.0.

    ``anonymized`` are the ``(start, end)`` of the court's placeholders (after pseudonymization,
    the surrogates). A token is sensitive when it lies in an entity overlapping one of them (the
    whole "Meyer Bau GmbH", not only "Meyer"), or in one of them outside any entity. Entities of
    the same type that held no placeholder (the court's city, a public authority) stay 0: the
    tagger learns which references courts anonymize, not only their type.
    """
    starts = [s for s, _ in token_spans]
    labels = np.zeros(len(token_spans), dtype=np.float32)

    def mark(start: int, end: int) -> None:
        labels[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)] = 1.0

    for start, end in anonymized:
        mark(start, end)
    for entity in entities:
        if tag_of.get(entity["type"]) and any(s < entity["end"] and entity["start"] < e for s, e in anonymized):
            mark(entity["start"], entity["end"])
    return labels
