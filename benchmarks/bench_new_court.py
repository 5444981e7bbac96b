"""A court the scorer never trained on, measured through ``evaluate`` over several draws of its names.

For each name source (``--names foreign,eastern``) and draw (``--seeds 0,1,2``), ``build-testset``
pseudonymizes the court's rulings (BSG, the held-out court, by default) and ``evaluate --method none
--features`` measures the spans ``score`` gives, by default and with ``--recall-first``. Prints
each draw and the mean of the draws: recall, precision, a person's recall, and the share of
rulings with a person's element in clear and with any sensitive element in clear.

One draw is not a figure: the same 100 BSG rulings with three draws of Austrian and Swiss names
leave a person in clear in 4 to 7 % of them (a court that repeats one placeholder moves by several
points with the name drawn for it). The mean of three draws is what "Figures of record" reports.

    .venv/bin/python benchmarks/bench_new_court.py [--court bsg] [--names foreign,eastern] [--seeds 0,1,2]
                                                  [--checked] [--json results.json]

Each draw runs the two commands a user runs (``rulings-anon build-testset``, ``rulings-anon
evaluate``), in a fresh process each; about 15 s a draw and mode for BSG's 100 rulings.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from tqdm import tqdm

from rulings_anon import data
from rulings_anon.jsonl import atomic_writer

MODES = {"default": [], "recall-first": ["--recall-first"]}


def cli(*arguments: str) -> str:
    """``rulings-anon ARGUMENTS`` in a fresh process; its standard output (an error names the command)."""
    done = subprocess.run([sys.executable, "-m", "rulings_anon", *arguments], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"rulings-anon {' '.join(arguments)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return done.stdout


def figures(result: dict) -> dict[str, float]:
    """What one ``evaluate --json`` result says about leaks: recall, precision, a person's recall, the
    shares of rulings with a person's or any sensitive element in clear (all in %)."""
    person = result["per_type"].get("person", {})
    return {"recall": 100 * result["metrics"]["recall"], "precision": 100 * result["metrics"]["precision"],
            "person": 100 * person.get("recall", 0.0),
            "missed person": 100 * result["leaks"]["share_with_missed_name"],
            "any miss": 100 * result["leaks"]["share_with_miss"]}


def line(label: str, f: dict[str, float]) -> str:
    return (f"{label:<28} {f['recall']:5.1f} / {f['precision']:5.1f}  person {f['person']:5.1f}  "
            f"a person missed in {f['missed person']:4.1f} %  any miss {f['any miss']:4.1f} %")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--court", default="bsg", help="the court whose rulings are measured (default: bsg)")
    parser.add_argument("--limit", type=int, default=100, help="its first N rulings (default 100)")
    parser.add_argument("--names", default="foreign,eastern", help="name sources of the test sets, comma-separated")
    parser.add_argument("--seeds", default="0,1,2", help="draws of the surrogates, comma-separated")
    parser.add_argument("--checked", action="store_true",
                        help="correct the placeholders by the court's hand-checked labels first")
    parser.add_argument("--json", type=Path, help="write every draw's figures and the means here")
    args = parser.parse_args(argv)
    corpus = data.ler_corpus_files([args.court])[0]
    checked = []
    if args.checked:
        labels = data.path("checked") / f"{args.court}.jsonl"
        if not labels.exists():
            raise SystemExit(f"{labels}: no hand-checked labels for {args.court}")
        checked = ["--checked", str(labels)]
    sources = [n for n in args.names.split(",") if n]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="bench-new-court-") as work:
        runs = [(names, seed) for names in sources for seed in seeds]
        for names, seed in tqdm(runs, desc=f"{args.court} draws", unit="draw"):
            gold = Path(work) / f"{names}-{seed}.jsonl"
            cli("build-testset", str(corpus), "--names", names, "--seed", str(seed), "--limit", str(args.limit),
                "--out", str(gold), "-q", *checked)
            for mode, options in MODES.items():
                result = json.loads(cli("evaluate", "--test", str(gold), "--method", "none", "--features", "--json",
                                        "-q", *options))
                results.setdefault(names, {}).setdefault(mode, {})[str(seed)] = figures(result)
    for names in sources:
        for mode in MODES:
            draws = results[names][mode]
            mean = {key: float(np.mean([f[key] for f in draws.values()])) for key in next(iter(draws.values()))}
            results[names][mode]["mean"] = mean
            print(f"{args.court}, {names} names, {mode}" + (", hand-checked labels" if args.checked else ""))
            for seed, f in draws.items():
                print("  " + line(f"draw {seed}" if seed != "mean" else f"mean of {len(draws) - 1} draws", f))
    if args.json:
        with atomic_writer(args.json) as out:
            out.write(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
