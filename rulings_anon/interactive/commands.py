"""Subcommands of the interactive stage: ``replace`` (only argparse here; the work is in run)."""

from __future__ import annotations

import argparse

from rulings_anon.cli import Command
from rulings_anon.defaults import NAME_HALVES

REPLACE_DESCRIPTION = """\
Replace the placeholders of anonymized rulings by realistic values, producing pseudonymized
test documents with gold labels (thesis 5.5.1-5.5.2).

The tool walks through the text elements in order, skips plain words and asks about every other
element: placeholder or not (Enter accepts the detector's suggestion), its type, and its
replacement (accept, draw another, or type one). The same placeholder gets the same replacement
everywhere in the document. Every decision is saved at once: Ctrl-C or a closed terminal loses
nothing, and running the same command again resumes. Keys: ? help, u undo, q stop.

Outputs in DIR: decisions.jsonl (per element: placeholder yes/no and type), pseudonymized.jsonl
(gold format {"id", "text", "spans": [{"start", "end", "type"}]}), replacements.jsonl, and
corrections.jsonl (split words and brackets, offered after the last placeholder).

examples:
  rulings-anon replace ruling.xml --out review/
  rulings-anon replace corpus/test.jsonl --out testset/ --auto
"""


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="INPUT",
                        help="anonymized rulings: documents JSONL (.jsonl/.jsonl.gz), a .txt file, a portal "
                             ".xml/.zip file or a folder of them")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="output folder; an earlier run's folder is resumed")
    parser.add_argument("--auto", action="store_true",
                        help="no questions: accept the detector's placeholders, infer their types from the "
                             "context and only report corrections")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the replacement values (same seed, same values; default 0)")
    parser.add_argument("--names", choices=NAME_HALVES, default="all",
                        help="names the replacement values are drawn from: all (the German name lists, default); "
                             "world (those and names of Western and Northern Europe, what the scorer trains on); "
                             "foreign (Austrian and Swiss names) or eastern (Turkish and Eastern European names), "
                             "for test sets of models trained on the others; testing or training (disjoint "
                             "halves of the German lists)")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N documents")
    parser.add_argument("--encoding", default=None, help="encoding of .txt input (default UTF-8)")


def _run(args: argparse.Namespace) -> int:
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .replace import replace

    check_outputs([output("--out", args.out, folder=True)], inputs("INPUT", args.input))
    return replace(args)


COMMANDS = [
    Command("replace", "replace placeholders by realistic values, interactively or --auto",
            _configure, _run, REPLACE_DESCRIPTION),
]
