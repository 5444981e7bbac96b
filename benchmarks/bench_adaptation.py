"""The adaptation curve: what a court's own reviewed rulings add to the model fitted on the others.

For each of the six bundled courts left out: the model is fitted, as ``train-scorer`` fits it, on
the other five courts' weak labels (their placeholders with the German surrogates) and on 0, 5,
10 or 20 of the left-out court's rulings as reviewed gold (``train-scorer --gold``: its LER gold
with the ``foreign`` surrogates, exact labels, each row weighted ``--weights``), and measured on
that court's other rulings: a split fixed per ``--seeds`` seed, the same rulings for every n (the
first 20 of a permutation are the gold, n of them used; the rest are measured). The threshold is
the default rule's, chosen on the five courts' inner folds as ``train-scorer`` chooses it (the
reviewed rulings take no part). Recall, precision and the share of documents that keep a sensitive
word in clear, of the decision ``score`` makes, element level as ``evaluate``.

    nice -n 10 .venv/bin/python benchmarks/bench_adaptation.py [--courts bag,...] [--weights 1,5,20]
        [--seeds 0,1] [--boosters 1] [--cache /tmp/scorer-cache] [--json out.json]

The training, the folds, the fit with gold and the decision are the library's
(:func:`rulings_anon.analyzer.scorer_training.fit_all`, :func:`~rulings_anon.analyzer.scorer_training.gold_features`,
:mod:`rulings_anon.analyzer.decision_metrics`); features are cached under ``--cache`` as
``bench_scorer_loco.py`` and ``train-scorer`` cache them. The measured rulings' features are those
of the whole court (as ``bench_scorer_loco.py`` computes them), each ruling decided alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_scorer_loco import COURTS, anonymized_records, court_features

from rulings_anon import data
from rulings_anon.analyzer import decision_metrics as dm
from rulings_anon.analyzer import scorer_training as st
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer import threshold_rules as tr
from rulings_anon.evaluation.testset import gold_records

SIZES = (0, 5, 10, 20)


def subset(court: sm.CourtFeatures, records: list[dict], documents: list[int]) -> sm.CourtFeatures:
    """``court``'s rows of ``documents`` (sorted numbers of ``records``, the rulings its features
    were extracted from), renumbered, with their sensitive elements counted and their particles
    between candidates registered (:func:`decision_metrics.name_gaps`)."""
    from rulings_anon.document import Span, element_labels, split_elements

    mask = np.isin(court.documents, documents)
    chosen = [records[d] for d in documents]
    n_elements = n_positive = 0
    for record in chosen:
        elements = split_elements(record["text"])
        n_elements += len(elements)
        n_positive += sum(element_labels(elements, [Span(s["start"], s["end"]) for s in record["spans"]]))
    kept = np.flatnonzero(mask)
    part = sm.CourtFeatures(court.rows[mask], [court.keys[i] for i in kept], [court.lookup_keys[i] for i in kept],
                            [court.words[i] for i in kept], court.labels[mask],
                            np.searchsorted(documents, court.documents[mask]).astype(np.int32),
                            court.elements[mask], n_elements, n_positive,
                            court.joined[mask] if court.joined is not None else None,
                            {name: marked[mask] for name, marked in court.marks.items()})
    dm.register_gaps(part, dm.name_gaps(chosen, part))
    return part


def measured(model: sm.SensitivityModel, court: sm.CourtFeatures, threshold: float) -> dict:
    probabilities = model.predict_court(court)
    return {**dm.decided(court, probabilities, threshold, True), **dm.missed_documents(court, probabilities, threshold),
            "average_precision": dm.average_precision(court, probabilities)}


def table(results: dict, courts: list[str], keys: list[str]) -> str:
    """Recall / precision / documents missed per court and their mean, a row per n and weight."""
    lines = ["| gold rulings (weight) | " + " | ".join(courts) + " | mean |", "|" + " --- |" * (len(courts) + 2)]
    for key in keys:
        cells, means = [], {k: [] for k in ("recall", "precision", "documents_missed")}
        for court in courts:
            runs = results[court][key]  # one per split seed: their mean
            m = {k: float(np.mean([r[k] for r in runs])) for k in means}
            cells.append(f"{100 * m['recall']:.1f} / {100 * m['precision']:.1f} / {100 * m['documents_missed']:.0f}")
            for k in means:
                means[k].append(m[k])
        mean = {k: 100 * float(np.mean(v)) for k, v in means.items()}
        lines.append(f"| {key} | " + " | ".join(cells)
                     + f" | {mean['recall']:.1f} / {mean['precision']:.1f} / {mean['documents_missed']:.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--courts", default=",".join(COURTS), help="courts to leave out in turn")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "scorer-cache")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="reviewed rulings added (default 0,5,10,20)")
    parser.add_argument("--weights", default=str(st.GOLD_WEIGHT), help="gold weights to try (comma-separated)")
    parser.add_argument("--seeds", default="0", help="seeds of the split into gold and measured rulings")
    parser.add_argument("--rounds", type=int, default=sm.PARAMS["rounds"])
    parser.add_argument("--boosters", type=int, default=sm.BOOSTERS)
    parser.add_argument("--rule", choices=sorted(tr.RULES), default=tr.DEFAULT_RULE, help="the decision's rule")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args(argv)
    courts = [c for c in args.courts.split(",") if c]
    sizes = sorted(int(x) for x in args.sizes.split(","))
    weights = [float(x) for x in args.weights.split(",")]
    seeds = [int(x) for x in args.seeds.split(",")]
    args.cache.mkdir(parents=True, exist_ok=True)
    cache = st.FeatureCache(args.cache)
    anonymized = {c: anonymized_records(c) for c in COURTS}
    train = st.group_features(anonymized, cache)
    clears = {c: sf.clear_counts(anonymized[c]) for c in COURTS}
    fits = st.GroupedFits(train, clears, rounds=args.rounds, boosters=args.boosters, records=anonymized)
    keys = ["0"] + [f"{n} ({w:g})" for n in sizes if n for w in weights]
    results: dict[str, dict] = {}
    for court in courts:
        started = time.perf_counter()
        others = [c for c in COURTS if c != court]
        threshold = tr.choose(fits.out_of_fold(others), args.rule, True)
        background = sm.Background.of([r for c in others for r in anonymized[c]])
        whole = court_features(court, "foreign", args.cache)
        records = list(gold_records(data.ler_corpus_files([court]), names="foreign"))
        results[court] = {key: [] for key in keys}
        results[court]["threshold"] = threshold
        for seed in seeds:
            order = np.random.default_rng(seed).permutation(len(records))
            pool, rest = order[:max(sizes)], sorted(int(d) for d in order[max(sizes):])
            test = subset(whole, records, rest)
            for n in sizes:
                for weight in weights if n else [None]:
                    gold = [records[int(d)] for d in pool[:n]]
                    reviewed = (st.gold_features(gold, cache), sf.clear_counts(gold)) if n else None
                    model = st.fit_all(fits, others, reviewed, weight or st.GOLD_WEIGHT)
                    model.background = background
                    m = measured(model, test, threshold)
                    key = "0" if not n else f"{n} ({weight:g})"
                    results[court][key].append(m)
                    print(f"{court} seed {seed} gold {key}: recall {100 * m['recall']:.1f}, precision "
                          f"{100 * m['precision']:.1f}, documents missed {100 * m['documents_missed']:.0f}, "
                          f"average precision {100 * m['average_precision']:.1f}", flush=True)
        print(f"{court} ({time.perf_counter() - started:.0f} s, threshold {threshold:g})", flush=True)
    print("recall / precision / documents with a sensitive word missed (%), "
          f"on the rulings not used as gold, seeds {args.seeds}, {args.boosters} booster(s) of {args.rounds} rounds")
    print(table(results, courts, keys))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
