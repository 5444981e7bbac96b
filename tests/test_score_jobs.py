"""``score --jobs N``: worker processes score chunks side by side, with the records of one process.

Real processes throughout: the command as a user runs it, and a run killed with SIGKILL.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from partial_runs import wait_for_saved

from rulings_anon import data
from rulings_anon.jsonl import read_jsonl, write_jsonl

ROOT = Path(__file__).resolve().parent.parent

# score with one document per worker chunk and a pause in each, so a kill lands half-way
SLOW_JOBS = ("import sys, time, rulings_anon.scoring.score_run as s; s.JOB_CHUNK_ELEMENTS = 1; score = s.Scorer.score\n"
             "s.Scorer.score = lambda self, chunk: (time.sleep(0.3), score(self, chunk))[1]\n"
             "from rulings_anon.cli import main; sys.exit(main(sys.argv[1:]))")


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulings_anon", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def rulings(tmp_path_factory) -> Path:
    """30 whole rulings of the bundled BSG corpus with surrogates for their placeholders (about
    80,000 elements: several worker chunks)."""
    from rulings_anon.evaluation.testset import gold_records

    path = tmp_path_factory.mktemp("jobs") / "rulings.jsonl"
    write_jsonl(path, [{"id": r["id"], "text": r["text"]} for r in gold_records(data.ler_corpus_files(["bsg"]), limit=30)])
    return path


def _outputs(folder: Path) -> dict[str, list[dict]]:
    return {name: list(read_jsonl(folder / name)) for name in ("spans.jsonl", "anon.jsonl", "pseudo.jsonl")}


def test_two_workers_write_what_one_process_writes(rulings, tmp_path):
    for jobs in ("1", "2"):
        folder = tmp_path / jobs
        done = cli("score", rulings, "--output", folder / "spans.jsonl", "--anonymize", folder / "anon.jsonl",
                   "--pseudonymize", folder / "pseudo.jsonl", "--jobs", jobs)
        assert done.returncode == 0, done.stderr
        assert "score: 30 documents" in done.stderr
    one, two = _outputs(tmp_path / "1"), _outputs(tmp_path / "2")
    assert [r["id"] for r in two["spans.jsonl"]] == [r["id"] for r in read_jsonl(rulings)]
    assert sum(len(r["spans"]) for r in one["spans.jsonl"]) > 100
    assert two == one


def test_a_killed_run_leaves_no_worker_behind_and_resumes(rulings, tmp_path):
    out = tmp_path / "spans.jsonl"
    partial = tmp_path / ".spans.jsonl.partial"
    parent = subprocess.Popen([sys.executable, "-c", SLOW_JOBS, "score", str(rulings), "--output", str(out),
                               "--jobs", "2"], cwd=ROOT, stderr=subprocess.DEVNULL)
    wait_for_saved(parent, partial, 4)  # the key and 3 documents
    workers = [int(pid) for pid in Path(f"/proc/{parent.pid}/task/{parent.pid}/children").read_text().split()]
    assert len(workers) == 2
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(pid) for pid in workers):
        time.sleep(0.05)
    assert not any(_running(pid) for pid in workers)
    saved = partial.read_bytes().count(b"\n") - 1
    assert 3 <= saved < 30 and not out.exists()
    done = cli("score", rulings, "--output", out, "--jobs", "2")
    assert done.returncode == 0 and f"{saved} resumed" in done.stderr, done.stderr
    reference = tmp_path / "reference.jsonl"
    assert cli("score", rulings, "--output", reference, "--jobs", "1").returncode == 0
    assert list(read_jsonl(out)) == list(read_jsonl(reference))


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("value", ["-1", "two", ""])
def test_a_bad_number_of_jobs_is_a_one_line_error(rulings, tmp_path, value):
    done = cli("score", rulings, "--output", tmp_path / "spans.jsonl", "--jobs", value)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"rulings-anon score: error: argument --jobs: not a number of processes: {value!r}")
    assert not (tmp_path / "spans.jsonl").exists()
