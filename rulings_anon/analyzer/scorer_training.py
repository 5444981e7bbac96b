"""Fit the sensitivity model ``score`` runs, with thresholds chosen by grouped cross-validation.

A corpus of anonymized rulings comes in groups (courts; else years or sources): the placeholders
are the weak labels, turned into surrogates of the German name lists and names of Western and
Northern Europe (:data:`TRAINING_NAMES`; the test sets draw Austrian and Swiss names or Turkish and
Eastern European ones, which no feature reads and no fit sees). Each group is left out of a fit on
the others in turn, so its probabilities are those of a court the model never saw, and the rules
of :mod:`rulings_anon.analyzer.threshold_rules` choose the thresholds from them; then the model is
fitted on all groups and stored with every rule's threshold and the figures that chose it.
Grouping by document alone would let a court's own habits choose its threshold.

Features are the slow part (about 0.2 s a ruling); :class:`FeatureCache` keeps each group's on
disk, keyed by its rulings and the code that computes them, so a rerun skips the finished ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from rulings_anon.analyzer import decision_metrics as dm
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer import threshold_rules as tr

# share of the training surrogates' surnames and places invented: a name the model never saw
# must look like a name, not like a rare word
INVENTED = 0.0  # 0.5 tried: mean recall at 0.3 74.0 -> 68.1, precision 64.9 -> 63.5
# the names the training surrogates are drawn from: the German lists and names of Western and Northern
# Europe (replacement.surrogates.WORLD_LOCALES), none a test draws
TRAINING_NAMES = "world"
# draws of the training surrogates, each placeholder another name in each (2 and 3 tried: the
# gains were calibration, docs/experiments.md)
DRAWS = 1
# every inner fit needs two groups to cross-fit its tables, so three groups at least; a group
# needs rulings with placeholders, or its recall says nothing
MIN_GROUPS = 3
MIN_RULINGS_PER_GROUP = 2
THRESHOLDS_FOR = "the decision with consistency and joined particles"
# reviewed rulings (exact labels) fitted beside the weak groups under this name, which no court,
# year or source is given (scorer_corpus.group_name keeps letters, digits and hyphens)
GOLD = "+gold"
# how many times a reviewed ruling's rows count against the weak labels': a choice, not tuned (one
# weight measured for lack of time: docs/experiments.md, "Learning from reviewed rulings")
GOLD_WEIGHT = 5.0


def training_records(records: Sequence[dict], seed: int = 0, invented: float = INVENTED) -> list[dict]:
    """Anonymized ``records`` (``{"id", "text", "spans"}``, the spans their placeholders) with each
    placeholder replaced by a surrogate of the training names (:data:`TRAINING_NAMES`), seeded per
    ruling id."""
    from rulings_anon.replacement.operators import pseudonymize_record
    from rulings_anon.replacement.surrogates import SurrogateGenerator

    generator = SurrogateGenerator(seed, TRAINING_NAMES, invented=invented)
    return [pseudonymize_record(r, generator) for r in records]


def size_problem(groups: dict[str, Sequence[dict]], grouped_by: str) -> str | None:
    """Why ``groups`` (name -> anonymized records) are too few to fit and cross-validate, or None."""
    usable = [name for name, records in groups.items()
              if sum(1 for r in records if r.get("spans")) >= MIN_RULINGS_PER_GROUP]
    if len(usable) >= MIN_GROUPS:
        return None
    rulings = sum(len(records) for records in groups.values())
    return (f"too small to fit: {rulings} rulings in {len(groups)} {grouped_by} group(s), {len(usable)} of them "
            f"with {MIN_RULINGS_PER_GROUP} rulings with placeholders; train-scorer needs at least {MIN_GROUPS} "
            f"groups (courts, years or sources) with {MIN_RULINGS_PER_GROUP} such rulings each, "
            f"{MIN_GROUPS * MIN_RULINGS_PER_GROUP} rulings in all")


# the analyzer's modules that decide on the probabilities and never compute a feature or a gap: a
# change to them leaves the cached features as they are
DECISION_MODULES = frozenset({"name_parts.py", "name_parts_rows.py", "role_names.py", "details.py", "threshold_rules.py",
                              "thing_names.py", "cited_works.py", "subject_names.py", "word_compounds.py",
                              "signed_judges.py"})


def code_digest() -> str:
    """A digest of what a court's features and particle gaps are computed from: the analyzer's
    code (not :data:`DECISION_MODULES`), the references' and the document's, the surrogates'
    that fill the rulings' placeholders, and the shipped tables the features read."""
    from rulings_anon import data, document, references
    from rulings_anon.replacement import operators, surrogates

    analyzer = Path(sf.__file__).parent
    files = sorted(p for p in analyzer.rglob("*.py") if p.name not in DECISION_MODULES)
    files += [Path(references.__file__), Path(document.__file__), data.path("name_affixes.json")]
    files += [Path(surrogates.__file__), Path(operators.__file__), Path(surrogates.__file__).with_name("court_style.py")]
    files += sorted(p for p in data.path("scorer").iterdir() if p.name in ("clusters.tsv.gz", "places.tsv.gz",
                                                                         "name_shape.npy"))
    files += sorted(data.path("lexicon").glob("*"))
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode("utf-8") + b"\0" + file.read_bytes())
    return digest.hexdigest()


