"""Shared by the tests that kill a real ``score`` run half-way: wait until it has saved some work."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path


def wait_for_saved(process: subprocess.Popen, partial: Path, lines: int, timeout: float = 120) -> None:
    """Return once ``partial`` holds ``lines`` complete lines while ``process`` still runs; fail the
    test if the run ended first (it could not be killed half-way)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if partial.exists() and partial.read_bytes().count(b"\n") >= lines:
            break
        time.sleep(0.02)
    assert process.poll() is None, "the run ended before it could be killed half-way"
