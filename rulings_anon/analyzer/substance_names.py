"""Active substances named by their international nonproprietary name: "Tadalafil", "Raltegravir",
"Adalimumab", "Pantoprazol". No name, whatever the trees make of an unknown capitalized word.

Patent, social and health-insurance rulings name drugs by their INN, whose endings the WHO
assigns by the substance's class (``rulings_anon/data/substance_stems.json``). A word with such an
ending is public as the public rules' words are: a rule after the trees, under the policy's
``public_names`` exemption (:meth:`rulings_anon.analyzer.sensitivity_model.SensitivityModel.predict_rows`),
zeroing the probability, and under ``--recall-first`` multiplying it by the public rules' weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from rulings_anon.data import path as data_path
from rulings_anon.jsonl import read_json

# letters before the stem ("Rami-pril", not "A-pril")
MIN_BEFORE = 4
# what may follow the stem: a genitive, a plural ("Raltegravirs", "Statine")
_INFLECTIONS = ("", "s", "e", "en")


@lru_cache(maxsize=1)
def _endings() -> tuple[tuple[str, ...], int]:
    """Every stem with every inflection, and the length of the shortest stem."""
    stems = read_json(data_path("substance_stems.json"))["stems"]
    return tuple(stem + ending for stem in stems for ending in _INFLECTIONS), min(map(len, stems))


def substance_name(word: str) -> bool:
    """Whether ``word`` (a core word) is a substance's name: a capital, then small letters only,
    ending in a stem of ``rulings_anon/data/substance_stems.json`` (maybe inflected) with at
    least :data:`MIN_BEFORE` letters before it."""
    endings, shortest = _endings()
    if len(word) < MIN_BEFORE + shortest or not word.endswith(endings):
        return False
    if not (word[:1].isupper() and word[1:].isalpha() and word[1:].islower()):
        return False
    return any(word.endswith(ending) and len(word) - len(ending) >= MIN_BEFORE for ending in endings)


def substance_names(words: Sequence[str]) -> np.ndarray:
    """Per word: :func:`substance_name`."""
    return np.fromiter((substance_name(w) for w in words), bool, len(words))
