"""The ``rulings-anon`` console script: one subcommand per pipeline step.

Each stage package declares its subcommands in ``<stage>/commands.py`` as a ``COMMANDS`` list
of :class:`Command`. Those modules only build argument parsers; the work (and heavy imports
such as TensorFlow) happens inside each command's ``run``, so ``rulings-anon fetch --help``
starts in a fraction of a second.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import diagnostics
from .errors import InputError, ModelError
from .escapes import printable
from .version import __version__

STAGES = tuple(f"rulings_anon.{stage}" for stage in (
    "fetcher", "preprocessing", "models", "scoring", "evaluation", "interactive", "review", "pipeline"))


@dataclass(frozen=True)
class Command:
    """A subcommand: ``configure(parser)`` adds its arguments, ``run(args)`` returns an exit code."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int | None]
    description: str | None = None


def threshold_argument(value: str) -> float:
    """argparse type of ``--threshold``: a probability, 0..1."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"threshold must be in 0..1, got {value}")
    return number


def _stage_commands(stage: str) -> list[Command]:
    return list(importlib.import_module(f"{stage}.commands").COMMANDS)


# Packages that come with an extra, not with the plain install: a command that needs one says
# which extra to install instead of a traceback.
OPTIONAL_PACKAGES = {"tensorflow": "train", "tf_keras": "train", "tensorflow_hub": "train", "tensorflow_text": "train",
                     "sentencepiece": "train", "matplotlib": "train", "apache_beam": "beam"}


def _diagnostics_options() -> argparse.ArgumentParser:
    """The options every command has: how much it says on stderr, and a summary for scripts."""
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("diagnostics (stderr; results stay on stdout or in files)")
    loudness = group.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors, no progress bars")
    loudness.add_argument("-v", "--verbose", action="store_true", help="also the details of the work")
    group.add_argument("--summary", type=Path, metavar="FILE.json",
                       help='write what the run did as one JSON object: {"command", "exit_code", "seconds", "figures"}')
    return common


def build_parser(stages=STAGES, prog: str = "rulings-anon") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Learn to anonymize German court decisions from already anonymized rulings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    common = _diagnostics_options()
    for stage in stages:
        for command in _stage_commands(stage):
            p = sub.add_parser(
                command.name,
                help=command.help,
                description=command.description or command.help,
                formatter_class=argparse.RawDescriptionHelpFormatter,
                parents=[common],
            )
            command.configure(p)
            p.set_defaults(_command=command)
    return parser


def main(argv=None, stages=STAGES, prog: str = "rulings-anon") -> int:
    """Parse ``argv`` and run the chosen subcommand; bad input ends in one line on stderr."""
    parser = build_parser(stages, prog)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        if not hasattr(args, "beam_args"):  # only commands with --runner pass options on (to Beam)
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        args.beam_args = unknown
    command: Command = args._command
    diagnostics.configure(diagnostics.QUIET if args.quiet else diagnostics.VERBOSE if args.verbose else diagnostics.NORMAL)
    started = time.perf_counter()
    code = _run(command, args, prog)
    if args.summary is not None:
        try:
            diagnostics.write_summary(args.summary, command.name, code, time.perf_counter() - started)
        except InputError as exc:
            print(f"{prog} {command.name}: error: --summary: {printable(str(exc), one_line=True)}", file=sys.stderr)
            return code or 2
    return code


def _run(command: Command, args: argparse.Namespace, prog: str) -> int:
    """Run ``command``; whatever stops it ends in one line on stderr and an exit code."""
    try:
        code = command.run(args)
    except (InputError, ModelError) as exc:
        print(f"{prog} {command.name}: error: {printable(str(exc), one_line=True)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        extra = OPTIONAL_PACKAGES.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        print(f"{prog} {command.name}: error: this needs {exc.name}, which comes with the extra {extra!r}: "
              f"pip install 'rulings-anon[{extra}]'", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog} {command.name}: interrupted; finished work is saved, run again to resume",
              file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file system refusal no check foresaw: one line, never a traceback
        where = f": {printable(str(exc.filename), one_line=True)}" if exc.filename else ""
        print(f"{prog} {command.name}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    return int(code or 0)


def stage_main(stage: str) -> None:
    """Entry point of ``python -m <stage>``: the stage's own subcommands."""
    sys.exit(main(stages=(stage,), prog=f"python -m {stage}"))


if __name__ == "__main__":
    sys.exit(main())
