"""Tokens of the legal NER and their ids: words, characters and the vocabulary files.

The tagger labels tokens, not whitespace elements: "K.," holds a name and two punctuation
marks, and a name ends where its letters end. A token is a run of letters/digits or a single
other character, with its character offsets into the text. Each token is fed to the model as a
lower-cased word id (from ``vocab.txt``) and as the ids of its characters, case kept (from
``chars.txt``): the characters let the tagger recognize names it never saw ("-berg", "-mann").
With a lexicon (``rulings_anon.ner.lexicon_builder``) each token also gets the id of what a German
dictionary says its form is (0: not listed).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np

from rulings_anon.jsonl import atomic_writer
from rulings_anon.lexicon import lookup

TOKEN_RE = re.compile(r"\w+|[^\w\s]")
PAD, UNK = 0, 1
_SPECIALS = ("<pad>", "<unk>")


def tokenize(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every token of ``text``."""
    return [m.span() for m in TOKEN_RE.finditer(text)]


class Vocabulary:
    """Word and character ids; index 0 pads, 1 stands for anything unknown."""

    def __init__(self, words: list[str], chars: list[str], max_chars: int, lexicon: dict[str, int] | None = None):
        self.lexicon = lexicon or {}
        self.words = list(_SPECIALS) + [w for w in words if w not in _SPECIALS]
        self.chars = list(_SPECIALS) + [c for c in chars if c not in _SPECIALS]
        self.max_chars = max_chars
        self._word_index = {w: i for i, w in enumerate(self.words)}
        self._char_index = {c: i for i, c in enumerate(self.chars)}
        self._cache: dict[str, tuple[int, tuple[int, ...], int]] = {}

    @classmethod
    def build(cls, tokens, max_words: int, min_count: int, max_chars: int) -> Vocabulary:
        """The ``max_words`` most frequent lower-cased words seen ``min_count`` times and all characters."""
        words: Counter = Counter()
        chars: Counter = Counter()
        for token in tokens:
            words[token.lower()] += 1
            chars.update(token)
        kept = [w for w, n in sorted(words.items(), key=lambda x: (-x[1], x[0])) if n >= min_count]
        return cls(kept[:max_words], sorted(chars), max_chars)

    def save(self, directory: Path) -> None:
        for name, items in (("vocab.txt", self.words), ("chars.txt", self.chars)):
            with atomic_writer(directory / name) as handle:
                handle.write("".join(f"{item}\n" for item in items))

    @classmethod
    def load(cls, directory: Path, max_chars: int, lexicon: dict[str, int] | None = None) -> Vocabulary:
        words = (directory / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1]
        chars = (directory / "chars.txt").read_text(encoding="utf-8").split("\n")[:-1]
        return cls(words, chars, max_chars, lexicon)

    def _encode(self, token: str) -> tuple[int, tuple[int, ...], int]:
        cached = self._cache.get(token)
        if cached is None:
            # Long tokens keep their start and end, where German names and suffixes are.
            half = self.max_chars // 2
            shown = token if len(token) <= self.max_chars else token[:half] + token[-(self.max_chars - half):]
            ids = [self._char_index.get(c, UNK) for c in shown]
            cached = (self._word_index.get(token.lower(), UNK), tuple(ids + [PAD] * (self.max_chars - len(ids))),
                      lookup(self.lexicon, token) if self.lexicon else 0)
            self._cache[token] = cached
        return cached

    def encode(self, tokens: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Word ids ``[n]``, character ids ``[n, max_chars]`` and lexicon ids ``[n]`` of ``tokens``."""
        encoded = [self._encode(t) for t in tokens]
        words = np.fromiter((e[0] for e in encoded), dtype=np.int32, count=len(encoded))
        chars = np.array([e[1] for e in encoded], dtype=np.int32).reshape(len(encoded), self.max_chars)
        lexicon = np.fromiter((e[2] for e in encoded), dtype=np.int32, count=len(encoded))
        return words, chars, lexicon
