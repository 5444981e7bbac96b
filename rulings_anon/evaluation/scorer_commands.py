"""``rulings-anon train-scorer``: fit the sensitivity model ``score`` runs on a court's corpus.

Only argument parsing lives here; the work is :mod:`rulings_anon.analyzer.scorer_training`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulings_anon.cli import Command

# sensitivity_model's PARAMS["rounds"] and BOOSTERS, written out so that building the parser
# imports no model code (tests/test_scorer_training.py checks they agree)
DEFAULT_ROUNDS = 250
DEFAULT_BOOSTERS = 3
DEFAULT_RULE, RECALL_FIRST_RULE = "f15", "lowest96"  # threshold_rules' defaults
# what a model folder of this command holds besides its booster files (model-N.txt)
MODEL_FILES = {"config.json", "model.txt", "tables.json.gz", "background.json.gz", "cache"}

_DESCRIPTION = """\
Fit the sensitivity model that `score --model MODEL` runs, on anonymized rulings: what `fetch`
or `split` writes, or LER-style .jsonl(.gz) files such as the bundled rulings_anon/data/ler/*.jsonl.gz. The
placeholders courts left are the weak labels (a ruling's own 'spans' where it has them, else the
placeholder detector's), each replaced by a surrogate of the German name lists (evaluations draw
the Austrian and Swiss ones). The thresholds are chosen by grouped cross-validation: each court
(else each year, else each source) is left out of a fit on the others, and the rules choose
from their figures; MODEL/config.json records every rule's threshold, the rules score and
score --recall-first take, and the figures that chose them. Needs at least 3 groups with 2
rulings with placeholders each. Each group's features are kept in MODEL/cache: a rerun skips
the groups whose rulings and code are unchanged. About 0.2 s per ruling for the features and
half a minute per fit on 2 cores.

examples:
  rulings-anon train-scorer corpus --out runs/scorer
  rulings-anon train-scorer rulings_anon/data/ler/*.jsonl.gz --holdout-court bsg --out runs/scorer
  rulings-anon score --model runs/scorer ruling.txt --output spans.jsonl
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", nargs="+", type=Path, metavar="CORPUS",
                        help="anonymized rulings: a fetch corpus folder, split's .tar.gz, .jsonl(.gz) files")
    parser.add_argument("--out", required=True, type=Path, metavar="MODEL", help="model directory to write")
    parser.add_argument("--holdout-court", metavar="COURT",
                        help="leave this court's rulings out (the test court; recorded in config.json)")
    parser.add_argument("--group-by", choices=("auto", "court", "year", "source"), default="auto",
                        help="what the thresholds are cross-validated over (default auto: courts where the "
                             "corpus has 3 or more, else years, else sources)")
    parser.add_argument("--labels", choices=("given", "detector"), default="given",
                        help="the weak labels: a ruling's own 'spans' where it has them and the detector's "
                             "elsewhere (given, the default), or the detector's for all")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help=f"boosting rounds per booster (default {DEFAULT_ROUNDS})")
    parser.add_argument("--boosters", type=int, default=DEFAULT_BOOSTERS,
                        help=f"boosters fitted with seeds SEED, SEED+1, ..., their probabilities averaged "
                             f"(default {DEFAULT_BOOSTERS})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the surrogates and the first booster (default 0)")
    parser.add_argument("--draws", type=int, default=1,
                        help="draws of the surrogates (the same rulings with other names) to learn from (default 1)")
    parser.add_argument("--default-rule", default=DEFAULT_RULE, metavar="RULE",
                        help=f"the rule whose threshold score takes by default (default {DEFAULT_RULE}; "
                             "config.json's 'rules' lists them)")
    parser.add_argument("--recall-first-rule", default=RECALL_FIRST_RULE, metavar="RULE",
                        help=f"the rule whose threshold score --recall-first takes (default {RECALL_FIRST_RULE}: "
                             "every left-out group keeps recall 0.96)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def earlier_output(folder: Path) -> bool:
    """Whether ``folder`` holds only what this command writes (a model, its cache)."""
    return all(p.name in MODEL_FILES or (p.name.startswith("model-") and p.name.endswith(".txt"))
               for p in folder.iterdir())


def run(args: argparse.Namespace) -> int:
    import os
    import time

    from tqdm import tqdm

    from rulings_anon.analyzer import scorer_training as st
    from rulings_anon.analyzer import threshold_rules as tr
    from rulings_anon.errors import InputError
    from rulings_anon.jsonl import atomic_folder, check_replaceable
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .scorer_corpus import grouped, labelled_records

    started = time.perf_counter()
    for path in args.corpus:
        if not path.exists():
            raise InputError("no such corpus file or folder", path)
    check_outputs([output("--out", args.out, folder=True)], inputs("CORPUS", args.corpus))
    check_replaceable(args.out, earlier_output)
    for name, value in (("--rounds", args.rounds), ("--boosters", args.boosters), ("--draws", args.draws)):
        if value < 1:
            raise InputError(f"{name} must be at least 1, got {value}")
    for name, rule in (("--default-rule", args.default_rule), ("--recall-first-rule", args.recall_first_rule)):
        if rule not in tr.RULES:
            raise InputError(f"{name}: no rule {rule!r} (rules: {', '.join(tr.RULES)})")
    records = labelled_records(args.corpus, args.labels, args.holdout_court)
    grouped_by, groups = grouped(records, args.group_by, st.MIN_GROUPS)
    problem = st.size_problem(groups, grouped_by)
    if problem:
        raise InputError(problem, args.corpus[0] if len(args.corpus) == 1 else None)
    cache_folder = args.out / "cache"
    cache = st.FeatureCache(cache_folder)
    bar = tqdm(total=st.steps(len(groups)), unit="step", desc="train-scorer", file=sys.stderr,
               disable=args.no_progress or not sys.stderr.isatty())
    with bar:
        model, _ = st.train_scorer(groups, cache=cache, seed=args.seed, rounds=args.rounds, boosters=args.boosters,
                                   draws=args.draws, held_out=args.holdout_court, grouped_by=grouped_by,
                                   default_rule=args.default_rule, recall_first_rule=args.recall_first_rule,
                                   progress=bar)
    with atomic_folder(args.out, earlier_output) as staging:
        model.save(staging)
        if cache_folder.is_dir():
            os.replace(cache_folder, staging / "cache")
    config, seconds = model.config, time.perf_counter() - started
    lines = [f"train-scorer: {len(records)} rulings in {len(groups)} groups by {grouped_by} -> {args.out} "
             f"({seconds:.0f} s)"]
    for which, rule in (("default", args.default_rule), ("recall-first", args.recall_first_rule)):
        f = config["figures"][rule]
        lines.append(f"  {which} ({rule}): threshold {config['thresholds'][rule]:g}, groups left out: "
                     f"mean recall {f['recall']:.1f}, precision {f['precision']:.1f}")
    print("\n".join(lines), file=sys.stderr)
    return 0


COMMANDS = [Command("train-scorer", "fit the sensitivity model score runs, on a court's corpus", configure, run,
                    description=_DESCRIPTION)]
