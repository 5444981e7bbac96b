"""Leave one court out for the scorer with and without a contextual model's probability as a column.

The courts are split into folds of two (``--folds bag+bfh,bgh+bpatg,bsg+bverfg``); for each fold a
small contextual model (``train --variant Conv4 --masking P2``, pseudonymized with the German name
lists, a few hundred steps) is trained on the other courts' rulings. A court's rows then take
their ``context_prob`` from the model of its own fold, which never saw it: the training courts'
rows (German surrogates, as ``train-scorer``'s) and the left-out court's (the ``foreign``
surrogates, as ``bench_scorer_loco.py``'s test). The scorer is fitted as
``bench_scorer_loco.py`` fits it (the inner folds choose the thresholds, the rules of
``threshold_rules``), once without the column and once with it, on the same features, and the
left-out court is measured with the decision ``score`` makes (consistency, joined particles).

    nice -n 15 .venv/bin/python benchmarks/bench_scorer_context.py --encoder ENCODER --work /tmp/ctx \\
        --features /tmp/scorer-cache --courts bsg,bag [--steps 300] [--boosters 1]

``--features`` is a cache folder of ``bench_scorer_loco.py`` (``features-COURT-0-*.pkl`` and
``features-COURT-foreign-0-*.pkl``), read as it is whatever code digest its names hold, so that both
arms share the features of record. ``--work`` keeps the fold models and their probabilities: a
rerun skips what is there.
"""

from __future__ import annotations

import argparse
import json
import pickle
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from rulings_anon import data
from rulings_anon.analyzer import decision_metrics as dm
from rulings_anon.analyzer import scorer_training as st
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer import threshold_rules as tr
from rulings_anon.evaluation.testset import gold_records
from rulings_anon.jsonl import read_jsonl

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")


def cached_features(folder: Path, name: str) -> sm.CourtFeatures:
    """``features-NAME-*.pkl`` of ``folder`` (the newest), its particle gaps registered."""
    files = sorted(folder.glob(f"features-{name}-*.pkl"), key=lambda p: p.stat().st_mtime)
    if not files:
        raise SystemExit(f"{folder}: no features-{name}-*.pkl")
    features, gaps = pickle.loads(files[-1].read_bytes())
    dm.register_gaps(features, gaps)
    return features


def train_fold(fold: list[str], encoder: Path, work: Path, steps: int) -> Path:
    """The contextual model trained on the courts outside ``fold`` (kept in ``work``)."""
    name = "+".join(fold)
    model = work / f"model-without-{name}"
    if (model / "config.json").exists():
        return model
    corpus = [str(p) for p in data.ler_corpus_files([c for c in COURTS if c not in fold])]
    records = work / f"data-without-{name}"
    cli = [sys.executable, "-m", "rulings_anon"]
    if not (records / "stats.json").exists():
        subprocess.run(cli + ["preprocess", *corpus, "--out", str(records), "--labels", "gold", "--pseudonymize", "0",
                              "--bert-handle", str(encoder), "--max-seq-len", "128", "--quiet"], check=True)
    subprocess.run(cli + ["train", "--data", str(records), "--variant", "Conv4", "--masking", "P2", "--epochs", "1",
                          "--max-steps", str(steps), "--warmup-lr", "1e-3", "--initial-lr", "1e-3",
                          "--bert-handle", str(encoder), "--out", str(model), "--restart", "--quiet"], check=True)
    return model


def probabilities(model_dir: Path, records: list[dict], out: Path) -> list[np.ndarray]:
    """Per record each element's probability (kept in ``out``)."""
    if out.exists():
        stored = np.load(out)
        return [stored[str(i)] for i in range(len(stored.files))]
    from rulings_anon.document import Document
    from rulings_anon.scoring.prediction import ElementModel

    values = ElementModel(model_dir).probabilities([Document(str(r["id"]), r["text"]) for r in records])
    np.savez_compressed(out, **{str(i): v.astype(np.float32) for i, v in enumerate(values)})
    return values


def column(features: sm.CourtFeatures, values: list[np.ndarray]) -> np.ndarray:
    return np.array([values[d][e] for d, e in zip(features.documents, features.elements, strict=True)],
                    np.float32).reshape(-1, 1)


