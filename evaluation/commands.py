"""Subcommands of the evaluation stage: ``evaluate``, ``score``, ``build-testset`` and the NER's.

Only argument parsing lives here; TensorFlow and the models are imported when a command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rulings_anon.cli import Command

from .ner_commands import COMMANDS as NER_COMMANDS

# Keep in step with evaluation.scoring.DEFAULT_THRESHOLD and DEFAULT_COMBINATION (not imported:
# it would load numpy here).
DEFAULT_THRESHOLD = 0.3
DEFAULT_COMBINATION = "model"
COMBINATION_NAMES = ("model", "ner", "min", "mean")  # evaluation.decisions.COMBINATIONS

EVALUATE_DESCRIPTION = """\
Measure a model on a gold test set at element level (thesis 5.5.3): every document is split into
text elements; an element is positive when a gold span overlaps it.

methods:
  random  every positive element plus 2.5 % random elements are candidates, masked with the mask
          token (scheme M7); metrics over the candidates, plus the appendix A.2 estimate of the
          precision if every element were classified (Table 6.2)
  ner     the legal NER (--ner) and the recognizers propose references, which are masked; a
          reference is sensitive when the model says so, a standalone recognizer hit on its own;
          adds the detected recall (Table 6.3)
  none    every element classified unmasked (Table 6.4)
For ner and none the decision is exactly score's (consistency, recognizer hits), so the numbers
say what `score` with the same options does.

Prints recall, precision, accuracy, F1, recall per gold type and the share of references found
whole. --report adds the row to a Markdown report in the thesis's table layout; with
--validation DATA also Table 7.1 (validation vs. test).

examples:
  rulings-anon build-testset data/ler/bsg.jsonl.gz --out runs/bsg-gold.jsonl
  rulings-anon evaluate --model runs/demo/model --test runs/bsg-gold.jsonl --method none
  rulings-anon evaluate --model runs/demo/model --test runs/bsg-gold.jsonl --method ner \\
      --ner runs/ner --report runs/report.md
"""

SCORE_DESCRIPTION = """\
Find the sensitive spans of new, non-anonymized rulings. Without --ner every element is classified
by the contextual model and rule-based recognizer hits (IBAN, e-mail, phone, ...) are added; with
--ner the legal NER proposes references and the model judges their context. A name flagged once
is flagged everywhere in its document; neighbouring sensitive elements become one span.

Output: one line per document, {"id", "spans": [{"start", "end", "text", "score", "type"?,
"source"}]}, offsets into the input text. An interrupted run resumes when started again.
--anonymize writes the texts with court-style placeholders ("Herr K.", "die M-GmbH", "..."),
--pseudonymize with consistent realistic surrogates: a .jsonl target gets {"id", "text"} lines
(pseudonymized also "spans"), any other target is a folder of ID.txt files.

examples:
  rulings-anon score --model runs/demo/model ruling.txt --output spans.jsonl --show
  rulings-anon score --model runs/demo/model corpus/test.jsonl --ner runs/ner \\
      --output spans.jsonl --anonymize anonymized.jsonl
