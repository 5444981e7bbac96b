"""Run ``rulings_anon/configs/gpu.json`` scaled down on a CPU, to find a broken stage before GPU time is spent.

The GPU pipeline (108 stages: pretraining, both preprocessings, the NER, every variant of the
thesis, their evaluations, the report) runs for hours on a GPU and could not be run here. This
script writes a copy of it in which every stage keeps its command but trains for a few steps
(pretraining 10 steps of a 2-layer encoder, the NER one epoch on 10 rulings, each variant 4
steps, GloVe 2 epochs) and runs it with ``rulings-anon pipeline``. Its first run found three
stages that would have stopped the GPU run (Table 6.3's evaluations naming no combination,
``train-ner`` unable to read the split archive, ``--masking M1`` on the GloVe variants).

By default only the evaluations of the report's curve model and of one variant of each kind
(BERT without candidates, BERT leave-out, GloVe leave-out, a min combination) run;
``--all-evaluations`` runs all of them (about 20 minutes more on 2 cores).

    .venv/bin/python benchmarks/check_gpu_config.py --run-dir /tmp/gpu-check

About 15 minutes on 2 CPU cores; a second run skips the finished stages.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

SMALL = {
    "pretrain": {"--steps": "10", "--layers": "2", "--hidden": "64", "--heads": "2", "--intermediate": "128",
                 "--batch-size": "4"},
    "preprocess-glove": {"--glove-epochs": "2"},
    "train-ner": {"--epochs": "1", "--max-docs": "10"},
}
TRAIN = {"--max-steps": "4", "--epochs": "1"}
EVALUATED = ("FT-M3-cand", "RNN1-M2-nocand", "LOConv1-M3-nocand", "LOConv2-M1-nocand")


def _set(command: list[str], options: dict[str, str]) -> list[str]:
    command = list(command)
    for flag, value in options.items():
        if flag in command:
            command[command.index(flag) + 1] = value
        else:
            command += [flag, value]
    return command


def scaled(config: dict, run_dir: str, all_evaluations: bool = False) -> dict:
    """``config`` with every training shortened and, unless ``all_evaluations``, fewer evaluations."""
    stages = []
    for stage in config["stages"]:
        name = stage["name"]
        if (name.startswith("evaluate-") and not all_evaluations
                and not any(f"-{model}-" in name for model in EVALUATED) and not name.endswith("-min")):
            continue
        options = SMALL.get(name, TRAIN if name.startswith("train-") else {})
        stages.append({**stage, "command": _set(stage["command"], options)})
    return {**config, "run_dir": run_dir, "stages": stages}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="rulings_anon/configs/gpu.json")
    parser.add_argument("--run-dir", default="runs/gpu-check", help="where the scaled run writes (default runs/gpu-check)")
    parser.add_argument("--all-evaluations", action="store_true", help="run every evaluation stage")
    args = parser.parse_args()
    config = scaled(json.loads(Path(args.config).read_text(encoding="utf-8")), args.run_dir, args.all_evaluations)
    path = Path(args.run_dir) / "gpu-check.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{path}: {len(config['stages'])} of the {args.config} stages, scaled down", file=sys.stderr)
    return subprocess.call([sys.executable, "-m", "rulings_anon", "pipeline", "--config", str(path)])


if __name__ == "__main__":
    sys.exit(main())
