"""Subcommands of the preprocessing stage (argument parsing only; work happens in ``run``)."""

from __future__ import annotations

import argparse
import sys

from rulings_anon.cli import Command
from rulings_anon.defaults import HELD_OUT_COURT
from rulings_anon.diagnostics import summary
from rulings_anon.runners import add_runner_option, beam_requested

from .judge_commands import COMMANDS as JUDGE_COMMANDS
from .preprocess_commands import COMMANDS as PREPROCESS_COMMANDS


def _configure_detect(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="documents JSONL ({id, text}), .txt files, portal .xml/.zip files or a corpus directory")
    p.add_argument("--output", "-o", required=True, metavar="SPANS.jsonl",
                   help="where to write one {id, spans:[{start,end,text,kind}]} line per document ('-' for stdout)")
    p.add_argument("--encoding", help="encoding of .txt inputs (default UTF-8), e.g. latin-1")
    p.add_argument("--patterns", help="a placeholder patterns JSON to use instead of rulings_anon/data/placeholder_patterns.json")
    _add_judge(p)
    add_runner_option(p)


def _add_judge(p: argparse.ArgumentParser) -> None:
    p.add_argument("--judge", choices=("rules", "learned"), default="rules",
                   help="who decides each candidate: the rules alone (default; the better one leaving one "
                        "court out, benchmarks/bench_placeholders_loco.py) or the learned judge over the "
                        "rules' judgements (rulings_anon/data/placeholder_model.json)")
    p.add_argument("--judge-model", metavar="MODEL.json", help="the learned judge's weights (default: the shipped ones)")


def _detector(args):
    """The detector that ``--patterns``, ``--judge`` and ``--judge-model`` ask for."""
    from .detection import load_detector

    return load_detector(args)


def _run_detect(args) -> int:
    from rulings_anon.output_paths import check_outputs, inputs, output

    check_outputs([output("--output", args.output)],
                  inputs("INPUT", args.inputs) + inputs("--patterns", args.patterns)
                  + inputs("--judge-model", args.judge_model))
    if beam_requested(args):
        from .beam_pipelines import detect_placeholders

        return detect_placeholders(args)
    import json

    from rulings_anon.inputs import read_input_documents
    from rulings_anon.jsonl import atomic_writer, check_writable

    from .detection import detect_record

    detector = _detector(args)
    documents = spans = 0

    def records():
        nonlocal documents, spans
        for document in read_input_documents(args.inputs, args.encoding or "utf-8"):
            record = detect_record(detector, document)
            documents += 1
            spans += len(record["spans"])
            yield record

    if args.output != "-":
        check_writable(args.output, "--output")
    if args.output == "-":
        for record in records():
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        with atomic_writer(args.output, private=True) as handle:
            for record in records():
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    summary(f"{documents} documents, {spans} placeholders -> {args.output}", documents=documents, placeholders=spans,
            output=str(args.output))
    return 0


def _configure_validate(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="*", metavar="GOLD",
                   help="documents with gold 'spans' (default: the bundled LER corpus of --courts)")
    p.add_argument("--courts", default=HELD_OUT_COURT,
                   help=f"bundled LER courts to validate on when no GOLD is given (default: {HELD_OUT_COURT}, "
                        "the held-out court)")
    p.add_argument("--decisions", metavar="DECISIONS.jsonl",
                   help="a decisions file of the terminal tool; validates against the user's decisions "
                        "for the single document given as GOLD")
    p.add_argument("--checked", metavar="LABELS.jsonl",
                   help="hand-checked element labels (decisions format) that override the gold of the "
                        "elements they name, e.g. rulings_anon/data/checked/bsg.jsonl")
    p.add_argument("--json", action="store_true", help="print the metrics as one JSON object")
    p.add_argument("--show-errors", type=int, default=0, metavar="N", help="list the first N disagreements")
    _add_judge(p)


