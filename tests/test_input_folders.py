"""Rulings silently skipped: a folder's subfolders, rulings beside a corpus's ``rulings.jsonl``, and a
``.txt`` file changed after ``fetch --source files`` stored it.

Folders are read recursively (hidden entries left out), two ``urteil.txt`` in two subfolders meet the
repeated-id error, a corpus folder with other rulings beside ``rulings.jsonl`` is refused naming them,
and fetching a changed file again replaces the stored text and says "updated".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from command_line import assert_one_line_error, cli

from rulings_anon.errors import InputError
from rulings_anon.inputs import input_files, read_input_documents
from rulings_anon.jsonl import read_jsonl

RULING = "Der Kläger K. wohnt in der R-Straße in M.\n\nDie Klage der M-GmbH wird abgewiesen.\n"


def write(path: Path, text: str = RULING) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_rulings_in_subfolders_are_read_in_sorted_order(tmp_path):
    write(tmp_path / "b.txt", RULING.replace("K.", "B."))
    write(tmp_path / "2019" / "c.txt", RULING.replace("K.", "C."))
    write(tmp_path / "2018" / "januar" / "a.txt", RULING.replace("K.", "A."))
    write(tmp_path / "2018" / "notes.md", "no ruling")
    assert [d.id for d in read_input_documents([tmp_path])] == ["a", "c", "b"]


def test_hidden_files_and_folders_are_left_out(tmp_path):
    write(tmp_path / "a.txt")
    write(tmp_path / ".git" / "b.txt", RULING.replace("K.", "B."))
    write(tmp_path / ".c.txt.partial")
    write(tmp_path / ".d.txt", RULING.replace("K.", "D."))
    assert input_files(tmp_path) == [tmp_path / "a.txt"]


def test_a_link_back_to_a_parent_folder_is_read_once(tmp_path):
    write(tmp_path / "a" / "x.txt")
    (tmp_path / "a" / "loop").symlink_to(tmp_path)
    assert input_files(tmp_path) == [tmp_path / "a" / "x.txt"]


def test_two_rulings_of_one_name_in_two_subfolders_are_an_error_naming_both(tmp_path):
    first = write(tmp_path / "kammer1" / "urteil.txt")
    second = write(tmp_path / "kammer2" / "urteil.txt", RULING.replace("K.", "Z."))
    with pytest.raises(InputError, match="two input documents have the id 'urteil'") as error:
        list(read_input_documents([tmp_path]))
    assert str(first) in str(error.value) and str(second) in str(error.value)


def test_score_reads_the_rulings_of_a_subfolder(tmp_path):
    write(tmp_path / "in" / "a.txt", "Der Kläger Herr Kemper wohnt in Bonn.\n")
    write(tmp_path / "in" / "sub" / "b.txt", "Die Beklagte Frau Yilmaz wohnt in Köln.\n")
    done = cli("score", tmp_path / "in", "--output", tmp_path / "spans.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [r["id"] for r in read_jsonl(tmp_path / "spans.jsonl")] == ["a", "b"]


def test_a_corpus_folder_with_its_bookkeeping_reads_rulings_jsonl_alone(tmp_path):
    write(tmp_path / "rulings.jsonl", json.dumps({"id": "r1", "text": RULING}, ensure_ascii=False) + "\n")
    write(tmp_path / "metadata.jsonl", json.dumps({"id": "r1", "kept": True}) + "\n")
    write(tmp_path / ".rulings.jsonl.partial", "")
    assert input_files(tmp_path) == [tmp_path / "rulings.jsonl"]


def test_a_corpus_folder_with_other_rulings_beside_it_is_refused_naming_them(tmp_path):
    write(tmp_path / "c" / "rulings.jsonl", json.dumps({"id": "r1", "text": RULING}, ensure_ascii=False) + "\n")
    write(tmp_path / "c" / "neu.txt")
    write(tmp_path / "c" / "2020" / "alt.txt", RULING.replace("K.", "A."))
    done = cli("detect-placeholders", tmp_path / "c", "--output", tmp_path / "spans.jsonl", cwd=tmp_path)
    line = assert_one_line_error(done, str(tmp_path / "c"), "2020/", "neu.txt", "skipped")
    assert "Kläger" not in line
    assert not (tmp_path / "spans.jsonl").exists()


def test_a_corpus_in_a_subfolder_is_read_without_its_metadata(tmp_path):
    write(tmp_path / "a.txt")
    write(tmp_path / "corpus" / "rulings.jsonl",
          json.dumps({"id": "r1", "text": RULING.replace("K.", "R.")}, ensure_ascii=False) + "\n")
    write(tmp_path / "corpus" / "metadata.jsonl", json.dumps({"id": "r1", "kept": True}) + "\n")
    assert [d.id for d in read_input_documents([tmp_path])] == ["a", "r1"]


def fetch(out: Path, *paths) -> str:
    done = cli("fetch", "--source", "files", *paths, "--out", out, cwd=out.parent)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_fetch_again_after_a_file_changed_replaces_the_stored_text(tmp_path):
    source = write(tmp_path / "in" / "urteil.txt")
    write(tmp_path / "in" / "beschluss.txt", RULING.replace("K.", "B."))
    out = tmp_path / "corpus"
    assert "(2 new)" in fetch(out, tmp_path / "in")
    changed = RULING.replace("R-Straße", "S-Straße")
    source.write_text(changed, encoding="utf-8")
    err = fetch(out, tmp_path / "in")
    assert "2 rulings" in err and "(0 new, 1 updated)" in err
    rulings = {r["id"]: r for r in read_jsonl(out / "rulings.jsonl")}
    assert list(rulings) == ["beschluss", "urteil"]
    assert rulings["urteil"]["text"] == changed
    metadata = list(read_jsonl(out / "metadata.jsonl"))
    assert [m["id"] for m in metadata] == ["beschluss", "urteil"]
    assert "(0 new)" in fetch(out, tmp_path / "in")  # unchanged now: nothing to update


def test_fetch_drops_a_stored_ruling_whose_changed_text_lost_its_placeholders(tmp_path):
    source = write(tmp_path / "in" / "urteil.txt")
    out = tmp_path / "corpus"
    fetch(out, source)
    source.write_text("Die Klage wird abgewiesen.\n", encoding="utf-8")
    err = fetch(out, source)
    assert "0 rulings" in err and "1 updated" in err
    assert list(read_jsonl(out / "rulings.jsonl")) == []
    [meta] = read_jsonl(out / "metadata.jsonl")
    assert meta["id"] == "urteil" and meta["kept"] is False
