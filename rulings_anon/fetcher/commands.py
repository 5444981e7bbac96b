"""The fetcher's subcommands: ``fetch`` and ``split`` (argument parsing only; work in ``run``)."""

from __future__ import annotations

import argparse
import re
from datetime import date

from rulings_anon.cli import Command
from rulings_anon.diagnostics import summary

SOURCES = ("bayern", "rii", "files")

FETCH_DESCRIPTION = """\
Collect published, anonymized court rulings into a corpus directory.

  --source bayern  gesetze-bayern.de: search session, result pages, one ZIP per ruling
  --source rii     rechtsprechung-im-internet.de: table of contents, one ZIP per ruling
  --source files   rulings you already have: portal .xml/.zip, gesetze-bayern.de .html
                   pages, .txt files, documents .jsonl, split .tar.gz archives

The corpus is CORPUS/rulings.jsonl (one ruling per line) and CORPUS/metadata.jsonl (one line
per fetched ruling, keyed by id). Rulings in which the placeholder detector finds no
anonymization placeholder are dropped (only their metadata is kept) unless
--keep-unanonymized. Run the same command again to resume: stored rulings are skipped. With --source files every
ruling's id must be unique across the files given (a .txt file's id is its name without
.txt): two different rulings of the same id are an error naming both files. A file whose text
changed since it was stored replaces the stored ruling (the summary counts it as updated).

examples:
  rulings-anon fetch --source bayern --court "LG München I" --from 2018-01-01 --limit 1500 --out corpus
  rulings-anon fetch --source rii --court BGH --from 2020-01-01 --to 2020-12-31 --out corpus
  rulings-anon fetch --source files downloads/*.zip pages/*.html --out corpus
"""

SPLIT_DESCRIPTION = """\
Split a corpus into train.tar.gz and test.tar.gz (raw texts plus metadata.jsonl) and write
split.json with the ids of each side. The split is random with --seed (thesis 5.2: 13 % test),
or, with --holdout-court, the test side is every ruling of one court. The --out folder is written
whole (all three files or none, even on a full disk): it must be new, empty or an earlier split.

examples:
  rulings-anon split corpus --out runs/split --test-share 0.13 --seed 0
  rulings-anon split rulings_anon/data/ler/*.jsonl.gz --out runs/split-bsg --holdout-court bsg
"""


def iso_date_argument(text: str) -> str:
    """argparse type: YYYY-MM-DD or DD.MM.YYYY, returned as YYYY-MM-DD."""
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", text.strip())
    iso = f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}" if m else text.strip()
    try:
        return date.fromisoformat(iso).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (use YYYY-MM-DD or DD.MM.YYYY)") from None


def _positive(kind):
    def parse(text: str):
        value = kind(text)
        if value < 0:
            raise argparse.ArgumentTypeError(f"must not be negative: {text}")
        return value

    return parse


def configure_fetch(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True, choices=SOURCES, help="where the rulings come from")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (only with --source files)")
    parser.add_argument("--out", required=True, metavar="CORPUS", help="corpus directory to create or resume")
    parser.add_argument("--court", help='court name or its start, e.g. "LG München I", "BGH" (portals)')
    parser.add_argument(
        "--jurisdiction",
        help="branch of the gesetze-bayern.de court tree, e.g. 'Ordentliche Gerichtsbarkeit' "
        "(default: derived from the court type)",
    )
    parser.add_argument("--from", dest="date_from", type=iso_date_argument, metavar="DATE",
                        help="earliest decision date (YYYY-MM-DD or DD.MM.YYYY)")
    parser.add_argument("--to", dest="date_to", type=iso_date_argument, metavar="DATE",
                        help="latest decision date (YYYY-MM-DD or DD.MM.YYYY)")
    parser.add_argument("--limit", type=_positive(int), metavar="N",
                        help="stop when the corpus holds N rulings (counting earlier runs)")
    parser.add_argument("--base-url", metavar="URL", help="portal address (a mirror, or a local test server)")
    parser.add_argument("--encoding", metavar="NAME",
                        help="encoding of .txt files with --source files (default UTF-8), e.g. latin-1")
    parser.add_argument("--keep-unanonymized", action="store_true",
                        help="keep rulings without placeholders instead of dropping them")
    polite = parser.add_argument_group("politeness (portals)")
    polite.add_argument("--delay", type=_positive(float), default=1.0, metavar="SECONDS",
                        help="seconds between two requests (default: 1.0, one request per second)")
    polite.add_argument("--retries", type=_positive(int), default=5, metavar="N",
                        help="retries of a timeout, dropped connection, 5xx or 429 (default: 5)")
    polite.add_argument("--backoff", type=_positive(float), default=2.0, metavar="SECONDS",
                        help="first wait before a retry, doubled each time (default: 2.0)")
    polite.add_argument("--timeout", type=_positive(float), default=60.0, metavar="SECONDS",
                        help="network timeout of one request (default: 60)")
    polite.add_argument("--user-agent", metavar="TEXT", help="User-Agent header (default: names rulings-anon)")


