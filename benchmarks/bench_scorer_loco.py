"""Leave one court out for the sensitivity scorer: fit on five courts, test on the sixth.

For each of the six bundled courts: the model (:mod:`rulings_anon.analyzer.sensitivity_model`) is fitted on
the other five courts' rulings pseudonymized by the project's generator (``names="all"``, the
placeholders the weak labels), its tables (context rates, words printed in clear) are learnt from
those five courts only, and thresholds are chosen on them alone: each of the five is left out of an
inner fit in turn, and a rule picks the threshold from the five inner courts' recall and precision.
The left-out court is then measured once, pseudonymized with the foreign names
(``names="foreign"``), which no feature uses. Element level, as ``evaluate``.

    .venv/bin/python benchmarks/bench_scorer_loco.py [--courts bag,bfh,...] [--cache /tmp/scorer-cache]

``--batch-sizes 1,10,20,50`` also scores the left-out court's documents in random batches of those
sizes (1: each alone), the model alone at the fold's default threshold, with and without the background rulings a
small batch is padded with (``sensitivity_model.BACKGROUND_BELOW``: drawn from the training courts'
anonymized rulings, as ``--save`` stores them). The model decides each ruling alone
(``sensitivity_model.alone_shares``), so every size gives the same figures: the check that it does.

``--test-names eastern`` draws the left-out court's surrogates from a second source no model trains
on (``surrogates.EASTERN_LOCALES``: names of parties whose families came from Turkey or Eastern
Europe, diacritics kept) instead of the Austrian and Swiss names.

``--test-seeds 0,1,2`` measures the left-out court with three draws of its surrogates as one court
(a court that repeats one placeholder moves by several points with the names drawn for it);
``--checked`` measures it against its placeholders corrected by the hand-checked labels
(``rulings_anon/data/checked/``: a letter the court used as a label, an author's initial printed in
clear, is no placeholder there, and a number the court left out is one).

``--boosters N`` fits N boosters per model with different seeds (default: as ``score``'s model,
``sensitivity_model.BOOSTERS``), the first ``--seed`` (default 0); ``--param feature_fraction=0.3``
overrides a booster setting of ``sensitivity_model.PARAMS`` (the seeds move the figures by about
1.5 points of average precision per court: judge a setting on three); ``--consistency`` also prints the default rule's figures with a
word flagged once flagged throughout its document (all name words, or only name-like ones);
``--clear-without-seats`` does not count a town printed after a court or an authority as printed
in clear.

The thresholds are chosen for the decision ``score`` makes, a word flagged once flagged throughout
its document (consistency) and the particle between two flagged words flagged with them ("Ybbs an
der Donau": :func:`~rulings_anon.analyzer.decision_metrics.name_gaps`), on the inner folds, and the rules are measured on the left-out court
the same way; their model-alone figures and those of thresholds chosen for the model alone (then
spread by consistency) are printed too. ``--model-alone`` chooses and measures them for the model's
probabilities alone, no consistency (what ``--sweep-only`` and the threshold-free figures always are).

The decision's lines also give the share of the left-out court's rulings that keep a sensitive
element in clear and, after it, one that keeps a person's element in clear ("documents missed
10.0 (a person 5.9)", per court "recall/precision/any/person"), counted as ``evaluate`` counts its
documents with a missed name: over every sensitive element of the test rulings, a candidate or
not, by the gold spans' types (:class:`~rulings_anon.analyzer.decision_metrics.Positives`).

The training, the inner folds and the rules are ``train-scorer``'s own
(:mod:`rulings_anon.analyzer.scorer_training`, :mod:`rulings_anon.analyzer.threshold_rules`,
:mod:`rulings_anon.analyzer.decision_metrics`): the fold that leaves out ``--held-out`` is what
``rulings-anon train-scorer rulings_anon/data/ler/*.jsonl.gz --holdout-court bsg`` writes, and the benchmark says
whether its thresholds and boosters are the bundled ``rulings_anon/data/scorer``'s.

Features per court and name source are cached under ``--cache`` as ``train-scorer`` caches them (a
few minutes for all six the first time on two cores; then each run is the fits alone), keyed by the
court's rulings and a digest of the code and tables they are computed from, so they are rebuilt
after any of them changes.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from rulings_anon import data
from rulings_anon.analyzer import decision_metrics as dm
from rulings_anon.analyzer import scorer_training as st
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer import threshold_rules as tr
from rulings_anon.analyzer.decision_metrics import (
    average_precision,
    consistent,
    decided,
    in_batches,
    metrics_at,
    missed_documents,
    precision_at_recall,
)
from rulings_anon.analyzer.name_parts_rows import RULES as DECISION_RULES
from rulings_anon.evaluation.testset import apply_checked, gold_records
from rulings_anon.jsonl import read_jsonl
from rulings_anon.preprocessing.detector_validation import bundled_checked_labels

RULES = tr.RULES

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")
# --consistency: spread every name word (None), or only those below these German Zipf frequencies
NAME_LIKE_ZIPF = (None, 5.0, 4.5, 4.0, 3.5, 3.0)
# the recalls at which the ranking's precision is printed
AT_RECALL = (0.8, 0.85)
# --decision-rules: the decision with a name's parts, the common nouns after an article, a first
# name and a surname side by side (also one that is a word), a company's name before its legal form
# and a town's district (rulings_anon.analyzer.name_parts), a word a role names and a word an
# institution's kind names (rulings_anon.analyzer.role_names) each switched on or off; "party roles"
# also spreads a surname a person's name part flagged and names a party after a party's role, and
# "coordinated" also flags a surname that "und" joins to a flagged name's part, "relatives" also a
# first name after a relative's noun, "listed nouns" also weighs down a common noun joined by "und" to another,
# "things" also a medicine's name after a drug noun and a European judgment's after its noun,
# "acronyms" also a term's name built on an acronym ("TVÜ-Länder"), "comma lists" also a common noun
# a comma joins to another, "journal authors" also an author cited before a journal written out,
# "unknown first names" also a first name nothing knows after a party's role and the surname after
# it ("des Angeklagten Teuta Denk"), "quoted signs" also a sign a ruling about marks quotes ("die
# Marke „Myzin“"), "word compounds" also a compound of two German words ("Glasrohling"),
# "commentaries" also a scholar of a commentary or a tribute cited without commas ("in Sachs GG 7.
# Aufl.", "FS Bepler"), "signed judges" also a judge named after the role's abbreviation ("RiBGH
# Dr. Tiemann"), "hyphenated companies" also flags a company's name hyphenated to a legal form's
# abbreviation ("Danninger-KAG"); each variant after "nouns" switches on its rules and every earlier one's
_STEPS = (("name parts", ("name_parts",)), ("full names", ("full_names",)), ("companies", ("companies",)),
          ("places", ("places",)), ("roles", ("roles",)), ("institutions", ("institutions",)),
          ("word surnames", ("word_surnames",)), ("districts", ("districts",)),
          ("party roles", ("spread_parts", "party_roles")), ("coordinated", ("coordinated",)),
          ("relatives", ("relatives",)), ("listed nouns", ("listed_nouns",)), ("things", ("things",)),
          ("acronyms", ("acronyms",)), ("comma lists", ("comma_lists",)),
          ("journal authors", ("journal_authors",)), ("unknown first names", ("unknown_first",)),
          ("subjects", ("subjects",)), ("document authors", ("document_authors",)),
          ("fixed phrases", ("fixed_things",)), ("quoted signs", ("quoted_signs",)),
          ("word compounds", ("word_compounds",)), ("commentaries", ("commentary_names",)),
          ("signed judges", ("signed_judges",)), ("hyphenated companies", ("hyphenated_companies",)))
_OFF = dict.fromkeys(("nouns",) + tuple(rule for _, rules in _STEPS for rule in rules), False)


def _cumulative(steps) -> dict[str, dict[str, bool]]:
    """A variant per step: its rules and every earlier step's switched on."""
    variants, on = {}, {}
    for name, rules in steps:
        on = {**on, **dict.fromkeys(rules, True)}
        variants[name] = {**_OFF, **on}
    return variants


