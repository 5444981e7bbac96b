"""``train-scorer --gold``: reviewed rulings change the model where their labels differ from the
weak ones, config.json records them, and a file that is not gold is a one-line error."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from tests.command_line import assert_one_line_error, cli, leftovers
from tests.test_scorer_training import _corpus

# a common noun no court anonymizes, labelled sensitive in the reviewed rulings alone
WORD = "Kupferdraht"
SENTENCE = f"Die Beklagte lieferte den {WORD} am Montag. "


def _gold(path, rulings=4):
    text = SENTENCE * 12
    at = SENTENCE.index(WORD)
    spans = [{"start": i + at, "end": i + at + len(WORD), "type": "UN"} for i in range(0, len(text), len(SENTENCE))]
    assert all(text[s["start"]:s["end"]] == WORD for s in spans)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(rulings):
            out.write(json.dumps({"id": f"reviewed-{i}", "text": text, "spans": spans}, ensure_ascii=False) + "\n")
    return path


def _train(corpus, out, *gold):
    more = ("--gold", *gold, "--gold-weight", 20) if gold else ()
    return cli("train-scorer", corpus, "--out", out, "--rounds", 8, "--boosters", 1, "--seed", 3, *more)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gold")
    corpus, gold = _corpus(folder / "corpus.jsonl"), _gold(folder / "gold.jsonl")
    plain = _train(corpus, folder / "plain")
    assert plain.returncode == 0, plain.stderr
    shutil.copytree(folder / "plain" / "cache", folder / "reviewed" / "cache")  # the groups' features reused
    reviewed = _train(corpus, folder / "reviewed", gold)
    assert reviewed.returncode == 0, reviewed.stderr
    return folder, reviewed


def _probability(model_dir) -> float:
    from rulings_anon.analyzer.sensitivity_model import load_model

    text = f"Der Kläger bestellte bei der Beklagten den {WORD} für seine Werkstatt."
    probabilities = load_model(model_dir).predict_texts([text])[0]
    index = text.split().index(WORD)
    return probabilities[index]


def test_a_word_sensitive_only_in_the_gold_rises(runs):
    folder, _ = runs
    before, after = _probability(folder / "plain"), _probability(folder / "reviewed")
    assert after > before + 0.05, (before, after)


def test_the_config_records_the_gold_and_the_thresholds_stay_the_weak_labels(runs):
    folder, reviewed = runs
    config = json.loads((folder / "reviewed" / "config.json").read_text(encoding="utf-8"))
    plain = json.loads((folder / "plain" / "config.json").read_text(encoding="utf-8"))
    digest = hashlib.sha256((folder / "gold.jsonl").read_bytes()).hexdigest()
    assert config["gold"]["files"] == [{"file": "gold.jsonl", "sha256": digest, "rulings": 4, "spans": 48}]
    assert (config["gold"]["rulings"], config["gold"]["spans"], config["gold"]["weight"]) == (4, 48, 20.0)
    assert config["thresholds"] == plain["thresholds"] and config["courts"] == ["bag", "bfh", "bgh"]
    assert "gold" not in plain
    assert "reviewed: 4 rulings, 48 spans, weight 20" in reviewed.stderr
    assert len(list((folder / "reviewed" / "cache").glob("features-+gold-*.pkl"))) == 1
    assert leftovers(folder) == []


def test_an_anonymized_corpus_given_as_gold_is_refused(tmp_path):
    corpus = _corpus(tmp_path / "corpus.jsonl")
    done = cli("train-scorer", corpus, "--gold", corpus, "--out", tmp_path / "model")
    assert_one_line_error(done, "corpus.jsonl:5:", "not gold", "5 of its 6 spans are placeholders")
    assert not (tmp_path / "model").exists()


def test_rulings_without_spans_are_refused(tmp_path):
    corpus = _corpus(tmp_path / "corpus.jsonl")
    rulings = tmp_path / "rulings.jsonl"
    rulings.write_text(json.dumps({"id": "a", "text": "Herr Wimmer klagt.", "spans": []}) + "\n"
                       + json.dumps({"id": "b", "text": "Herr Wimmer klagt erneut."}) + "\n", encoding="utf-8")
    done = cli("train-scorer", corpus, "--gold", rulings, "--out", tmp_path / "model")
    assert_one_line_error(done, "rulings.jsonl:2:", "not gold", "no 'spans' list")
    assert not (tmp_path / "model").exists()


def test_the_parser_s_default_weight_is_the_library_s():
    from rulings_anon.analyzer import scorer_training as st
    from rulings_anon.evaluation import scorer_commands as sc

    assert sc.DEFAULT_GOLD_WEIGHT == st.GOLD_WEIGHT
