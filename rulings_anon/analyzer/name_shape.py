"""How much a word looks like a name by its letters alone: a character n-gram model.

Most names a new ruling holds are known to some list (the lexicon, the gazetteer, the word
clusters), but a rare surname, a foreign town or an invented surrogate is known to none, and
neither is a rare technical compound. Their letters still tell them apart: "-berger", "-bach",
"-feld", "-ow" end names, "-ung", "-keit", "-recht" common nouns, "-oxid", "-ylat" chemicals.
The model is a logistic regression over the word's hashed character n-grams, fitted on lists no
court wrote (:mod:`rulings_anon.analyzer.name_shape_builder`); its weights are data
(``rulings_anon/data/scorer/name_shape.npy``).

    from rulings_anon.analyzer.name_shape import name_shape
    name_shape("Xuchberger")     # about 0.9
    name_shape("Einspruchsentscheidung")   # about 0.0
"""

from __future__ import annotations

import math
import zlib
from functools import lru_cache

import numpy as np

from rulings_anon.data import path as data_path

# the n-gram lengths and the hashed space they share (weights as float16: 0.5 MB)
GRAM_LENGTHS = (2, 3, 4, 5)
DIMENSION = 1 << 18
# longer words are no names (and a blob of a million letters would cost millions of n-grams)
MAX_LENGTH = 60


def grams(word: str) -> list[int]:
    """The hashed character n-grams of ``word`` lower-cased, its start and end marked ("^x", "r$")."""
    marked = "^" + word.lower() + "$"
    return [zlib.crc32(marked[i:i + n].encode("utf-8")) & (DIMENSION - 1)
            for n in GRAM_LENGTHS for i in range(len(marked) - n + 1)]


@lru_cache(maxsize=1)
def weights() -> np.ndarray:
    """The n-gram weights, the bias last (``rulings_anon/data/scorer/name_shape.npy``)."""
    return np.load(data_path("scorer", "name_shape.npy")).astype(np.float64)


@lru_cache(maxsize=200_000)
def name_shape(word: str) -> float:
    """The probability that ``word`` is a name (person or place) by its letters; NaN for a word
    without a letter, 0 for one longer than :data:`MAX_LENGTH`."""
    if len(word) > MAX_LENGTH:
        return 0.0
    if not any(c.isalpha() for c in word):
        return math.nan
    theta = weights()
    z = float(theta[grams(word)].sum() + theta[-1])
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
