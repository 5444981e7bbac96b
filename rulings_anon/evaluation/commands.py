"""Subcommands of the evaluation stage: ``evaluate``, ``build-testset``, the NER's and ``train-scorer``.

Only argument parsing lives here; TensorFlow and the models are imported when a command runs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rulings_anon.cli import Command
from rulings_anon.defaults import (
    NAME_HALVES,
)
from rulings_anon.diagnostics import summary
from rulings_anon.scoring.commands import (
    add_decision_options,
    build_analyzer,
    recognizers_of,
    use_features,
)

from .ner_commands import COMMANDS as NER_COMMANDS

# Which names build-testset and the benchmarks draw for surrogates.
NAMES_HELP = ("names drawn for the surrogates: foreign (default: Austrian and Swiss names the German lists "
              "lack, which no model here trains on), eastern (Turkish, Polish, Romanian, Croatian, Czech, "
              "Hungarian, Slovak, Slovenian and Latvian names, diacritics kept, which no model trains on "
              "either), all (the German lists), world (those and names of Western and Northern Europe, what the "
              "scorer trains on), or the testing or training half of the German lists")

EVALUATE_DESCRIPTION = """\
Measure a model on a gold test set at element level (thesis 5.5.3): every document is split into
text elements; an element is positive when a gold span overlaps it.

methods:
  random  every positive element plus 2.5 % random elements are candidates, masked with the mask
          token (scheme M7); metrics over the candidates, plus the appendix A.2 estimate of the
          precision if every element were classified (Table 6.2)
  ner     the legal NER (--ner, default the bundled rulings_anon/data/ner) and the recognizers propose
          references; a reference is sensitive when its --combine score reaches the threshold
          ('ner': the NER's probability that courts anonymize it, no --model needed; 'model':
          the model's probability for its masked context, the thesis's method), a standalone
          recognizer hit on its own; adds the detected recall (Table 6.3)
  none    every element classified unmasked (Table 6.4)
For ner and none the decision is exactly score's (consistency, recognizer hits), so the numbers
say what `score` with the same options does.

Prints recall, precision, accuracy, F1, recall per gold type and the share of references found
whole. --report adds the row to a Markdown report in the thesis's table layout; with
--validation DATA also Table 7.1 (validation vs. test). --errors lists what the decision got
wrong, each missed or false run of elements with its context, to read where a model still leaks.

examples:
  rulings-anon build-testset rulings_anon/data/ler/bsg.jsonl.gz --out runs/bsg-gold.jsonl
  rulings-anon evaluate --model runs/demo/model --test runs/bsg-gold.jsonl --method none
  rulings-anon evaluate --test runs/bsg-gold.jsonl --method ner          # the bundled NER alone
  rulings-anon evaluate --model runs/demo/model --test runs/bsg-gold.jsonl --method ner \\
      --ner runs/ner --combine model --report runs/report.md
  rulings-anon evaluate --test published/gold.jsonl --method none --features --errors runs/errors.jsonl
