"""Leave one court out for the sensitivity scorer (issue 22): fit on five courts, test on the sixth.

For each of the six bundled courts: the model (:mod:`rulings_anon.analyzer.sensitivity_model`) is fitted on
the other five courts' rulings pseudonymized by the project's generator (``names="all"``, the
placeholders the weak labels), its tables (context rates, words printed in clear) are learnt from
those five courts only, and thresholds are chosen on them alone: each of the five is left out of an
inner fit in turn, and a rule picks the threshold from the five inner courts' recall and precision.
The left-out court is then measured once, pseudonymized with the foreign names
(``names="foreign"``), which no feature uses. Element level, as ``evaluate``.

    .venv/bin/python benchmarks/bench_scorer_loco.py [--courts bag,bfh,...] [--cache /work/scorer-cache]

``--batch-sizes 1,10,20,50`` also scores the left-out court's documents in random batches of those
sizes (1: each alone), the model alone at the fold's default threshold, with and without the background rulings a
small batch is padded with (``sensitivity_model.BACKGROUND_BELOW``: drawn from the training courts'
anonymized rulings, as ``--save`` stores them).

``--boosters N`` fits N boosters per model with different seeds (default: as ``score``'s model,
``sensitivity_model.BOOSTERS``), the first ``--seed`` (default 0); ``--param feature_fraction=0.3``
overrides a booster setting of ``sensitivity_model.PARAMS`` (the seeds move the figures by about
1.5 points of average precision per court: judge a setting on three); ``--consistency`` also prints the default rule's figures with a
word flagged once flagged throughout its document (all name words, or only name-like ones);
``--clear-without-seats`` does not count a town printed after a court or an authority as printed
in clear.

The thresholds are chosen for the decision ``score`` makes, a word flagged once flagged throughout
its document (consistency) and the particle between two flagged words flagged with them ("Ybbs an
der Donau": :func:`name_gaps`), on the inner folds, and the rules are measured on the left-out court
the same way; their model-alone figures and those of thresholds chosen for the model alone (then
spread by consistency) are printed too. ``--model-alone`` chooses and measures them for the model's
probabilities alone, no consistency (what ``--sweep-only`` and the threshold-free figures always are).

Features per court and name source are cached under ``--cache`` (a few minutes for all six the
first time on two cores; then each run is the fits alone), rebuilt when ``sensitivity.py``,
``exemptions.py``, ``public_names.py``, ``common_words.py``, ``name_shape.py`` or
``data/name_affixes.json`` changed after them; the particles between candidates beside them, rebuilt
when the decision's joining (``decisions.py``, ``references.py``) changed too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np

import data
from evaluation.testset import gold_records
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.jsonl import read_jsonl

# share of the training surrogates' surnames and places invented: a name the model never saw
# must look like a name, not like a rare word
INVENTED = 0.0  # 0.5 tried: mean recall at 0.3 74.0 -> 68.1, precision 64.9 -> 63.5
# draws of the training surrogates, each placeholder another name in each (2 and 3 tried: the
# gains were calibration, docs/experiments.md)
DRAWS = 1
COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")
# the mean F2 of the inner folds is flat over a wide range of thresholds: "f2plateau" takes the
# highest threshold within this of the best, the precise end of the plateau
PLATEAU = 0.005
RULES = {"f1": "best mean F1", "f15": "best mean F1.5 (recall weighted 1.5:1)", "f2": "best mean F2 (recall weighted 2:1)",
         "f2plateau": f"highest threshold with mean F2 within {PLATEAU} of the best",
         "recall85": "highest threshold with mean recall >= 0.85",
         "recall90": "highest threshold with mean recall >= 0.90", "recall95": "highest threshold with mean recall >= 0.95",
         "recall97": "highest threshold with mean recall >= 0.97", "recall98": "highest threshold with mean recall >= 0.98",
         "lowest95": "highest threshold at which every validation court's recall is >= 0.95",
         "lowest96": "highest threshold at which every validation court's recall is >= 0.96"}
# the F rules' weights of recall against precision
F_BETA = {"f1": 1.0, "f15": 1.5, "f2": 2.0}
# --consistency: spread every name word (None), or only those below these German Zipf frequencies
NAME_LIKE_ZIPF = (None, 5.0, 4.5, 4.0, 3.5, 3.0)
# the recalls at which the ranking's precision is printed
AT_RECALL = (0.8, 0.85)
SWEEP = (0.0002, 0.0005, 0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
# thresholds the rules choose from; the lowest ones for recall-first review (recall 0.95 needs
# probabilities of a few ten-thousandths to thousandths on the left-out courts)
GRID = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01] + [round(x, 3) for x in np.arange(0.02, 0.98, 0.01)]


def features_changed() -> float:
    """When the code the features come from last changed: the features and the rules they ask
    (judges, signatures, seats, public names, abbreviations) and the words around names they read
    (``data/name_affixes.json``), so a cached court's rows are rebuilt after any of them changes."""
    from rulings_anon.analyzer import common_words, exemptions, name_shape, public_names

    modules = (sf, exemptions, public_names, common_words, name_shape)
    files = [Path(module.__file__) for module in modules] + [data.path("name_affixes.json")]
    return max(file.stat().st_mtime for file in files)


