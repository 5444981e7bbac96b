"""``--runner``: run a command's per-document work as an Apache Beam pipeline.

Only the argument lives here, so that a command without ``--runner`` never imports Beam and
starts as fast as before; :mod:`rulings_anon.beam_io` holds what the pipelines share.
"""

from __future__ import annotations

import argparse
import re

from .errors import InputError

# A file-system URL (gs://bucket/..., s3://..., hdfs://...); pathlib turns "gs://b" into "gs:/b".
_URL = re.compile(r"^([a-z][a-z0-9+.-]+):/+(?=[^/])", re.IGNORECASE)

RUNNER_HELP = ("run as an Apache Beam pipeline on RUNNER (DirectRunner, FlinkRunner, SparkRunner, DataflowRunner, "
               "...); Beam pipeline options follow as --name=value, e.g. --direct_num_workers=2 "
               "--direct_running_mode=multi_processing. Outputs are then sharded (NAME-00000-of-00002.jsonl). "
               "Needs the 'beam' extra: pip install 'rulings-anon[beam]'")


def add_runner_option(parser: argparse.ArgumentParser) -> None:
    """``--runner RUNNER``; the command line's unknown ``--options`` become ``args.beam_args``."""
    parser.add_argument("--runner", metavar="RUNNER", help=RUNNER_HELP)
    parser.set_defaults(beam_args=[])


def beam_requested(args) -> bool:
    """Whether the command runs on Beam; Beam options without ``--runner`` are an :class:`InputError`."""
    if getattr(args, "runner", None):
        return True
    if getattr(args, "beam_args", None):
        raise InputError(f"unrecognized arguments: {' '.join(args.beam_args)} "
                         "(Beam pipeline options are taken with --runner only)")
    return False


def as_url(path) -> str | None:
    """``path`` as a file-system URL (``gs://bucket/model``), also after pathlib folded its ``//``;
    None for a local path."""
    match = _URL.match(str(path))
    return None if match is None else f"{match.group(1)}://{str(path)[match.end():]}"
