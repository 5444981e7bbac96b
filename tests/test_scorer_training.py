"""``train-scorer``: a fixed seed gives the same model twice, the model is one ``score`` runs, a
rerun reuses its cached features, and a corpus too small to cross-validate is a one-line error."""

from __future__ import annotations

import json

import pytest

from rulings_anon import data
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.jsonl import read_jsonl
from tests.command_line import assert_one_line_error, cli, leftovers

MODEL_FILES = ("config.json", "model.txt", "model-1.txt", "tables.json.gz", "background.json.gz")


def _corpus(path, courts=("bag", "bfh", "bgh"), per_court=4):
    """The first rulings of bundled courts as one LER-style file (their placeholders as spans)."""
    with open(path, "w", encoding="utf-8") as out:
        for court in courts:
            for i, record in enumerate(read_jsonl(data.ler_corpus_files([court])[0])):
                if i == per_court:
                    break
                record.pop("entities", None)
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def _train(corpus, out):
    return cli("train-scorer", corpus, "--out", out, "--rounds", 6, "--boosters", 2, "--seed", 3)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scorer")
    corpus = _corpus(folder / "corpus.jsonl")
    runs = [_train(corpus, folder / name) for name in ("first", "second")]
    return folder, corpus, runs


def test_a_fixed_seed_gives_the_same_model_twice(two_runs):
    folder, _, runs = two_runs
    for done in runs:
        assert done.returncode == 0, done.stderr
    for name in MODEL_FILES:
        assert (folder / "first" / name).read_bytes() == (folder / "second" / name).read_bytes(), name
    config = json.loads((folder / "first" / "config.json").read_text(encoding="utf-8"))
    assert config["courts"] == ["bag", "bfh", "bgh"] and config["grouped_by"] == "court"
    assert set(config["thresholds"]) == set(config["rules"]) == set(config["figures"])
    assert config["default_rule"] == "precision70" and config["recall_first_rule"] == "lowest96"
    figures = config["figures"]["lowest96"]
    assert set(figures["by_group"]) == {"bag", "bfh", "bgh"}
    assert all(recall >= 96.0 for recall, _ in figures["by_group"].values()) or \
        config["thresholds"]["lowest96"] == 0.0001
    # recall-first's threshold is chosen for its decision, the public rules lowering rather than
    # zeroing: as many words reach any threshold, so it is at least the plain one, and score reads it
    weighted = config["recall_first_thresholds"]["lowest96"]
    assert weighted >= config["thresholds"]["lowest96"] and config["recall_first_public_weight"] == 0.1
    assert sm.stored_threshold(folder / "first", recall_first=True) == weighted
    assert set(config["recall_first_figures"]["lowest96"]["by_group"]) == {"bag", "bfh", "bgh"}
    assert leftovers(folder) == []


def test_score_runs_the_trained_model(two_runs, tmp_path):
    folder, _, _ = two_runs
    ruling = tmp_path / "urteil.txt"
    ruling.write_text("Der Kläger Herr Johannes Wendelberger wohnt in Oberkirchbach. Herr Wendelberger "
                      "klagte gegen die Beklagte vor dem Bundesarbeitsgericht.\n", encoding="utf-8")
    done = cli("score", ruling, "--model", folder / "first", "--no-ner", "--output", tmp_path / "spans.jsonl")
    assert done.returncode == 0, done.stderr
    record = next(iter(read_jsonl(tmp_path / "spans.jsonl")))
    assert record["id"] == "urteil"
    assert any(span["text"] == "Wendelberger" for span in record["spans"]), record["spans"]


def test_a_rerun_reuses_the_cached_features(two_runs):
    folder, corpus, _ = two_runs
    cached = {p.name: p.stat().st_mtime_ns for p in (folder / "first" / "cache").iterdir()}
    assert len(cached) == 3
    before = (folder / "first" / "model.txt").read_bytes()
    done = _train(corpus, folder / "first")
    assert done.returncode == 0, done.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (folder / "first" / "cache").iterdir()} == cached
    assert (folder / "first" / "model.txt").read_bytes() == before


def test_a_corpus_of_two_courts_is_too_small(tmp_path):
    corpus = _corpus(tmp_path / "corpus.jsonl", courts=("bag", "bfh"), per_court=2)
    done = cli("train-scorer", corpus, "--out", tmp_path / "model")
    assert_one_line_error(done, "too small", "at least 3", "4 rulings")
    assert not (tmp_path / "model").exists()


def test_a_folder_of_other_files_is_refused(tmp_path):
    corpus = _corpus(tmp_path / "corpus.jsonl", per_court=2)
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "notes.txt").write_text("mine", encoding="utf-8")
    done = cli("train-scorer", corpus, "--out", tmp_path / "model")
    assert_one_line_error(done, "not an earlier output")
    assert (tmp_path / "model" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_the_parser_defaults_are_the_model_s():
    from rulings_anon.analyzer import sensitivity_model as sm
    from rulings_anon.analyzer import threshold_rules as tr
    from rulings_anon.evaluation import scorer_commands as sc

    assert (sc.DEFAULT_ROUNDS, sc.DEFAULT_BOOSTERS) == (sm.PARAMS["rounds"], sm.BOOSTERS)
    assert (sc.DEFAULT_RULE, sc.RECALL_FIRST_RULE) == (tr.DEFAULT_RULE, tr.RECALL_FIRST_RULE)


def test_one_court_is_grouped_by_year_and_unlabelled_rulings_by_the_detector(tmp_path):
    from rulings_anon.evaluation.scorer_corpus import grouped, labelled_records

    text = "Der Kläger, Herr K., wohnt in M. Die Beklagte, die B-GmbH, bestreitet das."
    with open(tmp_path / "rulings.jsonl", "w", encoding="utf-8") as out:
        for i, year in enumerate((2018, 2019, 2019, 2020)):
            out.write(json.dumps({"id": f"r{i}", "court": "LG München I", "date": f"{year}-03-01", "text": text}) + "\n")
    records = labelled_records([tmp_path / "rulings.jsonl"])
    assert [text[s["start"]:s["end"]] for s in records[0]["spans"]][:1] == ["K."]
    by, groups = grouped(records)
    assert by == "year" and {name: len(rs) for name, rs in groups.items()} == {"2018": 1, "2019": 2, "2020": 1}
    assert grouped(records, "court")[1].keys() == {"lg-münchen-i"}
    assert labelled_records([tmp_path / "rulings.jsonl"], holdout_court="LG München I") == []


def test_the_decision_modules_left_out_of_the_cache_key_compute_no_feature():
    """The feature cache's key leaves the decision's modules out (an edit to them keeps the cached
    features): extracting a court's features and particle gaps runs no function of theirs."""
    import sys
    from pathlib import Path

    from rulings_anon.analyzer import decision_metrics as dm
    from rulings_anon.analyzer.scorer_training import DECISION_MODULES

    records = [{"id": "1", "text": "Herr Thomas Wimmer wohnt in Ybbs an der Donau, Flurstück 12/3. "
                                  "Die Klägerin ist die Denk Pirker GmbH in Sankt Valentin.",
                "spans": [{"start": 5, "end": 18}]}]
    called = set()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_name != "<module>":
            called.add(Path(frame.f_code.co_filename).name)

    sys.setprofile(profile)
    try:
        court = sm.extract_court(records)
        dm.name_gaps(records, court)
    finally:
        sys.setprofile(None)
    assert "sensitivity.py" in called and "decisions.py" in called  # the profile sees the analyzer
    assert not called & DECISION_MODULES
