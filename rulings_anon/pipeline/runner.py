"""The pipeline runner behind ``rulings-anon pipeline --config FILE`` and ``make demo``.

A pipeline config is data (``rulings_anon/configs/demo.json``, ``rulings_anon/configs/gpu.json``): a run directory and a
list of stages, each a ``rulings-anon`` command line with the files it reads and writes::

    {"run_dir": "runs/demo",
     "stages": [{"name": "split",
                 "command": ["split", "{run}/corpus", "--out", "{run}/split", "--holdout-court", "bsg"],
                 "inputs": ["{run}/corpus"], "outputs": ["{run}/split/test.tar.gz"]}, ...]}

``{run}`` is the run directory, ``{data}`` the package's data folder. A stage is skipped when its
outputs exist and a fingerprint of its command and of the *contents* of its inputs equals the one
stored after its last successful run (``{run}/.stages/<name>.json``), so a second run only
repeats what changed. ``stdout`` names a file that receives what the command prints (the JSON of
``evaluate --json``). Every stage's wall time is kept for the report.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rulings_anon import data
from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_writer, read_json, write_json


@dataclass
class Stage:
    name: str
    command: list[str]
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    stdout: str | None = None
    description: str = ""


def _strings(entry: dict, key: str, path) -> list[str]:
    """A stage's list of strings ``key``; anything else is refused in one line (a command given as
    one string would otherwise run as its single characters)."""
    value = entry.get(key, [])
    needed = "a non-empty list" if key == "command" else "a list"
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value) \
            or (key == "command" and not value):
        raise InputError(f"stage {str(entry['name'])[:60]!r}: {key!r} must be {needed} of strings, "
                         'e.g. ["split", "{run}/corpus"]', path)
    return value


@dataclass
class PipelineConfig:
    run_dir: Path
    stages: list[Stage]
    source: Path | None = None
    extra: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path) -> PipelineConfig:
        raw = read_json(path)
        if not isinstance(raw, dict) or "stages" not in raw:
            raise InputError("a pipeline config needs 'stages' (a list) and 'run_dir'", path)
        run_dir = Path(raw.get("run_dir", "runs/pipeline"))
        values = {"run": str(run_dir), "data": str(data.DATA_DIR)}

        def expand(text: str) -> str:
            try:
                return text.format(**values)
            except (KeyError, IndexError) as exc:
                raise InputError(f"unknown placeholder {exc} in {text!r}", path) from None

        if not isinstance(raw["stages"], list):
            raise InputError("'stages' must be a list of stages", path)
        stages, names = [], set()
        for i, entry in enumerate(raw["stages"]):
            if not isinstance(entry, dict) or "name" not in entry or "command" not in entry:
                raise InputError(f"stage {i + 1} needs 'name' and 'command'", path)
            check_stage_name(entry["name"], i, path)
            if entry["name"] in names:  # each stage keeps its stamp and timing under its name
                raise InputError(f"two stages are named {entry['name']!r}; stage names must be unique", path)
            names.add(entry["name"])
            stages.append(Stage(
                name=entry["name"],
                command=[expand(a) for a in _strings(entry, "command", path)],
                inputs=[expand(p) for p in _strings(entry, "inputs", path)],
                outputs=[expand(p) for p in _strings(entry, "outputs", path)],
                stdout=expand(entry["stdout"]) if entry.get("stdout") else None,
                description=entry.get("description", ""),
            ))
        for stage in stages:
            _check_stdout(stage, path)
        extra = {k: v for k, v in raw.items() if k not in ("run_dir", "stages")}
        return cls(run_dir, stages, Path(path), extra)


def check_stage_name(name, number: int, config) -> None:
    """Refuse a stage name that is no plain file name: the stage's stamp is
    ``{run}/.stages/<name>.json``, so ``../../x``, an absolute path or a separator would write
    outside the run folder."""
    shown = repr(name)[:80]
    if not isinstance(name, str) or not name.strip() or set(name) <= {"."}:
        raise InputError(f"stage {number + 1}: the name {shown} is no stage name; give a plain word", config)
    if any(c in name for c in ("/", "\\", "\0", os.sep)) or Path(name).is_absolute():
        raise InputError(f"stage {number + 1}: the name {shown} holds a path separator; stage names are "
                         "plain words (they name files in the run folder)", config)


def _check_stdout(stage: Stage, config) -> None:
    """Refuse a stage whose ``stdout`` file is one of its inputs or the config itself."""
    from rulings_anon.output_paths import check_outputs, inputs, output

    try:
        check_outputs([output("stdout", stage.stdout)], inputs("inputs", stage.inputs) + inputs("config", config))
    except InputError as exc:
        raise InputError(f"stage {stage.name!r}: {exc}", config) from None


def fingerprint(stage: Stage) -> str:
    """Hash of the stage's command and of the contents of every input file (folders recursively)."""
    digest = hashlib.sha256(json.dumps(stage.command).encode())
    for raw in stage.inputs:
        path = Path(raw)
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if any(part.startswith(".") for part in file.parts[len(path.parts):]):
                continue  # stage stamps, temporary files
            digest.update(str(file).encode())
            if file.exists():
                with open(file, "rb") as handle:
                    for block in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(block)
            else:
                digest.update(b"<missing>")
    return digest.hexdigest()


