"""The learned judge of the placeholder detector: features, fitting, the shipped weights,
and the leave-one-court-out folds' isolation."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.placeholders.judge import PlaceholderModel, WindowFeatures, fit_logistic, load_model, shape
from rulings_anon.preprocessing.placeholder_training import COURTS, Examples, train


@pytest.mark.parametrize("word, expected", [
    ("K.", "A."),
    ("Sch.", "Aaa."),
    ("XY", "AA"),
    ("M-GmbH", "A-AaaA"),
    ("Stromausgabebefehlswert", "Aaaa"),  # runs are cut at three, the word at twelve characters
    ("12/2009", "99/999"),
])
def test_shape_of_a_word(word, expected):
    assert shape(word) == expected


def test_window_features_name_the_neighbours():
    detector = PlaceholderDetector()
    features = WindowFeatures(detector).features(
        "Die Zeugin B sagte aus".split(), 2, ("potential", "single_letter"), False, "potential", ())
    assert {"pat:single_letter", "rule:potential", "p:trigger", "s:low", "cand:B"} <= set(features)


def test_fit_logistic_separates_a_toy_problem_deterministically():
    rows = [["bias", "a"], ["bias", "a", "c"], ["bias", "b"], ["bias", "b", "c"]] * 5
    labels = [True, True, False, False] * 5
    first = fit_logistic(rows, labels, l2=0.1)
    assert first == fit_logistic(rows, labels, l2=0.1)
    model = PlaceholderModel(first)
    assert model.is_placeholder(["bias", "a"]) and not model.is_placeholder(["bias", "b"])
    assert model.probability(["bias", "a"]) > 0.9


def test_model_round_trips_through_json(tmp_path):
    model = PlaceholderModel({"bias": -1.0, "p:trigger": 2.5}, 0.4, {"trained_on": ["bag"]})
    model.save(tmp_path / "m.json")
    loaded = PlaceholderModel.load(tmp_path / "m.json")
    assert loaded.weights == model.weights and loaded.threshold == 0.4 and loaded.meta == model.meta


def test_shipped_model_loads_and_names_its_training_courts():
    model = load_model()
    assert model is not None
    assert model.meta["trained_on"] == sorted(COURTS)
    assert 0 < model.threshold < 1 and len(model.weights) > 100


@pytest.fixture(scope="module")
def small_examples():
    return Examples(max_documents=3)


def test_a_fold_never_sees_the_left_out_court(small_examples):
    for court in COURTS:
        others = [c for c in COURTS if c != court]
        model = train(small_examples, others)
        assert model.meta["trained_on"] == sorted(others)
        assert model.trained_documents and not any(d.startswith(f"ler-{court}-") for d in model.trained_documents)
        assert model.meta["documents"] == 3 * len(others)


def test_a_folds_weights_do_not_depend_on_the_left_out_courts_gold(small_examples):
    others = [c for c in COURTS if c != "bsg"]
    before = train(small_examples, others).weights
    saved = {d: rows for d, rows in small_examples.by_document.items() if d.startswith("ler-bsg-")}
    try:
        for doc_id, rows in saved.items():  # flip every gold label of the left-out court
            small_examples.by_document[doc_id] = [(features, not gold) for features, gold in rows]
        assert train(small_examples, others).weights == before
        assert train(small_examples, COURTS).weights != before  # the full model does see them
    finally:
        small_examples.by_document.update(saved)


def _detect_cli(*args):
    return subprocess.run([sys.executable, "-m", "rulings_anon", "detect-placeholders", *args],
                          capture_output=True, text=True, timeout=120)


def test_detect_placeholders_with_the_learned_judge(tmp_path):
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "a", "text": "Die Zeugin B sagte aus, Herr K. habe gezahlt. Vgl. S. 24."})
                    + "\n", encoding="utf-8")
    out = tmp_path / "spans.jsonl"
    result = _detect_cli(str(docs), "--output", str(out), "--judge", "learned")
    assert result.returncode == 0, result.stderr
    spans = json.loads(out.read_text(encoding="utf-8"))["spans"]
    assert [s["text"] for s in spans] == ["B", "K."]


def test_a_missing_judge_model_is_a_clear_error(tmp_path):
    result = _detect_cli(str(tmp_path / "x.txt"), "--output", "-", "--judge-model", str(tmp_path / "none.json"))
    assert result.returncode == 2 and "cannot read the judge's weights" in result.stderr
    assert "Traceback" not in result.stderr
