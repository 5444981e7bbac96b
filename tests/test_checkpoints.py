"""The resume rule that train, pretrain and train-ner share (rulings_anon/checkpoints.py)."""

import argparse

import pytest

from rulings_anon.checkpoints import RunRecord, add_restart_argument, fingerprint_files, resumes
from rulings_anon.errors import InputError, ModelError

RUN = RunRecord("a" * 64, {"layers": 2, "masking": {"rate": 0.15}})


def test_no_earlier_run_starts():
    assert resumes("out", None, RUN, restart=False) is False


def test_the_same_data_and_settings_resume_also_with_restart():
    assert resumes("out", RUN, RunRecord(RUN.fingerprint, dict(RUN.settings)), restart=False) is True
    assert resumes("out", RUN, RUN, restart=True) is True


@pytest.mark.parametrize("current, message", [
    (RunRecord("b" * 64, RUN.settings), "out holds a run on other data; pass --restart"),
    (RunRecord(RUN.fingerprint, {**RUN.settings, "layers": 3}), r"out holds a run with other settings \(layers\)"),
    (RunRecord("b" * 64, {**RUN.settings, "masking": {"rate": 0.2}}),
     r"other data and other settings \(masking\); pass --restart to train it again from the start"),
])
def test_other_data_or_settings_are_an_error_or_with_restart_start_over(current, message):
    with pytest.raises(InputError, match=message):
        resumes("out", RUN, current, restart=False)
    assert resumes("out", RUN, current, restart=True) is False


def test_what_a_record_lacks_matches_and_the_error_type_and_words_are_the_callers():
    assert resumes("out", RunRecord("", {"layers": 2}), RunRecord("c" * 64, {"layers": 2, "new": 1}), False)
    with pytest.raises(ModelError, match="holds a model trained on other data"):
        resumes("m", RUN, RunRecord("d" * 64, RUN.settings), False, error=ModelError,
                other_data="holds a model trained on other data")


def test_a_record_is_kept_as_json(tmp_path):
    RUN.write(tmp_path / "run.json")
    assert RunRecord.read(tmp_path / "run.json") == RUN
    assert RunRecord.read(tmp_path / "none.json") is None
    # tuples come back as lists, and still match
    assert resumes("out", RunRecord("", {"t": [1, 2]}), RunRecord("", {"t": (1, 2)}), False)


def test_fingerprint_of_files_and_folders(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.jsonl").write_text("x")
    (tmp_path / "b.txt").write_text("y")
    first = fingerprint_files([tmp_path / "d", tmp_path / "b.txt"])
    assert first == fingerprint_files([tmp_path / "b.txt", tmp_path / "d" / "a.jsonl"]) and len(first) == 64
    (tmp_path / "d" / "a.jsonl").write_text("z")
    assert fingerprint_files([tmp_path / "d", tmp_path / "b.txt"]) != first


@pytest.mark.parametrize("command", ["train", "pretrain", "train-ner"])
def test_every_training_command_takes_restart_and_says_what_it_does(command):
    from rulings_anon.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    restart = next(a for a in sub._actions if "--restart" in a.option_strings)
    assert "resumes from its last checkpoint" in restart.help
    probe = argparse.ArgumentParser()
    add_restart_argument(probe)
    assert probe.parse_args(["--restart"]).restart is True
