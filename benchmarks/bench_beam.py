"""Benchmark of ``score --runner``: the bundled corpus scored in-process and on Beam.

1. Speed: ``rulings-anon score rulings_anon/data/ler`` (the bundled NER and recognizers, the defaults) in-process
   and with the DirectRunner in multi-processing mode at 1 and 2 worker processes, each a fresh CLI
   run, start-up included; elements per second of each, the 2-vs-1 speed-up (target >= 1.6 on two
   cores), and from the measured per-worker rate the workers needed to score one million rulings of
   5,000 elements in an hour. Each mode runs twice (``--repeat``), the fastest run counts.
2. Identity: the Beam runs' spans equal the in-process spans document by document; unless
   ``--speed-only``, ``detect-placeholders`` and ``preprocess`` (records, stats.json) too, on 2 workers.

The machine's load average and its own 2-vs-1 speed-up (plain processes, no Beam) are printed before
and after: on a shared machine the figures only mean something when nothing else ran.

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_beam.py [--speed-only] [--json OUT]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "rulings_anon" / "data" / "ler"
RULINGS, ELEMENTS_PER_RULING, SECONDS = 1_000_000, 5_000, 3600


def beam_flags(workers: int) -> list[str]:
    return ["--runner", "DirectRunner", f"--direct_num_workers={workers}", "--direct_running_mode=multi_processing"]


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli(*args: str) -> tuple[float, str, float]:
    """Run ``rulings-anon ARGS`` in a fresh process; returns its wall seconds, its stderr and the CPU
    seconds it and its worker processes used (CPU / wall = the cores it had on average)."""
    cpu = _cpu_seconds()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulings_anon", *args], capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"rulings-anon {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return seconds, done.stderr, _cpu_seconds() - cpu


def by_id(paths) -> dict[str, dict]:
    records = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            records[record["id"]] = record
    return records


def outputs(path: Path, beam: bool) -> dict[str, dict]:
    from rulings_anon.beam_io import shard_files

    return by_id(shard_files(path) if beam else [path])


def _spin(_) -> int:
    total = 0
    for i in range(15_000_000):
        total += i
    return total


def machine_speedup() -> float:
    """The machine's own 2-vs-1 speed-up right now: four pure-Python loops on 1, then 2 processes
    (about 2 on two free cores; other jobs on the machine lower it as they lower Beam's)."""
    import multiprocessing

    seconds = {}
    for processes in (1, 2):
        started = time.perf_counter()
        with multiprocessing.Pool(processes) as pool:
            pool.map(_spin, range(4))
        seconds[processes] = time.perf_counter() - started
    return round(seconds[1] / seconds[2], 2)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def score_speed(folder: Path, repeat: int = 2) -> dict:
    """Each mode ``repeat`` times, interleaved; the fastest run of each counts (other jobs on the
    machine only ever slow a run down)."""
    from rulings_anon.document import count_elements
    from rulings_anon.inputs import read_documents

    elements = sum(count_elements(d.text) for d in read_documents([CORPUS]))
    runs: dict[str, dict] = {}
    reference = None
    for _ in range(repeat):
        for name, flags in (("in-process", []), ("beam-1", beam_flags(1)), ("beam-2", beam_flags(2))):
            output = folder / f"score-{name}.jsonl"
            seconds, err, cpu = cli("score", str(CORPUS), "--output", str(output), *flags)
            scoring = re.search(r"([\d,]+) elements/s per worker while scoring", err)
            spans = outputs(output, bool(flags))
            if reference is None:
                reference = spans
            print(f"  {name:<11} {seconds:7.1f} s  {elements / seconds:>9,.0f} elements/s  "
                  f"{cpu / seconds:4.2f} cores busy  identical: {spans == reference}", flush=True)
            if name in runs and runs[name]["seconds"] <= seconds:
                runs[name]["identical_to_in_process"] &= spans == reference
                continue
            runs[name] = {"seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
                          "elements_per_second": round(elements / seconds),
                          "per_worker_while_scoring": int(scoring.group(1).replace(",", "")) if scoring else None,
                          "identical_to_in_process": spans == reference
                          and runs.get(name, {}).get("identical_to_in_process", True)}
    print("  fastest: " + ", ".join(f"{name} {run['elements_per_second']:,} elements/s" for name, run in runs.items()))
    speedup = runs["beam-2"]["elements_per_second"] / runs["beam-1"]["elements_per_second"]
    needed = RULINGS * ELEMENTS_PER_RULING / SECONDS
    per_worker = runs["beam-2"]["elements_per_second"] / 2
    steady = runs["beam-2"]["per_worker_while_scoring"]
    return {"elements": elements, "runs": runs, "speedup_2_vs_1": round(speedup, 2),
            "needed_elements_per_second": round(needed), "per_worker_elements_per_second": round(per_worker),
            "workers_needed": math.ceil(needed / per_worker),
            "workers_needed_steady": math.ceil(needed / steady) if steady else None}


def detect_identity(folder: Path) -> bool:
    cli("detect-placeholders", str(CORPUS), "--output", str(folder / "detect.jsonl"))
    cli("detect-placeholders", str(CORPUS), "--output", str(folder / "detect-beam.jsonl"), *beam_flags(2))
    return outputs(folder / "detect.jsonl", False) == outputs(folder / "detect-beam.jsonl", True)


def preprocess_identity(folder: Path) -> bool:
    from rulings_anon.preprocessing import record_format as rf

    def data(directory: Path):
        records = {(r.doc_id, r.sequence_index): (split, asdict(r))
                   for split in rf.SPLITS for r in rf.read_records(rf.shard_files(directory, split))}
        stats = json.loads((directory / rf.STATS_FILE).read_text())
        stats.pop("seconds")
        return records, stats, json.loads((directory / rf.FORMAT_FILE).read_text())

    options = [str(CORPUS), "--wordpiece-vocab-size", "8000"]
    cli("preprocess", *options, "--out", str(folder / "data"))
    cli("preprocess", *options, "--out", str(folder / "data-beam"), *beam_flags(2))
    return data(folder / "data") == data(folder / "data-beam")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-only", action="store_true", help="skip the detect-placeholders and preprocess checks")
    parser.add_argument("--repeat", type=int, default=2, metavar="N", help="runs of each mode, fastest counts (default 2)")
    parser.add_argument("--json", metavar="OUT", help="also write the results as JSON")
    args = parser.parse_args()
    result = {"cpus": os.cpu_count(), "load_before": load()}
    print(f"score {CORPUS.relative_to(ROOT)} on {os.cpu_count()} CPUs, load average {result['load_before']}")
    result["machine_speedup_before"] = machine_speedup()
    print(f"this machine's own 2-vs-1 speed-up now (plain processes): {result['machine_speedup_before']:.2f}x")
    with tempfile.TemporaryDirectory(prefix="bench-beam-") as tmp:
        result["score"] = score_speed(Path(tmp), args.repeat)
        result["machine_speedup_after"] = machine_speedup()
        if not args.speed_only:
            result["detect_identical"] = detect_identity(Path(tmp))
            result["preprocess_identical"] = preprocess_identity(Path(tmp))
    result["load_after"] = load()
    score = result["score"]
    print(f"2 workers vs 1: {score['speedup_2_vs_1']:.2f}x (target >= 1.6; the machine's own: "
          f"{result['machine_speedup_before']:.2f}x before, {result['machine_speedup_after']:.2f}x after)")
    print(f"1,000,000 rulings x 5,000 elements in an hour: {score['needed_elements_per_second']:,} elements/s = "
          f"{score['workers_needed']:,} workers at the measured {score['per_worker_elements_per_second']:,} "
          f"elements/s per worker (start-up included)"
          + (f", {score['workers_needed_steady']:,} at {score['runs']['beam-2']['per_worker_while_scoring']:,} "
             "while scoring" if score["workers_needed_steady"] else ""))
    if not args.speed_only:
        print(f"identical to in-process: detect-placeholders {result['detect_identical']}, "
              f"preprocess {result['preprocess_identical']}")
    print(f"load average after: {result['load_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
