"""fetch --source files: importing rulings a user already has, with the placeholder filter."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulings_anon.cli import main
from rulings_anon.jsonl import read_jsonl

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "portal"


@pytest.fixture()
def inputs(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("rii_ruling_KVRE427811801.xml", "bayern_zip_with_trailing_junk.zip", "bayern_document_page_synthetic.html"):
        shutil.copy(FIXTURES / name, folder / name)
    (folder / "note.txt").write_text("Der Beklagte Xxxxx schuldet dem Kläger K. einen Betrag.\n", encoding="utf-8")
    (folder / "docs.jsonl").write_text(
        json.dumps({"id": "d1", "court": "AG Test", "text": "Die Klage wird abgewiesen."}) + "\n"
        + json.dumps({"id": "d2", "text": "Frau S. wohnt in der R-Straße."}) + "\n",
        encoding="utf-8",
    )
    return folder


def fetch_files(out: Path, *paths, extra=()) -> int:
    return main(["fetch", "--source", "files", *map(str, paths), "--out", str(out), *extra])


def test_files_of_every_format_are_imported_and_unanonymized_ones_dropped(inputs, tmp_path, capsys):
    out = tmp_path / "corpus"
    assert fetch_files(out, inputs / "docs.jsonl", inputs) == 0
    rulings = {r["id"]: r for r in read_jsonl(out / "rulings.jsonl")}
    # with placeholders: the HTML page (K., M-GmbH, S.), note.txt (Xxxxx, K.), d2 (S., R-Straße)
    assert list(rulings) == ["d2", "Y-300-Z-BECKRS-B-2019-N-90001", "note"]
    assert rulings["note"]["text"] == "Der Beklagte Xxxxx schuldet dem Kläger K. einen Betrag.\n"
    assert rulings["note"]["placeholders"] == 2
    assert rulings["Y-300-Z-BECKRS-B-2019-N-90001"]["placeholders"] == 3
    assert rulings["Y-300-Z-BECKRS-B-2019-N-90001"]["court"] == "LG München I"
    metadata = {m["id"]: m for m in read_jsonl(out / "metadata.jsonl")}
    # without: d1, the rii ruling and the ArbG ruling in the ZIP: listed, kept=false, no text
    assert {i for i, m in metadata.items() if not m["kept"]} == {
        "d1", "KVRE427811801", "Y-300-Z-BECKRS-B-2022-N-15750",
    }
    assert all(m["placeholders"] == 0 for m in metadata.values() if not m["kept"])
    assert not any("text" in m for m in metadata.values())
    assert metadata["d1"]["court"] == "AG Test"
    err = capsys.readouterr().err
    assert "fetch: 3 rulings in" in err and "(3 new)" in err
    assert "dropped 3 rulings without anonymization placeholders" in err
    assert "placeholders per new ruling: min 2, median 2, max 3" in err


def test_keep_unanonymized(inputs, tmp_path):
    assert fetch_files(tmp_path / "c", inputs, extra=["--keep-unanonymized"]) == 0
    assert len(list(read_jsonl(tmp_path / "c" / "rulings.jsonl"))) == 6


def test_second_run_adds_only_new_files_and_repairs_a_torn_tail(inputs, tmp_path):
    out = tmp_path / "corpus"
    assert fetch_files(out, inputs / "note.txt") == 0
    with open(out / "rulings.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"id": "half-writ')  # a run killed while writing
    assert fetch_files(out, inputs / "note.txt", inputs / "bayern_document_page_synthetic.html") == 0
    assert [r["id"] for r in read_jsonl(out / "rulings.jsonl")] == ["note", "Y-300-Z-BECKRS-B-2019-N-90001"]
    assert [r["id"] for r in read_jsonl(out / "metadata.jsonl")] == ["note", "Y-300-Z-BECKRS-B-2019-N-90001"]


def test_ruling_stored_without_its_metadata_line_gets_it_on_resume(inputs, tmp_path):
    out = tmp_path / "corpus"
    assert fetch_files(out, inputs / "note.txt") == 0
    (out / "metadata.jsonl").write_text("", encoding="utf-8")  # killed between the two appends
    assert fetch_files(out, inputs / "note.txt") == 0
    [meta] = read_jsonl(out / "metadata.jsonl")
    assert meta == {"id": "note", "source": str(inputs / "note.txt"), "placeholders": 2, "kept": True}
    assert len(list(read_jsonl(out / "rulings.jsonl"))) == 1


def test_malformed_file_is_one_line_error_naming_it(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"<byrecht-rspr><metadaten>")
    assert fetch_files(tmp_path / "c", bad) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"rulings-anon fetch: error: {bad}: malformed XML")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--source", "files"], "--source files needs the files to import"),
        (["--source", "bayern", "x.xml"], "--source bayern takes no paths"),
        (["--source", "files", "x.txt", "--court", "BGH"], "apply to the portals, not to --source files"),
        (["--source", "rii", "--from", "2020-02-01", "--to", "2020-01-01"], "--from 2020-02-01 lies after --to 2020-01-01"),
    ],
)
def test_argument_mistakes_are_one_line_errors(tmp_path, capsys, args, message):
    assert main(["fetch", *args, "--out", str(tmp_path / "c")]) == 2
    assert message in capsys.readouterr().err


def test_dates_accept_german_format_and_reject_nonsense(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["fetch", "--source", "rii", "--from", "31.02.2020", "--out", str(tmp_path / "c")])
    assert "not a date: '31.02.2020'" in capsys.readouterr().err
