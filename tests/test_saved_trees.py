"""The scorer's trees read through LightGBM's library give the package's own numbers."""

import pickle

import lightgbm
import numpy as np
import pytest

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.saved_trees import SavedTrees, library, load_trees, parameters
from rulings_anon.analyzer.sensitivity_model import EARLY_STOP, load_model
from rulings_anon.data import path as data_path
from rulings_anon.errors import ModelError

MODEL = data_path("scorer", "model.txt")


def _rows(count: int) -> np.ndarray:
    """Feature rows of a real ruling's candidates, some cells blanked, some random."""
    text = ("Der Kläger Herr Achleitner aus Memmingen, Hauptstraße 4, klagt gegen die M-GmbH. "
            "Richterin am BSG Dr. Knickrehm; vgl. BSG SozR 4-2500 § 5 Nr. 12; Frau Sommer wohnt in Uzwil.")
    rows = sf.document_features(text, load_model().tables).rows
    rng = np.random.default_rng(0)
    extra = rng.random((count, rows.shape[1])).astype(np.float32) * 3
    extra[rng.random(extra.shape) < 0.3] = np.nan
    return np.vstack([rows, extra])


def test_the_library_predicts_what_the_package_predicts():
    assert library() is not None
    rows = _rows(200)
    booster, trees = lightgbm.Booster(model_file=str(MODEL)), load_trees(MODEL)
    assert isinstance(trees, SavedTrees)
    for params in ({}, {"num_threads": 1, **EARLY_STOP}):
        expected = booster.predict(rows, **params)
        assert np.array_equal(trees.predict(rows, **params), expected)
        assert np.array_equal(trees.predict(rows[:1], **params), expected[:1])
        assert np.array_equal(trees.predict(rows.astype(np.float64), **params), booster.predict(rows.astype(np.float64), **params))
    assert trees.predict(rows[:0]).shape == (0,)
    assert parameters({"num_threads": 1, "pred_early_stop": True}) == "num_threads=1 pred_early_stop=True"


def test_a_copy_in_another_process_and_a_saved_file_predict_the_same(tmp_path):
    rows = _rows(50)
    trees = load_trees(MODEL)
    copy = pickle.loads(pickle.dumps(trees))
    assert np.array_equal(copy.predict(rows), trees.predict(rows))
    trees.save_model(tmp_path / "model.txt")
    assert np.array_equal(load_trees(tmp_path / "model.txt").predict(rows), trees.predict(rows))


def test_a_broken_model_file_is_a_model_error_naming_it(tmp_path):
    broken = tmp_path / "model.txt"
    broken.write_text("tree\nversion=v4\nnot a model\n", encoding="utf-8")
    with pytest.raises(ModelError, match="model.txt"):
        load_trees(broken)
