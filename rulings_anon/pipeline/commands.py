"""The pipeline command: run the whole job from a config (``make demo`` uses rulings_anon/configs/demo.json)."""

from __future__ import annotations

import argparse

from rulings_anon.cli import Command

DESCRIPTION = """\
Run fetch -> split -> preprocess -> train -> replace --auto -> evaluate -> score end to end, as
listed in a pipeline config (JSON). Each stage is skipped when its inputs and command have not
changed since its last successful run, so a second run is quick. Afterwards the report
(report.md and precision-recall.png in the run directory) is written.

examples:
  rulings-anon pipeline --config demo          # what `make demo` runs (rulings_anon/configs/demo.json)
  rulings-anon pipeline --config gpu           # the thesis's variants, on a GPU
  rulings-anon pipeline --config demo --only train --force
"""


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default="demo", metavar="CONFIG",
                   help="pipeline config JSON: a file, or the name of a config shipped in rulings_anon/configs "
                        "(demo, gpu; default: demo)")
    p.add_argument("--only", action="append", metavar="STAGE", help="run only this stage (repeatable)")
    p.add_argument("--force", action="store_true", help="run stages even when they are up to date")
    p.add_argument("--list", action="store_true", help="list the stages and whether each is up to date")


def _config_file(name: str):
    """A config file the user names, else the shipped config of that name (``demo``, ``gpu``), so the
    demo runs from an install as from the checkout."""
    from pathlib import Path

    from rulings_anon.configs import config_path

    path = Path(name)
    return path if path.exists() or config_path(name) is None else config_path(name)


def _run(args) -> int:
    from rulings_anon.pipeline.runner import PipelineConfig, is_current, run_pipeline

    config = PipelineConfig.load(_config_file(args.config))
    if args.list:
        for stage in config.stages:
            state = "up to date" if is_current(config.run_dir, stage) else "to run"
            print(f"{stage.name:<28}{state:<12}rulings-anon {' '.join(stage.command)}")
        return 0
    run_pipeline(config, args.only, args.force)
    if config.extra.get("report") and not args.only:
        from rulings_anon.pipeline.run_report import write_report

        path = write_report(config)
        print(f"report: {path}")
    return 0


COMMANDS = [Command("pipeline", "run the whole job end to end from a config", _configure, _run, DESCRIPTION)]
