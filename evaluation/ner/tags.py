"""The NER tag set (``data/ner_tags.json``) and BIO encoding/decoding of entity spans.

Token tags are ``O``, ``B-<type>`` (first token of an entity) and ``I-<type>`` (the others).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from data import path as data_path
from rulings_anon.jsonl import read_json


@dataclass(frozen=True)
class TagSet:
    """``tag_of`` maps LER types to NER types; ``candidate_types`` are the ones proposed.

    With ``public_suffix`` ("_PUB") the tagger learns sensitivity, not just the type: an entity
    of a candidate type that held no placeholder (the court's own city, a public authority, a
    brand) is trained as ``<TYPE>_PUB``, which is never proposed; only entities that the court
    had anonymized keep the candidate type.
    """

    tag_of: dict
    candidate_types: tuple[str, ...]
    public_suffix: str | None = None

    @property
    def types(self) -> list[str]:
        types = set(self.tag_of.values())
        if self.public_suffix:
            types |= {t + self.public_suffix for t in self.candidate_types if t in types}
        return sorted(types)

    def entity_type(self, ler_type: str, sensitive: bool) -> str | None:
        """The NER type an entity is trained as (None: not tagged)."""
        kind = self.tag_of.get(ler_type)
        if kind is not None and self.public_suffix and not sensitive and kind in self.candidate_types:
            return kind + self.public_suffix
        return kind

    @property
    def tags(self) -> list[str]:
        return ["O"] + [f"{p}-{t}" for t in self.types for p in ("B", "I")]


@lru_cache(maxsize=1)
def default_tagset() -> TagSet:
    config = read_json(data_path("ner_tags.json"))
    return TagSet(dict(config["tag_of"]), tuple(config["candidate_types"]), config.get("public_suffix"))


def encode_bio(token_spans: list[tuple[int, int]], entities: list[dict], tagset: TagSet,
               sensitive: list[tuple[int, int]] = ()) -> np.ndarray:
    """Tag ids of the tokens: a token belongs to the entity its first character lies in.

    :param sensitive: ``(start, end)`` of the spans the court anonymized; an entity overlapping
        one is sensitive (see :class:`TagSet`).
    """
    tags = tagset.tags
    index = {t: i for i, t in enumerate(tags)}
    starts = [s for s, _ in token_spans]
    labels = np.zeros(len(token_spans), dtype=np.int32)
    for entity in entities:
        hit = any(s < entity["end"] and entity["start"] < e for s, e in sensitive)
        kind = tagset.entity_type(entity["type"], hit)
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
