"""What a command says on stderr (``--quiet``, ``--verbose``, ``--summary``), and the lean install.

The lean install is what a court runs: ``pip install rulings-anon`` without the ``train`` extra,
so no TensorFlow. The commands a court uses are run here in an interpreter where TensorFlow and
the rest of the training stack cannot be imported (a ``sitecustomize`` refuses them, as a missing
package would), and a command that needs them says which extra to install.
"""

from __future__ import annotations

import configparser
import json
import os

import pytest
from command_line import ROOT, assert_one_line_error, cli

from rulings_anon.jsonl import read_jsonl, write_jsonl

RULING = ("Der Kläger Thomas Wimmer wohnt in Aichach, Hauptstraße 4. Er verlangt von der Beklagten Zahlung. "
          "Herr Wimmer ist bei der Beklagten beschäftigt.")
ANONYMIZED = "Der Kläger K. wohnt in A. Er verlangt von der M-GmbH Zahlung. Herr K. ist bei der M-GmbH beschäftigt."
TRAINING_STACK = ("tensorflow", "tf_keras", "tensorflow_hub", "tensorflow_text", "sentencepiece", "matplotlib",
                  "apache_beam")

BLOCKER = f"""
import sys
from importlib.abc import MetaPathFinder

class _NotInstalled(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {set(TRAINING_STACK)!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)

sys.meta_path.insert(0, _NotInstalled())
"""


@pytest.fixture
def lean(tmp_path):
    """The environment of an interpreter without the training stack."""
    site = tmp_path / "lean-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"}


def _documents(tmp_path, text=RULING):
    path = tmp_path / "docs.jsonl"
    write_jsonl(path, [{"id": "a", "text": text}, {"id": "b", "text": text.replace("Wimmer", "Öztürk")}])
    return path


def test_quiet_says_nothing_and_summary_writes_the_figures(tmp_path):
    docs = _documents(tmp_path)
    done = cli("score", docs, "--output", tmp_path / "spans.jsonl", "--quiet", "--summary", tmp_path / "run.json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    summary = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    spans = sum(len(r["spans"]) for r in read_jsonl(tmp_path / "spans.jsonl"))
    assert summary["command"] == "score" and summary["exit_code"] == 0 and summary["seconds"] > 0
    assert summary["figures"]["documents"] == 2 and summary["figures"]["spans"] == spans > 0
    loud = cli("score", docs, "--output", tmp_path / "again.jsonl", "--verbose")
    assert loud.returncode == 0 and "score: 2 documents" in loud.stderr


def test_a_failed_run_still_writes_its_summary_with_the_exit_code(tmp_path):
    done = cli("detect-placeholders", tmp_path / "missing.jsonl", "--output", tmp_path / "s.jsonl",
               "--summary", tmp_path / "run.json")
    assert_one_line_error(done, "missing.jsonl")
    summary = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert summary["exit_code"] == 2 and summary["figures"] == {}


def test_quiet_and_verbose_exclude_each_other(tmp_path):
    done = cli("score", _documents(tmp_path), "--output", tmp_path / "s.jsonl", "-q", "-v")
    assert done.returncode == 2 and "not allowed with argument" in done.stderr


def test_the_plain_install_holds_no_training_stack():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    plain = config["options"]["install_requires"].lower()
    assert "tensorflow" not in plain and "tf-keras" not in plain and "apache-beam" not in plain
    train = config["options.extras_require"]["train"].lower()
    assert all(name in train for name in ("tensorflow==", "tf-keras==", "tensorflow-hub==", "sentencepiece=="))


def test_a_courts_commands_run_without_the_training_stack(tmp_path, lean):
    docs = _documents(tmp_path)
    anonymized = tmp_path / "anonymized.txt"
    anonymized.write_text(ANONYMIZED, encoding="utf-8")
    runs = {
        "score": ["score", docs, "--output", tmp_path / "spans.jsonl", "--anonymize", tmp_path / "anon.jsonl"],
        "detect-placeholders": ["detect-placeholders", anonymized, "--output", tmp_path / "placeholders.jsonl"],
        "replace --auto": ["replace", anonymized, "--out", tmp_path / "replaced", "--auto"],
        "fetch --source files": ["fetch", "--source", "files", anonymized, "--out", tmp_path / "corpus"],
        "review --help": ["review", "--help"],
    }
    for name, arguments in runs.items():
        done = cli(*arguments, env=lean)
        assert done.returncode == 0, (name, done.stderr)
    assert [s["text"] for s in next(read_jsonl(tmp_path / "spans.jsonl"))["spans"]][:2] == ["Thomas Wimmer", "Aichach"]
    assert "Wimmer" not in (tmp_path / "anon.jsonl").read_text(encoding="utf-8")
    placeholders = [s["text"] for s in next(read_jsonl(tmp_path / "placeholders.jsonl"))["spans"]]
    assert placeholders == ["K.", "A.", "M-GmbH", "K.", "M-GmbH"]
    assert len(list(read_jsonl(tmp_path / "corpus" / "rulings.jsonl"))) == 1


def test_a_command_that_needs_the_training_stack_names_the_extra(tmp_path, lean):
    done = cli("score", _documents(tmp_path), "--output", tmp_path / "s.jsonl", "--combine", "ner", env=lean)
    assert_one_line_error(done, "needs tensorflow", "pip install 'rulings-anon[train]'")
    assert not (tmp_path / "s.jsonl").exists()
