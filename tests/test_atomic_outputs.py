"""Outputs are complete or absent, never written through a planted link, and private when they hold
names: real files, links, processes and a real full file system (a small tmpfs in a private mount
namespace; skipped, with the reason, where one cannot be mounted).

Cases pinned: a symbolic link planted where a partial or temporary file goes is never followed (its
target keeps its bytes, no name lands in it); a full disk leaves a folder output (``score
--anonymize DIR``, ``split``) absent or the old complete one, with one error line naming the path;
outputs holding names are 0600 under umask 022; the atomic writer syncs the data before the rename
and the folder after it; a lone surrogate or a full disk while writing is one line naming the file.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from command_line import ROOT, assert_one_line_error, cli, leftovers

import rulings_anon.scoring.score_run as scoring
from rulings_anon import data
from rulings_anon.cli import main
from rulings_anon.errors import InputError
from rulings_anon.jsonl import JsonlAppender, atomic_writer, read_jsonl, write_jsonl


def bsg_documents(count: int, chars: int | None = 4000) -> list[dict]:
    """The first ``count`` rulings of the bundled (anonymized) BSG corpus as ``{"id", "text"}``."""
    records = list(read_jsonl(data.ler_corpus_files(["bsg"])[0]))[:count]
    return [{"id": r["id"], "text": r["text"][:chars], "court": r.get("court", "bsg")} for r in records]


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# -- a link planted where a partial or temporary file goes -----------------------------------------

def test_score_refuses_a_dangling_partial_link_and_writes_no_name_through_it(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, bsg_documents(2))
    victim = tmp_path / "elsewhere" / "victim.jsonl"
    victim.parent.mkdir()
    (tmp_path / ".spans.jsonl.partial").symlink_to(victim)
    done = cli("score", docs, "--output", tmp_path / "spans.jsonl")
    assert_one_line_error(done, ".spans.jsonl.partial", "symbolic link")
    assert not victim.exists()
    assert not (tmp_path / "spans.jsonl").exists()


def test_score_refuses_a_partial_link_to_a_file_and_leaves_its_bytes(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, bsg_documents(2))
    victim = tmp_path / "notes.txt"
    victim.write_bytes(b"first line\nsecond line without a newline")  # what a torn-tail repair would cut
    (tmp_path / ".spans.jsonl.partial").symlink_to(victim)
    done = cli("score", docs, "--output", tmp_path / "spans.jsonl")
    assert_one_line_error(done, ".spans.jsonl.partial", "symbolic link")
    assert victim.read_bytes() == b"first line\nsecond line without a newline"


def test_an_appender_never_follows_a_link_to_an_existing_file(tmp_path):
    victim = tmp_path / "victim.jsonl"
    victim.write_bytes(b'{"id": "x"}\n')
    (tmp_path / "rulings.jsonl").symlink_to(victim)
    with pytest.raises(InputError, match="symbolic link"):
        JsonlAppender(tmp_path / "rulings.jsonl").append({"id": "Müller"})
    assert victim.read_bytes() == b'{"id": "x"}\n'


def test_a_sentencepiece_model_is_not_written_through_a_planted_partial_link(tmp_path):
    from rulings_anon.preprocessing.tokenizers import train_sentencepiece

    victim = tmp_path / "victim"
    victim.write_bytes(b"keep")
    (tmp_path / ".sp.model.partial").symlink_to(victim)
    counts = collections.Counter({f"wort{i}": 3 for i in range(300)})
    train_sentencepiece(counts, tmp_path / "sp.model", vocab_size=60)
    assert victim.read_bytes() == b"keep"
    assert (tmp_path / "sp.model").stat().st_size > 100 and not (tmp_path / "sp.model").is_symlink()


def test_tfrecords_are_not_written_through_a_planted_partial_link(tmp_path):
    pytest.importorskip("tensorflow")
    from rulings_anon.preprocessing.record_format import SequenceRecord, read_records, write_records

    victim = tmp_path / "victim"
    victim.write_bytes(b"keep")
    (tmp_path / ".train-00000.tfrecord.partial").symlink_to(victim)
    record = SequenceRecord("a", 0, [1, 2], [0, 0], [0], [2], [1], [0], [5], [0])
    assert write_records(tmp_path / "train-00000.tfrecord", [record]) == 1
    assert victim.read_bytes() == b"keep"
    assert list(read_records([tmp_path / "train-00000.tfrecord"])) == [record]
    assert leftovers(tmp_path) == [".train-00000.tfrecord.partial"]  # the planted link alone


# -- a full disk: a folder output is complete or absent ---------------------------------------------

def in_small_disk(tmp_path: Path, size: str, script: str, **env) -> Path:
    """Run the sh ``script`` with a fresh tmpfs of ``size`` on ``$DISK`` in a private mount namespace
    (gone when the script ends: the script copies what it wants to keep to ``$OUT``)."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed: no private mount namespace for a small full disk")
    disk, out = tmp_path / "disk", tmp_path / "out"
    disk.mkdir()
    out.mkdir()
    mount = f'mount -t tmpfs -o size={size} tmpfs "$DISK" || exit 99\ncd "$ROOT"\n'
    done = subprocess.run(["unshare", "-m", "sh", "-c", mount + script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "DISK": str(disk), "OUT": str(out), "ROOT": str(ROOT),
                               "PY": sys.executable, **env})
    if done.returncode == 99 or "unshare:" in done.stderr:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return out


