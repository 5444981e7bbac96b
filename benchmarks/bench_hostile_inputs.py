"""Hostile inputs for every command that reads user files.

Feeds ``fetch --source files``, ``split``, ``detect-placeholders``, ``preprocess``, ``evaluate``,
``score``, ``replace --auto`` and ``pipeline --config`` ten hostile inputs each: an empty file,
text that is not JSON, JSON lines without ``text``, binary bytes, a Latin-1 ``.txt`` file, a
missing path, an empty folder, a 5 MB file (two rulings of 2.5 MB), two documents with the same
id, and a ZIP bomb (a 200 MB entry in a ZIP of a few hundred KB). Each command runs as a user
runs it (``python -m rulings_anon``) in a fresh folder, and a run passes when

* it gives a correct result (exit 0, every input document in the output: nothing silently
  dropped) or a one-line error (exit code != 0, exactly one line on stderr, no traceback);
* only the 5 MB input may succeed (the others must be refused, not quietly accepted);
* no ``.tmp`` or ``.partial`` file is left, and a refused run leaves no output behind.

Then the side doors of :mod:`hostile_scenarios` (outputs that are inputs, planted links, a full
disk, names in errors and on the terminal, permissions, skipped rulings, odd JSON): one row each.

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_hostile_inputs.py [--json OUT]``;
``--scenarios`` runs the side doors alone. Prints one row per command and scenario, and the totals.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from hostile_scenarios import run_scenarios

from rulings_anon import data
from rulings_anon.jsonl import read_jsonl, write_jsonl

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("empty", "not JSON", "no text", "binary", "Latin-1", "missing", "folder", "5 MB", "colliding ids",
          "ZIP bomb")
# The inputs a command must read (every other one it must refuse), with the ids it must then
# write: a Latin-1 .txt is read since the encoding is detected, except where one ruling without
# gold is no valid input anyway (evaluate needs gold, split two rulings, pipeline a config).
SUCCEEDS = {"5 MB": ["big-1", "big-2"], "Latin-1": ["latin1"]}
NEEDS_GOLD = {"evaluate", "split", "pipeline --config"}


def _rulings_text(size: int) -> str:
    """About ``size`` characters of anonymized BSG rulings (the bundled LER corpus)."""
    texts = [r["text"] for r in read_jsonl(data.ler_corpus_files(["bsg"])[0])]
    pieces, length = [], 0
    while length < size:
        for text in texts:
            pieces.append(text)
            length += len(text) + 2
            if length >= size:
                break
    return "\n\n".join(pieces)


def make_inputs(folder: Path) -> dict[str, Path]:
    """The hostile document inputs (JSONL unless the kind needs another form)."""
    folder.mkdir(parents=True)
    paths = {}
    paths["empty"] = folder / "empty.jsonl"
    paths["empty"].write_bytes(b"")
    paths["not JSON"] = folder / "notjson.jsonl"
    paths["not JSON"].write_text("Das ist kein JSON, sondern ein Urteil.\n", encoding="utf-8")
    paths["no text"] = folder / "notext.jsonl"
    write_jsonl(paths["no text"], [{"id": "a", "body": "Der Kläger K. verlangt Zahlung."}])
    paths["binary"] = folder / "binary.jsonl"
    paths["binary"].write_bytes(bytes(range(256)) * 64)
    paths["Latin-1"] = folder / "latin1.txt"
    paths["Latin-1"].write_bytes("Der Kläger K. verlangt von der M-GmbH Zahlung.".encode("latin-1"))
    paths["missing"] = folder / "missing.jsonl"
    paths["folder"] = folder / "emptyfolder"
    paths["folder"].mkdir()
    paths["5 MB"] = folder / "big.jsonl"
    half = _rulings_text(2_500_000)
    write_jsonl(paths["5 MB"], [{"id": f"big-{n}", "court": f"court {n}", "text": half, "spans": []} for n in (1, 2)])
    paths["colliding ids"] = folder / "colliding.jsonl"
    write_jsonl(paths["colliding ids"], [{"id": "x", "text": "Der Kläger K. verlangt Zahlung.", "spans": []},
                                         {"id": "x", "text": "Die Beklagte M. zahlt nicht.", "spans": []}])
    paths["ZIP bomb"] = folder / "bomb.zip"
    block = b"\0" * (1 << 20)
    with zipfile.ZipFile(paths["ZIP bomb"], "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open("urteil.xml", "w", force_zip64=True) as entry:
        for _ in range(200):
            entry.write(block)
    return paths


def make_configs(folder: Path, inputs: dict[str, Path]) -> dict[str, Path]:
    """The hostile inputs of ``pipeline --config``: the same kinds, as a config."""
    folder.mkdir(parents=True)
    configs = dict(inputs)
    configs["not JSON"] = folder / "config.json"
    configs["not JSON"].write_text("stages: [split]\n", encoding="utf-8")
    configs["no text"] = folder / "nostages.json"
    configs["no text"].write_text(json.dumps({"run_dir": str(folder / "run")}), encoding="utf-8")
    configs["Latin-1"] = folder / "latin1.json"
    configs["Latin-1"].write_bytes('{"run_dir": "Kläger", "stages": []}'.encode("latin-1"))
    configs["5 MB"] = folder / "big.json"
    configs["5 MB"].write_text(json.dumps({"run_dir": str(folder / "run"), "stages": [], "x": "y" * 5_000_000}),
                               encoding="utf-8")
    stage = {"name": "detect", "command": ["detect-placeholders", str(inputs["5 MB"]), "--output",
                                           str(folder / "run" / "spans.jsonl")]}
    configs["colliding ids"] = folder / "twice.json"
    configs["colliding ids"].write_text(json.dumps({"run_dir": str(folder / "run"), "stages": [stage, stage]}),
                                        encoding="utf-8")
    return configs


def _preprocessed(folder: Path) -> list[str]:
    """preprocess writes no ids: its stats say how many documents went in (named as the inputs')."""
    if not (folder / "stats.json").exists():
        return []
    count = json.loads((folder / "stats.json").read_text(encoding="utf-8"))["documents"]
    return ["latin1"] if count == 1 else [f"big-{n + 1}" for n in range(count)]


def _ids(path: Path) -> list[str]:
    return [r["id"] for r in read_jsonl(path)] if path.exists() else []


# Per command: its argument list for an input and an output folder, and the ids its output holds.
COMMANDS = {
    "fetch --source files": (
        lambda i, o: ["fetch", "--source", "files", i, "--out", o / "corpus", "--keep-unanonymized"],
        lambda o: _ids(o / "corpus" / "metadata.jsonl")),
    "split": (
        lambda i, o: ["split", i, "--out", o / "split"],
        lambda o: json.loads((o / "split" / "split.json").read_text())["ids"]["train"]
        + json.loads((o / "split" / "split.json").read_text())["ids"]["test"]),
    "detect-placeholders": (
        lambda i, o: ["detect-placeholders", i, "--output", o / "spans.jsonl"],
        lambda o: _ids(o / "spans.jsonl")),
    "preprocess": (
        lambda i, o: ["preprocess", i, "--out", o / "data", "--wordpiece-vocab-size", "2000"],
        lambda o: _preprocessed(o / "data")),
    "evaluate": (
        lambda i, o: ["evaluate", "--test", i, "--method", "ner", "--json"],
        lambda o: [f"big-{n + 1}" for n in range(json.loads((o.parent / "stdout.txt").read_text())["documents"])]),
    "score": (
        lambda i, o: ["score", i, "--output", o / "spans.jsonl", "--anonymize", o / "anonymized"],
        lambda o: _ids(o / "spans.jsonl")),
    "replace --auto": (
        lambda i, o: ["replace", i, "--out", o / "replaced", "--auto"],
        lambda o: _ids(o / "replaced" / "pseudonymized.jsonl")),
    "pipeline --config": (
        lambda i, o: ["pipeline", "--config", i],
        lambda o: []),
}


def leftovers(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if p.name.endswith((".tmp", ".partial")))


# The command as its console script runs it, writing its peak memory (KB) to the file named first.
# (VmHWM, the peak of its own address space: ru_maxrss would include the forking process's.)
MEASURED = ("import re, sys\n"
            "from rulings_anon.cli import main\n"
            "target = sys.argv.pop(1)\n"
            "try:\n"
            "    code = main(sys.argv[1:])\n"
            "finally:\n"
            "    peak = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1]\n"
            "    open(target, 'w').write(peak)\n"
            "sys.exit(code)\n")
UNBOUNDED_KB = 100 * 1024  # a ZIP bomb may cost this much more memory than an empty input


def run_one(command: str, kind: str, path: Path, work: Path, baseline_kb: int = 0) -> dict:
    """Run ``command`` on one hostile input; returns the outcome and what went wrong, if anything."""
    out = work / "out"
    out.mkdir(parents=True)
    arguments, produced = COMMANDS[command]
    started = time.perf_counter()
    rss = work / "peak_kb.txt"
    done = subprocess.run([sys.executable, "-c", MEASURED, str(rss), *map(str, arguments(path, out))],
                          capture_output=True, text=True, cwd=work, timeout=1800)
    seconds = time.perf_counter() - started
    peak_kb = int(rss.read_text()) if rss.exists() else 0
    rss.unlink(missing_ok=True)
    (work / "stdout.txt").write_text(done.stdout, encoding="utf-8")
    problems = []
    lines = done.stderr.strip().splitlines()
    if "Traceback" in done.stderr:
        problems.append("traceback")
    if done.returncode == 0:
        outcome = "result"
        expected = SUCCEEDS.get(kind) if command not in NEEDS_GOLD or kind == "5 MB" else None
        if expected is None:
            problems.append("accepted a hostile input")
            expected = []
        if command != "pipeline --config" and sorted(produced(out)) != expected:
            problems.append(f"dropped documents: {sorted(produced(out))} != {expected}")
    else:
        outcome = "error"
        if len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr")
        if kind in SUCCEEDS and (command not in NEEDS_GOLD or kind == "5 MB"):
            problems.append("refused a valid input")
        if any(out.iterdir()):
            problems.append(f"left output behind: {sorted(p.name for p in out.iterdir())}")
    left = leftovers(work) + leftovers(path.parent)
    if left:
        problems.append(f"left {left}")
    if kind == "ZIP bomb" and peak_kb > baseline_kb + UNBOUNDED_KB:
        problems.append(f"inflated the bomb: peak memory {peak_kb // 1024} MB, {baseline_kb // 1024} MB on empty input")
    return {"command": command, "input": kind, "code": done.returncode, "outcome": outcome, "seconds": seconds,
            "peak_mb": peak_kb // 1024, "message": lines[-1] if lines else "", "problems": problems,
            "stderr": done.stderr[-3000:] if problems else ""}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the outcomes as JSON")
    parser.add_argument("--only", action="append", metavar="COMMAND",
                        help="only this command or scenario (a part of its name; repeatable)")
    parser.add_argument("--scenarios", action="store_true", help="only the side doors, not the ten inputs")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        tmp = Path(tmp)
        if not args.scenarios:
            results = run_inputs(tmp, args.only)
        scenarios = run_scenarios(tmp / "scenarios", args.only)
    for result in scenarios:
        status = "skip" if result.get("skipped") else "ok  " if not result["problems"] else "BAD "
        print(f"{status} {result['group']:<11} {result['scenario']:<38} "
              f"{'; '.join(result['problems']) or result.get('skipped', '')}", flush=True)
    print()
    print(f"{'command':<22} {'runs':>4} {'passed':>6} {'results':>7} {'errors':>6}")
    for command in dict.fromkeys(r["command"] for r in results):
        mine = [r for r in results if r["command"] == command]
        print(f"{command:<22} {len(mine):>4} {sum(not r['problems'] for r in mine):>6} "
              f"{sum(r['outcome'] == 'result' for r in mine):>7} {sum(r['outcome'] == 'error' for r in mine):>6}")
    for group in dict.fromkeys(r["group"] for r in scenarios):
        mine = [r for r in scenarios if r["group"] == group]
        ran = [r for r in mine if not r.get("skipped")]
        print(f"{'side doors: ' + group:<22} {len(ran):>4} {sum(not r['problems'] for r in ran):>6}"
              + (f"  ({len(mine) - len(ran)} skipped)" if len(ran) < len(mine) else ""))
    ran = results + [r for r in scenarios if not r.get("skipped")]
    passed = sum(not r["problems"] for r in ran)
    print(f"{'all':<22} {len(ran):>4} {passed:>6}")
    if args.json:
        args.json.write_text(json.dumps(results + scenarios, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0 if passed == len(ran) else 1


def run_inputs(tmp: Path, only: list[str] | None) -> list[dict]:
    """Every command on every hostile input; one result each, printed as it comes."""
    results = []
    inputs = make_inputs(tmp / "inputs")
    configs = make_configs(tmp / "configs", inputs)
    for command in COMMANDS:
        if only and command not in only:
            continue
        for n, kind in enumerate(INPUTS):
            path = (configs if command == "pipeline --config" else inputs)[kind]
            empty = next((r["peak_mb"] * 1024 for r in results if r["command"] == command and r["input"] == "empty"), 0)
            result = run_one(command, kind, path, tmp / "work" / command.split()[0] / str(n), empty)
            results.append(result)
            status = "ok " if not result["problems"] else "BAD"
            print(f"{status} {command:<22} {kind:<14} exit {result['code']:>3}  {result['seconds']:5.1f} s  "
                  f"{'; '.join(result['problems']) or result['message'][:90]}", flush=True)
    return results


if __name__ == "__main__":
    sys.exit(main())
