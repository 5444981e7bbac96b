"""Outputs that are inputs, and pipeline stage names that leave the run folder.

Every command refuses, before any work and in one line naming both paths, an output that is one of
its inputs (also through a symbolic or a hard link), an output folder that is or holds an input, an
output inside an input folder, and two outputs that collide; the input's bytes stay as they were. A
pipeline stage named ``../../x``, absolute, with a separator, empty or ``.`` is refused when the config
is read.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from command_line import assert_one_line_error, cli, leftovers

from rulings_anon.errors import InputError
from rulings_anon.output_paths import Input, Output, check_outputs

RULING = "Der Kläger K. wohnt in der R-Straße in M.\n\nDie Klage der M-GmbH wird abgewiesen.\n"


@pytest.fixture()
def documents(tmp_path) -> Path:
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"id": "a", "text": RULING}, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def rulings(tmp_path) -> Path:
    folder = tmp_path / "rulings"
    folder.mkdir()
    (folder / "urteil.txt").write_text(RULING, encoding="utf-8")
    (folder / "beschluss.txt").write_text(RULING.replace("K.", "L."), encoding="utf-8")
    return folder


def snapshot(*paths: Path) -> dict[str, bytes]:
    """Every file under ``paths`` with its bytes."""
    files = {}
    for path in paths:
        for file in ([path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())):
            files[str(file)] = file.read_bytes()
    return files


def refused(tmp_path: Path, protected: list[Path], *args, words=()) -> str:
    """Run the command; it must fail in one line naming ``words`` and leave ``protected`` unchanged."""
    before = snapshot(*protected)
    line = assert_one_line_error(cli(*args, cwd=tmp_path), *words)
    assert snapshot(*protected) == before
    assert leftovers(tmp_path) == []
    return line


def test_score_output_that_is_its_input_is_refused(tmp_path, documents):
    refused(tmp_path, [documents], "score", documents, "--output", documents, words=("--output", "INPUT", "x.jsonl"))


def test_detect_placeholders_output_that_is_its_input_is_refused(tmp_path, documents):
    refused(tmp_path, [documents], "detect-placeholders", documents, "--output", documents,
            words=("--output", "INPUT"))


def test_score_anonymize_into_its_input_file_is_refused(tmp_path, documents):
    refused(tmp_path, [documents], "score", documents, "--output", tmp_path / "spans.jsonl",
            "--anonymize", documents, words=("--anonymize", "INPUT"))
    assert not (tmp_path / "spans.jsonl").exists()


def test_score_anonymize_into_the_input_folder_keeps_the_original_texts(tmp_path, rulings):
    line = refused(tmp_path, [rulings], "score", rulings, "--output", tmp_path / "spans.jsonl",
                   "--anonymize", rulings, words=("--anonymize", "INPUT", "same folder"))
    assert "Kläger" not in line


def test_score_anonymize_into_a_folder_that_holds_the_input_is_refused(tmp_path, rulings):
    refused(tmp_path, [rulings], "score", rulings / "urteil.txt", "--output", tmp_path / "spans.jsonl",
            "--anonymize", tmp_path, words=("--anonymize", "inside the output folder"))


def test_score_anonymize_into_a_subfolder_of_the_input_folder_is_refused(tmp_path, rulings):
    refused(tmp_path, [rulings], "score", rulings, "--output", tmp_path / "spans.jsonl",
            "--anonymize", rulings / "anonymized", words=("--anonymize", "inside the input folder"))
    assert not (rulings / "anonymized").exists()


def test_anonymize_and_pseudonymize_to_one_target_are_refused(tmp_path, documents):
    for target in ("texts.jsonl", "texts"):
        refused(tmp_path, [documents], "score", documents, "--output", tmp_path / "spans.jsonl",
                "--anonymize", tmp_path / target, "--pseudonymize", tmp_path / target,
                words=("--anonymize", "--pseudonymize"))
        assert not (tmp_path / target).exists()


def test_an_output_through_a_symbolic_link_to_the_input_is_refused(tmp_path, documents):
    link = tmp_path / "spans.jsonl"
    link.symlink_to(documents)
    refused(tmp_path, [documents], "score", documents, "--output", link, words=("--output", "same file"))
    assert link.is_symlink()


def test_an_output_that_is_a_hard_link_to_the_input_is_refused(tmp_path, documents):
    link = tmp_path / "spans.jsonl"
    os.link(documents, link)
    refused(tmp_path, [documents], "score", documents, "--output", link, words=("--output", "link"))
    assert link.stat().st_ino == documents.stat().st_ino


def test_an_output_that_is_a_hard_link_to_a_file_in_the_input_folder_is_refused(tmp_path, rulings):
    link = tmp_path / "urteil.txt"
    os.link(rulings / "urteil.txt", link)
    refused(tmp_path, [rulings], "detect-placeholders", rulings, "--output", link, words=("--output", "link"))


@pytest.mark.parametrize("option", ["--curve", "--report", "--errors"])
def test_evaluate_writing_over_its_gold_test_set_is_refused(tmp_path, option):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": RULING, "spans": [{"start": 11, "end": 13, "type": "PER"}]},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    refused(tmp_path, [gold], "evaluate", "--test", gold, "--method", "ner", "--combine", "ner", option, gold,
            words=(option, "--test"))


def test_evaluate_report_whose_rows_file_is_the_gold_test_set_is_refused(tmp_path):
    gold = tmp_path / "g.json"
    gold.write_text(json.dumps({"id": "a", "text": RULING, "spans": []}) + "\n", encoding="utf-8")
    refused(tmp_path, [gold], "evaluate", "--test", gold, "--method", "ner", "--combine", "ner",
            "--report", tmp_path / "g.md", words=("rows file", "--test"))


def test_evaluate_curve_over_the_report_rows_is_refused(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": RULING, "spans": []}) + "\n", encoding="utf-8")
    refused(tmp_path, [gold], "evaluate", "--test", gold, "--method", "ner", "--combine", "ner",
            "--report", tmp_path / "r.md", "--curve", tmp_path / "r.json", words=("rows file", "--curve"))
    assert not (tmp_path / "r.md").exists()


def test_build_testset_over_its_input_is_refused(tmp_path, documents):
    refused(tmp_path, [documents], "build-testset", documents, "--out", documents, words=("--out", "LER.jsonl.gz"))


def test_fetch_into_a_corpus_folder_that_holds_its_input_is_refused(tmp_path, rulings):
    refused(tmp_path, [rulings], "fetch", "--source", "files", rulings, "--out", rulings,
            words=("--out", "PATH"))
    assert not (rulings / "rulings.jsonl").exists()


def test_split_into_the_corpus_folder_it_reads_is_refused(tmp_path, rulings):
    refused(tmp_path, [rulings], "split", rulings, "--out", rulings, words=("--out", "CORPUS"))
    assert not (rulings / "split.json").exists()


def test_replace_into_the_folder_of_its_input_is_refused(tmp_path, rulings):
    refused(tmp_path, [rulings], "replace", rulings / "urteil.txt", "--out", rulings, "--auto",
            words=("--out", "INPUT"))


def test_build_vocab_over_its_corpus_is_refused(tmp_path, documents):
    refused(tmp_path, [documents], "build-vocab", documents, "--out", documents, words=("--out", "CORPUS"))


def test_build_ler_corpus_into_the_folder_of_its_input_is_refused(tmp_path):
    conll = tmp_path / "bgh.conll"
    conll.write_text("Der O\nKläger O\n", encoding="utf-8")
    refused(tmp_path, [conll], "build-ler-corpus", conll, "--out", tmp_path, words=("--out", "CONLL"))


def test_preprocess_into_its_corpus_folder_is_refused(tmp_path, rulings):
    refused(tmp_path, [rulings], "preprocess", rulings, "--out", rulings, words=("--out", "CORPUS"))


def test_train_ner_over_its_corpus_is_refused(tmp_path, documents):
    out = tmp_path / "ner"
    out.mkdir()
    inside = out / "train.jsonl"
    inside.write_bytes(documents.read_bytes())
    refused(tmp_path, [inside], "train-ner", "--corpus", inside, "--out", out, words=("--out", "--corpus"))


def test_different_outputs_beside_the_inputs_pass():
    check_outputs([Output("--output", Path("/nowhere/spans.jsonl")), Output("--anonymize", Path("/nowhere/anon"), True)],
                  [Input("INPUT", Path("/nowhere/in/x.jsonl")), Input("INPUT", Path("/nowhere/in"))])


def test_an_unsupported_file_output_inside_an_input_folder_passes(tmp_path, rulings):
    check_outputs([Output("--report", rulings / "report.md")], [Input("INPUT", rulings)])
    with pytest.raises(InputError, match="inside the input folder"):
        check_outputs([Output("--output", rulings / "spans.jsonl")], [Input("INPUT", rulings)])


# pipeline stage names

def write_config(tmp_path: Path, name, stdout=None) -> Path:
    stage = {"name": name, "command": ["detect-placeholders", str(tmp_path / "in.jsonl"), "--output",
                                       str(tmp_path / "run" / "spans.jsonl")],
             "inputs": [str(tmp_path / "in.jsonl")], "outputs": [str(tmp_path / "run" / "spans.jsonl")]}
    if stdout is not None:
        stage["stdout"] = stdout
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": "a", "text": RULING}, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    config = tmp_path / "deep" / "er" / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"run_dir": str(tmp_path / "run"), "stages": [stage]}), encoding="utf-8")
    return config


@pytest.mark.parametrize("name", ["../../x", "../../../escaped", "ABSOLUTE", "a/b", "", ".", "..", "  ", "a\\b"])
def test_a_stage_name_that_is_no_plain_word_is_refused_when_the_config_is_read(tmp_path, name):
    name = str(tmp_path / "outside" / "abs") if name == "ABSOLUTE" else name
    config = write_config(tmp_path, name)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert_one_line_error(cli("pipeline", "--config", config, cwd=tmp_path), str(config), "stage 1")
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_stage_name_that_is_no_string_is_refused(tmp_path):
    config = write_config(tmp_path, 7)
    assert_one_line_error(cli("pipeline", "--config", config, cwd=tmp_path), str(config), "stage 1")


def test_a_plain_stage_name_keeps_its_stamp_inside_the_run_folder(tmp_path):
    config = write_config(tmp_path, "detect")
    done = cli("pipeline", "--config", config, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "run" / ".stages" / "detect.json").is_file()


def test_a_stage_printing_over_its_input_is_refused(tmp_path):
    config = write_config(tmp_path, "detect", stdout=str(tmp_path / "in.jsonl"))
    before = (tmp_path / "in.jsonl").read_bytes()
    assert_one_line_error(cli("pipeline", "--config", config, cwd=tmp_path), str(config), "'detect'", "stdout")
    assert (tmp_path / "in.jsonl").read_bytes() == before