_VARIANTS = _cumulative(_STEPS)
DECISION_VARIANTS = {"neither": _OFF, "name parts": _VARIANTS["name parts"], "nouns": {**_OFF, "nouns": True},
                     **_VARIANTS}
SWEEP = (0.0002, 0.0005, 0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def court_features(court: str, names: str, cache: Path, seed: int = 0, checked: bool = False) -> sm.CourtFeatures:
    """``court``'s features with the ``foreign`` surrogates (the test sets'), cached in ``cache``
    as ``train-scorer`` caches its groups' (and the particles between candidates beside them);
    ``checked``: the placeholders corrected by the court's hand-checked labels first."""
    records = anonymized_records(court)
    key = f"{st.records_digest(records)}\0{names}\0{seed}" + ("\0checked" if checked else "")
    labels = bundled_checked_labels([court]) if checked else None

    @functools.cache  # the features' records when they are computed, and the positives'
    def gold() -> list[dict]:
        return list(gold_records(data.ler_corpus_files([court]), seed=seed, names=names, checked=labels))

    features = st.FeatureCache(cache).features(f"{court}-{names}-{seed}" + ("-checked" if checked else ""), key, gold)
    positives = dm.Positives.of(gold())
    if len(positives.elements) != features.n_positive:
        raise ValueError(f"{court}: {len(positives.elements)} sensitive elements in its test records, "
                         f"{features.n_positive} in its cached features")
    dm.register_positives(features, positives)
    return features


def anonymized_records(court: str) -> list[dict]:
    return list(read_jsonl(data.ler_corpus_files([court])[0]))


def means_line(by_court: dict[str, dict], missed: bool = False) -> str:
    """The courts' mean recall and precision, then each court's; with ``missed`` also the share of
    documents that keep a sensitive element, and a person's, in clear (``missed_documents``)."""
    ms = list(by_court.values())
    line = (f"mean recall {100 * np.mean([m['recall'] for m in ms]):.1f}, "
            f"precision {100 * np.mean([m['precision'] for m in ms]):.1f}")
    if missed:
        line += (f", documents missed {100 * np.mean([m['documents_missed'] for m in ms]):.1f}"
                 f" (a person {100 * np.mean([m['documents_missed_person'] for m in ms]):.1f})")
    cells = [f"{c} {100 * m['recall']:.1f}/{100 * m['precision']:.1f}"
             + (f"/{100 * m['documents_missed']:.0f}/{100 * m['documents_missed_person']:.0f}" if missed else "")
             for c, m in by_court.items()]
    return line + "  " + "  ".join(cells)


def decision_variants(validation, court: sm.CourtFeatures, probabilities: np.ndarray, fixed: dict[str, float],
                      rules) -> dict:
    """Per :data:`DECISION_VARIANTS`: ``rules``' thresholds chosen on ``validation`` for that
    decision (without validation: ``fixed``), and what it gives on ``court``."""
    out, saved = {}, dict(DECISION_RULES)
    try:
        for name, switches in DECISION_VARIANTS.items():
            DECISION_RULES.update(switches)
            out[name] = {}
            for rule in rules:
                t = tr.choose(validation, rule, True) if validation else fixed[rule]
                out[name][rule] = {"threshold": t, **decided(court, probabilities, t, True),
                                   **missed_documents(court, probabilities, t)}
    finally:
        DECISION_RULES.update(saved)
    return out


def public_weighted(fitted: st.GroupedFits, others: list[str], court: sm.CourtFeatures, weight: float,
                    threshold: float, rule: str, with_inner: bool = True) -> dict:
    """``rule`` on ``court`` with every fit's public rules multiplying the probability by ``weight``:
    at ``threshold`` (chosen without it) and, ``with_inner``, at the threshold chosen on the inner
    folds with it."""
    validation = fitted.out_of_fold(others, weight) if with_inner else {}
    model = fitted(others)
    try:
        model.public_weight = weight
        n_documents = int(court.documents.max()) + 1
        probabilities = model.predict_court(court if n_documents >= sm.BACKGROUND_BELOW else
                                            in_batches(court, n_documents, model.background))
    finally:
        model.public_weight = 0.0
    chosen = [("chosen", tr.choose(validation, rule, True))] if validation else []
    return {which: {"threshold": t, **decided(court, probabilities, t, True), **missed_documents(court, probabilities, t)}
            for which, t in [("same threshold", threshold), *chosen]}


def bundled_check(model: sm.SensitivityModel, thresholds: dict[str, float]) -> str:
    """Whether the fold that leaves the held-out court out gives the bundled ``rulings_anon/data/scorer``: its
    thresholds and its boosters (what ``train-scorer rulings_anon/data/ler/*.jsonl.gz --holdout-court bsg`` writes)."""
    bundled = sm.load_model()
    same_thresholds = bundled.config.get("thresholds") == thresholds
    same_boosters = len(bundled.boosters) == len(model.boosters) and all(
        a.model_to_string() == b.model_to_string() for a, b in zip(bundled.boosters, model.boosters))
    return (f"bundled rulings_anon/data/scorer: thresholds {'the same' if same_thresholds else 'DIFFER'}, "
            f"boosters {'the same' if same_boosters else 'DIFFER'}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--courts", default=",".join(COURTS), help="courts to leave out in turn")
    parser.add_argument("--train-without", default="", metavar="COURTS",
                        help="courts no fold trains on (comma-separated): does a court's convention help the others?")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "scorer-cache")
    parser.add_argument("--rounds", type=int, default=sm.PARAMS["rounds"])
    parser.add_argument("--boosters", type=int, default=sm.BOOSTERS,
                        help="boosters per model, fitted with different seeds and averaged")
    parser.add_argument("--seed", type=int, default=0, help="the first booster's seed (default 0)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="override a booster setting of sensitivity_model.PARAMS (a JSON value), e.g. "
                             "feature_fraction=0.3; repeatable")
    parser.add_argument("--draws", type=int, default=st.DRAWS,
                        help="draws of the training courts' surrogates (the same rulings with other names) the "
                             f"model learns from (default {st.DRAWS})")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--save", type=Path, metavar="DIR",
                        help="store the model of the fold that leaves out --held-out (fitted on the other five "
                             "courts, thresholds of every rule from their inner folds) in DIR, e.g. rulings_anon/data/scorer")
    parser.add_argument("--default-rule", choices=sorted(RULES), default=tr.DEFAULT_RULE,
                        help="the rule whose threshold --save stores as score's default")
    parser.add_argument("--recall-first-rule", choices=sorted(RULES), default=tr.RECALL_FIRST_RULE,
                        help="the rule whose threshold --save stores for score --recall-first (lowest96: the "
                             "rule that keeps every left-out dev court's recall at 0.95 or more with the most "
                             "precision; lowest95's and recall97's leave BPatG under it)")
    parser.add_argument("--test-seeds", default="0", metavar="S[,S]",
                        help="the left-out court's surrogates drawn with each seed, all measured as one court "
                             "(default 0; one court's figure moves by several points with the names drawn for "
                             "a placeholder it repeats: judge a choice on three)")
    parser.add_argument("--train-checked", action="store_true",
                        help="also learn from placeholders corrected by the hand-checked labels (every court's, the "
                             "left-out court's only in its own measurement)")
    parser.add_argument("--checked", action="store_true",
                        help="measure the left-out court against its placeholders corrected by the hand-checked "
                             "labels (rulings_anon/data/checked/; a letter the court used as a label is no name)")
    parser.add_argument("--held-out", default="bsg", help="the court never tuned on (default bsg)")
    parser.add_argument("--test-names", choices=("foreign", "eastern"), default="foreign",
                        help="the names of the left-out court's surrogates: foreign (default: Austrian and Swiss) or "
                             "eastern (Turkish, Polish, Romanian, Croatian, Czech, Hungarian, Slovak, Slovenian, "
                             "Latvian); no model trains on either")
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
    parser.add_argument("--decision-rules", action="store_true",
                        help="also the default and recall-first rules with a name's parts decided together and "
                             "common nouns after an article (rulings_anon.analyzer.name_parts) each on and off, "
                             "thresholds chosen for each, with the documents that keep a sensitive word in clear")
    parser.add_argument("--recall-first-public", default="", metavar="W[,W]",
                        help="also the recall-first rule with the public rules multiplying the probability by W "
                             "instead of zeroing it (sensitivity_model.RECALL_FIRST_PUBLIC_WEIGHT), at the "
                             "threshold chosen without and with it")
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
    excluded = {c for c in args.train_without.split(",") if c}
    if excluded - set(COURTS):
        parser.error(f"--train-without: unknown court {sorted(excluded - set(COURTS))[0]!r} (known: {', '.join(COURTS)})")
    anonymized = {c: anonymized_records(c) for c in COURTS}
    if args.train_checked:  # every court's placeholders corrected by its hand-checked labels, to learn from
        labels = bundled_checked_labels(list(COURTS))
        anonymized = {c: [apply_checked(r, labels) for r in records] for c, records in anonymized.items()}
    # the training courts' features as train-scorer computes its groups' (and caches them alike)
    train = st.group_features(anonymized, st.FeatureCache(args.cache), seed=0, draws=args.draws)
    seeds = [int(x) for x in args.test_seeds.split(",") if x]
    test = {c: dm.concatenated([court_features(c, args.test_names, args.cache, seed, args.checked) for seed in seeds])
            for c in left_out}
    clear = {c: sf.clear_counts(anonymized[c], seats=not args.clear_without_seats) for c in COURTS}
    results = {}
    # the fit on four courts serves two outer folds (leaving out a and b, or b and a)
    fitted = st.GroupedFits(train, clear, rounds=args.rounds, boosters=args.boosters, seed=args.seed,
                            records=anonymized)

    for court in left_out:
        others = [c for c in COURTS if c != court and c not in excluded]
        started = time.perf_counter()
        # inner folds: each training court left out of a fit on the other four (validation only)
        validation = {} if args.sweep_only else fitted.out_of_fold(others)
        thresholds = tr.choose_all(validation, with_consistency) if validation else {}
        model = fitted(others)
        model.background = sm.Background.of([r for c in others for r in anonymized[c]])
        n_documents = int(test[court].documents.max()) + 1
        # the court's documents as one batch, padded as score pads it when it is small (BGH: 59)
        probabilities = model.predict_court(test[court] if n_documents >= sm.BACKGROUND_BELOW else
                                            in_batches(test[court], n_documents, model.background))
        if args.save and court == args.held_out:
            model.config.update(st.scorer_config(validation, thresholds, held_out=court, draws=args.draws,
                                                 default_rule=args.default_rule,
                                                 recall_first_rule=args.recall_first_rule,
                                                 with_consistency=with_consistency))
            model.save(args.save)
        if court == args.held_out and thresholds:
            print(bundled_check(model, thresholds), flush=True)
        results[court] = {rule: {"threshold": t, **decided(test[court], probabilities, t, with_consistency)}
                          for rule, t in thresholds.items()}
        if with_consistency:
            results[court]["model alone"] = {rule: metrics_at(test[court], probabilities, t)
                                             for rule, t in thresholds.items()}
            # the decision as before: thresholds chosen for the model alone, consistency added by score
            alone = tr.choose_all(validation, False) if validation else {}
            results[court]["chosen alone"] = {rule: {"threshold": t, **decided(test[court], probabilities, t, True)}
                                              for rule, t in alone.items()}
        # without inner folds (--sweep-only) at the bundled model's thresholds of the two rules
        chosen = thresholds or {rule: sm.stored_threshold(data.path("scorer"), recall_first=first)
                                for rule, first in ((args.default_rule, False), (args.recall_first_rule, True))}
        if args.decision_rules:
            results[court]["decision rules"] = decision_variants(
                validation, test[court], probabilities, chosen, (args.default_rule, args.recall_first_rule))
        for weight in (float(w) for w in args.recall_first_public.split(",") if w):
            results[court][f"public weight {weight:g}"] = public_weighted(
                fitted, others, test[court], weight, chosen[args.recall_first_rule], args.recall_first_rule,
                with_inner=bool(validation))
            print(f"{court:>7} {args.recall_first_rule} public weight {weight:g} " + "  ".join(
                f"{which} {m['threshold']:g}: {100 * m['recall']:.1f}/{100 * m['precision']:.1f}"
                f"/{100 * m['documents_missed_person']:.0f}"
                for which, m in results[court][f"public weight {weight:g}"].items()), flush=True)
        for name, by_rule in results[court].get("decision rules", {}).items():
            print(f"{court:>7} decision {name:<10} " + "  ".join(
                f"{rule} {100 * m['recall']:.1f}/{100 * m['precision']:.1f}/{100 * m['documents_missed_person']:.0f}"
                for rule, m in by_rule.items()), flush=True)
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
    for name in (DECISION_VARIANTS if args.decision_rules else ()):
        for rule in (args.default_rule, args.recall_first_rule):
            print(f"decision {name:<10} {rule:<9}: " + means_line({c: results[c]["decision rules"][name][rule]
                                                                   for c in left_out}, missed=True))
    for weight in (float(w) for w in args.recall_first_public.split(",") if w):
        for which in ("same threshold", "chosen")[:1 if args.sweep_only else 2]:
            print(f"{args.recall_first_rule} public weight {weight:g}, {which}: "
                  + means_line({c: results[c][f"public weight {weight:g}"][which] for c in left_out}, missed=True))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