def _portal(args):
    from .client import USER_AGENT, PoliteClient, Politeness

    policy = Politeness(delay=args.delay, retries=args.retries, backoff=args.backoff, timeout=args.timeout)
    if args.source == "bayern":
        from .bayern import BASE_URL, BayernPortal

        client = PoliteClient(args.base_url or BASE_URL, policy, args.user_agent or USER_AGENT)
        return BayernPortal(client, args.court, args.jurisdiction, args.date_from, args.date_to)
    from .rii import BASE_URL, RiiPortal

    client = PoliteClient(args.base_url or BASE_URL, policy, args.user_agent or USER_AGENT)
    return RiiPortal(client, args.court, args.date_from, args.date_to)


def _file_candidates(paths, encoding=None):
    """The rulings of the files, checked first: an unreadable file or two rulings of one id stop the
    run before anything is stored."""
    from rulings_anon.inputs import read_input_documents

    from .collect import Candidate

    for _ in read_input_documents(paths, encoding):
        pass
    for document in read_input_documents(paths, encoding):
        yield Candidate(document.id, lambda document=document: document, local=True)


def run_fetch(args) -> int:
    from rulings_anon.errors import InputError
    from rulings_anon.fetcher.placeholder_count import PlaceholderCounter
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .collect import collect
    from .corpus import Corpus

    if args.date_from and args.date_to and args.date_from > args.date_to:
        raise InputError(f"--from {args.date_from} lies after --to {args.date_to}")
    if args.source == "files":
        if not args.paths:
            raise InputError("--source files needs the files to import: rulings-anon fetch --source files PATH...")
        if args.base_url or args.court or args.date_from or args.date_to:
            raise InputError("--base-url, --court, --from and --to apply to the portals, not to --source files")
        check_outputs([output("--out", args.out, folder=True)], inputs("PATH", args.paths))
        candidates = _file_candidates(args.paths, args.encoding or "utf-8")
    else:
        if args.paths:
            raise InputError(f"--source {args.source} takes no paths (got {args.paths[0]!r}); use --source files")
        if args.encoding:
            raise InputError("--encoding applies to --source files (.txt files), not to the portals")
        candidates = _portal(args).candidates()
    with Corpus(args.out) as corpus:
        report = collect(
            candidates, corpus, PlaceholderCounter(), args.keep_unanonymized, args.limit,
            skip_failures=args.source != "files",
        )
        corpus.touch()
        total = corpus.kept
    counts = sorted(report.placeholders)
    updated = f", {report.updated} updated" if report.updated else ""
    lines = [f"fetch: {total} rulings in {args.out}/rulings.jsonl ({report.stored} new{updated})"]
    if counts:
        lines.append(
            f"placeholders per new ruling: min {counts[0]}, median {counts[len(counts) // 2]}, max {counts[-1]}"
        )
    if report.dropped:
        lines.append(
            f"dropped {report.dropped} rulings without anonymization placeholders "
            "(metadata.jsonl lists them with kept=false; --keep-unanonymized keeps them)"
        )
    if report.failed:
        lines.append(f"{report.failed} rulings could not be fetched; run again to retry them")
    summary("\n".join(lines), rulings=total, new=report.stored, updated=report.updated, dropped=report.dropped,
            failed=report.failed, corpus=str(args.out))
    return 0


def configure_split(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", nargs="+", metavar="CORPUS",
                        help="corpus directory (rulings.jsonl) or ruling files (.jsonl, .jsonl.gz, ...)")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for train.tar.gz, test.tar.gz, split.json")
    parser.add_argument("--test-share", type=float, default=0.13, metavar="S",
                        help="share of rulings in the test set (default: 0.13, as in the thesis)")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default: 0)")
    parser.add_argument("--encoding", metavar="NAME", help="encoding of .txt inputs (default UTF-8), e.g. latin-1")
    parser.add_argument("--holdout-court", metavar="COURT",
                        help="put every ruling of this court into the test set (ignores --test-share)")


def run_split(args) -> int:
    from rulings_anon.inputs import read_input_documents
    from rulings_anon.jsonl import check_writable
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .split import split_corpus

    check_writable(args.out, "--out", folder=True)
    check_outputs([output("--out", args.out, folder=True)], inputs("CORPUS", args.corpus))
    sides = split_corpus(list(read_input_documents(args.corpus, args.encoding or "utf-8")), args.out,
                         args.test_share, args.seed, args.holdout_court)
    summary(f"split ({sides['method']}): {sides['train']} train, {sides['test']} test rulings "
            f"-> {args.out}/train.tar.gz, {args.out}/test.tar.gz",
            method=sides["method"], train=sides["train"], test=sides["test"], out=str(args.out))
    return 0


COMMANDS = [
    Command("fetch", "collect anonymized rulings from the court portals or files into a corpus",
            configure_fetch, run_fetch, FETCH_DESCRIPTION),
    Command("split", "split a corpus into train.tar.gz and test.tar.gz (random or held-out court)",
            configure_split, run_split, SPLIT_DESCRIPTION),
]
