"""Leave one court out: the NER's threshold as a court it never saw needs it.

A threshold chosen on unseen rulings of the training courts carries over badly to a new court
(docs/experiments.md, "The threshold"). For each dev court given, this
benchmark trains a NER of the bundled recipe (``train-ner`` defaults) on the other dev courts
(once: a finished model directory is reused, an interrupted one resumes), scores the left-out
court's rulings pseudonymized with foreign names (``score``'s defaults otherwise: NER alone,
recognizers, consistency, the batch vocabulary), and prints recall / precision per threshold and
court, the mean F1 over the courts, and the threshold with the best mean F1.

    .venv/bin/python benchmarks/bench_leave_one_court_out.py --courts bag,bgh,bverfg --runs runs/loco

Training takes about 5 minutes per court on 2 idle cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from bench_evaluation import SWEEP, build_gold

from rulings_anon import data
from rulings_anon.analyzer.common_words import common_words_for
from rulings_anon.analyzer.decisions import Settings
from rulings_anon.defaults import DEV_COURTS
from rulings_anon.evaluation.evaluate import gold_documents, measure, observe_gold
from rulings_anon.ner import load_ner, train_ner
from rulings_anon.ner.trainer import STATE


def left_out_ner(court: str, runs: Path, epochs: int, max_docs: int):
    """The NER trained on every dev court but ``court`` (trained first when not finished)."""
    out = runs / f"ner-no-{court}"
    if not (out / "config.json").exists() or (out / STATE).exists():
        others = [c for c in DEV_COURTS if c != court]
        print(f"training {out} on {', '.join(others)} ...", file=sys.stderr)
        train_ner(data.ler_corpus_files(others), out, epochs=epochs, max_docs=max_docs)
    return load_ner(out)


def court_sweep(court: str, ner, thresholds, seed: int) -> dict[float, dict]:
    """Recall, precision and F1 of the NER alone on ``court`` at each threshold."""
    with tempfile.TemporaryDirectory() as tmp:
        golds = gold_documents(build_gold([court], None, seed, Path(tmp) / "gold.jsonl"))
    observations = observe_gold(golds, None, "ner", ner=ner, seed=seed)
    common = common_words_for(g.document.text for g in golds)
    swept = {}
    for threshold in thresholds:
        metrics = measure(golds, observations, "ner", Settings(threshold, True, common, "ner"))["metrics"]
        swept[threshold] = {k: metrics[k] for k in ("recall", "precision", "f1")}
    return swept


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--courts", default="bag,bgh,bverfg",
                        help=f"dev courts to leave out in turn, comma-separated (of {', '.join(DEV_COURTS)})")
    parser.add_argument("--runs", type=Path, default=Path("runs/loco"), help="folder of the left-out NERs")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--max-docs", type=int, default=450)
    parser.add_argument("--seed", type=int, default=0, help="seed of the test sets' surrogates")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    courts = [c for c in args.courts.split(",") if c]
    unknown = sorted(set(courts) - set(DEV_COURTS))
    if unknown or not courts:
        parser.error(f"--courts: {', '.join(unknown) or 'none given'}; choose from {', '.join(DEV_COURTS)} "
                     "(the held-out BSG trains no NER)")

    sweeps = {c: court_sweep(c, left_out_ner(c, args.runs, args.epochs, args.max_docs), SWEEP, args.seed)
              for c in courts}
    mean_f1 = {t: sum(sweeps[c][t]["f1"] for c in courts) / len(courts) for t in SWEEP}
    print("threshold  " + "  ".join(f"{c + ' left out':>18}" for c in courts) + "  mean F1")
    for t in SWEEP:
        cells = "  ".join(f"{100 * sweeps[c][t]['recall']:8.1f} / {100 * sweeps[c][t]['precision']:5.1f}"
                          for c in courts)
        print(f"{t:>9}  {cells}  {100 * mean_f1[t]:7.1f}")
    best = max(SWEEP, key=lambda t: mean_f1[t])
    print(f"best mean F1 {100 * mean_f1[best]:.1f} at threshold {best}")
    if args.json:
        Path(args.json).write_text(json.dumps({"sweeps": {c: {str(t): v for t, v in s.items()}
                                                          for c, s in sweeps.items()},
                                               "mean_f1": {str(t): v for t, v in mean_f1.items()},
                                               "best_threshold": best}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