def measure(court, test, test_column, fits, anonymized) -> dict:
    others = [c for c in COURTS if c != court]
    validation = fits.out_of_fold(others)
    thresholds = tr.choose_all(validation, True)
    model = fits(others)
    model.background = sm.Background.of([r for c in others for r in anonymized[c]])
    n_documents = int(test.documents.max()) + 1
    batch = test if n_documents >= sm.BACKGROUND_BELOW else dm.in_batches(test, n_documents, model.background)
    p = model.predict_court(batch, test_column)
    result = {}
    for rule in (tr.DEFAULT_RULE, tr.RECALL_FIRST_RULE):
        t = thresholds[rule]
        result[rule] = {"threshold": t, **dm.decided(test, p, t, True), **dm.missed_documents(test, p, t)}
    result["average_precision"] = dm.average_precision(test, p)
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--encoder", type=Path, required=True, help="the BERT handle of the contextual models")
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--features", type=Path, required=True, help="bench_scorer_loco.py's feature cache")
    parser.add_argument("--courts", default="bsg,bag", help="courts to leave out in turn")
    parser.add_argument("--folds", default="bag+bfh,bgh+bpatg,bsg+bverfg")
    parser.add_argument("--steps", type=int, default=300, help="training steps of each contextual model")
    parser.add_argument("--boosters", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    folds = [f.split("+") for f in args.folds.split(",")]
    fold_of = {c: f for f in folds for c in f}
    started = time.perf_counter()
    models = {"+".join(f): train_fold(f, args.encoder, args.work, args.steps) for f in folds}
    print(f"contextual models: {time.perf_counter() - started:.0f} s", flush=True)
    anonymized = {c: list(read_jsonl(data.ler_corpus_files([c])[0])) for c in COURTS}
    train = {c: cached_features(args.features, f"{c}-0") for c in COURTS}
    left_out = [c for c in args.courts.split(",") if c]
    test = {c: cached_features(args.features, f"{c}-foreign-0") for c in left_out}
    columns, test_columns = {}, {}
    for c in COURTS:
        model = models["+".join(fold_of[c])]
        columns[c] = column(train[c], probabilities(model, st.training_records(anonymized[c], 0),
                                                    args.work / f"train-{c}.npz"))
        if c in left_out:
            records = list(gold_records(data.ler_corpus_files([c]), seed=0, names="foreign"))
            test_columns[c] = column(test[c], probabilities(model, records, args.work / f"test-{c}.npz"))
            dm.register_positives(test[c], dm.Positives.of(records))
    print(f"probabilities: {time.perf_counter() - started:.0f} s", flush=True)
    clears = {c: sf.clear_counts(anonymized[c]) for c in COURTS}
    results = {}
    fits = {"without": st.GroupedFits(train, clears, boosters=args.boosters),
            "with": st.GroupedFits(train, clears, boosters=args.boosters, extra=columns)}
    for c in left_out:  # court by court, both arms, so that a stopped run has whole courts
        for arm in ("without", "with"):
            results.setdefault(c, {})[arm] = measure(c, test[c], test_columns[c] if arm == "with" else None,
                                                     fits[arm], anonymized)
            r = results[c][arm][tr.DEFAULT_RULE]
            print(f"{c:>7} {arm:<7} default: recall {100 * r['recall']:.1f}, precision {100 * r['precision']:.1f}, "
                  f"documents with a person in clear {100 * r['documents_missed_person']:.1f} %  "
                  f"AP {100 * results[c][arm]['average_precision']:.1f}  ({time.perf_counter() - started:.0f} s)",
                  flush=True)
            if args.json:
                args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    for arm in ("without", "with"):
        for rule in (tr.DEFAULT_RULE, tr.RECALL_FIRST_RULE):
            ms = [results[c][arm][rule] for c in left_out]
            print(f"mean {arm:<7} {rule:<9}: recall {100 * np.mean([m['recall'] for m in ms]):.1f}, precision "
                  f"{100 * np.mean([m['precision'] for m in ms]):.1f}, documents with a person in clear "
                  f"{100 * np.mean([m['documents_missed_person'] for m in ms]):.1f} %")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