def court_features(court: str, names: str, cache: Path, seed: int = 0) -> sm.CourtFeatures:
    """``court``'s features with ``names`` surrogates, cached, and the particles between its
    candidates that the decision joins (:func:`name_gaps`, cached beside them)."""
    stem = f"{court}-{names}{INVENTED if names == 'all' else ''}-{seed}.pkl"
    file, gaps_file = cache / f"features-{stem}", cache / f"gaps-{stem}"
    records = None

    def court_records() -> list[dict]:
        return training_records(court, seed, INVENTED) if names == "all" else \
            list(gold_records(data.ler_corpus_files([court]), seed=seed, names=names))

    if file.exists() and file.stat().st_mtime >= features_changed():
        features = pickle.loads(file.read_bytes())
    else:
        started = time.perf_counter()
        records = court_records()
        features = sm.extract_court(records)
        file.write_bytes(pickle.dumps(features))
        print(f"  features {court} {names}: {features.rows.shape[0]} candidates of {features.n_elements} elements, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    if gaps_file.exists() and gaps_file.stat().st_mtime >= max(file.stat().st_mtime, decision_changed()):
        gaps = pickle.loads(gaps_file.read_bytes())
    else:
        gaps = name_gaps(records or court_records(), features)
        gaps_file.write_bytes(pickle.dumps(gaps))
    _GAPS[id(features)] = (features, gaps)
    return features


def decision_changed() -> float:
    """When the decision's joining of two flagged words last changed (its code and particles)."""
    from rulings_anon import references
    from rulings_anon.analyzer import decisions

    files = [Path(decisions.__file__), Path(references.__file__), data.path("name_affixes.json")]
    return max(file.stat().st_mtime for file in files)


# per court's features (by id, as _MENTIONS): the particles between two candidates, :func:`name_gaps`
_GAPS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def name_gaps(records: list[dict], court: sm.CourtFeatures) -> np.ndarray:
    """``[first row, second row, particle elements, sensitive ones]`` for each two candidates of a
    document (rows of ``court``, extracted from ``records``) separated by a particle alone ("Ybbs
    an der Donau"): ``score`` makes one span of them, particle included, when both are flagged
    (:func:`rulings_anon.analyzer.decisions.joins`). The particles are no candidates, so the model
    never judges them, but they count among the sensitive elements."""
    from rulings_anon.analyzer.decisions import core, joins
    from rulings_anon.document import Span, element_labels, split_elements

    gaps = []
    starts = np.searchsorted(court.documents, np.arange(len(records) + 1))
    for d, record in enumerate(records):
        rows = range(starts[d], starts[d + 1])
        text, elements, labels = record["text"], None, None
        for first, second in zip(rows, rows[1:]):
            i, j = int(court.elements[first]), int(court.elements[second])
            if j - i < 2:
                continue
            elements = elements or split_elements(text)
            end = core(text, elements[i].start, elements[i].end)[1]
            start = core(text, elements[j].start, elements[j].end)[0]
            if not joins(text, end, start):  # elements lie between: never a gap of spaces alone
                continue
            labels = labels or element_labels(elements, [Span(s["start"], s["end"]) for s in record.get("spans") or []])
            gaps.append((first, second, j - i - 1, sum(labels[i + 1:j])))
    return np.array(gaps, int).reshape(-1, 4)


def joined(court: sm.CourtFeatures, flagged: np.ndarray) -> tuple[int, int]:
    """The sensitive and the other particle elements ``score`` flags between two flagged
    candidates of ``court`` (:func:`name_gaps`)."""
    gaps = _GAPS[id(court)][1] if id(court) in _GAPS else np.zeros((0, 4), int)
    both = gaps[flagged[gaps[:, 0]] & flagged[gaps[:, 1]]]
    return int(both[:, 3].sum()), int((both[:, 2] - both[:, 3]).sum())


def training_records(court: str, seed: int = 0, invented: float = 0.0) -> list[dict]:
    """``court``'s rulings pseudonymized by the project's generator (the German lists, ``invented``
    of the surnames and places made up from two listed ones, as for the NER's training)."""
    from rulings_anon.replacement.operators import pseudonymize_record
    from rulings_anon.replacement.surrogates import SurrogateGenerator

    generator = SurrogateGenerator(seed, "all", invented=invented)
    return [pseudonymize_record(r, generator) for r in read_jsonl(data.ler_corpus_files([court])[0])]


def anonymized_records(court: str) -> list[dict]:
    return list(read_jsonl(data.ler_corpus_files([court])[0]))


def document_frequency(court: sm.CourtFeatures, members: np.ndarray | None = None) -> dict[str, int]:
    """In how many documents each candidate word of ``court`` (or of its rows ``members``) occurs."""
    documents: dict[str, set[int]] = {}
    for r in range(len(court.words)) if members is None else members:
        documents.setdefault(court.words[r], set()).add(int(court.documents[r]))
    return {word: len(found) for word, found in documents.items()}


def in_batches(court: sm.CourtFeatures, size: int, background: sm.Background | None,
               seed: int = 1) -> sm.CourtFeatures:
    """``court`` with its documents scored in random batches of ``size`` (the batch feature counted
    within each batch, padded with ``background`` as ``score`` pads a small batch)."""
    n_documents = int(court.documents.max()) + 1
    batch_of = np.random.default_rng(seed).permutation(n_documents) // size
    batches = batch_of[court.documents]
    rows = court.rows.copy()
    for batch in np.unique(batch_of):
        members = np.flatnonzero(batches == batch)
        df, n = sm.padded(document_frequency(court, members), int((batch_of == batch).sum()), background)
        rows[members, sf.COLUMN["batch_share"]] = \
            [df[court.words[r]] / n for r in members] if n >= sf.MIN_BATCH else np.nan
    return dataclasses.replace(court, rows=rows)


def metrics_at(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float,
               joined_particles: tuple[int, int] = (0, 0)) -> dict:
    """Recall, precision and F-measures of the candidates at ``threshold``, with
    ``joined_particles`` (sensitive, other) elements flagged besides them."""
    predicted = probabilities >= threshold
    tp = int((predicted & court.labels).sum()) + joined_particles[0]
    fp = int((predicted & ~court.labels).sum()) + joined_particles[1]
    fn = court.n_positive - tp
    recall = tp / court.n_positive if court.n_positive else 0.0
    precision = tp / (tp + fp) if tp + fp else 0.0
    return {"recall": recall, "precision": precision, "tp": tp, "fp": fp, "fn": fn,
            **{rule: f_beta(recall, precision, beta) for rule, beta in F_BETA.items()}}


def f_beta(recall: float, precision: float, beta: float) -> float:
    """The F-measure that weighs recall ``beta`` times as much as precision."""
    b2 = beta * beta
    return (1 + b2) * recall * precision / (b2 * precision + recall) if recall + precision else 0.0


def average_precision(court: sm.CourtFeatures, probabilities: np.ndarray) -> float:
    """The precision averaged over the ranking, at each sensitive element found (those no
    candidate holds count as never found): threshold-free, so a refit that only moves the
    probabilities up or down leaves it as it is."""
    if not court.n_positive:
        return 0.0
    found = court.labels[np.argsort(-probabilities, kind="stable")]
    precision = np.cumsum(found) / np.arange(1, len(found) + 1)
    return float(precision[found].sum() / court.n_positive)


def precision_at_recall(court: sm.CourtFeatures, probabilities: np.ndarray, recall: float) -> float:
    """The precision at the first rank of the ranking where ``recall`` of the sensitive elements are
    found (0 where no threshold finds them): threshold-free, like :func:`average_precision`."""
    found = court.labels[np.argsort(-probabilities, kind="stable")]
    hits = np.cumsum(found)
    reached = np.flatnonzero(hits >= recall * court.n_positive) if court.n_positive else []
    return float(hits[reached[0]] / (reached[0] + 1)) if len(reached) else 0.0


_MENTIONS: dict[int, tuple[sm.CourtFeatures, np.ndarray, np.ndarray]] = {}


def _mentions(court: sm.CourtFeatures) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate of ``court``: an id of its document and word, and whether consistency
    spreads the word: a name word, and none of the common words ``score`` never spreads (the dev
    courts' and the batch's own: here the court's words in as many of its documents as
    ``batch_common_words`` asks); computed once per court."""
    if id(court) not in _MENTIONS:
        from rulings_anon.analyzer.common_words import common_words, least_documents
        from rulings_anon.analyzer.decisions import name_key

        least = least_documents(int(court.documents.max()) + 1 if len(court.documents) else 0)
        common = common_words() | {w for w, n in document_frequency(court).items() if n >= least}
        spread = np.array([name_key(w) is not None and w not in common for w in court.words], bool)
        ids: dict[tuple[int, str], int] = {}
        keys = np.array([ids.setdefault((int(d), w), len(ids)) for d, w in zip(court.documents, court.words)], int)
        _MENTIONS[id(court)] = (court, keys, spread)
    _, keys, spread = _MENTIONS[id(court)]
    return keys, spread


def consistent(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float,
               name_like: float | None = None) -> np.ndarray:
    """``probabilities`` with a document's word flagged once (at ``threshold``) flagged at every
    other candidate of the document that no rule made public (probability 0), as ``score``'s
    consistency does (approximately: by the candidates' words, no common words: :func:`_mentions`); ``name_like``:
    only words whose German Zipf frequency is below it or that the lexicon does not call a common
    noun spread."""
    keys, spread = _mentions(court)
    flagged = probabilities >= threshold
    if name_like is not None:
        spread = spread & ((court.rows[:, sf.COLUMN["zipf_de"]] < name_like)
                           | (court.rows[:, sf.COLUMN["lex_common"]] == 0))
    hit = np.isin(keys, keys[flagged & spread])
    out = probabilities.copy()
    out[hit & ~flagged & (probabilities > 0)] = threshold
    return out


def decided(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float, with_consistency: bool) -> dict:
    """:func:`metrics_at` of the decision at ``threshold``: the model alone, or as ``score`` decides,
    with consistency and the particles between two flagged words (:func:`joined`)."""
    if not with_consistency:
        return metrics_at(court, probabilities, threshold)
    probabilities = consistent(court, probabilities, threshold)
    return metrics_at(court, probabilities, threshold, joined(court, probabilities >= threshold))


def means_line(by_court: dict[str, dict]) -> str:
    """The courts' mean recall and precision, then each court's."""
    ms = list(by_court.values())
    return (f"mean recall {100 * np.mean([m['recall'] for m in ms]):.1f}, "
            f"precision {100 * np.mean([m['precision'] for m in ms]):.1f}  "
            + "  ".join(f"{c} {100 * m['recall']:.1f}/{100 * m['precision']:.1f}" for c, m in by_court.items()))


def choose(validation: dict[str, tuple[sm.CourtFeatures, np.ndarray]], rule: str,
           with_consistency: bool = False) -> float:
    """The threshold ``rule`` picks from the validation courts' out-of-fold probabilities, for the
    model alone or for its decision with consistency."""
    means = {}
    for t in GRID:
        ms = [decided(c, p, t, with_consistency) for c, p in validation.values()]
        means[t] = {k: float(np.mean([m[k] for m in ms])) for k in ("recall", "precision", *F_BETA)}
    if rule in F_BETA:
        return max(GRID, key=lambda t: means[t][rule])
    if rule == "f2plateau":
        best = max(means[t]["f2"] for t in GRID)
        return max(t for t in GRID if means[t]["f2"] >= best - PLATEAU)
    if rule.startswith("lowest"):  # "lowest95": every validation court's recall >= 0.95
        floor = int(rule.removeprefix("lowest")) / 100
        ok = [t for t in GRID if all(decided(c, p, t, with_consistency)["recall"] >= floor
                                     for c, p in validation.values())]
        return max(ok) if ok else GRID[0]
    floor = int(rule.removeprefix("recall")) / 100  # "recall97": mean recall >= 0.97
    ok = [t for t in GRID if means[t]["recall"] >= floor]
    return max(ok) if ok else GRID[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--courts", default=",".join(COURTS), help="courts to leave out in turn")
    parser.add_argument("--cache", type=Path, default=Path("/work/scorer-cache"))
    parser.add_argument("--rounds", type=int, default=sm.PARAMS["rounds"])
    parser.add_argument("--boosters", type=int, default=sm.BOOSTERS,
                        help="boosters per model, fitted with different seeds and averaged")
    parser.add_argument("--seed", type=int, default=0, help="the first booster's seed (default 0)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="override a booster setting of sensitivity_model.PARAMS (a JSON value), e.g. "
                             "feature_fraction=0.3; repeatable")
    parser.add_argument("--draws", type=int, default=DRAWS,
                        help="draws of the training courts' surrogates (the same rulings with other names) the "
                             f"model learns from (default {DRAWS})")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--save", type=Path, metavar="DIR",
                        help="store the model of the fold that leaves out --held-out (fitted on the other five "
                             "courts, thresholds of every rule from their inner folds) in DIR, e.g. data/scorer")
    parser.add_argument("--default-rule", choices=sorted(RULES), default="f15",
                        help="the rule whose threshold --save stores as score's default")
    parser.add_argument("--recall-first-rule", choices=sorted(RULES), default="lowest96",
                        help="the rule whose threshold --save stores for score --recall-first (lowest96: the "
                             "rule that keeps every left-out dev court's recall at 0.95 or more with the most "
                             "precision; lowest95's and recall97's leave BPatG under it)")
    parser.add_argument("--held-out", default="bsg", help="the court never tuned on (default bsg)")
    parser.add_argument("--batch-sizes", default="",
                        help="also score the left-out court in random batches of these sizes (1: each document "
                             "alone), padded with the background rulings and not; the model alone, no consistency, at the "
                             "default rule's threshold")
    parser.add_argument("--consistency", action="store_true",
                        help="also the default rule's figures with consistency spread (all name words, or only "
                             "name-like ones below German Zipf frequencies 5 to 3)")
    parser.add_argument("--model-alone", action="store_true",
                        help="choose the thresholds for, and measure the rules on, the model's probabilities alone; "
                             "by default both are for the decision score makes, with consistency spread")
    parser.add_argument("--clear-without-seats", action="store_true",
                        help="words printed in clear not counted after a court or an authority (their seats)")
    parser.add_argument("--sweep-only", action="store_true",
                        help="no inner folds: only the left-out courts' figures at fixed thresholds (for trying features)")
    args = parser.parse_args(argv)
    with_consistency = not args.model_alone
    for setting in args.param:
        key, sep, value = setting.partition("=")
        if not sep or key not in sm.PARAMS or key == "rounds":
            parser.error(f"--param {setting}: not KEY=VALUE with a key of sensitivity_model.PARAMS "
                         f"({', '.join(sorted(set(sm.PARAMS) - {'rounds'}))}; the rounds: --rounds)")
        sm.PARAMS[key] = json.loads(value)
    args.cache.mkdir(parents=True, exist_ok=True)
    left_out = [c for c in args.courts.split(",") if c]
    train = {c: sm.concatenate([court_features(c, "all", args.cache, seed=draw) for draw in range(args.draws)])
             for c in COURTS}
    test = {c: court_features(c, "foreign", args.cache) for c in left_out}
    anonymized = {c: anonymized_records(c) for c in COURTS}
    clear = {c: sf.clear_counts(anonymized[c], seats=not args.clear_without_seats) for c in COURTS}
    results = {}
    fits: dict[tuple[str, ...], sm.SensitivityModel] = {}

    def fitted(courts: list[str]) -> sm.SensitivityModel:
        # the fit on four courts serves two outer folds (leaving out a and b, or b and a)
        key = tuple(sorted(courts))
        if key not in fits:
            fits[key] = sm.fit({c: train[c] for c in key}, {c: clear[c] for c in key}, rounds=args.rounds,
                                boosters=args.boosters, seed=args.seed)
        return fits[key]

    for court in left_out:
        others = [c for c in COURTS if c != court]
        started = time.perf_counter()
        # inner folds: each training court left out of a fit on the other four (validation only)
        validation = {}
        for inner in ([] if args.sweep_only else others):
            rest = [c for c in others if c != inner]
            validation[inner] = (train[inner], fitted(rest).predict_court(train[inner]))
        thresholds = {rule: choose(validation, rule, with_consistency) for rule in RULES} if validation else {}
        model = fitted(others)
        model.background = sm.Background.of([r for c in others for r in anonymized[c]])
        n_documents = int(test[court].documents.max()) + 1
        # the court's documents as one batch, padded as score pads it when it is small (BGH: 59)
        probabilities = model.predict_court(test[court] if n_documents >= sm.BACKGROUND_BELOW else
                                            in_batches(test[court], n_documents, model.background))
        if args.save and court == args.held_out:
            model.config.update({"held_out": court, "thresholds": thresholds, "rules": RULES, "draws": args.draws,
                                 "thresholds_for": "the decision with consistency and joined particles" if with_consistency
                                 else "the model alone",
                                 sm.DEFAULT_RULE: args.default_rule, sm.RECALL_FIRST_RULE: args.recall_first_rule})
            model.save(args.save)
        results[court] = {rule: {"threshold": t, **decided(test[court], probabilities, t, with_consistency)}
                          for rule, t in thresholds.items()}
        if with_consistency:
            results[court]["model alone"] = {rule: metrics_at(test[court], probabilities, t)
                                             for rule, t in thresholds.items()}
            # the decision as before: thresholds chosen for the model alone, consistency added by score
            alone = {rule: choose(validation, rule) for rule in RULES} if validation else {}
            results[court]["chosen alone"] = {rule: {"threshold": t, **decided(test[court], probabilities, t, True)}
                                              for rule, t in alone.items()}
        results[court]["sweep"] = {str(t): metrics_at(test[court], probabilities, t) for t in SWEEP}
        results[court]["average_precision"] = average_precision(test[court], probabilities)
        results[court]["precision_at_recall"] = {str(r): precision_at_recall(test[court], probabilities, r)
                                                 for r in AT_RECALL}
        if args.consistency and thresholds:
            t = thresholds[args.default_rule]
            results[court]["consistency"] = {
                str(v): metrics_at(test[court], consistent(test[court], probabilities, t, v), t)
                for v in NAME_LIKE_ZIPF}
        for size in (int(x) for x in args.batch_sizes.split(",") if x and thresholds):
            threshold = thresholds[args.default_rule]
            results[court][f"batches of {size}"] = {
                which: metrics_at(test[court], model.predict_court(in_batches(test[court], size, background)), threshold)
                for which, background in (("padded", model.background), ("unpadded", None))}
        cells = "  ".join(f"{rule} {r['threshold']:g}: {100 * r['recall']:.1f} / {100 * r['precision']:.1f}"
                          for rule, r in results[court].items() if rule in RULES)
        print(f"{court:>7} left out ({time.perf_counter() - started:.0f} s)  {cells}", flush=True)
    for t in SWEEP:
        ms = [results[c]["sweep"][str(t)] for c in left_out]
        print(f"at {t}: " + "  ".join(f"{c} {100 * m['recall']:.1f}/{100 * m['precision']:.1f}" for c, m in zip(left_out, ms))
              + f"  mean {100 * np.mean([m['recall'] for m in ms]):.1f} / {100 * np.mean([m['precision'] for m in ms]):.1f}")
    print("average precision: " + "  ".join(f"{c} {100 * results[c]['average_precision']:.1f}" for c in left_out)
          + f"  mean {100 * np.mean([results[c]['average_precision'] for c in left_out]):.1f}")
    for r in AT_RECALL:
        values = [results[c]["precision_at_recall"][str(r)] for c in left_out]
        print(f"precision at recall {r}: " + "  ".join(f"{c} {100 * v:.1f}" for c, v in zip(left_out, values))
              + f"  mean {100 * np.mean(values):.1f}")
    for rule in (RULES if not args.sweep_only else ()):
        rec = np.mean([results[c][rule]["recall"] for c in left_out])
        prec = np.mean([results[c][rule]["precision"] for c in left_out])
        low = min(results[c][rule]["recall"] for c in left_out)
        print(f"mean {rule:<9} ({RULES[rule]}): recall {100 * rec:.1f}, precision {100 * prec:.1f}, lowest recall {100 * low:.1f}")
        if with_consistency:
            print(f"     {rule:<9} the model alone at the same thresholds: "
                  + means_line({c: results[c]["model alone"][rule] for c in left_out}))
            print(f"     {rule:<9} thresholds chosen for the model alone, with consistency: "
                  + means_line({c: results[c]["chosen alone"][rule] for c in left_out}))
    for v in (NAME_LIKE_ZIPF if args.consistency and not args.sweep_only else ()):
        print(f"{args.default_rule} with consistency (name-like below Zipf {v}): "
              + means_line({c: results[c]["consistency"][str(v)] for c in left_out}))
    for size in (int(x) for x in args.batch_sizes.split(",") if x and not args.sweep_only):
        for which in ("padded", "unpadded"):
            print(f"batches of {size:>3}, {which:<8}: "
                  + means_line({c: results[c][f"batches of {size}"][which] for c in left_out}))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
