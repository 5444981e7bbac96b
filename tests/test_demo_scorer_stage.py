"""``make demo`` trains the scorer as a stage, and its evaluate and score stages use that model:
the stage runs as configured (on a small corpus), is skipped on a rerun, and the report shows its
figures beside the contextual model's."""

from __future__ import annotations

import json

from rulings_anon import data
from rulings_anon.configs import config_path
from rulings_anon.jsonl import read_jsonl, write_json
from rulings_anon.pipeline.run_report import write_report
from rulings_anon.pipeline.runner import PipelineConfig, run_pipeline

DEMO = config_path("demo")
TRAIN = "{run}/split/train.tar.gz"


def _stage(config: dict, name: str) -> dict:
    return next(stage for stage in config["stages"] if stage["name"] == name)


def test_the_demo_trains_the_scorer_it_evaluates_and_scores_with():
    config = json.loads(DEMO.read_text(encoding="utf-8"))
    names = [stage["name"] for stage in config["stages"]]
    stage = _stage(config, "train-scorer")
    command = stage["command"]
    assert command[:2] == ["train-scorer", TRAIN] and stage["inputs"] == [TRAIN]
    assert command[command.index("--out") + 1] == "{run}/scorer"
    assert names.index("split") < names.index("train-scorer")
    # lower than the bundled model's 250 rounds of 3 boosters, so the demo stays short
    assert int(command[command.index("--rounds") + 1]) < 250
    assert int(command[command.index("--boosters") + 1]) < 3
    for name in ("evaluate-scorer", "score-example"):
        used = _stage(config, name)
        assert used["command"][used["command"].index("--model") + 1] == "{run}/scorer", name
        assert "{run}/scorer" in used["inputs"] and names.index(name) > names.index("train-scorer")
    assert not any("{data}/scorer" in part or part == "--features"
                   for s in config["stages"] for part in s["command"] + s["inputs"])
    assert config["report"]["scorer_model"] == "{run}/scorer"
    assert "train" in names and config["report"]["contextual"] == "{run}/evaluate-none.json"


def _small_corpus(path, courts=("bag", "bfh", "bgh"), per_court=2):
    """The first rulings with placeholders of three bundled courts: the least train-scorer fits on."""
    with open(path, "w", encoding="utf-8") as out:
        for court in courts:
            kept = 0
            for record in read_jsonl(data.ler_corpus_files([court])[0]):
                if kept == per_court:
                    break
                if record["spans"]:
                    record.pop("entities", None)
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
                    kept += 1
    return path


def test_the_stage_runs_once_and_the_report_shows_its_model(tmp_path):
    demo = json.loads(DEMO.read_text(encoding="utf-8"))
    stage = _stage(demo, "train-scorer")
    corpus = str(_small_corpus(tmp_path / "train.jsonl"))
    command = [corpus if part == TRAIN else part for part in stage["command"]]
    command[command.index("--rounds") + 1] = "5"  # the demo's settings would take a minute here
    config_file = tmp_path / "demo.json"
    config_file.write_text(json.dumps({
        "run_dir": str(tmp_path / "run"),
        "stages": [{**stage, "command": command, "inputs": [corpus]}],
        "report": {**demo["report"], "stats": None, "detector": None, "evaluation": None, "curves": []},
    }), encoding="utf-8")
    config = PipelineConfig.load(config_file)
    logs = []
    run_pipeline(config, log=logs.append)
    assert logs[-1].startswith("[1/1] train-scorer: done")
    model = json.loads((tmp_path / "run" / "scorer" / "config.json").read_text(encoding="utf-8"))
    assert (model["boosters"], model["rounds"], model["courts"]) == (1, 5, ["bag", "bfh", "bgh"])
    logs.clear()
    run_pipeline(config, log=logs.append)
    assert logs == ["[1/1] train-scorer: up to date, skipped"]

    # what the evaluate stages would write: the report takes its figures from them
    run = tmp_path / "run"
    for name, (recall, precision) in (("evaluate-scorer", (0.9, 0.75)), ("evaluate-none", (0.5, 0.4))):
        write_json(run / f"{name}.json", {"metrics": {"recall": recall, "precision": precision, "f1": 0.5},
                                          "leaks": {"missed_per_10k": 1.5, "documents_with_missed_name": 3,
                                                    "documents": 10}})
    report = write_report(config).read_text(encoding="utf-8")
    threshold = model["thresholds"][model["default_rule"]]
    assert f"| sensitivity model of this run (`train-scorer`, threshold {threshold:g} ({model['default_rule']})) " \
           f"| 90.0 | 75.0 | 50.0 | 1.50 | 3 of 10 |" in report
    assert "| contextual model of this run (method none) | 50.0 | 40.0 | 50.0 | 1.50 | 3 of 10 |" in report
    assert f"`{run / 'scorer'}`: 1 booster(s) of 5 rounds" in report and "BAG, BFH, BGH" in report