def _stamp_path(run_dir: Path, stage: Stage) -> Path:
    """Where the stage's fingerprint is kept; never outside ``{run}/.stages``."""
    stamps = run_dir / ".stages"
    path = stamps / f"{stage.name}.json"
    if path.parent != stamps:
        raise InputError(f"stage {stage.name!r}: its stamp {path} lies outside {stamps}")
    return path


def is_current(run_dir: Path, stage: Stage, print_fn=None) -> bool:
    """Whether the stage's outputs exist and its inputs and command are unchanged."""
    stamp = _stamp_path(run_dir, stage)
    if not stamp.exists() or not all(Path(p).exists() for p in stage.outputs):
        return False
    try:
        stored = read_json(stamp)
    except InputError:
        return False
    return stored.get("fingerprint") == fingerprint(stage)


def run_command(argv: list[str], stdout_path: str | None = None) -> int:
    """Run one ``rulings-anon`` subcommand in this process (TensorFlow loads only once)."""
    from rulings_anon.cli import main

    if stdout_path is None:
        return main(argv)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(argv)
    with atomic_writer(stdout_path) as handle:
        handle.write(buffer.getvalue())
    return code


def run_pipeline(config: PipelineConfig, only: list[str] | None = None, force: bool = False,
                 log=print) -> dict:
    """Run (or skip) every stage in order; returns ``{stage: {"seconds", "skipped"}}``."""
    run_dir = config.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    timings_path = run_dir / "timings.json"
    timings = read_json(timings_path) if timings_path.exists() else {}
    for number, stage in enumerate(config.stages, 1):
        if only and stage.name not in only:
            continue
        header = f"[{number}/{len(config.stages)}] {stage.name}"
        if not force and is_current(run_dir, stage):
            log(f"{header}: up to date, skipped")
            timings.setdefault(stage.name, {})["skipped"] = True
            continue
        log(f"{header}: rulings-anon {' '.join(stage.command)}")
        sys.stdout.flush()
        start = time.perf_counter()
        code = run_command(stage.command, stage.stdout)
        seconds = time.perf_counter() - start
        if code != 0:
            raise InputError(f"stage {stage.name!r} failed with exit code {code}", config.source)
        missing = [p for p in stage.outputs if not Path(p).exists()]
        if missing:
            raise InputError(f"stage {stage.name!r} did not write {', '.join(missing)}", config.source)
        write_json(_stamp_path(run_dir, stage), {"fingerprint": fingerprint(stage), "seconds": seconds,
                                                 "finished": time.strftime("%Y-%m-%dT%H:%M:%S")})
        timings[stage.name] = {"seconds": round(seconds, 2), "skipped": False}
        write_json(timings_path, timings)
        log(f"{header}: done in {seconds:.1f} s")
    write_json(timings_path, timings)
    return timings


def environment_summary() -> str:
    """One line about the machine for the report."""
    return f"{os.cpu_count()} CPU cores, Python {sys.version.split()[0]}"
