"""The ``review`` command: court staff check the engine's suggestions in the browser."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulings_anon.cli import Command, threshold_argument

from .stored_policy import REVIEW_OPERATORS

REVIEW_DESCRIPTION = """\
Review before publication: a local web application (on 127.0.0.1) where a reviewer accepts or
rejects the spans `score` suggests, marks the ones it missed by selecting them, changes a span's
type or extent, previews the anonymized ruling and exports it. The suggestions are the engine's
spans of the whole batch, exactly those of `score` with the same --threshold / --recall-first /
--policy (the court's policy: the details counted alone, the exemptions, the allow and deny lists).
Every decision is saved at once in an SQLite file (--db; a killed server loses none, a second
run resumes) with its time and reviewer; two reviewers may share one file, and a decision on a
span the other changed meanwhile is refused with a message to reload.

Keys on a ruling's page: j/k next/previous span, a/r accept/reject, A/R every mention of the same
text, n mark the selected text, e set the span's extent to the selection, u undo, d done.

Export (the page's Export, or --export): anonymized.jsonl (spans not rejected replaced in the
chosen output: policy, each type as the policy's [operators] say, as `score --anonymize --policy`
writes it; or placeholder, pseudonym or tag for every span), decisions.jsonl (the audit trail)
and gold.jsonl (the rulings marked done, in the gold format `rulings-anon evaluate --test` reads),
and documents/ with each ruling of a .docx/.odt file anonymized in its format (.pdf/.rtf as
.docx); such a file changed since the review started is refused.

The review file keeps the policy it was started with (its contents, not only its name): a resumed
review and its export follow that one without --policy; --policy with other contents is refused.

examples:
  rulings-anon review new-rulings/ --reviewer "M. Huber"
  rulings-anon review new-rulings/ --recall-first --port 8800
  rulings-anon review new-rulings/ --policy gericht.toml
  rulings-anon review new-rulings.review.sqlite --export published/ --operator pseudonym
"""


def _port(value: str) -> int:
    number = int(value)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is in 0..65535, not {value}")
    return number


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("batch", type=Path, metavar="BATCH",
                        help="a folder or file of rulings (every format score reads), or a saved review (.sqlite)")
    parser.add_argument("--db", type=Path, metavar="FILE",
                        help="the review's state (default BATCH.review.sqlite beside the batch, or in --state); "
                             "an existing one is resumed")
    parser.add_argument("--state", type=Path, metavar="DIR", help="folder for the review file when --db is not given")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only); another one needs --token")
    parser.add_argument("--port", type=_port, default=8765, help="port (default 8765; 0 picks a free one)")
    parser.add_argument("--token", default=None,
                        help="secret every request must carry (in the printed address); required with --host")
    parser.add_argument("--reviewer", default=None, help="name recorded with each decision (default: the login name)")
    parser.add_argument("--threshold", type=threshold_argument, default=None, metavar="T",
                        help="least score of a suggestion (default: the sensitivity model's stored threshold)")
    parser.add_argument("--recall-first", action="store_true",
                        help="the recall-first threshold: more suggestions, fewer missed names")
    parser.add_argument("--export", type=Path, metavar="DIR",
                        help="write the export into DIR and exit instead of serving")
    parser.add_argument("--policy", type=Path, metavar="FILE",
                        help="the court's policy (.toml or .json, or a shipped one by name, as for score): the details that count on their "
                             "own, the exemptions, names never and always anonymized, and the operator of each "
                             "type for the export's policy output (default rulings_anon/data/policies/default.toml); "
                             "a resumed review keeps the one it was started with")
    parser.add_argument("--operator", choices=REVIEW_OPERATORS, default=None,
                        help="output of the export: policy (each type as the policy says), or court-style "
                             "placeholders, pseudonyms or category tags for every span (default: the one last "
                             "chosen in the review, else policy with --policy, else placeholder)")


def _run(args: argparse.Namespace) -> int:
    from .launch import run_review

    return run_review(args)


COMMANDS = [Command("review", "check score's suggestions in the browser before publication", _configure, _run,
                    REVIEW_DESCRIPTION)]
