"""rulings-anon split: reproducible train/test archives, random or with a held-out court."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from rulings_anon.cli import main
from rulings_anon.formats import read_split_archive
from rulings_anon.inputs import read_documents
from rulings_anon.jsonl import write_jsonl

COURTS = ("LG München I", "LG München II", "OLG München")


@pytest.fixture()
def corpus(tmp_path) -> Path:
    """30 rulings of three courts, one with gold spans, one with an id unsafe as a file name."""
    records = [
        {"id": f"r{i:02d}", "court": COURTS[i % 3], "date": f"2019-01-{i + 1:02d}", "placeholders": 1,
         "text": f"Tenor\n\n{i}\nDer Kläger K. gewinnt Verfahren {i}."}
        for i in range(29)
    ]
    records[0]["spans"] = [{"start": 20, "end": 22, "type": "PER"}]
    records.append({"id": "a/b c", "court": "OLG München", "text": "Die Beklagte M-GmbH verliert."})
    folder = tmp_path / "corpus"
    write_jsonl(folder / "rulings.jsonl", records)
    return folder


def members(archive: Path) -> dict[str, bytes]:
    with tarfile.open(archive) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


def test_random_split_archives_hold_texts_and_metadata(corpus, tmp_path, capsys):
    out = tmp_path / "split"
    assert main(["split", str(corpus), "--out", str(out), "--test-share", "0.13", "--seed", "0"]) == 0
    test, train = members(out / "test.tar.gz"), members(out / "train.tar.gz")
    test_meta = [json.loads(line) for line in test["metadata.jsonl"].decode().splitlines()]
    train_meta = [json.loads(line) for line in train["metadata.jsonl"].decode().splitlines()]
    assert len(test_meta) == 4 and len(train_meta) == 26  # round(0.13 * 30) = 4
    assert not {m["id"] for m in test_meta} & {m["id"] for m in train_meta}
    assert set(train) == {"metadata.jsonl", *(m["file"] for m in train_meta)}
    record = next(m for m in train_meta + test_meta if m["id"] == "r05")
    assert record == {"id": "r05", "court": COURTS[2], "date": "2019-01-06", "placeholders": 1, "file": "texts/r05.txt"}
    both = {**train, **test}
    assert both["texts/r05.txt"].decode() == "Tenor\n\n5\nDer Kläger K. gewinnt Verfahren 5."
    assert any(m["file"].startswith("texts/a_b_c-") for m in train_meta + test_meta)  # prefix + hash of the id
    summary = json.loads((out / "split.json").read_text())
    assert (summary["train"], summary["test"], summary["seed"]) == (26, 4, 0)
    assert sorted(summary["ids"]["test"]) == sorted(m["id"] for m in test_meta)
    assert "split (random): 26 train, 4 test rulings" in capsys.readouterr().err


def test_same_seed_same_bytes_other_seed_other_test_set(corpus, tmp_path):
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        assert main(["split", str(corpus), "--out", str(tmp_path / name), "--seed", seed]) == 0
    for archive in ("train.tar.gz", "test.tar.gz"):
        assert (tmp_path / "a" / archive).read_bytes() == (tmp_path / "b" / archive).read_bytes()
    test_ids = {n: json.loads((tmp_path / n / "split.json").read_text())["ids"]["test"] for n in "ac"}
    assert test_ids["a"] != test_ids["c"]


def test_archives_read_back_as_the_corpus_documents(corpus, tmp_path):
    assert main(["split", str(corpus), "--out", str(tmp_path / "s"), "--seed", "1"]) == 0
    original = {d.id: d for d in read_documents([corpus])}
    back = list(read_documents([tmp_path / "s" / "train.tar.gz", tmp_path / "s" / "test.tar.gz"]))
    assert sorted(d.id for d in back) == sorted(original)
    for document in back:
        assert (document.text, document.meta, document.spans) == (
            original[document.id].text, original[document.id].meta, original[document.id].spans,
        )
    assert [s.to_dict() for s in {d.id: d for d in back}["r00"].spans] == [{"start": 20, "end": 22, "type": "PER"}]


def test_holdout_court_puts_exactly_its_rulings_in_the_test_set(corpus, tmp_path, capsys):
    out = tmp_path / "s"
    assert main(["split", str(corpus), "--out", str(out), "--holdout-court", "LG München II"]) == 0
    test = list(read_split_archive(out / "test.tar.gz"))
    train = list(read_split_archive(out / "train.tar.gz"))
    assert {d.meta["court"] for d in test} == {"LG München II"}
    assert len(test) == 10 and len(train) == 20
    assert "LG München II" not in {d.meta["court"] for d in train}
    summary = json.loads((out / "split.json").read_text())
    assert summary["method"] == "held-out court LG München II" and summary["seed"] is None
    assert "split (held-out court LG München II): 20 train, 10 test rulings" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--holdout-court", "BGH"], "no ruling of court 'BGH' in the corpus (courts: LG München I, LG München II, OLG München)"),
        (["--test-share", "1.0"], "--test-share must lie strictly between 0 and 1"),
    ],
)
def test_split_mistakes_are_one_line_errors(corpus, tmp_path, capsys, args, message):
    assert main(["split", str(corpus), "--out", str(tmp_path / "s"), *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "s" / "train.tar.gz").exists()


def test_plain_tar_of_text_files_reads_as_documents(tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("Frau S. klagt.", encoding="utf-8")
    with tarfile.open(tmp_path / "texts.tgz", "w:gz") as tar:
        tar.add(source, arcname="rulings/a.txt")
    [document] = read_documents([tmp_path / "texts.tgz"])
    assert (document.id, document.text) == ("a", "Frau S. klagt.")
