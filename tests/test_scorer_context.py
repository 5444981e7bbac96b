"""``train-scorer --context-model``: a real tiny contextual model's probability becomes a column of
the scorer, cross-fitted per group, named in config.json, and loaded by ``score --model``; a scorer
without one loads no TensorFlow."""

from __future__ import annotations

import json
import os
import re
import shutil

import numpy as np
import pytest
from command_line import ROOT, assert_one_line_error, cli
from test_diagnostics_and_lean_install import BLOCKER
from test_models_predict import ruling as _toy_ruling

from rulings_anon import data
from rulings_anon.document import Document, split_elements
from rulings_anon.jsonl import read_jsonl

RULING = ("Der Kläger Herr Johannes Wendelberger wohnt in Oberkirchbach. Herr Wendelberger klagte gegen die "
          "Beklagte vor dem Bundesarbeitsgericht.\n")


def _corpus(path, courts=("bag", "bfh", "bgh"), per_court=2, characters=3000):
    """Pieces of the first rulings with placeholders of bundled courts as one LER-style file (the
    placeholders as spans): about ``characters`` around each one's first, to score in seconds."""
    with open(path, "w", encoding="utf-8") as out:
        for court in courts:
            records = (r for r in read_jsonl(data.ler_corpus_files([court])[0]) if r["spans"])
            for _, record in zip(range(per_court), records):
                record.pop("entities", None)
                text = record["text"]
                start = text.find(" ", max(0, record["spans"][0]["start"] - characters // 2)) + 1
                end = text.rfind(" ", 0, start + characters)
                record["text"] = text[start:end]
                record["spans"] = [{**s, "start": s["start"] - start, "end": s["end"] - start}
                                   for s in record["spans"] if s["start"] >= start and s["end"] <= end]
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def _tiny_contextual_model(root):
    """A Conv4 over a tiny untrained encoder, trained one epoch on toy rulings (seconds)."""
    from rulings_anon.models.hub_export import build_tiny_hub_encoder
    from rulings_anon.models.optimization import OptimizerConfig
    from rulings_anon.models.training import Trainer, TrainOptions
    from rulings_anon.preprocessing.build import make_records
    from rulings_anon.preprocessing.tokenizers import BertWordPiece

    words = sorted({w for i in range(4) for w in re.findall(r"\w+|[^\w\s]", _toy_ruling(i)["text"])} | {"-"})
    vocab = root / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[PLH]"] + words) + "\n")
    make_records([_toy_ruling(i) for i in range(8)], BertWordPiece(vocab), root / "data", max_seq_len=48,
                 validation_share=0.2)
    encoder = build_tiny_hub_encoder(root / "encoder", vocab, hidden=16, max_seq_len=48)
    Trainer(TrainOptions(data=root / "data", variant="Conv4", out=root / "model", epochs=1, bert_handle=str(encoder),
                         width_divisor=4, progress=False,
                         optimizer=OptimizerConfig(warmup_lr=1e-2, initial_lr=1e-2))).run()
    shutil.rmtree(encoder)
    return root / "model"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    root = tmp_path_factory.mktemp("context")
    model = _tiny_contextual_model(root)
    folds = root / "folds"
    for court in ("bag", "bfh", "bgh"):  # a real run trains each without its court; the plumbing is the same
        shutil.copytree(model, folds / court)
    corpus = _corpus(root / "corpus.jsonl")
    done = cli("train-scorer", corpus, "--out", root / "scorer", "--rounds", 6, "--boosters", 2, "--seed", 3,
               "--context-model", model, "--context-folds", folds)
    assert done.returncode == 0, done.stderr
    return root, model, folds, corpus


def test_the_config_names_the_contextual_model_and_the_boosters_read_its_column(trained):
    root, model, folds, _ = trained
    config = json.loads((root / "scorer" / "config.json").read_text(encoding="utf-8"))
    assert config["extra_features"] == ["context_prob"]
    assert config["context_model"] == str(model.resolve()) and config["context_folds"] == str(folds.resolve())
    assert len(config["features"]) + 1 == len(re.search(r"^feature_names=(.*)$", (root / "scorer" / "model.txt")
                                                        .read_text(encoding="utf-8"), re.M).group(1).split())
    assert "context_prob" in (root / "scorer" / "model-1.txt").read_text(encoding="utf-8")


def test_each_group_s_column_is_its_fold_model_s_probability_of_the_candidate(trained):
    from rulings_anon.analyzer import scorer_training as st
    from rulings_anon.evaluation.scorer_context import fold_models, fold_probabilities
    from rulings_anon.scoring.prediction import ElementModel

    root, model, folds, corpus = trained
    groups = {}
    for record in read_jsonl(corpus):
        groups.setdefault(record["court"].lower(), []).append(record)
    cache = st.FeatureCache(root / "scorer" / "cache")
    train = st.group_features(groups, cache)
    groups = {"bag": groups["bag"]}  # one fold model is enough to check the alignment
    columns = st.context_columns(groups, train, fold_probabilities(fold_models(folds, sorted(groups))), cache)
    assert set(columns) == {"bag"}
    first = st.training_records(groups["bag"])[0]
    own = ElementModel(model).probabilities([Document("x", first["text"])])[0]
    assert len(own) == len(split_elements(first["text"]))
    for name, column in columns.items():
        assert column.shape == (len(train[name].labels), 1)
        assert np.isfinite(column).all() and (column >= 0).all() and (column <= 1).all()
    rows = train["bag"].documents == 0
    assert np.allclose(columns["bag"][rows, 0], own[train["bag"].elements[rows]], atol=1e-6)


def test_score_loads_the_contextual_model_beside_the_scorer(trained):
    from rulings_anon import Analyzer
    from rulings_anon.errors import ModelError
    from rulings_anon.scoring.prediction import ElementModel, load_element_model

    root, model, _, _ = trained
    loaded = load_element_model(root / "scorer")  # what score --model loads
    assert isinstance(loaded.context, ElementModel) and loaded.context.model_dir == model.resolve()
    # the boosters refuse rows without the column, so spans mean the contextual model was read
    spans = Analyzer(element_model=loaded, threshold=0.5).analyze(RULING)
    assert all(0 <= s.start < s.end <= len(RULING) for s in spans)
    context = loaded.context.probabilities([Document("urteil", RULING)])[0]
    assert len(context) == len(split_elements(RULING)) and np.isfinite(context).all()
    with pytest.raises(ModelError, match="contextual model"):  # the engine alone cannot load TensorFlow's model
        Analyzer(root / "scorer")


def test_train_scorer_refuses_a_context_model_without_folds_and_a_missing_fold(trained, tmp_path):
    root, model, folds, corpus = trained
    done = cli("train-scorer", corpus, "--out", tmp_path / "s", "--context-model", model)
    assert_one_line_error(done, "--context-model and --context-folds go together")
    partial = tmp_path / "folds"
    shutil.copytree(folds / "bag", partial / "bag")
    done = cli("train-scorer", corpus, "--out", tmp_path / "s", "--context-model", model, "--context-folds", partial)
    assert_one_line_error(done, "no model for group(s) bfh, bgh")


def test_a_scorer_without_a_contextual_model_scores_without_tensorflow(tmp_path):
    site = tmp_path / "lean-site"  # an interpreter where the training stack cannot be imported
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    lean = {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"}
    ruling = tmp_path / "urteil.txt"
    ruling.write_text(RULING, encoding="utf-8")
    done = cli("score", ruling, "--model", data.path("scorer"), "--no-ner", "--output", tmp_path / "spans.jsonl",
               env=lean)
    assert done.returncode == 0, done.stderr
    assert "Wendelberger" in [s["text"] for s in next(iter(read_jsonl(tmp_path / "spans.jsonl")))["spans"]]
