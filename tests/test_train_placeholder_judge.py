"""``train-placeholder-judge``: the command fits exactly what the leave-one-court-out benchmark fits
(so the shipped weights are its output on the whole bundled corpus), ``detect-placeholders`` runs
its output, and a corpus without gold or with too few rulings is a one-line error."""

from __future__ import annotations

import json

import pytest

from rulings_anon import data
from rulings_anon.jsonl import read_jsonl
from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.placeholders.judge import PlaceholderModel
from rulings_anon.preprocessing.placeholder_training import COURTS, Examples, train
from tests.command_line import assert_one_line_error, cli, leftovers

PER_COURT = 2


def _corpus(path, per_court=PER_COURT, spans=True):
    """The first rulings of each bundled court as one LER-style file (gold spans, court in meta)."""
    with open(path, "w", encoding="utf-8") as out:
        for court in COURTS:
            for i, record in enumerate(read_jsonl(data.ler_corpus_files([court])[0])):
                if i == per_court:
                    break
                if not spans:
                    record.pop("spans")
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("judge")
    corpus = _corpus(folder / "gold.jsonl")
    checked = sorted(str(p) for p in data.path("checked").glob("*.jsonl"))
    done = cli("train-placeholder-judge", corpus, "--checked", *checked, "--out", folder / "judge.json",
               "--summary", folder / "summary.json")
    return folder, done


def test_the_command_fits_what_the_benchmark_fits(trained):
    folder, done = trained
    assert done.returncode == 0, done.stderr
    library = folder / "library.json"
    train(Examples(max_documents=PER_COURT), COURTS).save(library)
    assert (folder / "judge.json").read_bytes() == library.read_bytes()
    model = PlaceholderModel.load(folder / "judge.json")
    assert model.meta["trained_on"] == COURTS and model.meta["documents"] == PER_COURT * len(COURTS)
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["exit_code"] == 0 and summary["figures"]["rulings"] == PER_COURT * len(COURTS)
    assert leftovers(folder) == []


def test_detect_placeholders_runs_the_trained_judge(trained, tmp_path):
    folder, _ = trained
    record = next(iter(read_jsonl(data.ler_corpus_files(["bsg"])[0])))
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": record["id"], "text": record["text"]}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    out = tmp_path / "spans.jsonl"
    done = cli("detect-placeholders", docs, "--output", out, "--judge", "learned",
               "--judge-model", folder / "judge.json")
    assert done.returncode == 0, done.stderr
    got = [(s["start"], s["end"]) for s in json.loads(out.read_text(encoding="utf-8"))["spans"]]
    judge = PlaceholderDetector(judge=PlaceholderModel.load(folder / "judge.json"))
    assert got == [(s.start, s.end) for s in judge.detect(record["text"])]
    assert got  # a BSG ruling with placeholders: the judge finds some


def test_rulings_without_gold_are_refused(tmp_path):
    corpus = _corpus(tmp_path / "plain.jsonl", per_court=2, spans=False)
    done = cli("train-placeholder-judge", corpus, "--out", tmp_path / "judge.json")
    assert_one_line_error(done, "none of the 12 rulings has gold placeholder 'spans'")
    assert not (tmp_path / "judge.json").exists()


def test_too_few_rulings_are_refused(tmp_path):
    corpus = _corpus(tmp_path / "small.jsonl", per_court=1)
    done = cli("train-placeholder-judge", corpus, "--out", tmp_path / "judge.json")
    assert_one_line_error(done, "6 rulings", "too few")
    assert not (tmp_path / "judge.json").exists() and leftovers(tmp_path) == []
