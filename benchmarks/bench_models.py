"""Training and scoring speed of a BERT and a GloVe variant on the bundled corpus (README "Measured").

    python benchmarks/bench_models.py [--bert-variant Conv4] [--glove-variant LOConv2] [--steps 30]

Preprocesses the dev courts (BERT: a learned 8,000-piece WordPiece vocabulary, 128-token sequences;
GloVe: 3 epochs of corpus vectors), trains each variant ``--steps`` steps with the thesis batch size
and reports steps per second (after the first, traced, step) and, on a GPU, peak GPU memory; then
scores ``--documents`` rulings of the held-out court with each trained model (``Predictor``, the
API ``rulings-anon score`` uses) and reports elements per second, preprocessing included.

Without ``--encoder`` the BERT is an untrained encoder of the ``pretrain`` defaults (2 layers, width
128): speed depends on its shape, not its weights.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from rulings_anon import data
from rulings_anon.cli import main as cli
from rulings_anon.defaults import DEV_COURTS, HELD_OUT_COURTS
from rulings_anon.inputs import read_documents
from rulings_anon.jsonl import write_json


def preprocess(kind: str, out: Path, courts: list[str]) -> Path:
    if (out / "format.json").exists():
        return out
    files = [str(f) for f in data.ler_corpus_files(courts)]
    options = (["--wordpiece-vocab-size", "8000", "--max-seq-len", "128"] if kind == "bert"
               else ["--glove-epochs", "3"])
    code = cli(["preprocess", *files, "--out", str(out), "--tokenizer", kind, *options])
    if code:
        raise SystemExit(f"preprocess {kind} failed")
    return out


def train_speed(data_dir: Path, variant: str, out: Path, steps: int, encoder: str | None) -> dict:
    """Steps per second over ``steps`` steps after the first (graph tracing) one."""
    from rulings_anon.models.training import Trainer, TrainOptions

    shutil.rmtree(out, ignore_errors=True)  # a fresh run, not a resumed one
    summary = Trainer(TrainOptions(data=data_dir, variant=variant, out=out, epochs=100, max_steps=1 + steps,
                                   bert_handle=encoder, progress=False)).run()
    return {"variant": variant, "steps": steps, "steps_per_second": summary["steps_per_second"],
            "sequences_per_second": round(summary["steps_per_second"] * (6 if variant == "FT" else 16), 2),
            "peak_gpu_memory_mib": summary["peak_gpu_memory_mib"]}


def score_speed(model_dir: Path, documents: list) -> dict:
    from rulings_anon.models.predict import load_model

    predictor = load_model(model_dir)
    predictor.predict_documents(documents[:1])  # trace once
    elements = sum(len(d.text.split()) for d in documents)
    wall, cpu = time.perf_counter(), time.process_time()
    predictor.predict_documents(documents)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"documents": len(documents), "elements": elements, "seconds": round(wall, 2),
            "cpu_seconds": round(cpu, 2), "elements_per_second": round(elements / wall)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path("runs/bench-models"), help="working directory")
    parser.add_argument("--bert-variant", default="Conv4")
    parser.add_argument("--glove-variant", default="LOConv2")
    parser.add_argument("--encoder", help="BERT handle (default: an untrained encoder of the pretrain defaults)")
    parser.add_argument("--steps", type=int, default=30, help="timed training steps per variant")
    parser.add_argument("--documents", type=int, default=40, help="held-out rulings to score")
    args = parser.parse_args()

    from rulings_anon.models.hub_export import build_tiny_hub_encoder
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    work = args.work
    bert = preprocess("bert", work / "data-bert", DEV_COURTS)
    glove = preprocess("glove", work / "data-glove", DEV_COURTS)
    encoder = args.encoder
    if encoder is None:
        encoder = str(work / "encoder")
        if not (work / "encoder" / "saved_model.pb").exists():
            build_tiny_hub_encoder(encoder, bert / "tokenizer" / "vocab.txt", hidden=128, layers=2, heads=2,
                                   max_seq_len=128)
    documents = list(read_documents(data.ler_corpus_files(HELD_OUT_COURTS)))[: args.documents]
    device = "GPU" if tf.config.list_physical_devices("GPU") else f"CPU ({tf.config.threading.get_intra_op_parallelism_threads() or 'all'} threads)"
    results = {"device": device, "training": [], "scoring": []}
    for variant, data_dir in ((args.bert_variant, bert), (args.glove_variant, glove)):
        out = work / f"model-{variant}"
        results["training"].append(train_speed(data_dir, variant, out, args.steps, encoder))
        results["scoring"].append({"variant": variant, **score_speed(out, documents)})
    write_json(work / "results.json", results)
    print(json.dumps(results, indent=2))
    print(f"-> {work / 'results.json'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