"""

TESTSET_DESCRIPTION = """\
Build a pseudonymized gold test set from LER-style rulings (the bundled rulings_anon/data/ler/*.jsonl.gz):
each placeholder of the court is replaced by a realistic surrogate of its type that keeps its
initials (X and Y, the courts' letters for a party named by no initial, become any name) and legal
form, the same placeholder by the same surrogate within a document (the
terminal tool's generator, as `replace --auto` but with the gold placeholder spans). Writes the
gold format {"id", "court", "text", "spans": [{"start", "end", "type"}]}.

example:
  rulings-anon build-testset rulings_anon/data/ler/bsg.jsonl.gz --out runs/bsg-gold.jsonl
"""


def _configure_evaluate(parser: argparse.ArgumentParser) -> None:
    add_decision_options(parser)
    parser.add_argument("--test", required=True, type=Path, metavar="GOLD.jsonl",
                        help='gold test set: {"id", "text", "spans": [{"start", "end", "type"}]} per line')
    parser.add_argument("--method", required=True, choices=("random", "ner", "none"),
                        help="evaluation method (thesis 5.5.3), see above")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument("--report", type=Path, metavar="FILE.md",
                        help="add the results to this Markdown report (rows kept in FILE.json)")
    parser.add_argument("--validation", type=Path, metavar="DATA",
                        help="preprocessed data directory whose validation TFRecords give Table 7.1's columns")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random candidates (default 0)")
    parser.add_argument("--encoding", default=None, help="encoding of .txt input (default UTF-8)")
    parser.add_argument("--curve", type=Path, metavar="FILE.json",
                        help="also write precision and recall at the thresholds 0.05, 0.10, ... 0.95 to FILE.json, "
                             "from the same model and proposer pass (the pipeline report draws these files)")
    parser.add_argument("--errors", type=Path, metavar="FILE.jsonl",
                        help="also write each missed and each false element run to FILE.jsonl, one per line: "
                             '{"id", "kind": "missed"|"false", "start", "end", "text", "type", "probability", '
                             '"context"} (readable by you alone: it holds the test set\'s names)')


def _configure_testset(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", type=Path, metavar="LER.jsonl.gz",
                        help="LER-style rulings with placeholder 'spans' (e.g. rulings_anon/data/ler/bsg.jsonl.gz)")
    parser.add_argument("--out", required=True, type=Path, metavar="GOLD.jsonl", help="gold test set to write")
    parser.add_argument("--seed", type=int, default=0, help="seed of the surrogates (default 0)")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N rulings")
    parser.add_argument("--names", choices=NAME_HALVES, default="foreign", help=NAMES_HELP)
    parser.add_argument("--checked", type=Path, metavar="LABELS.jsonl",
                        help="hand-checked element labels that correct the placeholder spans first "
                             "(e.g. rulings_anon/data/checked/bsg.jsonl)")


def _run_evaluate(args) -> int:
    from rulings_anon.errors import InputError
    from rulings_anon.inputs import read_input_documents
    from rulings_anon.jsonl import check_writable, write_jsonl

    from .evaluate import evaluate
    from .output import format_result

    recognizers = recognizers_of(args)
    if args.report is not None:
        check_writable(args.report, "--report")
    if args.curve is not None:
        check_writable(args.curve, "--curve")
    if args.errors is not None:
        check_writable(args.errors, "--errors")
    _check_evaluate_paths(args)
    documents = list(read_input_documents([args.test], args.encoding or "utf-8"))
    without_gold = [d.id for d in documents if not d.gold]
    if without_gold:
        raise InputError(f"{len(without_gold)} of {len(documents)} documents have no gold 'spans' (first "
                         f"{without_gold[0]!r}); evaluate needs a gold test set of {{\"id\", \"text\", \"spans\"}} "
                         "lines, e.g. from build-testset or replace", args.test)
    use_features(args)
    scorer = build_analyzer(args, args.method).scorer([d.text for d in documents])
    settings, model, ner = scorer.settings, scorer.model, scorer.ner
    from .curve import DEFAULT_THRESHOLDS, write_curve

    result = evaluate(documents, model, args.method, settings, ner=ner, recognizers=recognizers,
                      seed=args.seed, curve_thresholds=DEFAULT_THRESHOLDS if args.curve else None,
                      with_errors=args.errors is not None)
    if args.curve is not None:
        write_curve(args.curve, args.method, settings.combination, result.pop("curve"))
    if args.errors is not None:
        write_jsonl(args.errors, result.pop("errors"), private=True)
    result["model"] = str(args.model)
    result["test"] = str(args.test)
    validation = None
    if args.validation is not None:
        from .validation import validation_metrics

        if model is None:
            raise InputError("--validation needs --model MODEL")
        validation = validation_metrics(model, args.validation, settings.threshold)
        result["validation"] = validation
    if args.report is not None:
        from .report import result_row, update_report

        update_report(args.report, result_row(args.model, result, validation))
    print(json.dumps(result, ensure_ascii=False) if args.json else format_result(result))
    return 0


def _check_evaluate_paths(args) -> None:
    """Refuse a report, its rows file (FILE.json beside FILE.md), a curve or an errors file that is
    an input or another of these outputs."""
    from rulings_anon.output_paths import check_outputs, inputs, output

    rows = args.report.with_suffix(".json") if args.report is not None else None
    check_outputs([output("--report", args.report), output("--report's rows file", rows),
                   output("--curve", args.curve), output("--errors", args.errors)],
                  inputs("--test", args.test) + inputs("--model", args.model) + inputs("--ner", args.ner)
                  + inputs("--validation", args.validation))


def _run_testset(args) -> int:
    from rulings_anon.jsonl import write_jsonl
    from rulings_anon.output_paths import check_outputs, inputs, output
    from rulings_anon.preprocessing.detector_validation import read_checked_labels

    from .testset import gold_records

    check_outputs([output("--out", args.out)], inputs("LER.jsonl.gz", args.inputs) + inputs("--checked", args.checked))
    checked = read_checked_labels(args.checked) if args.checked else None
    count = write_jsonl(args.out, gold_records(args.inputs, args.seed, args.limit, checked, args.names))
    summary(f"build-testset: {count} documents -> {args.out}", documents=count, output=str(args.out))
    return 0


COMMANDS = [
    Command("evaluate", "measure a model on a gold test set (methods random, ner, none)",
            _configure_evaluate, _run_evaluate, EVALUATE_DESCRIPTION),
    Command("build-testset", "pseudonymize LER rulings into a gold test set", _configure_testset, _run_testset,
            TESTSET_DESCRIPTION),
    *NER_COMMANDS,
]

from .scorer_commands import COMMANDS as SCORER_COMMANDS  # noqa: E402

COMMANDS += SCORER_COMMANDS
