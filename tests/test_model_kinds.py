"""Model directories record their kind, and the element model is chosen by it; directories
written before the kind was recorded (the bundled rulings_anon/data/scorer and rulings_anon/data/ner) load as before."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from rulings_anon.analyzer.sensitivity_model import SensitivityElementModel, load_model
from rulings_anon.data import path as data_path
from rulings_anon.document import Document
from rulings_anon.engine import ElementModel
from rulings_anon.errors import ModelError
from rulings_anon.ner.model import NerConfig
from rulings_anon.scoring.prediction import NerElementModel, load_element_model, model_kind
from tests.command_line import assert_one_line_error, cli

RULING = Document("r1", "Der Kläger Thilo Kemper wohnt in Kehl.\n\nDie Beklagte, die Meyer Bau GmbH, bestreitet das.")


def _config(directory):
    return json.loads((directory / "config.json").read_text(encoding="utf-8"))


def test_directories_that_record_no_kind_still_load(tmp_path):
    import shutil

    # a scorer saved before models recorded their kind (the bundled one is train-scorer's output and does)
    assert _config(data_path("scorer"))["kind"] == "sensitivity"
    old = shutil.copytree(data_path("scorer"), tmp_path / "scorer")
    config = _config(old)
    del config["kind"]
    (old / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert "kind" not in _config(data_path("ner"))
    for directory, loaded_as in ((old, SensitivityElementModel), (data_path("ner"), NerElementModel)):
        model = load_element_model(directory)
        assert isinstance(model, loaded_as) and model.kind == loaded_as.kind


def test_a_saved_sensitivity_model_records_its_kind_and_scores_as_the_bundled_one(tmp_path):
    load_model(data_path("scorer")).save(tmp_path / "scorer")
    assert _config(tmp_path / "scorer")["kind"] == "sensitivity"
    saved, bundled = load_element_model(tmp_path / "scorer"), load_element_model(data_path("scorer"))
    assert isinstance(saved, SensitivityElementModel)
    np.testing.assert_allclose(saved.probabilities([RULING])[0], bundled.probabilities([RULING])[0])


def test_a_ner_directory_records_its_kind_and_loads_by_it(tmp_path):
    shutil.copytree(data_path("ner"), tmp_path / "ner")
    NerConfig.load(tmp_path / "ner").save(tmp_path / "ner")  # what train-ner writes
    assert _config(tmp_path / "ner")["kind"] == "ner"
    for name in ("weights.h5", "vocab.txt", "chars.txt"):
        assert (tmp_path / "ner" / name).read_bytes() == (data_path("ner") / name).read_bytes()
    assert isinstance(load_element_model(tmp_path / "ner"), NerElementModel)


def test_the_recorded_kind_decides_over_the_files(tmp_path):
    # A sensitivity model's files under a config that says "contextual": the contextual loader runs.
    shutil.copytree(data_path("scorer"), tmp_path / "m")
    config = {**_config(tmp_path / "m"), "kind": "contextual"}
    (tmp_path / "m" / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert model_kind(tmp_path / "m") == "contextual"
    with pytest.raises(ModelError):
        load_element_model(tmp_path / "m")


def test_an_unknown_kind_is_refused_in_one_line_naming_the_directory(tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"kind": "transformer", "format": 1}), encoding="utf-8")
    with pytest.raises(ModelError, match="unknown model kind 'transformer'"):
        load_element_model(model)
    ruling = tmp_path / "urteil.txt"
    ruling.write_text(RULING.text, encoding="utf-8")
    done = cli("score", str(ruling), "--output", str(tmp_path / "out.jsonl"), "--model", str(model), "--no-ner")
    assert_one_line_error(done, str(model), "transformer", "contextual, ner, sensitivity")
    assert not (tmp_path / "out.jsonl").exists()


def test_every_element_model_declares_the_interface():
    model = load_element_model(data_path("scorer"))
    assert isinstance(model, ElementModel)
    # each ruling is decided alone: no model takes the batch it is scored with
    assert not hasattr(model, "set_batch") and not hasattr(model, "set_batch_frequency")
    assert model.reads_recognizer_hits
    from rulings_anon.scoring.prediction import ElementModel as ContextualModel

    for cls, kind in ((ContextualModel, "contextual"), (NerElementModel, "ner"), (SensitivityElementModel, "sensitivity")):
        assert cls.kind == kind and isinstance(cls.reads_recognizer_hits, bool)
    assert not hasattr(load_element_model(data_path("ner")), "set_batch")
