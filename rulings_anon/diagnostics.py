"""What a command says about its work, apart from its results.

Results go to stdout or to files. Progress, summaries and warnings go to the ``rulings_anon``
logger, printed on stderr as plain lines: ``--quiet`` keeps warnings and errors only (and hides
the progress bars), ``--verbose`` adds details. :func:`summary` both says a run's summary line and
keeps its figures, which ``--summary FILE`` writes as one JSON object for the scripts of data
engineers (``{"command", "exit_code", "seconds", "figures"}``).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

LOG = logging.getLogger("rulings_anon")
QUIET, NORMAL, VERBOSE = -1, 0, 1
_LEVELS = {QUIET: logging.WARNING, NORMAL: logging.INFO, VERBOSE: logging.DEBUG}
_figures: dict = {}


class _StderrHandler(logging.StreamHandler):
    """Plain lines on the stderr of the moment (tests and callers may swap ``sys.stderr``)."""

    def __init__(self):
        super().__init__()
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def configure(verbosity: int = NORMAL) -> None:
    """Route the logger to stderr at ``verbosity``; quiet also turns tqdm's progress bars off."""
    LOG.handlers[:] = [_StderrHandler()]
    LOG.setLevel(_LEVELS.get(verbosity, logging.INFO))
    LOG.propagate = False
    if verbosity == QUIET:
        os.environ["TQDM_DISABLE"] = "1"
    _figures.clear()


def summary(message: str, **figures) -> None:
    """Say a run's summary ``message`` and keep its ``figures`` for ``--summary``."""
    LOG.info(message)
    _figures.update(figures)


def figures() -> dict:
    """The figures :func:`summary` kept in this run."""
    return dict(_figures)


def write_summary(path: Path, command: str, exit_code: int, seconds: float) -> None:
    """``--summary FILE``: the run as one JSON object (written atomically, like every output)."""
    from .jsonl import write_json

    write_json(path, {"command": command, "exit_code": exit_code, "seconds": round(seconds, 3),
                      "figures": _jsonable(figures())})


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)