def second_run(out: Path) -> subprocess.CompletedProcess:
    """The second command's exit code and stderr, as saved by the script."""
    return subprocess.CompletedProcess([], int((out / "rc").read_text()), "", (out / "second.err").read_text())


def test_score_anonymize_folder_on_a_full_disk_keeps_the_old_complete_folder(tmp_path):
    write_jsonl(tmp_path / "small.jsonl", bsg_documents(1, chars=300))
    write_jsonl(tmp_path / "big.jsonl", bsg_documents(16))
    out = in_small_disk(tmp_path, "48k", """
"$PY" -m rulings_anon score "$SMALL" --output "$OUT/first.jsonl" --anonymize "$DISK/anon" 2>"$OUT/first.err" || exit 98
cp -a "$DISK/anon" "$OUT/before"
"$PY" -m rulings_anon score "$BIG" --output "$OUT/second.jsonl" --anonymize "$DISK/anon" 2>"$OUT/second.err"
echo $? >"$OUT/rc"
mkdir "$OUT/after" && cp -a "$DISK/." "$OUT/after/"
""", SMALL=str(tmp_path / "small.jsonl"), BIG=str(tmp_path / "big.jsonl"))
    line = assert_one_line_error(second_run(out), str(tmp_path / "disk" / "anon"), "No space left on device")
    assert ".tmp" not in line
    assert len(tree(out / "before")) == 2  # one text and the index
    assert tree(out / "after" / "anon") == tree(out / "before")
    assert leftovers(out / "after") == []


def test_split_on_a_full_disk_leaves_no_archive_without_split_json(tmp_path):
    write_jsonl(tmp_path / "small.jsonl", bsg_documents(2, chars=200))
    write_jsonl(tmp_path / "big.jsonl", bsg_documents(40, chars=None))
    out = in_small_disk(tmp_path, "16k", """
"$PY" -m rulings_anon split "$SMALL" --out "$DISK/split" 2>"$OUT/first.err" || exit 98
cp -a "$DISK/split" "$OUT/before"
"$PY" -m rulings_anon split "$BIG" --out "$DISK/split" 2>"$OUT/second.err"
echo $? >"$OUT/rc"
mkdir "$OUT/after" && cp -a "$DISK/." "$OUT/after/"
""", SMALL=str(tmp_path / "small.jsonl"), BIG=str(tmp_path / "big.jsonl"))
    assert_one_line_error(second_run(out), str(tmp_path / "disk" / "split"), "No space left on device")
    assert sorted(tree(out / "before")) == ["split.json", "test.tar.gz", "train.tar.gz"]
    assert tree(out / "after" / "split") == tree(out / "before")
    assert leftovers(out / "after") == []


def test_a_full_disk_while_appending_is_one_error_naming_the_file(tmp_path):
    out = in_small_disk(tmp_path, "8k", """
"$PY" -c '
import os, sys
from rulings_anon.errors import InputError
from rulings_anon.jsonl import JsonlAppender
try:
    with JsonlAppender(os.environ["DISK"] + "/rulings.jsonl") as appender:
        for number in range(1000):
            appender.append({"id": str(number), "text": "x" * 500})
except InputError as exc:
    print(exc, file=sys.stderr)
    sys.exit(1)
' 2>"$OUT/second.err"
echo $? >"$OUT/rc"
""")
    assert_one_line_error(second_run(out), str(tmp_path / "disk" / "rulings.jsonl"), "cannot write: No space left")


