"""``--runner``: detect-placeholders, preprocess and score as Apache Beam pipelines.

The DirectRunner with two worker processes must give what the in-process commands give, document by
document; without ``--runner`` nothing of Beam is imported. Each pipeline starts worker processes
(a few seconds), so the inputs are small.
"""

from __future__ import annotations

import gzip
import itertools
import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from rulings_anon.cli import main

pytest.importorskip("apache_beam")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
TWO_WORKERS = ["--runner", "DirectRunner", "--direct_num_workers=2", "--direct_running_mode=multi_processing"]


def command_errors(done: subprocess.CompletedProcess) -> list[str]:
    """The command's error lines (the worker processes log to the same stderr)."""
    return [line for line in done.stderr.splitlines() if line.startswith("rulings-anon ")]


def on_beam(*args: str) -> subprocess.CompletedProcess:
    """``rulings-anon ARGS`` in a process of its own: a pipeline that hangs fails the test instead."""
    return subprocess.run([sys.executable, "-m", "rulings_anon", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=240)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """25 BSG rulings of the bundled corpus (enough for a batch vocabulary) in one JSONL file."""
    path = tmp_path_factory.mktemp("corpus") / "rulings.jsonl"
    with gzip.open(ROOT / "rulings_anon" / "data" / "ler" / "bsg.jsonl.gz", "rt", encoding="utf-8") as source:
        path.write_text("".join(itertools.islice(source, 25)), encoding="utf-8")
    return path


def _by_id(paths) -> dict[str, dict]:
    records = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            assert record["id"] not in records
            records[record["id"]] = record
    return records


def _shards(output: Path) -> list[Path]:
    from rulings_anon.beam_io import shard_files

    return [Path(p) for p in shard_files(output)]


def test_without_runner_the_commands_import_no_beam(tmp_path, corpus, vocab):
    # Start-up time: Beam is imported by --runner alone.
    script = f"""
import sys
from rulings_anon.cli import build_parser, main
build_parser()
assert main(["detect-placeholders", {str(corpus)!r}, "--output", {str(tmp_path / "d.jsonl")!r}]) == 0
assert main(["score", {str(FIXTURES / "made_up_federal_ruling.txt")!r}, "--output", {str(tmp_path / "s.jsonl")!r}]) == 0
assert main(["preprocess", {str(FIXTURES / "made_up_federal_ruling.txt")!r}, "--out", {str(tmp_path / "p")!r},
             "--vocab", {str(vocab)!r}]) == 0
print(sorted(m for m in sys.modules if m.split(".")[0] == "apache_beam"))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_detect_placeholders_on_two_workers_equals_the_in_process_run(tmp_path, corpus):
    inputs = [str(corpus), str(FIXTURES / "made_up_criminal_ruling.txt"), str(FIXTURES / "portal" / "*_ruling_*.xml")]
    expanded = [*inputs[:2], *map(str, sorted((FIXTURES / "portal").glob("*_ruling_*.xml")))]
    assert main(["detect-placeholders", *expanded, "--output", str(tmp_path / "in.jsonl")]) == 0
    assert on_beam("detect-placeholders", *inputs, "--output", str(tmp_path / "beam.jsonl"), *TWO_WORKERS).returncode == 0
    shards = _shards(tmp_path / "beam.jsonl")
    assert [p.name for p in shards] == ["beam-00000-of-00002.jsonl", "beam-00001-of-00002.jsonl"]
    expected = _by_id([tmp_path / "in.jsonl"])
    assert len(expected) > 25 and sum(len(r["spans"]) for r in expected.values()) > 50
    assert _by_id(shards) == expected


def test_score_on_two_workers_equals_the_in_process_run(tmp_path, corpus):
    # The batch vocabulary, asked for, is counted across the workers: 25 documents give it words of its own.
    from rulings_anon.analyzer.common_words import batch_common_words
    from rulings_anon.inputs import read_documents

    assert batch_common_words(d.text for d in read_documents([corpus]))
    common = ["--anonymize", str(tmp_path / "{}-anon.jsonl")]
    assert main(["score", str(corpus), "--output", str(tmp_path / "in.jsonl"), "--batch-vocabulary",
                 common[0], common[1].format("in")]) == 0
    done = on_beam("score", str(corpus), "--output", str(tmp_path / "beam.jsonl"), "--batch-vocabulary", common[0],
                   common[1].format("beam"), *TWO_WORKERS)
    assert done.returncode == 0, done.stderr[-2000:]
    assert any(line.startswith("score: 25 documents, ") for line in done.stderr.splitlines())
    expected = _by_id([tmp_path / "in.jsonl"])
    assert len(expected) == 25 and sum(len(r["spans"]) for r in expected.values()) > 0
    assert _by_id(_shards(tmp_path / "beam.jsonl")) == expected
    assert _by_id(_shards(tmp_path / "beam-anon.jsonl")) == _by_id([tmp_path / "in-anon.jsonl"])


def _data(directory: Path) -> tuple[dict, dict, dict]:
    """Records by (document, sequence) with their split, stats.json without seconds, format.json."""
    from rulings_anon.preprocessing import record_format as rf

    records = {(r.doc_id, r.sequence_index): (split, asdict(r))
               for split in rf.SPLITS for r in rf.read_records(rf.shard_files(directory, split))}
    stats = json.loads((directory / rf.STATS_FILE).read_text())
    stats.pop("seconds")
    return records, stats, json.loads((directory / rf.FORMAT_FILE).read_text())


@pytest.fixture(scope="module")
def vocab(tmp_path_factory, corpus) -> Path:
    path = tmp_path_factory.mktemp("vocab") / "vocab.txt"
    assert main(["build-vocab", str(corpus), "--out", str(path), "--vocab-size", "2000"]) == 0
    return path


@pytest.mark.parametrize("extra", [["--wordpiece-vocab-size", "2000"], ["--pseudonymize", "3"]],
                         ids=["learned-vocabulary", "pseudonymized"])
def test_preprocess_on_two_workers_writes_the_records_and_stats_of_the_in_process_run(tmp_path, corpus, vocab, extra):
    # Learned here first, the vocabulary is the same for both runs (the pseudonymized case gives it).
    vocabulary = [] if "--wordpiece-vocab-size" in extra else ["--vocab", str(vocab)]
    options = [str(corpus), "--max-seq-len", "128", *vocabulary, *extra]
    assert main(["preprocess", *options, "--out", str(tmp_path / "in")]) == 0
    done = on_beam("preprocess", *options, "--out", str(tmp_path / "beam"), *TWO_WORKERS)
    assert done.returncode == 0, done.stderr[-2000:]
    records, stats, data_format = _data(tmp_path / "beam")
    assert len(records) > 100 and {split for split, _ in records.values()} == {"train", "validation"}
    assert (records, stats, data_format) == _data(tmp_path / "in")
    assert stats["documents"] == 25


@pytest.mark.parametrize("args, message", [
    (["--runner", "NoSuchRunner"], "error: unknown Beam runner 'NoSuchRunner'"),
    (["--runner", "DirectRunner", "--direct_running_mode=sideways"],
     "error: Beam option rejected: argument --direct_running_mode: invalid choice: 'sideways'"),
    (["--runner", "DirectRunner", "--direct_num_workers=two"],
     "error: Beam option rejected: argument --direct_num_workers: invalid int value: 'two'"),
    (["--runner", "DirectRunner", "--no_such_option=1"], "error: Beam option rejected: unknown option --no_such_option=1"),
    (["--direct_num_workers=2"], "error: unrecognized arguments: --direct_num_workers=2 (Beam pipeline options"),
], ids=["unknown-runner", "bad-choice", "bad-number", "unknown-option", "options-without-runner"])
@pytest.mark.parametrize("command", ["detect-placeholders", "score", "preprocess"])
def test_a_bad_runner_or_option_is_a_one_line_error(tmp_path, corpus, capsys, command, args, message):
    target = ["--out", str(tmp_path / "data")] if command == "preprocess" else ["--output", str(tmp_path / "o.jsonl")]
    assert main([command, str(corpus), *target, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rulings-anon {command}: {message}"), err
    assert err.count("\n") == 1


def test_options_of_a_command_without_runner_are_still_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["split", str(tmp_path), "--out", str(tmp_path / "s"), "--direct_num_workers=2"])
    assert "unrecognized arguments: --direct_num_workers=2" in capsys.readouterr().err


def test_bad_input_on_a_worker_is_the_in_process_one_line_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": "Herr K. kam."}\nnot json\n', encoding="utf-8")
    assert main(["detect-placeholders", str(bad), "--output", str(tmp_path / "in.jsonl")]) == 2
    in_process = capsys.readouterr().err
    done = on_beam("detect-placeholders", str(bad), "--output", str(tmp_path / "beam.jsonl"), *TWO_WORKERS)
    assert done.returncode == 2
    assert command_errors(done) == [in_process.strip()]
    assert in_process.strip() == f"rulings-anon detect-placeholders: error: {bad}:2: line is not valid JSON (Expecting value)"


@pytest.mark.parametrize("command", ["score", "detect-placeholders"])
def test_a_repeated_id_fails_the_pipeline_as_in_process(tmp_path, capsys, command):
    twice = tmp_path / "twice.jsonl"
    twice.write_text('{"id": "a", "text": "Herr K. kam."}\n{"id": "a", "text": "Frau M. ging."}\n', encoding="utf-8")
    assert main([command, str(twice), "--output", str(tmp_path / "in.jsonl")]) == 2
    in_process = capsys.readouterr().err.strip()
    assert in_process == (f"rulings-anon {command}: error: two input documents have the id 'a' (twice in {twice}); "
                          "give them distinct ids (rename a file or set 'id')")
    done = on_beam(command, str(twice), "--output", str(tmp_path / "o.jsonl"), "--runner", "DirectRunner")
    assert done.returncode == 2
    assert command_errors(done) == [in_process]


def test_the_same_ruling_in_two_folders_is_one_document_as_in_process(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "urteil.txt").write_text("Der Kläger K. verlangt Zahlung von Frau M.", encoding="utf-8")
    assert main(["detect-placeholders", str(tmp_path / "a"), str(tmp_path / "b"), "--output",
                 str(tmp_path / "in.jsonl")]) == 0
    done = on_beam("detect-placeholders", str(tmp_path / "a"), str(tmp_path / "b"), "--output",
                   str(tmp_path / "beam.jsonl"), "--runner", "DirectRunner")
    assert done.returncode == 0, done.stderr[-2000:]
    in_process = _by_id([tmp_path / "in.jsonl"])
    assert list(in_process) == ["urteil"] and _by_id(_shards(tmp_path / "beam.jsonl")) == in_process


def test_a_model_directory_given_as_a_url_is_copied_to_each_worker(tmp_path):
    # gs://... cannot be reached here: the copy is made by Beam's file systems from a local folder
    # instead, and a URL --ner is handed to the fetch function.
    from rulings_anon.beam_io import local_directory
    from rulings_anon.cli import build_parser
    from rulings_anon.runners import as_url
    from rulings_anon.scoring.commands import ScoreSetup, use_features

    ner = ROOT / "rulings_anon" / "data" / "ner"
    copy = Path(local_directory(str(ner)))
    assert sorted(p.name for p in copy.iterdir()) == sorted(p.name for p in ner.iterdir())
    assert (copy / "weights.h5").read_bytes() == (ner / "weights.h5").read_bytes()
    args = build_parser().parse_args(["score", "x.txt", "--output", "o.jsonl", "--ner", "gs://bucket/ner"])
    use_features(args, default=True)  # as score does: a --ner given keeps the NER's combination
    assert as_url(args.ner) == "gs://bucket/ner" and as_url("runs/model") is None
    fetched = []
    scorer = ScoreSetup(args).scorer(fetch=lambda url: fetched.append(url) or copy)
    assert fetched == ["gs://bucket/ner"] and scorer.ner is not None


def test_an_empty_input_file_is_the_in_process_error(tmp_path):
    from rulings_anon.beam_io import input_paths

    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert main(["detect-placeholders", str(empty), "--output", str(tmp_path / "in.jsonl")]) == 2
    done = on_beam("detect-placeholders", str(empty), "--output", str(tmp_path / "beam.jsonl"), "--runner", "DirectRunner")
    assert done.returncode == 2
    assert command_errors(done) == [f"rulings-anon detect-placeholders: error: {empty}: holds no documents"]
    # A file named twice (itself and in its folder) is read once, as in-process.
    assert input_paths([str(empty), str(tmp_path)]) == [(str(empty), True)]
