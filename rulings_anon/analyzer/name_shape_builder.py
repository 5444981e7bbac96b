"""Build ``rulings_anon/data/scorer/name_shape.npy``: the weights of :mod:`rulings_anon.analyzer.name_shape`.

A logistic regression over hashed character n-grams, fitted on lists that no court wrote and that
the surrogate generator never draws from (its faker lists are no evidence of sensitivity):

* names: the first names, surnames and toponyms of the German Wiktionary noun lexicon
  (``rulings_anon/data/lexicon/de-nouns.tsv.gz``, forms that are no common noun too), the German, Austrian and
  Swiss places of the gazetteer (``rulings_anon/data/scorer/places.tsv.gz``) and the title-case words of the
  surname and first-name branches of the word clusters (``rulings_anon/data/scorer/clusters.tsv.gz``, the
  first six steps 8, 24 or 40);
* not names: the lexicon's common nouns (forms that are nothing else).

The two classes weigh alike; one-word forms of letters alone. L-BFGS from zeros, so the same
files give the same weights.

    .venv/bin/python -m rulings_anon.analyzer.name_shape_builder [--out rulings_anon/data/scorer/name_shape.npy]
"""

from __future__ import annotations

import argparse
import gzip
import io
import re
import sys
from pathlib import Path

import numpy as np

from rulings_anon.analyzer.name_shape import DIMENSION, grams
from rulings_anon.data import path as data_path
from rulings_anon.jsonl import atomic_writer
from rulings_anon.lexicon import COMMON_NOUN, GERMAN_LETTERS, PERSON_NAME, PLACE_NAME

# the cluster branches (first six steps of the path) of surnames and first names
NAME_BRANCHES = (8, 24, 40)
_TITLE_WORD = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]{2,}$")
L2 = 1e-5


def training_words() -> tuple[list[str], np.ndarray]:
    """The words and their labels (1 a name, 0 a common noun), each word once."""
    labels: dict[str, int] = {}
    with gzip.open(data_path("lexicon", "de-nouns.tsv.gz"), "rt", encoding="utf-8") as handle:
        for line in handle:
            form, _, bits = line.rstrip("\n").partition("\t")
            bits = int(bits)
            if not GERMAN_LETTERS.match(form):
                continue
            if bits & (PERSON_NAME | PLACE_NAME) and not bits & COMMON_NOUN:
                labels[form] = 1
            elif bits == COMMON_NOUN:
                labels[form] = 0
    with gzip.open(data_path("scorer", "places.tsv.gz"), "rt", encoding="utf-8") as handle:
        for line in handle:
            name = line.partition("\t")[0]
            if GERMAN_LETTERS.match(name):
                labels.setdefault(name, 1)
    with gzip.open(data_path("scorer", "clusters.tsv.gz"), "rt", encoding="utf-8") as handle:
        for line in handle:
            word, _, cluster = line.rstrip("\n").partition("\t")
            if int(cluster) & 63 in NAME_BRANCHES and _TITLE_WORD.match(word):
                labels.setdefault(word, 1)
    words = sorted(labels)
    return words, np.array([labels[w] for w in words], np.float64)


def fit(words: list[str], labels: np.ndarray, l2: float = L2, max_iterations: int = 300) -> np.ndarray:
    """Weights per hashed n-gram and the bias (last) of the logistic regression, classes weighed alike."""
    import scipy.sparse as sparse
    from scipy.optimize import minimize

    rows, columns = [], []
    for r, word in enumerate(words):
        hashed = grams(word)
        rows.extend([r] * len(hashed))
        columns.extend(hashed)
    x = sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=(len(words), DIMENSION))
    share = labels.mean()
    sample = np.where(labels == 1, 0.5 / share, 0.5 / (1 - share)) / len(labels)

    def loss(theta):
        w, b = theta[:-1], theta[-1]
        z = x @ w + b
        residual = sample * (1 / (1 + np.exp(-z)) - labels)
        value = np.sum(sample * (np.logaddexp(0, z) - labels * z)) + l2 * w @ w
        return value, np.append(x.T @ residual + 2 * l2 * w, residual.sum())

    result = minimize(loss, np.zeros(DIMENSION + 1), jac=True, method="L-BFGS-B",
                      options={"maxiter": max_iterations})
    return result.x


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path(data_path("scorer", "name_shape.npy")))
    parser.add_argument("--iterations", type=int, default=300, help="L-BFGS iterations at most (about 130 "
                        "reach the optimum)")
    args = parser.parse_args(argv)
    words, labels = training_words()
    print(f"{len(words)} words, {int(labels.sum())} names; fitting", file=sys.stderr)
    theta = fit(words, labels, max_iterations=args.iterations)
    buffer = io.BytesIO()
    np.save(buffer, theta.astype(np.float16))
    with atomic_writer(args.out, "wb") as handle:
        handle.write(buffer.getvalue())
    print(f"{args.out}: {DIMENSION} n-gram weights", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
