"""``score``'s progress bar: drawn in a real terminal, not drawn (and tqdm not even imported) where
stderr is no terminal; the spans are the same either way."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), TERM="dumb")
RULINGS = [{"id": f"r{i}", "text": f"Der Kläger Herr Achleitner{i} aus Memmingen klagt gegen die M-GmbH."}
           for i in range(3)]


def _inputs(tmp_path: Path) -> Path:
    path = tmp_path / "rulings.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RULINGS), encoding="utf-8")
    return path


def test_a_terminal_sees_the_bar(tmp_path):
    inputs, output = _inputs(tmp_path), tmp_path / "spans.jsonl"
    child = pexpect.spawn(sys.executable, ["-m", "rulings_anon", "score", str(inputs), "--output", str(output)],
                          env=ENV, cwd=str(ROOT), encoding="utf-8", timeout=60, dimensions=(40, 160))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "score: 100%" in child.before and "elements" in child.before
    assert [json.loads(line)["id"] for line in output.read_text(encoding="utf-8").splitlines()] == ["r0", "r1", "r2"]


def test_a_script_gets_no_bar_and_no_tqdm(tmp_path):
    inputs, piped, in_process = _inputs(tmp_path), tmp_path / "piped.jsonl", tmp_path / "in-process.jsonl"
    done = subprocess.run([sys.executable, "-m", "rulings_anon", "score", str(inputs), "--output", str(piped)],
                          env=ENV, cwd=str(ROOT), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "%|" not in done.stderr and "score: 100%" not in done.stderr  # no bar: its summary line alone
    assert re.search(r"^score: 3 documents, 30 elements, \d+ spans", done.stderr, re.MULTILINE)
    probe = ("import sys; from rulings_anon.cli import main; "
             f"code = main(['score', {str(inputs)!r}, '--output', {str(in_process)!r}]); "
             "print(code, 'tqdm' in sys.modules, 'wordfreq' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], env=ENV, cwd=str(ROOT), capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["0", "False", "False"], done.stderr
    assert in_process.read_bytes() == piped.read_bytes()
