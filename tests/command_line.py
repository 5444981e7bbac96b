"""Shared by the tests that run the console script as a user does: a subprocess, its exit code,
one line on stderr, no traceback, nothing temporary left behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cli(*args, cwd=None, env=None, input=None) -> subprocess.CompletedProcess:
    """``python -m rulings_anon ARGS`` as a user runs it."""
    return subprocess.run([sys.executable, "-m", "rulings_anon", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd or ROOT, env=env, input=input, timeout=300)


def assert_one_line_error(done: subprocess.CompletedProcess, *words: str) -> str:
    """Exit code != 0, no traceback, exactly one line on stderr holding ``words``."""
    assert done.returncode != 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    """Temporary and partial files anywhere under ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.name.endswith((".tmp", ".partial")))
