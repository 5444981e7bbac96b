"""How fast ``score`` is, start-up included, as a user runs it: the speed target's benchmark.

The input is 300,000 elements of bundled rulings as they were published (the held-out BSG
rulings, then BVerfG's until the count is reached), one JSONL file; ``rulings-anon score INPUT
--output OUT`` runs in a fresh process ``--repeat`` times and the table gives the wall time of
each run, elements per second over the whole run, and the peak memory of the command and its
worker processes. Then a one-line ruling three times: what a court user waits for one ruling,
start-up nearly all of it. ``--big`` adds one document of 5 MB (the memory target).

Machines differ, and a shared one differs from minute to minute: the table also gives the time a
plain Python loop of ten million additions takes on this machine just before, so that figures of
two runs can be compared. Compare code against code in the same minutes, alternating:
``--baseline CHECKOUT`` runs the package of another checkout (a ``git worktree`` of an earlier
commit) between the runs of this one: each version must write the same spans in every run, and
the two must write the same spans unless ``--other-spans`` says the change is meant to alter them
(a new rule, another threshold).

Run: ``.venv/bin/python benchmarks/bench_speed.py [--elements 300000] [--repeat 3] [--big]
[--baseline CHECKOUT [--other-spans]] [--json OUT]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulings_anon.data import ler_corpus_files
from rulings_anon.document import count_elements
from rulings_anon.jsonl import read_jsonl, write_jsonl

ROOT = Path(__file__).resolve().parent.parent
COURTS = ("bsg", "bverfg", "bag")  # the held-out court first
BIG_BYTES = 5_000_000
ONE_LINE = "Der Kläger Herr Achleitner aus Memmingen klagt gegen die Beklagte, die M-GmbH."  # start-up alone


def calibration_seconds() -> float:
    """Seconds a plain Python loop of ten million additions takes (the machine's speed now)."""
    started = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - started


def rulings(elements: int) -> list[dict]:
    """Published rulings of :data:`COURTS` in order until they hold ``elements`` elements."""
    chosen, count = [], 0
    for court in COURTS:
        for record in read_jsonl(ler_corpus_files([court])[0]):
            if count >= elements:
                return chosen
            chosen.append({"id": record["id"], "text": record["text"]})
            count += count_elements(record["text"])
    return chosen


def big_document(size: int = BIG_BYTES) -> dict:
    """One document of ``size`` bytes or more: the bundled rulings one after another."""
    parts, length = [], 0
    while length < size:
        for path in ler_corpus_files():
            for record in read_jsonl(path):
                parts.append(record["text"])
                length += len(record["text"].encode("utf-8")) + 2
                if length >= size:
                    return {"id": "big", "text": "\n\n".join(parts)}
    return {"id": "big", "text": "\n\n".join(parts)}


def timed_score(inputs: Path, output: Path, jobs: int | None, checkout: Path = ROOT) -> dict:
    """One ``score`` run of the package in ``checkout`` in a fresh process: wall seconds, peak
    memory of its largest process, workers included (MB), the spans it wrote."""
    command = [sys.executable, "-m", "rulings_anon", "score", str(inputs), "--output", str(output)]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=checkout,
                               env={**os.environ, "PYTHONPATH": str(checkout)})
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)  # the child's own figures, its workers included
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"score failed ({process.returncode}): {stderr.strip()[-500:]}")
    spans = output.read_bytes()
    output.unlink()
    return {"seconds": seconds, "peak_mb": usage.ru_maxrss / 1024, "spans": spans}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--elements", type=int, default=300_000, help="elements to score (default: 300000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of score (default: 3)")
    parser.add_argument("--jobs", type=int, help="score's --jobs (default: its own, one worker per core)")
    parser.add_argument("--big", action="store_true", help="also score one document of 5 MB")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="another checkout of the project, run alternating with this one (same spans checked)")
    parser.add_argument("--other-spans", action="store_true",
                        help="with --baseline: the versions may write other spans (each its own in every run)")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)

    records = rulings(args.elements)
    elements = sum(count_elements(r["text"]) for r in records)
    figures: dict = {"rulings": len(records), "elements": elements, "cores": len(os.sched_getaffinity(0))}
    with tempfile.TemporaryDirectory() as folder:
        inputs, output = Path(folder) / "rulings.jsonl", Path(folder) / "spans.jsonl"
        write_jsonl(inputs, records)
        versions = [("this checkout", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
        figures["runs"] = {name: [] for name, _ in versions}
        first_spans: dict[str, object] = {}
        for _ in range(args.repeat):
            for name, checkout in versions:
                calibration = calibration_seconds()
                run = timed_score(inputs, output, args.jobs, checkout)
                spans = run.pop("spans")
                reference = name if args.other_spans else versions[0][0]
                if spans != first_spans.setdefault(reference, spans):
                    raise SystemExit(f"{name} wrote other spans than {reference}"
                                     + ("" if args.other_spans else " (--other-spans if the change is meant to)"))
                run.update(calibration_seconds=calibration, elements_per_second=elements / run["seconds"])
                figures["runs"][name].append(run)
                print(f"{name}: {len(records)} rulings, {elements:,} elements: {run['seconds']:.2f} s, "
                      f"{run['elements_per_second']:,.0f} elements/s, {run['peak_mb']:.0f} MB "
                      f"(10M-addition loop {calibration:.2f} s)", flush=True)
        for name, runs in figures["runs"].items():
            median = statistics.median(r["elements_per_second"] for r in runs)
            figures.setdefault("median_elements_per_second", {})[name] = median
            print(f"{name}: median {median:,.0f} elements/s (target 50,000)")
        write_jsonl(inputs, [{"id": "one-line", "text": ONE_LINE}])
        starts = [timed_score(inputs, output, 1)["seconds"] for _ in range(3)]
        figures["start_up_seconds"] = starts
        print(f"one line, start-up and all: {min(starts):.2f}-{max(starts):.2f} s")
        if args.big:
            big = big_document()
            write_jsonl(inputs, [big])
            run = timed_score(inputs, output, args.jobs)
            run.pop("spans")
            figures["big"] = {"bytes": len(big["text"].encode("utf-8")), **run}
            print(f"one document of {figures['big']['bytes'] / 1e6:.1f} MB: {run['seconds']:.1f} s, "
                  f"{run['peak_mb']:.0f} MB peak (target 1,536 MB)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
