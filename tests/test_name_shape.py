"""The name-shape model: hashed character n-grams, the weights the builder fits, the shipped ones."""

from __future__ import annotations

import math

import numpy as np

from rulings_anon.analyzer import name_shape_builder as builder
from rulings_anon.analyzer.name_shape import DIMENSION, GRAM_LENGTHS, grams, name_shape


def test_grams_are_the_marked_lower_cased_n_grams_hashed_the_same_in_every_process():
    word = "Kemper"
    marked_length = len(word) + 2  # "^kemper$"
    assert len(grams(word)) == sum(marked_length - n + 1 for n in GRAM_LENGTHS)
    assert grams(word) == grams("KEMPER")  # lower-cased
    assert all(0 <= g < DIMENSION for g in grams(word))
    # crc32, not Python's salted hash: the shipped weights stay valid in every process
    assert grams("ab")[0] == 1599353835 & (DIMENSION - 1)  # zlib.crc32(b"^a")


def test_when_fitted_on_name_and_noun_endings_then_an_unseen_word_takes_its_ending_class():
    names = [stem + end for stem in ("Ahl", "Bren", "Dorn", "Fink", "Gold", "Hart", "Kran", "Lind")
             for end in ("berger", "bach", "hofer")]
    nouns = [stem + end for stem in ("Ahl", "Bren", "Dorn", "Fink", "Gold", "Hart", "Kran", "Lind")
             for end in ("ung", "keit", "schaft")]
    theta = builder.fit(names + nouns, np.array([1.0] * len(names) + [0.0] * len(nouns)))

    def probability(word):
        return 1 / (1 + math.exp(-(theta[grams(word)].sum() + theta[-1])))

    assert probability("Wolfsberger") > 0.8  # a stem never seen, a name's ending
    assert probability("Wolfsschaft") < 0.2


def test_the_training_lists_label_lexicon_nouns_and_names_and_gazetteer_places():
    words, labels = builder.training_words()
    label = dict(zip(words, labels, strict=True))
    assert label["Anspruch"] == 0 and label["Entscheidung"] == 0  # common nouns only
    assert label["Offenburg"] == 1 and label["Spremberg"] == 1  # places
    assert "Müller" not in label or label["Müller"] == 1  # a noun and a surname is never a negative
    assert words == sorted(words) and len(words) > 300_000


def test_the_shipped_weights_tell_unknown_names_from_unknown_compounds():
    assert name_shape("Xuchberger") > 0.7  # a surrogate no list holds: "-berger"
    assert name_shape("Xürstenfeld") > 0.7  # an invented place: "-feld"
    assert name_shape("Einspruchsentscheidung") < 0.05
    assert name_shape("Luftwaffe") < 0.05
    assert math.isnan(name_shape("§§"))
    assert name_shape("Ab" * 500_000) == 0.0  # a blob is no name, and costs no million n-grams


def test_the_builder_writes_the_weights_name_shape_reads(tmp_path, capsys, monkeypatch):
    out = tmp_path / "name_shape.npy"
    assert builder.main(["--out", str(out), "--iterations", "3"]) == 0
    theta = np.load(out)
    assert theta.dtype == np.float16 and theta.shape == (DIMENSION + 1,)
    assert "262144 n-gram weights" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["name_shape.npy"]  # no temporary file left
    # name_shape reads them: three steps already part a name's letters from a noun's
    from rulings_anon.analyzer import name_shape as shape

    monkeypatch.setattr(shape, "data_path", lambda *parts: str(out))
    shape.weights.cache_clear()
    shape.name_shape.cache_clear()
    try:
        assert shape.name_shape("Xuchberger") > shape.name_shape("Einspruchsentscheidung")
    finally:
        shape.weights.cache_clear()
        shape.name_shape.cache_clear()