def _run_validate(args) -> int:
    import json

    from rulings_anon import data
    from rulings_anon.errors import InputError
    from rulings_anon.escapes import printable
    from rulings_anon.inputs import read_documents
    from rulings_anon.jsonl import read_jsonl
    from rulings_anon.preprocessing.detector_validation import (
        detection_metrics,
        format_table,
        read_checked_labels,
        validate_decisions,
        validate_documents,
    )

    paths = args.inputs or data.ler_corpus_files(args.courts.split(","))
    if not paths:
        raise InputError(f"no bundled corpus for courts {args.courts!r}")
    documents = list(read_documents(paths))
    if args.decisions:
        if len(documents) != 1:
            raise InputError("--decisions needs exactly one GOLD document", args.decisions)
        confusion, errors = validate_decisions(documents[0], list(read_jsonl(args.decisions)), _detector(args)), []
    else:
        checked = read_checked_labels(args.checked) if args.checked else None
        if checked and not {doc_id for doc_id, _, _ in checked} & {d.id for d in documents}:
            print(f"warning: {args.checked}: none of its {len(checked)} labels names a validated document; "
                  f"the figures are against the plain gold", file=sys.stderr)
        confusion, errors = validate_documents(documents, _detector(args), keep_errors=args.show_errors,
                                               checked=checked)
    metrics = detection_metrics(confusion)
    if args.json:
        print(json.dumps(metrics))
    else:
        print(format_table(metrics))
    texts = {d.id: d.text for d in documents}
    for doc_id, start, end, kind in errors:
        text = texts[doc_id]
        context = printable(text[max(0, start - 40):end + 40].replace("\n", " "), one_line=True)
        print(f"{kind} {printable(doc_id, one_line=True)}:{start}-{end} {text[start:end]!r}  …{context}…")
    return 0


def _configure_build_ler(p: argparse.ArgumentParser) -> None:
    p.add_argument("conll", nargs="+", help="per-court LER CoNLL files (e.g. german-ler/per_court/*.conll)")
    p.add_argument("--out", required=True, help="output folder; writes <court>.jsonl.gz per input file")
    p.add_argument("--tokens-per-document", type=int, default=3000,
                   help="cut documents at the first paragraph start after this many tokens (default 3000)")


def _run_build_ler(args) -> int:
    from pathlib import Path

    from tqdm import tqdm

    from rulings_anon.jsonl import write_jsonl
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .ler import build_documents, read_conll

    check_outputs([output("--out", args.out, folder=True)], inputs("CONLL", args.conll))
    for file in tqdm(args.conll, desc="courts", unit="court"):
        court = Path(file).stem.lower()
        documents = build_documents(read_conll(file), court, args.tokens_per_document)
        count = write_jsonl(Path(args.out) / f"{court}.jsonl.gz", documents)
        print(f"{court}: {count} documents", file=sys.stderr)
    return 0


COMMANDS = [
    Command("detect-placeholders", "find anonymization placeholders (weak labels) in documents",
            _configure_detect, _run_detect,
            description="Find the placeholders courts left in anonymized rulings (thesis 5.3.2):\n"
                        "obvious ones by form, potential ones unless the context rejects them.\n"
                        "The output is readable only by you (mode 0600): it quotes the rulings.\n\n"
                        "example: rulings-anon detect-placeholders rulings.jsonl --output spans.jsonl"),
    Command("validate-placeholders", "compare detected placeholders with gold labels (Table 6.1)",
            _configure_validate, _run_validate,
            description="Element-level accuracy, precision, recall, specificity and F1 of the detector\n"
                        "against gold spans or a terminal-tool decisions file.\n\n"
                        "example: rulings-anon validate-placeholders --courts bsg"),
    Command("build-ler-corpus", "turn LER CoNLL files into the bundled corpus with gold spans",
            _configure_build_ler, _run_build_ler),
]

COMMANDS += JUDGE_COMMANDS + PREPROCESS_COMMANDS
