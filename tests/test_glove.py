"""GloVe in TensorFlow: co-occurrence counts, the weighted objective, vectors, file formats."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rulings_anon.errors import InputError
from rulings_anon.preprocessing import glove


def _dense(rows, cols, values, size):
    matrix = np.zeros((size, size))
    matrix[rows, cols] = values
    return matrix


def test_cooccurrence_weights_pairs_by_inverse_distance():
    rows, cols, values = glove.cooccurrence([[1, 2, 3], [3, 0, 4]], vocab_size=5, window=2)
    x = _dense(rows, cols, values, 5)
    expected = np.zeros((5, 5))
    for i, j, v in ((1, 2, 1.0), (2, 3, 1.0), (1, 3, 0.5), (3, 4, 0.5)):  # (3, 4) skips the pad 0
        expected[i, j] = expected[j, i] = v
    np.testing.assert_allclose(x, expected)


def test_cooccurrence_counts_repeats_and_self_pairs():
    rows, cols, values = glove.cooccurrence([[1, 1, 2, 1]], vocab_size=3, window=1)
    x = _dense(rows, cols, values, 3)
    assert x[1, 1] == 2.0  # one adjacent (1, 1) pair, counted in both directions
    assert x[1, 2] == x[2, 1] == 2.0
    rows, cols, values = glove.cooccurrence([[1, 1, 2, 1]], vocab_size=3, window=1, min_count=2.5)
    assert len(values) == 0


def test_weighting_caps_at_x_max():
    np.testing.assert_allclose(glove.weighting([100, 200, 50]), [1.0, 1.0, 0.5 ** 0.75])


def _toy_corpus(seed=0):
    """Two topics: words 1-4 only co-occur with each other, words 5-8 likewise."""
    rng = random.Random(seed)
    sequences = []
    for _ in range(300):
        topic = rng.choice([(1, 2, 3, 4), (5, 6, 7, 8)])
        sequences.append([rng.choice(topic) for _ in range(12)])
    return sequences


@pytest.fixture(scope="module")
def toy_vectors():
    rows, cols, values = glove.cooccurrence(_toy_corpus(), vocab_size=9, window=3)
    return glove.train_glove(rows, cols, values, vocab_size=9, dim=8, epochs=30, batch_size=64)


def test_loss_decreases(toy_vectors):
    _, losses = toy_vectors
    assert len(losses) == 30
    assert losses[-1] < 0.5 * losses[0]
    assert all(b <= a * 1.05 for a, b in zip(losses, losses[1:]))


def test_similar_words_are_closer_than_unrelated_ones(toy_vectors):
    vectors, _ = toy_vectors
    for a, b, other in ((1, 2, 5), (3, 4, 7), (5, 6, 1), (7, 8, 2)):
        assert glove.cosine(vectors[a], vectors[b]) > glove.cosine(vectors[a], vectors[other]) + 0.2
    assert not vectors[0].any()  # the pad id never occurs: zero vector


def test_text_format_round_trip(tmp_path, toy_vectors):
    vectors, _ = toy_vectors
    tokens = [f"▁w{i}" for i in range(9)]
    glove.save_text(tmp_path / "v.txt", tokens, vectors)
    first = (tmp_path / "v.txt").read_text(encoding="utf-8").splitlines()[1].split(" ")
    assert first[0] == "▁w1" and len(first) == 9
    loaded_tokens, loaded = glove.load_text(tmp_path / "v.txt")
    assert loaded_tokens == tokens
    np.testing.assert_allclose(loaded, vectors, atol=1e-6)


def test_pretrained_vectors_map_to_the_vocabulary_with_zeros_for_unknown_words(tmp_path):
    path = tmp_path / "de.txt"
    path.write_text("3 2\nb'urteil' 0.5 1.5\nKlage 2 3\nsonst 9 9\n", encoding="utf-8")
    matrix = glove.pretrained_matrix(path, ["<pad>", "<unk>", "klage", "urteil", "kläger"])
    np.testing.assert_allclose(matrix, [[0, 0], [0, 0], [2, 3], [0.5, 1.5], [0, 0]])
    assert glove.coverage(matrix) == 0.4


def test_a_ragged_vectors_file_is_reported_with_its_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("a 1 2\nb 1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.txt:2: 1 values where earlier lines have 2"):
        glove.load_text(path)
