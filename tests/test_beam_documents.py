"""``score --runner`` with a court's policy, document files and ids that name a party: the
DirectRunner on two worker processes writes what the in-process run writes (spans, safe ids, a
texts folder with a .docx for a .docx input); ``--mapping`` stays in one process."""

from __future__ import annotations

import pytest
from command_line import assert_one_line_error, cli
from document_builders import build_docx
from test_beam import TWO_WORKERS, _by_id, _shards, on_beam

from rulings_anon import documents
from rulings_anon.cli import main
from rulings_anon.jsonl import read_jsonl

pytest.importorskip("apache_beam")

POLICY = 'allow = ["Jonas Brandl"]\ndeny = ["Aichach"]\n[operators]\nperson = "tag"\n'
LETTER = "Der Kläger Thomas Wimmer wohnt in Aichach. Die Beklagte, Frau Erika Kemper, bestreitet das.\n"


def _inputs(folder):
    folder.mkdir()
    build_docx(folder / "Wimmer_gegen_Kemper.docx")
    (folder / "schreiben.txt").write_text(LETTER, encoding="utf-8")
    (folder / "gericht.toml").write_text(POLICY, encoding="utf-8")
    return folder


def _folder(path) -> dict[str, str]:
    """file name -> its text, read as score reads it."""
    return {p.name: (documents.read_document(p).text if p.suffix == ".docx" else p.read_text(encoding="utf-8"))
            for p in sorted(path.iterdir())}


def test_policy_document_copies_and_safe_ids_on_two_workers_equal_the_in_process_run(tmp_path):
    given = _inputs(tmp_path / "in")
    rulings = [str(given / "Wimmer_gegen_Kemper.docx"), str(given / "schreiben.txt")]
    options = ["--policy", str(given / "gericht.toml")]
    assert main(["score", *rulings, "--output", str(tmp_path / "local.jsonl"), "--anonymize", str(tmp_path / "local"),
                 *options]) == 0
    done = on_beam("score", *rulings, "--output", str(tmp_path / "beam.jsonl"), "--anonymize", str(tmp_path / "beam"),
                   *options, *TWO_WORKERS)
    assert done.returncode == 0, done.stderr[-2000:]
    expected = _by_id([tmp_path / "local.jsonl"])
    assert _by_id(_shards(tmp_path / "beam.jsonl")) == expected
    (safe,) = [r for r in expected.values() if r.get("source_id") == "Wimmer_gegen_Kemper"]
    assert safe["id"].startswith("document-")
    copies = _folder(tmp_path / "beam")
    assert copies == _folder(tmp_path / "local")
    assert sorted(copies) == ["document-" + safe["id"].split("-")[1] + ".docx", "index.jsonl", "schreiben.txt"]
    assert "[Person 1]" in copies["schreiben.txt"] and "in ..." in copies["schreiben.txt"]  # denied: Aichach
    assert "Jonas Brandl" in copies[f"{safe['id']}.docx"]  # allowed
    assert {r["file"] for r in read_jsonl(tmp_path / "beam" / "index.jsonl")} == set(copies) - {"index.jsonl"}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".beam")]  # the workers' shards are gone


def test_a_mapping_is_refused_with_runner_in_one_line_and_help_says_why(tmp_path):
    (tmp_path / "schreiben.txt").write_text(LETTER, encoding="utf-8")
    done = cli("score", tmp_path / "schreiben.txt", "--output", tmp_path / "spans.jsonl", "--pseudonymize",
               tmp_path / "p.jsonl", "--mapping", tmp_path / "m.jsonl", "--runner", "DirectRunner")
    assert_one_line_error(done, "--mapping is read and extended by one process")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["schreiben.txt"]
    assert "workers side by side could give one person two surrogates" in " ".join(cli("score", "--help").stdout.split())