"""

TESTSET_DESCRIPTION = """\
Build a pseudonymized gold test set from LER-style rulings (the bundled data/ler/*.jsonl.gz):
each placeholder of the court is replaced by a realistic surrogate of its type that keeps its
initials and legal form, the same placeholder by the same surrogate within a document (the
terminal tool's generator, as `replace --auto` but with the gold placeholder spans). Writes the
gold format {"id", "court", "text", "spans": [{"start", "end", "type"}]}.

example:
  rulings-anon build-testset data/ler/bsg.jsonl.gz --out runs/bsg-gold.jsonl
"""


def _threshold(value: str) -> float:
    number = float(value)
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"threshold must be in 0..1, got {value}")
    return number


def _add_decision_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, metavar="MODEL",
                        help="model directory written by 'rulings-anon train' (not needed with --ner and "
                             "--combine ner)")
    parser.add_argument("--threshold", type=_threshold, default=DEFAULT_THRESHOLD, metavar="T",
                        help=f"least probability of a sensitive element (default {DEFAULT_THRESHOLD}, favours "
                             "recall; higher trades recall for precision)")
    parser.add_argument("--ner", type=Path, metavar="NER_MODEL",
                        help="legal NER model directory ('rulings-anon train-ner') proposing candidates")
    parser.add_argument("--combine", choices=COMBINATION_NAMES, default=DEFAULT_COMBINATION,
                        help="how a proposed reference is judged with --ner: 'model' (the contextual model's "
                             "probability), 'ner' (the NER's sensitivity probability, no model needed), 'min' "
                             f"(both), 'mean' (their mean); default {DEFAULT_COMBINATION}")
    parser.add_argument("--no-recognizers", action="store_true",
                        help="do not run the rule-based recognizers (IBAN, e-mail, phone, ...)")
    parser.add_argument("--no-consistency", action="store_true",
                        help="do not flag every mention of a name flagged once in the document")


def _configure_evaluate(parser: argparse.ArgumentParser) -> None:
    _add_decision_options(parser)
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


def _configure_score(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="documents: JSONL ({\"id\", \"text\"} per line), .txt, portal .xml/.zip, or a folder")
    _add_decision_options(parser)
    parser.add_argument("--output", required=True, type=Path, metavar="SPANS.jsonl", help="spans file to write")
    parser.add_argument("--show", action="store_true",
                        help="print each text with its spans highlighted (colours on a terminal, «» otherwise)")
    parser.add_argument("--anonymize", type=Path, metavar="OUT",
                        help="also write the texts with court-style placeholders (.jsonl file or folder)")
    parser.add_argument("--pseudonymize", type=Path, metavar="OUT",
                        help="also write the texts with realistic surrogates (.jsonl file or folder)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the surrogates (default 0)")
    parser.add_argument("--encoding", default=None, help="encoding of .txt input (default UTF-8)")


def _configure_testset(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", type=Path, metavar="LER.jsonl.gz",
                        help="LER-style rulings with placeholder 'spans' (e.g. data/ler/bsg.jsonl.gz)")
    parser.add_argument("--out", required=True, type=Path, metavar="GOLD.jsonl", help="gold test set to write")
    parser.add_argument("--seed", type=int, default=0, help="seed of the surrogates (default 0)")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N rulings")


def _settings(args):
    from .common_words import common_words
    from .decisions import Settings

    consistency = not args.no_consistency
    return Settings(args.threshold, consistency, common_words() if consistency else frozenset(), args.combine)


def _load(args, progress: bool = True, method: str | None = None):
    """The contextual model (None when the decision needs none) and, with --ner, the NER; both
    raise ModelError naming what is wrong, missing options an InputError."""
    from rulings_anon.errors import InputError, ModelError

    from .decisions import COMBINATIONS
    from .prediction import ElementModel

    method = method or ("ner" if args.ner is not None else "none")
    needs_model = method != "ner" or COMBINATIONS[args.combine].uses_model
    if args.combine == "ner" and args.ner is None:
        raise InputError("--combine ner needs --ner NER_MODEL")
    if needs_model and args.model is None:
        raise InputError(f"--model MODEL is needed here (method {method}, --combine {args.combine}); "
                         "only --ner with --combine ner works without one")
    model = ElementModel(args.model, progress=progress) if needs_model else None
    ner = None
    if args.ner is not None:
        from .ner import load_ner

        if not args.ner.is_dir():
            raise ModelError(f"{args.ner}: no such NER model directory")
        ner = load_ner(args.ner)
    return model, ner


def _run_evaluate(args) -> int:
    from rulings_anon.errors import InputError
    from rulings_anon.inputs import read_documents

    from .evaluate import evaluate
    from .output import format_result

    if args.method == "ner" and args.ner is None:
        raise InputError("--method ner needs --ner NER_MODEL (train one with 'rulings-anon train-ner')")
    documents = list(read_documents([args.test]))
    if not documents:
        raise InputError("the test set holds no documents", args.test)
    settings = _settings(args)
    model, ner = _load(args, method=args.method)
    result = evaluate(documents, model, args.method, settings, ner=ner, recognizers=not args.no_recognizers,
                      seed=args.seed)
    result["model"] = str(args.model)
    result["test"] = str(args.test)
    validation = None
    if args.validation is not None:
        from .validation import validation_metrics

        if model is None:
            raise InputError("--validation needs --model MODEL")
        validation = validation_metrics(model, args.validation, args.threshold)
        result["validation"] = validation
    if args.report is not None:
        from .report import result_row, update_report

        update_report(args.report, result_row(args.model, result, validation))
    print(json.dumps(result, ensure_ascii=False) if args.json else format_result(result))
    return 0


def _run_score(args) -> int:
    from rulings_anon.inputs import read_documents

    from .highlight import highlight
    from .scoring import Scorer, ScoreRun, score_documents

    settings = _settings(args)
    model, ner = _load(args)
    scorer = Scorer(model, settings, ner, recognizers=not args.no_recognizers)
    run = ScoreRun(args.output, args.anonymize, args.pseudonymize, args.seed)
    ansi = sys.stdout.isatty()

    def show(document, spans):
        print(f"== {document.id} ({len(spans)} spans)")
        print(highlight(document.text, spans, ansi))

    figures = score_documents(scorer, read_documents(args.inputs, args.encoding), run,
                              show if args.show else None, progress=True)
    resumed = f", {figures['resumed']} resumed" if figures["resumed"] else ""
    print(f"score: {figures['documents']} documents{resumed}, {figures['elements']:,} elements, "
          f"{figures['spans']:,} spans in {figures['seconds']:.1f} s "
          f"({figures['elements_per_second']:,.0f} elements/s) -> {args.output}", file=sys.stderr)
    return 0


def _run_testset(args) -> int:
    from rulings_anon.jsonl import write_jsonl

    from .testset import gold_records

    count = write_jsonl(args.out, gold_records(args.inputs, args.seed, args.limit))
    print(f"build-testset: {count} documents -> {args.out}", file=sys.stderr)
    return 0


COMMANDS = [
    Command("evaluate", "measure a model on a gold test set (methods random, ner, none)",
            _configure_evaluate, _run_evaluate, EVALUATE_DESCRIPTION),
    Command("score", "find the sensitive spans of non-anonymized rulings", _configure_score, _run_score,
            SCORE_DESCRIPTION),
    Command("build-testset", "pseudonymize LER rulings into a gold test set", _configure_testset, _run_testset,
            TESTSET_DESCRIPTION),
    *NER_COMMANDS,
]
