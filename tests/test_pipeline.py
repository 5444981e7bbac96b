"""The pipeline runner: stages run in order, are skipped when unchanged, rerun when inputs change."""

import json

import pytest

from rulings_anon.errors import InputError
from rulings_anon.pipeline.runner import PipelineConfig, is_current, run_pipeline


def write_config(tmp_path, docs):
    config = {
        "run_dir": str(tmp_path / "run"),
        "stages": [
            {"name": "detect", "command": ["detect-placeholders", str(docs), "--output", "{run}/spans.jsonl"],
             "inputs": [str(docs)], "outputs": ["{run}/spans.jsonl"]},
            {"name": "validate", "command": ["validate-placeholders", str(docs), "--json"],
             "inputs": [str(docs), "{run}/spans.jsonl"], "outputs": ["{run}/metrics.json"],
             "stdout": "{run}/metrics.json"},
        ],
    }
    path = tmp_path / "pipeline.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def test_second_run_skips_and_a_changed_input_reruns(tmp_path):
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "a", "text": "Herr K. kam.", "spans": [{"start": 5, "end": 7}]}) + "\n",
                    encoding="utf-8")
    config = PipelineConfig.load(write_config(tmp_path, docs))
    logs = []
    run_pipeline(config, log=logs.append)
    assert [line.split(":")[0] for line in logs if line.endswith("s")] == ["[1/2] detect", "[2/2] validate"]
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert (metrics["tp"], metrics["fp"], metrics["fn"]) == (1, 0, 0)

    logs.clear()
    run_pipeline(config, log=logs.append)
    assert logs == ["[1/2] detect: up to date, skipped", "[2/2] validate: up to date, skipped"]

    docs.write_text(json.dumps({"id": "a", "text": "Frau B. und Herr K. kamen.",
                                "spans": [{"start": 5, "end": 7}]}) + "\n", encoding="utf-8")
    assert not is_current(config.run_dir, config.stages[0])
    logs.clear()
    run_pipeline(config, log=logs.append)
    assert not any("skipped" in line for line in logs)
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert (metrics["tp"], metrics["fp"]) == (1, 1)
    timings = json.loads((tmp_path / "run" / "timings.json").read_text())
    assert set(timings) == {"detect", "validate"} and timings["detect"]["skipped"] is False


def test_a_failing_stage_stops_the_run_and_is_not_marked_done(tmp_path):
    docs = tmp_path / "docs.jsonl"
    docs.write_text("{broken\n", encoding="utf-8")
    config = PipelineConfig.load(write_config(tmp_path, docs))
    with pytest.raises(InputError, match="stage 'detect' failed"):
        run_pipeline(config, log=lambda line: None)
    assert not is_current(config.run_dir, config.stages[0])


def test_bad_configs_name_the_problem(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"stages": [{"name": "x"}]}), encoding="utf-8")
    with pytest.raises(InputError, match="stage 1 needs 'name' and 'command'"):
        PipelineConfig.load(path)
    path.write_text(json.dumps({"stages": [{"name": "x", "command": ["{nope}"]}]}), encoding="utf-8")
    with pytest.raises(InputError, match="unknown placeholder"):
        PipelineConfig.load(path)


def test_shipped_configs_load():
    for name in ("rulings_anon/configs/demo.json", "rulings_anon/configs/gpu.json"):
        config = PipelineConfig.load(name)
        names = [s.name for s in config.stages]
        assert len(names) == len(set(names))
        assert names[:2] == ["import", "split"] and "testset" in names


@pytest.mark.parametrize("name", ["rulings_anon/configs/demo.json", "rulings_anon/configs/gpu.json"])
def test_shipped_configs_parse_and_use_every_model_they_name(name):
    """Each stage's command is one the CLI accepts, a train stage's variant takes its masking
    options, and an evaluate or score stage that names a contextual model lets it judge: with
    --combine ner it would be refused. (The GPU config's Table 6.3 stages once left the combination
    at the NER-alone default, and its GloVe stages passed --masking M1, which leave-out variants
    refuse: either would have stopped the run there.)"""
    from rulings_anon.cli import build_parser
    from rulings_anon.models.training import TrainOptions, resolve_defaults
    from rulings_anon.models.variants import get_variant
    from rulings_anon.scoring.commands import check_model_option, use_features

    parser = build_parser()
    checked = 0
    for stage in PipelineConfig.load(name).stages:
        args = parser.parse_args(stage.command)
        if stage.command[0] == "train":
            options = TrainOptions(args.data, args.variant, args.out, args.masking, args.candidates)
            resolve_defaults(options, get_variant(args.variant))
        if stage.command[0] in ("evaluate", "score"):
            use_features(args, default=stage.command[0] == "score")  # --features, score's default
            method = args.method if stage.command[0] == "evaluate" else ("none" if args.no_ner else "ner")
            needs_model = check_model_option(args, method)
            assert needs_model == (args.model is not None), stage.name
            checked += 1
    assert checked >= (6 if name.endswith("demo.json") else 74)
