"""Write ``rulings_anon/configs/gpu.json`` from the table in ``rulings_anon/configs/gpu_table.json``.

The GPU pipeline trains every architecture variant of the thesis (Tables 5.2, 5.3, 6.2-6.4) and
evaluates each with the three methods of thesis 5.5.3. Written out, that is over a hundred stages
that differ only in a variant, a masking scheme, the candidate setting, the epochs and a method;
the table holds one row per model and this script expands it:

- each model row ``[embedding, variant, masking, candidates, epochs]`` gives one ``train`` stage
  (named ``train-VARIANT-MASKING-cand|nocand``) and, for each evaluation method, one ``evaluate``
  stage; ``ner`` judges the NER's references with the model (``--combine``), and the models listed
  under ``more_combinations`` get an ``evaluate`` stage for each further combination; the evaluate
  stages (but ``random``) of the models under the evaluation's ``curves`` also write the
  precision-recall curve the report draws (``--curve``);
- the stages before the models (import, split, pretraining, preprocessing, the NER, the test set),
  after them, and the report section are copied as they stand.

Edit the table, then regenerate and check::

    python rulings_anon/configs/gpu_config.py            # writes rulings_anon/configs/gpu.json
    python rulings_anon/configs/gpu_config.py --check    # exit status 1 when rulings_anon/configs/gpu.json is out of date

The script needs only the standard library; ``tests/test_gpu_config.py`` checks that the shipped
``rulings_anon/configs/gpu.json`` is its output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE = HERE / "gpu_table.json"
OUTPUT = HERE / "gpu.json"


def model_name(variant: str, masking: str, candidates: bool) -> str:
    """The model's name in stage names and paths, e.g. ``RNN1-M2-nocand``."""
    return f"{variant}-{masking}-{'cand' if candidates else 'nocand'}"


def _stage(name: str, command: list[str], inputs: list[str], outputs: list[str], description: str = "",
           stdout: str | None = None) -> dict:
    stage = {"name": name, "description": description, "command": command, "inputs": inputs, "outputs": outputs}
    if stdout is not None:
        stage["stdout"] = stdout
    return stage


def train_stage(row: dict, embedding: dict) -> dict:
    """The ``train`` stage of one model row."""
    name = model_name(row["variant"], row["masking"], row["candidates"])
    out = f"{{run}}/models/{name}"
    command = ["train", "--restart", "--data", embedding["data"], "--variant", row["variant"]]
    if embedding["masking"]:
        command += ["--masking", row["masking"]]
    command += ["--candidates" if row["candidates"] else "--no-candidates", "--epochs", str(row["epochs"]),
                "--out", out, *embedding["options"]]
    return _stage(f"train-{name}", command, [embedding["data"], *embedding["inputs"]], [f"{out}/config.json"])


def evaluate_stages(row: dict, embedding: dict, table: dict) -> list[dict]:
    """The ``evaluate`` stages of one model row: each method, and the further combinations."""
    evaluation = table["evaluation"]
    more = table.get("more_combinations", {})
    name = model_name(row["variant"], row["masking"], row["candidates"])
    model = f"{{run}}/models/{name}"
    runs = []  # (suffix, method, combination, description)
    for method in evaluation["methods"]:
        if method != "ner":
            runs.append((method, method, None, ""))
            continue
        runs.append(("ner", "ner", evaluation["ner_combination"], ""))
        if name in more.get("models", ()):
            runs += [(f"ner-{combination}", "ner", combination, more["description"].format(combination=combination))
                     for combination in more["combinations"]]
    stages = []
    for suffix, method, combination, description in runs:
        command = ["evaluate", "--model", model, "--test", evaluation["test"], "--method", method, "--json",
                   "--report", evaluation["report"], "--validation", embedding["data"]]
        inputs = [model, evaluation["test"]]
        if combination is not None:
            command += ["--ner", evaluation["ner"], "--combine", combination]
            inputs.append(evaluation["ner"])
        output = f"{{run}}/eval/{name}-{suffix}.json"
        outputs = [output]
        if name in evaluation.get("curves", ()) and method != "random":
            outputs.append(f"{{run}}/eval/{name}-{suffix}-curve.json")
            command += ["--curve", outputs[-1]]
        stages.append(_stage(f"evaluate-{name}-{suffix}", command, inputs, outputs, description, stdout=output))
    return stages


def build(table: dict) -> dict:
    """The pipeline config (the ``rulings-anon pipeline --config`` format) the table describes."""
    rows = [dict(zip(table["models_columns"], values, strict=True)) for values in table["models"]]
    embeddings = table["embeddings"]
    stages = list(table["before"])
    stages += [train_stage(row, embeddings[row["embedding"]]) for row in rows]
    for row in rows:
        stages += evaluate_stages(row, embeddings[row["embedding"]], table)
    stages += table["after"]
    return {"run_dir": table["run_dir"], "about": table["about"], "stages": stages, "report": table["report"]}


def render(config: dict) -> str:
    """The config as the checked-in file spells it."""
    return json.dumps(config, indent=1, ensure_ascii=False) + "\n"


def generate(table_path: Path = TABLE) -> str:
    """The text of ``rulings_anon/configs/gpu.json`` for the table at ``table_path``."""
    return render(build(json.loads(table_path.read_text(encoding="utf-8"))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", type=Path, default=TABLE, help="the table (default rulings_anon/configs/gpu_table.json)")
    parser.add_argument("--out", type=Path, default=OUTPUT, help="the config to write (default rulings_anon/configs/gpu.json)")
    parser.add_argument("--check", action="store_true", help="only compare with --out; exit status 1 if it differs")
    args = parser.parse_args()
    text = generate(args.table)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is not the output of {args.table}: run python rulings_anon/configs/gpu_config.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(json.loads(text)['stages'])} stages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