def records_digest(records: Sequence[dict]) -> str:
    """A digest of rulings' ids, texts and placeholder spans."""
    digest = hashlib.sha256()
    for r in records:
        spans = [(s["start"], s["end"]) for s in r.get("spans") or []]
        digest.update(json.dumps([r.get("id"), r["text"], spans], ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()


class FeatureCache:
    """Each group's features and particle gaps (:func:`decision_metrics.name_gaps`), on disk in
    ``folder`` (None: in memory only) under a name from the group, its rulings' digest and the
    code's; an entry is written whole or not at all."""

    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder is not None else None
        self._code = code_digest() if folder is not None else ""

    def path(self, name: str, key: str) -> Path | None:
        if self.folder is None:
            return None
        digest = hashlib.sha256(f"{key}\0{self._code}".encode()).hexdigest()[:20]
        return self.folder / f"features-{name}-{digest}.pkl"

    def has(self, name: str, key: str) -> bool:
        file = self.path(name, key)
        return file is not None and file.exists()

    def features(self, name: str, key: str, make_records: Callable[[], list[dict]]) -> sm.CourtFeatures:
        """``name``'s features, from the cache or extracted from ``make_records()`` (labelled
        records, e.g. :func:`training_records`) and stored; ``key`` names what the records are."""
        file = self.path(name, key)
        if file is not None and file.exists():
            features, gaps = pickle.loads(file.read_bytes())
        else:
            records = make_records()
            features = sm.extract_court(records)
            gaps = dm.name_gaps(records, features)
            if file is not None:
                _write_whole(file, pickle.dumps((features, gaps)))
        dm.register_gaps(features, gaps)
        return features


def _write_whole(file: Path, payload: bytes) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".tmp", dir=file.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
        os.replace(temporary, file)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class GroupedFits:
    """Models fitted on sets of groups, each set fitted once (leaving out a and then b, or b and
    then a, fits the same four courts); ``on_fit`` is called after each fit."""

    def __init__(self, train: dict[str, sm.CourtFeatures], clears: dict[str, dict[str, int]],
                 rounds: int = sm.PARAMS["rounds"], boosters: int = sm.BOOSTERS, seed: int = 0,
                 on_fit: Callable[[], None] | None = None, extra: dict[str, np.ndarray] | None = None,
                 records: dict[str, Sequence[dict]] | None = None):
        self.train, self.clears, self.rounds, self.boosters, self.seed = train, clears, rounds, boosters, seed
        # per group its anonymized rulings: each fit's background rulings (sm.fit)
        self.records = records
        self.on_fit = on_fit
        # per group its candidates' extra columns (the contextual probability: context_columns)
        self.extra = extra
        self._fits: dict[tuple[str, ...], sm.SensitivityModel] = {}

    def __call__(self, groups: Sequence[str]) -> sm.SensitivityModel:
        key = tuple(sorted(groups))
        if key not in self._fits:
            self._fits[key] = sm.fit({g: self.train[g] for g in key}, {g: self.clears[g] for g in key},
                                     rounds=self.rounds, boosters=self.boosters, seed=self.seed,
                                     extra=None if self.extra is None else {g: self.extra[g] for g in key},
                                     records=self.records)
            if self.on_fit is not None:
                self.on_fit()
        return self._fits[key]

    def out_of_fold(self, groups: Sequence[str], public_weight: float = 0.0) -> tr.Validation:
        """Each of ``groups`` with its probabilities from a fit on the others, the public rules
        multiplying them by ``public_weight`` (0: the default's decision; ``--recall-first``'s
        :data:`~sm.RECALL_FIRST_PUBLIC_WEIGHT`)."""
        validation = {}
        for g in groups:
            model = self([o for o in groups if o != g])
            model.public_weight = public_weight
            try:
                validation[g] = (self.train[g], model.predict_court(
                    self.train[g], None if self.extra is None else self.extra[g]))
            finally:
                model.public_weight = 0.0
        return validation


def _drawn_features(cache: FeatureCache, name: str, records: list[dict], seed: int,
                    draws: int) -> list[sm.CourtFeatures]:
    """The features of group ``name``'s ``records`` with each of ``draws`` draws of the training
    surrogates (seeds ``seed``, ``seed + 1``, ...), from ``cache`` where it has them."""
    key = f"{records_digest(records)}\0{TRAINING_NAMES}\0{INVENTED}"
    return [cache.features(f"{name}-{seed + draw}", f"{key}\0{seed + draw}",
                           lambda d=draw: training_records(records, seed + d))
            for draw in range(draws)]


def group_features(groups: dict[str, list[dict]], cache: FeatureCache | None = None, seed: int = 0,
                   draws: int = DRAWS, progress=None) -> dict[str, sm.CourtFeatures]:
    """Each group's features with the training surrogates (:data:`TRAINING_NAMES`), ``draws`` of
    them (seeds ``seed``, ``seed + 1``, ...) as documents of their own, from ``cache`` where it has them."""
    cache = cache or FeatureCache(None)
    train = {}
    for name in sorted(groups):
        train[name] = sm.concatenate(_drawn_features(cache, name, groups[name], seed, draws))
        _tick(progress)
    return train


def context_columns(groups: dict[str, list[dict]], train: dict[str, sm.CourtFeatures],
                    context: Callable[[str, list[dict]], Sequence[np.ndarray]], cache: FeatureCache | None = None,
                    seed: int = 0, draws: int = DRAWS, progress=None) -> dict[str, np.ndarray]:
    """Each group's candidates' contextual probability ([candidates, 1], the rows of ``train``,
    :func:`group_features`): ``context(name, records)`` gives per record each element's
    probability, for ``records`` the group's rulings with the surrogates its features were
    computed on. Cross-fitted if ``context`` answers each group with a contextual model that did
    not train on it (train-scorer: one per group, ``--context-folds``)."""
    columns = {}
    for name in sorted(groups):
        if draws == 1:
            parts = [train[name]]
        else:  # the draws' features again, from the cache, for their documents' numbers
            parts = _drawn_features(cache or FeatureCache(None), name, groups[name], seed, draws)
        column = []
        for draw, part in enumerate(parts):
            values = context(name, training_records(groups[name], seed + draw))
            column.append(np.array([values[d][e] for d, e in zip(part.documents, part.elements, strict=True)],
                                   np.float32))
        columns[name] = np.concatenate(column).reshape(-1, 1)
        _tick(progress)
    return columns


def gold_features(records: Sequence[dict], cache: FeatureCache | None = None) -> sm.CourtFeatures:
    """Reviewed rulings' features as they are, one batch: their spans are exact and their names
    real or already surrogates, so no surrogate replaces them."""
    cache = cache or FeatureCache(None)
    return cache.features(GOLD, f"{records_digest(records)}\0gold", lambda: list(records))


def fit_all(fits: GroupedFits, names: Sequence[str], gold: tuple[sm.CourtFeatures, dict[str, int]] | None = None,
            gold_weight: float = GOLD_WEIGHT) -> sm.SensitivityModel:
    """The model on all ``names``, and with ``gold`` (reviewed rulings' features and the words
    they print in clear) beside them, each of its rows weighted ``gold_weight``."""
    if gold is None:
        return fits(names)
    courts = {**{n: fits.train[n] for n in names}, GOLD: gold[0]}
    clears = {**{n: fits.clears[n] for n in names}, GOLD: gold[1]}
    model = sm.fit(courts, clears, rounds=fits.rounds, boosters=fits.boosters, seed=fits.seed,
                   weights={GOLD: gold_weight}, extra=fits.extra, records=fits.records)
    model.config["courts"] = sorted(names)
    if fits.on_fit is not None:
        fits.on_fit()
    return model


def gold_config(described: dict, gold_weight: float) -> dict:
    """What ``config.json`` records of the reviewed rulings: ``described`` (their files' digests
    and counts), their weight, and that the thresholds were chosen without them."""
    return {**described, "weight": gold_weight, "thresholds": "chosen on the weak labels' groups alone"}


def scorer_config(validation: tr.Validation, thresholds: dict[str, float], *, held_out: str | None,
                  draws: int = DRAWS, grouped_by: str = "court", default_rule: str = tr.DEFAULT_RULE,
                  recall_first_rule: str = tr.RECALL_FIRST_RULE, with_consistency: bool = True,
                  weighted: tr.Validation | None = None) -> dict:
    """What ``config.json`` records of how the thresholds were chosen, and the figures that chose them.

    ``weighted``: the same out-of-fold probabilities with the public rules lowering rather than
    zeroing them, as ``--recall-first`` decides; the recall-first rule's threshold is chosen on
    them (:data:`sm.RECALL_FIRST_THRESHOLDS`), so the recall it promises is that of the decision
    it is used for."""
    config = {"held_out": held_out, "thresholds": thresholds, "rules": tr.RULES, "draws": draws,
              "thresholds_for": THRESHOLDS_FOR if with_consistency else "the model alone",
              sm.DEFAULT_RULE: default_rule, sm.RECALL_FIRST_RULE: recall_first_rule,
              "grouped_by": grouped_by, "figures": tr.figures(validation, thresholds, with_consistency)}
    if weighted:
        chosen = {recall_first_rule: tr.choose(weighted, recall_first_rule, with_consistency)}
        config[sm.RECALL_FIRST_THRESHOLDS] = chosen
        config["recall_first_figures"] = tr.figures(weighted, chosen, with_consistency)
        config["recall_first_public_weight"] = sm.RECALL_FIRST_PUBLIC_WEIGHT
    return config


def train_scorer(groups: dict[str, list[dict]], *, cache: FeatureCache | None = None, seed: int = 0,
                 rounds: int = sm.PARAMS["rounds"], boosters: int = sm.BOOSTERS, draws: int = DRAWS,
                 held_out: str | None = None, grouped_by: str = "court",
                 default_rule: str = tr.DEFAULT_RULE, recall_first_rule: str = tr.RECALL_FIRST_RULE,
                 gold: Sequence[dict] | None = None, gold_weight: float = GOLD_WEIGHT,
                 context: Callable[[str, list[dict]], Sequence[np.ndarray]] | None = None,
                 progress=None) -> tuple[sm.SensitivityModel, tr.Validation]:
    """The model fitted on ``groups`` (name -> anonymized records with their placeholder spans),
    its thresholds chosen on the groups' out-of-fold probabilities, and those probabilities; the
    background rulings a small batch is padded with drawn from ``groups``' records.

    ``gold``: reviewed rulings (``{"id", "text", "spans"}``, exact labels) fitted beside the groups,
    weighted ``gold_weight`` (:func:`fit_all`). They take no part in the thresholds: the rules
    compare groups the model never saw, and a few reviewed rulings of one court are no such group.
    Nor in the background, which the model stores: their texts hold names.

    ``context``: each group's contextual probabilities (:func:`context_columns`), a column of the
    model's rows after the features; the reviewed rulings' is missing.

    ``progress``: a tqdm-like bar with ``update``; :func:`steps` is its total."""
    names = sorted(groups)
    train = group_features(groups, cache, seed, draws, progress)
    clears = {name: sf.clear_counts(groups[name]) for name in names}
    reviewed = None
    if gold:
        reviewed = (gold_features(gold, cache), sf.clear_counts(gold))
        _tick(progress)
    extra = None if context is None else context_columns(groups, train, context, cache, seed, draws)
    fits = GroupedFits(train, clears, rounds, boosters, seed, on_fit=lambda: _tick(progress), extra=extra,
                       records=groups)
    validation = fits.out_of_fold(names)
    thresholds = tr.choose_all(validation)
    weighted = fits.out_of_fold(names, sm.RECALL_FIRST_PUBLIC_WEIGHT)
    model = fit_all(fits, names, reviewed, gold_weight)
    model.background = sm.Background.of([r for name in names for r in groups[name]])
    model.config.update(scorer_config(validation, thresholds, held_out=held_out, draws=draws, grouped_by=grouped_by,
                                      default_rule=default_rule, recall_first_rule=recall_first_rule,
                                      weighted=weighted))
    _tick(progress)
    return model, validation


def steps(n_groups: int, gold: bool = False) -> int:
    """What :func:`train_scorer` ticks: each group's features (and the reviewed rulings'), the
    fits leaving each out, the fit on all, the thresholds."""
    return n_groups + int(gold) + n_groups + 1 + 1


def _tick(progress) -> None:
    if progress is not None:
        progress.update(1)