def test_a_folder_target_holding_other_files_is_refused_before_any_work(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, bsg_documents(1, chars=300))
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("not an output of score\n")
    done = cli("score", docs, "--output", tmp_path / "spans.jsonl", "--anonymize", target)
    assert_one_line_error(done, str(target), "not an earlier output")
    assert tree(target) == {"notes.txt": b"not an output of score\n"}
    assert not (tmp_path / ".spans.jsonl.partial").exists()


def test_an_earlier_texts_folder_is_replaced_whole(tmp_path):
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    docs = bsg_documents(2, chars=300)
    write_jsonl(first, docs)
    write_jsonl(second, docs[1:])
    target = tmp_path / "anon"
    for source in (first, second):
        done = cli("score", source, "--output", tmp_path / "spans.jsonl", "--anonymize", target)
        assert done.returncode == 0, done.stderr
    index = list(read_jsonl(target / "index.jsonl"))
    assert [r["id"] for r in index] == [docs[1]["id"]]
    assert sorted(tree(target)) == sorted(["index.jsonl", index[0]["file"]])
    assert leftovers(tmp_path) == []


# -- names in clear: 0600 whatever the umask ---------------------------------------------------------

def test_score_outputs_holding_names_are_private_under_umask_022(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, bsg_documents(2, chars=300))
    done = subprocess.run(["sh", "-c", 'umask 022 && exec "$0" -m rulings_anon "$@"', sys.executable, "score",
                           str(docs), "--output", str(tmp_path / "spans.jsonl"), "--anonymize", str(tmp_path / "anon"),
                           "--pseudonymize", str(tmp_path / "pseudo.jsonl")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert mode(tmp_path / "spans.jsonl") == 0o600
    assert mode(tmp_path / "pseudo.jsonl") == 0o600
    assert mode(tmp_path / "anon") == 0o700
    assert {name: mode(tmp_path / "anon" / name) for name in tree(tmp_path / "anon")} == \
        {name: 0o600 for name in tree(tmp_path / "anon")}


def test_the_partial_file_of_score_is_private_while_it_grows(tmp_path, monkeypatch):
    seen = []

    class Spy(JsonlAppender):
        def append(self, record):
            super().append(record)
            seen.append(mode(self.path))

    monkeypatch.setattr(scoring, "JsonlAppender", Spy)
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, bsg_documents(2, chars=300))
    old = os.umask(0o022)
    try:
        assert main(["score", str(docs), "--output", str(tmp_path / "spans.jsonl")]) == 0
    finally:
        os.umask(old)
    assert seen and set(seen) == {0o600}


def test_detect_placeholders_output_is_private_and_split_archives_follow_the_umask(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, bsg_documents(2, chars=300))
    umask = ["sh", "-c", 'umask 022 && exec "$0" -m rulings_anon "$@"', sys.executable]
    for args in (["detect-placeholders", docs, "--output", tmp_path / "spans.jsonl"],
                 ["split", docs, "--out", tmp_path / "split"]):
        done = subprocess.run([*umask, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
    assert mode(tmp_path / "spans.jsonl") == 0o600
    assert mode(tmp_path / "split" / "train.tar.gz") == 0o644 and mode(tmp_path / "split") == 0o755


# -- durable and one-line writes ---------------------------------------------------------------------

def test_the_atomic_writer_syncs_the_data_before_the_rename_and_the_folder_after(tmp_path, monkeypatch):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    synced = []
    real_fsync = os.fsync

    def spy(fd):
        synced.append((stat.S_ISDIR(os.fstat(fd).st_mode), target.read_text()))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    with atomic_writer(target) as handle:
        handle.write("new\n")
    assert synced == [(False, "old\n"), (True, "new\n")]


def test_a_lone_surrogate_is_one_error_naming_the_file_and_leaves_nothing(tmp_path):
    target = tmp_path / "out.jsonl"
    with pytest.raises(InputError, match="lone surrogate") as error:
        write_jsonl(target, [{"id": "a", "text": "Herr \ud800"}])
    assert str(error.value).startswith(f"{target}: ")
    with pytest.raises(InputError, match="lone surrogate"):
        JsonlAppender(tmp_path / "log.jsonl").append({"id": "\udc80"})
    assert not target.exists() and (tmp_path / "log.jsonl").read_bytes() == b""
    assert leftovers(tmp_path) == []


def test_split_json_reads_back_after_a_replaced_split(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, bsg_documents(3, chars=200))
    for seed in ("0", "1"):
        done = cli("split", docs, "--out", tmp_path / "split", "--seed", seed, "--test-share", "0.34")
        assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "split" / "split.json").read_text())["seed"] == 1
    assert leftovers(tmp_path) == []
