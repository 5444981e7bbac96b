"""The rules that choose ``score``'s thresholds from courts the model was not fitted on.

Each rule reads the validation courts' out-of-fold probabilities (every court left out of a fit
on the others) and picks one threshold of :data:`GRID`: a balance of recall and precision for the
default, the recall every court keeps for review (``score --recall-first``). The model's
``config.json`` records every rule's threshold and the figures that chose it.
"""

from __future__ import annotations

import numpy as np

from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer.decision_metrics import F_BETA, decided

# the mean F2 of the inner folds is flat over a wide range of thresholds: "f2plateau" takes the
# highest threshold within this of the best, the precise end of the plateau, "f2recall" the lowest,
# its recall end
PLATEAU = 0.005
RULES = {"f1": "best mean F1", "f15": "best mean F1.5 (recall weighted 1.5:1)", "f2": "best mean F2 (recall weighted 2:1)",
         "f2plateau": f"highest threshold with mean F2 within {PLATEAU} of the best",
         "f2recall": f"lowest threshold with mean F2 within {PLATEAU} of the best",
         "precision65": "lowest threshold with mean precision >= 0.65",
         "precision70": "lowest threshold with mean precision >= 0.70",
         "precision80": "lowest threshold with mean precision >= 0.80",
         "recall85": "highest threshold with mean recall >= 0.85",
         "recall90": "highest threshold with mean recall >= 0.90", "recall95": "highest threshold with mean recall >= 0.95",
         "recall97": "highest threshold with mean recall >= 0.97", "recall98": "highest threshold with mean recall >= 0.98",
         "lowest95": "highest threshold at which every validation court's recall is >= 0.95",
         "lowest96": "highest threshold at which every validation court's recall is >= 0.96"}
# score's default takes the most recall at which the courts the model was not fitted on keep a mean
# precision of 70 (the bar for state courts: about three suggestions in ten false). Leaving
# one court out with thresholds chosen on inner folds (three draws of the test names) it gave 90.3 /
# 72.6, lowest court 81.4, against the recall end of F2's plateau 89.1 / 73.9, lowest 75.4, and F2
# 86.5 / 76.5 (docs/experiments.md, "A steadier threshold, names hyphenated to an institution, a
# company's words"). Precision falls steeply below the plateau, so a small change of the trees moves
# this threshold less than the plateau's end, which a flat F2 lets wander (0.21 -> 0.14 with one
# rule more, 0.21 -> 0.29 with a refit). --recall-first keeps every left-out dev court's recall at
# 0.95 or more with the most precision (lowest95's and recall97's left BPatG under it)
DEFAULT_RULE, RECALL_FIRST_RULE = "precision70", "lowest96"
# thresholds the rules choose from; the lowest ones for recall-first review (recall 0.95 needs
# probabilities of a few ten-thousandths to thousandths on the left-out courts)
GRID = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01] + [round(x, 3) for x in np.arange(0.02, 0.98, 0.01)]

Validation = dict[str, tuple[sm.CourtFeatures, np.ndarray]]
# per threshold of GRID: each validation court's figures (decision_metrics.decided)
Figures = dict[float, list[dict]]


def measured(validation: Validation, with_consistency: bool = False) -> Figures:
    """Each validation court's figures at every threshold of :data:`GRID`, measured once for every rule."""
    return {t: [decided(c, p, t, with_consistency) for c, p in validation.values()] for t in GRID}


def choose(validation: Validation, rule: str, with_consistency: bool = False, figures: Figures | None = None) -> float:
    """The threshold ``rule`` picks from the validation courts' out-of-fold probabilities, for the
    model alone or for its decision with consistency (``figures``: :func:`measured`, where the
    caller has them)."""
    figures = measured(validation, with_consistency) if figures is None else figures
    means = {t: {k: float(np.mean([m[k] for m in ms])) for k in ("recall", "precision", *F_BETA)}
             for t, ms in figures.items()}
    if rule in F_BETA:
        return max(GRID, key=lambda t: means[t][rule])
    if rule in ("f2plateau", "f2recall"):
        best = max(means[t]["f2"] for t in GRID)
        near = [t for t in GRID if means[t]["f2"] >= best - PLATEAU]
        return max(near) if rule == "f2plateau" else min(near)
    if rule.startswith("precision"):  # "precision70": the most recall at mean precision >= 0.70
        floor = int(rule.removeprefix("precision")) / 100
        ok = [t for t in GRID if means[t]["precision"] >= floor]
        return min(ok) if ok else GRID[-1]
    if rule.startswith("lowest"):  # "lowest95": every validation court's recall >= 0.95
        floor = int(rule.removeprefix("lowest")) / 100
        ok = [t for t in GRID if all(m["recall"] >= floor for m in figures[t])]
        return max(ok) if ok else GRID[0]
    floor = int(rule.removeprefix("recall")) / 100  # "recall97": mean recall >= 0.97
    ok = [t for t in GRID if means[t]["recall"] >= floor]
    return max(ok) if ok else GRID[0]


def choose_all(validation: Validation, with_consistency: bool = True) -> dict[str, float]:
    """Every rule's threshold (:func:`choose`), the courts measured once."""
    figures = measured(validation, with_consistency)
    return {rule: choose(validation, rule, with_consistency, figures) for rule in RULES}


def figures(validation: Validation, thresholds: dict[str, float], with_consistency: bool = True) -> dict:
    """What each rule's threshold gives on the validation courts: their mean recall and precision
    and each court's recall and precision, in percent to one decimal."""
    out = {}
    for rule, t in thresholds.items():
        by_court = {name: decided(c, p, t, with_consistency) for name, (c, p) in validation.items()}
        out[rule] = {"recall": _percent(np.mean([m["recall"] for m in by_court.values()])),
                     "precision": _percent(np.mean([m["precision"] for m in by_court.values()])),
                     "by_group": {name: [_percent(m["recall"]), _percent(m["precision"])]
                                  for name, m in by_court.items()}}
    return out


def _percent(value: float) -> float:
    return round(100 * float(value), 1)
