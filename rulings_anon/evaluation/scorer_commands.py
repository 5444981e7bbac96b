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
DEFAULT_RULE, RECALL_FIRST_RULE = "precision70", "lowest96"  # threshold_rules' defaults
DEFAULT_GOLD_WEIGHT = 5.0  # scorer_training.GOLD_WEIGHT
# what a model folder of this command holds besides its booster files (model-N.txt)
MODEL_FILES = {"config.json", "model.txt", "tables.json.gz", "background.json.gz", "cache"}

_DESCRIPTION = """\
Fit the sensitivity model that `score --model MODEL` runs, on anonymized rulings: what `fetch`
or `split` writes, or LER-style .jsonl(.gz) files such as the bundled rulings_anon/data/ler/*.jsonl.gz. The
placeholders courts left are the weak labels (a ruling's own 'spans' where it has them, else the
placeholder detector's), each replaced by a surrogate of the German name lists or of the names of
Western and Northern Europe (evaluations draw Austrian and Swiss or Turkish and Eastern European
ones, which no fit sees). The thresholds are chosen by grouped cross-validation: each court
(else each year, else each source) is left out of a fit on the others, and the rules choose
from their figures; MODEL/config.json records every rule's threshold, the rules score and
score --recall-first take, and the figures that chose them. Needs at least 3 groups with 2
rulings with placeholders each. Each group's features are kept in MODEL/cache: a rerun skips
the groups whose rulings and code are unchanged. About 0.2 s per ruling for the features and
half a minute per fit on 2 cores.

examples:
  rulings-anon train-scorer corpus --out runs/scorer
  rulings-anon train-scorer rulings_anon/data/ler/*.jsonl.gz --holdout-court bsg --out runs/scorer
  rulings-anon train-scorer corpus --gold review-export/gold.jsonl --out runs/scorer-reviewed
  rulings-anon score --model runs/scorer ruling.txt --output spans.jsonl
  rulings-anon train-scorer corpus --context-model runs/model --context-folds runs/folds --out runs/scorer-context

--gold adds reviewed rulings (review's gold.jsonl, build-testset's or replace's test sets) to the
weak labels: their spans are exact, learnt as they are, each row weighted --gold-weight. They
take no part in the thresholds (the rules compare whole groups the model never saw);
config.json records each gold file's SHA-256 and counts.
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
    parser.add_argument("--gold", nargs="+", type=Path, default=[], metavar="FILE",
                        help="reviewed rulings {id, text, spans} learnt beside the weak labels: review's "
                             "gold.jsonl, build-testset's or replace's test sets")
    parser.add_argument("--gold-weight", type=float, default=DEFAULT_GOLD_WEIGHT, metavar="W",
                        help=f"how many times a reviewed ruling's words count against the weak labels' "
                             f"(default {DEFAULT_GOLD_WEIGHT:g})")
    parser.add_argument("--context-model", type=Path, metavar="DIR",
                        help="a contextual model of `rulings-anon train` whose probability of each word is a "
                             "column of the scorer; score --model loads it too (needs the extra train and "
                             "--context-folds)")
    parser.add_argument("--context-folds", type=Path, metavar="FOLDER",
                        help="FOLDER/GROUP: per group of the corpus a contextual model trained without its "
                             "rulings, which gives that group's training rows their column (cross-fitted)")
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
    from rulings_anon.analyzer import sensitivity_model as sm
    from rulings_anon.analyzer import threshold_rules as tr
    from rulings_anon.errors import InputError
    from rulings_anon.jsonl import atomic_folder, check_replaceable
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .scorer_corpus import grouped, labelled_records
    from .scorer_gold import read_gold

    started = time.perf_counter()
    for path in args.corpus:
        if not path.exists():
            raise InputError("no such corpus file or folder", path)
    for path in args.gold:
        if not path.exists():
            raise InputError("no such gold file", path)
    check_outputs([output("--out", args.out, folder=True)], inputs("CORPUS", args.corpus) + inputs("--gold", args.gold))
    check_replaceable(args.out, earlier_output)
    for name, value in (("--rounds", args.rounds), ("--boosters", args.boosters), ("--draws", args.draws)):
        if value < 1:
            raise InputError(f"{name} must be at least 1, got {value}")
    if not args.gold_weight > 0:
        raise InputError(f"--gold-weight must be above 0, got {args.gold_weight:g}")
    for name, rule in (("--default-rule", args.default_rule), ("--recall-first-rule", args.recall_first_rule)):
        if rule not in tr.RULES:
            raise InputError(f"{name}: no rule {rule!r} (rules: {', '.join(tr.RULES)})")
    gold, gold_info = read_gold(args.gold) if args.gold else ([], None)
    records = labelled_records(args.corpus, args.labels, args.holdout_court)
    grouped_by, groups = grouped(records, args.group_by, st.MIN_GROUPS)
    problem = st.size_problem(groups, grouped_by)
    if problem:
        raise InputError(problem, args.corpus[0] if len(args.corpus) == 1 else None)
    context = _context(args, groups)
    cache_folder = args.out / "cache"
    cache = st.FeatureCache(cache_folder)
    bar = tqdm(total=st.steps(len(groups), bool(gold)), unit="step", desc="train-scorer", file=sys.stderr,
               disable=args.no_progress or not sys.stderr.isatty())
    with bar:
        model, _ = st.train_scorer(groups, cache=cache, seed=args.seed, rounds=args.rounds, boosters=args.boosters,
                                   draws=args.draws, held_out=args.holdout_court, grouped_by=grouped_by,
                                   default_rule=args.default_rule, recall_first_rule=args.recall_first_rule,
                                   gold=gold, gold_weight=args.gold_weight, context=context, progress=bar)
    if gold_info is not None:
        model.config["gold"] = st.gold_config(gold_info, args.gold_weight)
    if context is not None:
        from .scorer_context import context_config

        model.config.update(context_config(args.context_model, args.context_folds))
    with atomic_folder(args.out, earlier_output) as staging:
        model.save(staging)
        if cache_folder.is_dir():
            os.replace(cache_folder, staging / "cache")
    config, seconds = model.config, time.perf_counter() - started
    lines = [f"train-scorer: {len(records)} rulings in {len(groups)} groups by {grouped_by} -> {args.out} "
             f"({seconds:.0f} s)"]
    if gold_info is not None:
        lines.append(f"  reviewed: {gold_info['rulings']} rulings, {gold_info['spans']} spans, "
                     f"weight {args.gold_weight:g}")
    for which, first in (("default", False), ("recall-first", True)):
        rule = args.recall_first_rule if first else args.default_rule
        f = (config.get("recall_first_figures") if first else None) or config["figures"]
        lines.append(f"  {which} ({rule}): threshold {sm.threshold_of(config, first):g}, groups left out: "
                     f"mean recall {f[rule]['recall']:.1f}, precision {f[rule]['precision']:.1f}")
    print("\n".join(lines), file=sys.stderr)
    return 0


def _context(args: argparse.Namespace, groups: dict):
    """The groups' contextual probabilities (scorer_context), None without --context-model."""
    from rulings_anon.errors import InputError

    if args.context_model is None and args.context_folds is None:
        return None
    if args.context_model is None or args.context_folds is None:
        raise InputError("--context-model and --context-folds go together: the model score runs, and per group "
                         "one trained without it for the training rows")
    from .scorer_context import check_context_model, fold_models, fold_probabilities

    check_context_model(args.context_model)
    return fold_probabilities(fold_models(args.context_folds, sorted(groups)))


COMMANDS = [Command("train-scorer", "fit the sensitivity model score runs, on a court's corpus", configure, run,
                    description=_DESCRIPTION)]
