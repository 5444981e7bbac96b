"""rulings_anon/configs/gpu.json is the output of rulings_anon/configs/gpu_config.py over rulings_anon/configs/gpu_table.json."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_generator():
    spec = importlib.util.spec_from_file_location("gpu_config", ROOT / "rulings_anon" / "configs" / "gpu_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generator_reproduces_the_shipped_gpu_config_exactly():
    generator = load_generator()
    assert generator.generate() == (ROOT / "rulings_anon" / "configs" / "gpu.json").read_text(encoding="utf-8"), (
        "rulings_anon/configs/gpu.json differs from its table: edit rulings_anon/configs/gpu_table.json and run python rulings_anon/configs/gpu_config.py")


def test_each_model_row_gives_a_train_stage_and_one_evaluation_per_method():
    generator = load_generator()
    table = json.loads((ROOT / "rulings_anon" / "configs" / "gpu_table.json").read_text(encoding="utf-8"))
    names = [stage["name"] for stage in generator.build(table)["stages"]]
    methods = table["evaluation"]["methods"]
    more = table["more_combinations"]
    assert len(names) == len(set(names))
    assert len(names) == (len(table["before"]) + len(table["after"]) + len(table["models"]) * (1 + len(methods))
                          + len(more["models"]) * len(more["combinations"]))
    assert "train-RNN1-M2-nocand" in names and "evaluate-RNN2-M7-cand-ner-mean" in names
    glove = generator.train_stage(dict(zip(table["models_columns"], ["glove", "LORNN1", "M1", False, 50])),
                                  table["embeddings"]["glove"])
    assert "--masking" not in glove["command"] and "--no-candidates" in glove["command"]
