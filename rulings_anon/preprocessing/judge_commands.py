"""``rulings-anon train-placeholder-judge``: fit the learned judge of the placeholder detector.

Only argument parsing and the run's outline live here; the examples are
:func:`rulings_anon.preprocessing.placeholder_training.corpus_examples`, the fit
:func:`rulings_anon.placeholders.judge_training.fit_judge`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulings_anon.cli import Command

# Fewer rulings than this give a judge of a few letters' habits, not a court's.
MIN_RULINGS = 10

_DESCRIPTION = """\
Fit the learned judge of the placeholder detector (detect-placeholders --judge learned): a
logistic regression over the rules' judgements of each candidate element and its neighbours, on
rulings with gold placeholder labels: their 'spans' (the bundled LER rulings, build-testset's
records), corrected by hand-checked element labels (--checked, the decisions format of the
terminal tool). Rulings are grouped by court; each court weighs alike, and what is peculiar to one
court is fitted apart and left out of the weights. Rulings without 'spans' are skipped. About
0.3 s per ruling on 2 cores, then a minute for the fit. The bundled
rulings_anon/data/placeholder_model.json is the second example's output.

examples:
  rulings-anon train-placeholder-judge gold.jsonl --out runs/judge.json
  rulings-anon train-placeholder-judge rulings_anon/data/ler/*.jsonl.gz --checked rulings_anon/data/checked/*.jsonl --out runs/judge.json
  rulings-anon detect-placeholders rulings.jsonl --judge learned --judge-model runs/judge.json --output spans.jsonl
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", nargs="+", type=Path, metavar="CORPUS",
                        help="rulings with gold placeholder 'spans': .jsonl(.gz) files, a corpus folder, "
                             "split's .tar.gz")
    parser.add_argument("--out", required=True, type=Path, metavar="MODEL.json",
                        help="the judge's weights to write")
    parser.add_argument("--checked", nargs="+", type=Path, default=[], metavar="LABELS.jsonl",
                        help="hand-checked element labels that override the gold of the elements they name, "
                             "e.g. rulings_anon/data/checked/*.jsonl")
    parser.add_argument("--holdout-court", metavar="COURT",
                        help="leave this court's rulings out (a test court)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from rulings_anon.diagnostics import summary
    from rulings_anon.errors import InputError
    from rulings_anon.fetcher.collect import court_matches
    from rulings_anon.inputs import read_input_documents
    from rulings_anon.output_paths import check_outputs, inputs, output
    from rulings_anon.placeholders.judge_training import SETTINGS, fit_judge

    from .detector_validation import read_checked_labels
    from .placeholder_training import corpus_examples

    for path in [*args.corpus, *args.checked]:
        if not path.exists():
            raise InputError("no such file or folder", path)
    check_outputs([output("--out", args.out)],
                  inputs("CORPUS", args.corpus) + inputs("--checked", args.checked))
    checked = {}
    for path in args.checked:
        checked.update(read_checked_labels(path))
    documents = [d for d in read_input_documents(args.corpus)
                 if not (args.holdout_court and court_matches(d.meta.get("court"), args.holdout_court))]
    gold = [d for d in documents if d.gold]
    where = args.corpus[0] if len(args.corpus) == 1 else None
    if not gold:
        raise InputError(f"none of the {len(documents)} rulings has gold placeholder 'spans' to learn from "
                         "(LER-style records, build-testset's test sets)", where)
    if len(gold) < MIN_RULINGS:
        raise InputError(f"{len(gold)} rulings with gold placeholder 'spans' are too few to fit the judge "
                         f"(at least {MIN_RULINGS})", where)
    if checked and not {doc_id for doc_id, _, _ in checked} & {d.id for d in gold}:
        print(f"warning: none of the {len(checked)} checked labels names a ruling of the corpus; "
              "the gold is the rulings' spans alone", file=sys.stderr)
    bar = tqdm(total=len(gold) + SETTINGS["iterations"], unit="step", desc="train-placeholder-judge",
               file=sys.stderr, disable=args.no_progress or not sys.stderr.isatty())
    with bar:
        examples = corpus_examples(gold, checked, progress=lambda _: bar.update())
        positives = sum(label for rows in examples.by_document.values() for _, label in rows)
        if not positives:
            raise InputError(f"the {len(gold)} rulings hold no placeholder among their candidate elements",
                             where)
        model = fit_judge(examples, examples.groups(), progress=lambda _: bar.update())
    model.save(args.out)
    meta = model.meta
    summary(f"train-placeholder-judge: {meta['documents']} rulings of {len(meta['trained_on'])} courts, "
            f"{meta['examples']} candidate elements ({meta['positives']} placeholders), "
            f"{len(model.weights)} weights -> {args.out}",
            rulings=meta["documents"], courts=meta["trained_on"], examples=meta["examples"],
            positives=meta["positives"], weights=len(model.weights), output=str(args.out))
    return 0


COMMANDS = [Command("train-placeholder-judge",
                    "fit the placeholder detector's learned judge on gold-labelled rulings",
                    configure, run, description=_DESCRIPTION)]
