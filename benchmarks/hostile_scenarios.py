"""Side doors: what a hostile but realistic user does besides feeding bad files (part of
``bench_hostile_inputs.py``).

Each scenario sets up real files (links, folders, a small full file system where the machine
allows one), runs the commands as a user runs them (``python -m rulings_anon``) and checks what
must hold: an output that is an input is refused and the input keeps its bytes; nothing is
written through a planted link; an output is complete or absent; names appear neither in error
messages nor raw on the terminal; files that hold names are readable by their owner only; no
ruling is skipped silently; odd JSON ends in one line, never a traceback. A scenario passes
when it returns no problem.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

from rulings_anon.jsonl import read_jsonl, write_jsonl

ROOT = Path(__file__).resolve().parent.parent
NAME = "Wimmer"
RULING = (f"Der Kläger Thomas {NAME} wohnt in Aichach, Hauptstraße 4. Er verlangt von der Beklagten Zahlung. "
          f"Herr {NAME} ist bei der Beklagten beschäftigt.")
ANONYMIZED = "Der Kläger K. wohnt in A. Er verlangt von der M-GmbH Zahlung. Herr K. ist bei der M-GmbH beschäftigt."


def cli(*args, cwd: Path | None = None, prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    command = [*(prefix or []), sys.executable, "-m", "rulings_anon", *map(str, args)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd or ROOT, env=env, timeout=600)


def refused(done: subprocess.CompletedProcess, *words: str) -> list[str]:
    """Problems unless ``done`` ended in exactly one line on stderr, no traceback, exit != 0."""
    lines = done.stderr.strip().splitlines()
    problems = []
    if done.returncode == 0:
        problems.append("accepted")
    if "Traceback" in done.stderr:
        problems.append("traceback")
    elif len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr")
    problems += [f"the error does not say {w!r}" for w in words if lines and w not in lines[-1]]
    return problems


def succeeded(done: subprocess.CompletedProcess) -> list[str]:
    return [] if done.returncode == 0 and "Traceback" not in done.stderr else [f"exit {done.returncode}: "
                                                                               f"{done.stderr.strip()[-200:]}"]


def kept(path: Path, before: bytes) -> list[str]:
    return [] if path.read_bytes() == before else [f"{path.name} was changed"]


def documents(work: Path, name: str = "docs.jsonl", text: str = RULING) -> Path:
    path = work / name
    write_jsonl(path, [{"id": "a", "text": text}, {"id": "b", "text": text.replace(NAME, "Öztürk")}])
    return path


# -- data loss ---------------------------------------------------------------------------------------

def output_is_input(command: str) -> Callable[[Path], list[str]]:
    def scenario(work: Path) -> list[str]:
        docs = documents(work)
        before = docs.read_bytes()
        return refused(cli(command, docs, "--output", docs)) + kept(docs, before)

    return scenario


def anonymize_into_input(work: Path) -> list[str]:
    docs = documents(work)
    before = docs.read_bytes()
    return refused(cli("score", docs, "--output", work / "s.jsonl", "--anonymize", docs)) + kept(docs, before)


def output_is_a_link_to_the_input(work: Path) -> list[str]:
    docs = documents(work)
    before = docs.read_bytes()
    (work / "link.jsonl").symlink_to(docs)
    return refused(cli("score", docs, "--output", work / "link.jsonl")) + kept(docs, before)


def anonymize_folder_onto_its_rulings(work: Path) -> list[str]:
    folder = work / "rulings"
    folder.mkdir()
    (folder / "urteil.txt").write_text(RULING, encoding="utf-8")
    before = (folder / "urteil.txt").read_bytes()
    done = cli("score", folder, "--output", work / "s.jsonl", "--anonymize", folder)
    return refused(done) + kept(folder / "urteil.txt", before)


def anonymize_and_pseudonymize_to_one_target(work: Path) -> list[str]:
    docs = documents(work)
    target = work / "out.jsonl"
    done = cli("score", docs, "--output", work / "s.jsonl", "--anonymize", target, "--pseudonymize", target)
    return refused(done) + ([f"{target.name} written"] if target.exists() else [])


def evaluate_writes_over_its_test(option: str) -> Callable[[Path], list[str]]:
    def scenario(work: Path) -> list[str]:
        gold = work / "gold.jsonl"
        write_jsonl(gold, [{"id": "a", "text": RULING, "spans": [{"start": 18, "end": 24, "type": "person"}]}])
        before = gold.read_bytes()
        done = cli("evaluate", "--test", gold, "--method", "none", "--features", option, gold)
        return refused(done) + kept(gold, before)

    return scenario


def stage_outside_the_run(work: Path) -> list[str]:
    config = work / "config.json"
    config.write_text(json.dumps({"run_dir": str(work / "run"), "stages": [
        {"name": "../../escaped", "command": ["detect-placeholders", str(documents(work)), "--output",
                                              "{run}/spans.jsonl"]}]}), encoding="utf-8")
    done = cli("pipeline", "--config", config)
    escaped = [p for p in (work.parent, work.parent.parent) for p in p.glob("escaped*")]
    return refused(done) + [f"wrote {p}" for p in escaped]


def planted_partial_link(work: Path) -> list[str]:
    docs = documents(work)
    victim = work / "victim.txt"
    victim.write_text("a file of someone else's\n" * 100, encoding="utf-8")
    before = victim.read_bytes()
    (work / ".s.jsonl.partial").symlink_to(victim)
    cli("score", docs, "--output", work / "s.jsonl")
    return kept(victim, before)


def _in_small_file_system(work: Path, kilobytes: int, *args) -> tuple[subprocess.CompletedProcess | None, Path]:
    """``rulings-anon ARGS`` with its outputs on a tmpfs of ``kilobytes`` in a private mount
    namespace (``{fs}`` in an argument is the tmpfs folder); None where no tmpfs can be made."""
    fs = work / "fs"
    fs.mkdir()
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=4k tmpfs {fs}"],
                           capture_output=True)
    if probe.returncode != 0:
        return None, fs
    arguments = " ".join(f"'{str(a).replace('{fs}', str(fs))}'" for a in args)
    script = (f"mount -t tmpfs -o size={kilobytes}k tmpfs {fs} && cd {ROOT} && "
              f"PYTHONPATH={ROOT} {sys.executable} -m rulings_anon {arguments}; code=$?; "
              f"ls -A {fs} | sed 's/^/LEFT: /'; ls -A {fs}/* 2>/dev/null | sed 's/^/INSIDE: /'; exit $code")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=600)
    return done, fs


def disk_full_anonymize_folder(work: Path) -> list[str]:
    docs = work / "many.jsonl"
    write_jsonl(docs, [{"id": f"u{n}", "text": RULING * 40} for n in range(40)])
    done, _ = _in_small_file_system(work, 64, "score", docs, "--output", work / "s.jsonl",
                                    "--anonymize", "{fs}/anonymized")
    if done is None:
        return []  # no tmpfs here: skipped, counted as passed by nobody (see SKIPPED)
    inside = [line for line in done.stdout.splitlines() if line.startswith("INSIDE:")]
    complete = any("index.jsonl" in line for line in inside)
    stderr = subprocess.CompletedProcess(done.args, done.returncode, "", done.stderr)
    problems = refused(stderr, "anonymized")
    if inside and not complete:
        problems.append(f"left {len(inside)} files and no index")
    return problems


def disk_full_split(work: Path) -> list[str]:
    corpus = work / "corpus.jsonl"
    noise = random.Random(0)  # text that compresses badly, so that the archives fill the file system
    write_jsonl(corpus, [{"id": f"u{n}", "court": "AG X", "text": ANONYMIZED + " ".join(
        "".join(noise.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8)) for _ in range(600))}
        for n in range(60)])
    done, _ = _in_small_file_system(work, 48, "split", corpus, "--out", "{fs}/split")
    if done is None:
        return []
    inside = {line.removeprefix("INSIDE: ") for line in done.stdout.splitlines() if line.startswith("INSIDE:")}
    stderr = subprocess.CompletedProcess(done.args, done.returncode, "", done.stderr)
    problems = refused(stderr, "split")
    if inside and "split.json" not in inside:
        problems.append(f"left {sorted(inside)} without split.json")
    return problems


# -- names where they should not be ------------------------------------------------------------------

def gold_mismatch_names_no_name(work: Path) -> list[str]:
    gold = work / "gold.jsonl"
    write_jsonl(gold, [{"id": "a", "text": RULING, "spans": [{"start": 18, "end": 24, "text": "Kemper",
                                                               "type": "person"}]}])
    done = cli("evaluate", "--test", gold, "--method", "none", "--features")
    leaked = [w for w in (NAME, "Kemper") if w in done.stderr]
    return [f"printed {w!r}" for w in leaked] + (["traceback"] if "Traceback" in done.stderr else [])


def show_escapes(work: Path) -> list[str]:
    docs = work / "docs.jsonl"
    write_jsonl(docs, [{"id": "a\x1b[2J", "text": RULING + " \x1b]52;c;SGFsbG8=\x07 \x1b[8mverborgen\u202e"}])
    done = cli("score", docs, "--output", work / "s.jsonl", "--show")
    raw = [c for c in ("\x1b", "\x07", "\u202e") if c in done.stdout + done.stderr]
    return succeeded(done) + [f"printed {c!r} raw" for c in raw]


def private_outputs(work: Path) -> list[str]:
    docs = documents(work)
    old = os.umask(0o022)
    try:
        done = cli("score", docs, "--output", work / "s.jsonl", "--pseudonymize", work / "p.jsonl",
                   "--anonymize", work / "a")
    finally:
        os.umask(old)
    problems = succeeded(done)
    for path in (work / "s.jsonl", work / "p.jsonl"):
        if path.exists() and path.stat().st_mode & 0o077:
            problems.append(f"{path.name} is mode {oct(path.stat().st_mode & 0o777)}")
    return problems


def folder_with_a_subfolder(work: Path) -> list[str]:
    folder = work / "rulings"
    (folder / "2023").mkdir(parents=True)
    (folder / "eins.txt").write_text(RULING, encoding="utf-8")
    (folder / "2023" / "zwei.txt").write_text(RULING.replace(NAME, "Öztürk"), encoding="utf-8")
    done = cli("score", folder, "--output", work / "s.jsonl")
    if done.returncode != 0:
        return refused(done, "2023")
    ids = [r["id"] for r in read_jsonl(work / "s.jsonl")]
    return [] if len(ids) == 2 else [f"scored {ids}: a ruling skipped"]


def folder_with_a_stray_corpus(work: Path) -> list[str]:
    folder = work / "rulings"
    folder.mkdir()
    write_jsonl(folder / "rulings.jsonl", [{"id": "alt", "text": RULING}])
    (folder / "neu.txt").write_text(RULING.replace(NAME, "Öztürk"), encoding="utf-8")
    done = cli("score", folder, "--output", work / "s.jsonl")
    if done.returncode != 0:
        return refused(done, "neu.txt")
    ids = [r["id"] for r in read_jsonl(work / "s.jsonl")]
    return [] if len(ids) == 2 else [f"scored {ids}: a ruling skipped"]


def fetch_files_after_a_change(work: Path) -> list[str]:
    folder = work / "rulings"
    folder.mkdir()
    (folder / "urteil.txt").write_text(ANONYMIZED, encoding="utf-8")
    first = cli("fetch", "--source", "files", folder, "--out", work / "corpus")
    (folder / "urteil.txt").write_text(ANONYMIZED + " Die Kosten trägt der Kläger K.", encoding="utf-8")
    second = cli("fetch", "--source", "files", folder, "--out", work / "corpus")
    texts = [r["text"] for r in read_jsonl(work / "corpus" / "rulings.jsonl")] if succeeded(second) == [] else []
    return succeeded(first) + succeeded(second) + ([] if texts and texts[0].endswith("Kläger K.")
                                                   else ["kept the old text"])


# -- tracebacks and silent surprises ------------------------------------------------------------------

def _jsonl_line(work: Path, line: str) -> Path:
    path = work / "odd.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    return path


COMMAND_LINES = {
    "score": lambda i, w: ["score", i, "--output", w / "s.jsonl"],
    "detect-placeholders": lambda i, w: ["detect-placeholders", i, "--output", w / "s.jsonl"],
    "replace --auto": lambda i, w: ["replace", i, "--out", w / "replaced", "--auto"],
    "fetch --source files": lambda i, w: ["fetch", "--source", "files", i, "--out", w / "corpus"],
    "split": lambda i, w: ["split", i, "--out", w / "split"],
}


def odd_record(line: str, command: str = "score") -> Callable[[Path], list[str]]:
    def scenario(work: Path) -> list[str]:
        path = _jsonl_line(work, line)
        return refused(cli(*COMMAND_LINES[command](path, work)), path.name)

    return scenario


def span_score_is_a_string(work: Path) -> list[str]:
    gold = work / "gold.jsonl"
    write_jsonl(gold, [{"id": "a", "text": RULING, "spans": [{"start": 18, "end": 24, "type": "person",
                                                               "score": "hoch"}]}])
    return refused(cli("evaluate", "--test", gold, "--method", "none", "--features"), gold.name)


def tar_with_a_list_for_a_file(work: Path) -> list[str]:
    archive = work / "train.tar.gz"
    meta = work / "metadata.jsonl"
    meta.write_text(json.dumps({"id": "a", "file": []}) + "\n", encoding="utf-8")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(meta, arcname="metadata.jsonl")
    return refused(cli("score", archive, "--output", work / "s.jsonl"), archive.name)


def pipeline_command_of_type(command) -> Callable[[Path], list[str]]:
    def scenario(work: Path) -> list[str]:
        config = work / "config.json"
        config.write_text(json.dumps({"run_dir": str(work / "run"), "stages": [{"name": "x", "command": command}]}),
                          encoding="utf-8")
        return refused(cli("pipeline", "--config", config), config.name)

    return scenario


def utf16_text(work: Path) -> list[str]:
    (work / "utf8").mkdir()
    (work / "utf16").mkdir()
    (work / "utf8" / "urteil.txt").write_text(RULING, encoding="utf-8")
    (work / "utf16" / "urteil.txt").write_bytes(RULING.encode("utf-16"))  # with its byte order mark
    spans = []
    for kind in ("utf8", "utf16"):
        done = cli("score", work / kind / "urteil.txt", "--output", work / f"{kind}.jsonl")
        if done.returncode != 0:
            return refused(done, "UTF-16") if kind == "utf16" and "latin-1" not in done.stderr else \
                [f"{kind}: {done.stderr.strip()[-150:]}"]
        spans.append([s["text"] for r in read_jsonl(work / f"{kind}.jsonl") for s in r["spans"]])
    return [] if spans[0] == spans[1] and spans[0] else [f"UTF-16 spans {spans[1]} != UTF-8 spans {spans[0]}"]


# Scenario name -> (group, check); the groups are the issue's.
SCENARIOS: dict[str, tuple[str, Callable[[Path], list[str]]]] = {
    "score --output INPUT": ("data loss", output_is_input("score")),
    "detect-placeholders --output INPUT": ("data loss", output_is_input("detect-placeholders")),
    "score --anonymize INPUT": ("data loss", anonymize_into_input),
    "score --output LINK-TO-INPUT": ("data loss", output_is_a_link_to_the_input),
    "score DIR --anonymize DIR": ("data loss", anonymize_folder_onto_its_rulings),
    "--anonymize X --pseudonymize X": ("data loss", anonymize_and_pseudonymize_to_one_target),
    "evaluate --curve TEST": ("data loss", evaluate_writes_over_its_test("--curve")),
    "evaluate --report TEST": ("data loss", evaluate_writes_over_its_test("--report")),
    "pipeline stage ../../x": ("data loss", stage_outside_the_run),
    "planted .partial link": ("data loss", planted_partial_link),
    "disk full: --anonymize DIR": ("data loss", disk_full_anonymize_folder),
    "disk full: split": ("data loss", disk_full_split),
    "gold mismatch in an error": ("names", gold_mismatch_names_no_name),
    "--show with escape sequences": ("names", show_escapes),
    "outputs with names 0600": ("names", private_outputs),
    "folder with a subfolder": ("names", folder_with_a_subfolder),
    "folder with a stray rulings.jsonl": ("names", folder_with_a_stray_corpus),
    "fetch files after a change": ("names", fetch_files_after_a_change),
    **{f"lone surrogate: {c}": ("tracebacks", odd_record('{"id": "a", "text": "Herr \\ud800 K."}', c))
       for c in COMMAND_LINES},
    "5,000-digit id": ("tracebacks", odd_record('{"id": ' + "9" * 5000 + ', "text": "Herr K."}')),
    "duplicate key text": ("tracebacks", odd_record('{"id": "a", "text": "Herr K.", "text": "Frau M."}')),
    "id true": ("tracebacks", odd_record('{"id": true, "text": "Herr K."}')),
    "span score a string": ("tracebacks", span_score_is_a_string),
    'tar metadata "file": []': ("tracebacks", tar_with_a_list_for_a_file),
    "pipeline command a string": ("tracebacks", pipeline_command_of_type("score x --output y")),
    "pipeline command a number": ("tracebacks", pipeline_command_of_type(7)),
    "UTF-16 text": ("tracebacks", utf16_text),
}
# Scenarios that need a private tmpfs; where none can be mounted they are reported as skipped.
NEEDS_TMPFS = {"disk full: --anonymize DIR", "disk full: split"}


def tmpfs_available(work: Path) -> bool:
    folder = work / "probe"
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=4k tmpfs {folder}"],
                          capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)
    return done.returncode == 0


def run_scenarios(work: Path, only: list[str] | None = None) -> list[dict]:
    """Run every scenario in a fresh folder under ``work``; one result per scenario."""
    results = []
    tmpfs = tmpfs_available(work)
    for n, (name, (group, check)) in enumerate(SCENARIOS.items()):
        if only and not any(o in name for o in only):
            continue
        if name in NEEDS_TMPFS and not tmpfs:
            results.append({"scenario": name, "group": group, "problems": [], "skipped": "no private tmpfs here"})
            continue
        folder = work / f"scenario-{n}"
        folder.mkdir(parents=True)
        try:
            problems = check(folder)
        except Exception as exc:  # a scenario that cannot even be checked is a failure, said in one line
            problems = [f"the check failed: {type(exc).__name__}: {exc}"]
        results.append({"scenario": name, "group": group, "problems": problems})
    return results
