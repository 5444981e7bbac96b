"""A contextual model's probability as a column of the scorer (``train-scorer --context-model``).

The scorer's features describe a word and its immediate neighbours; a contextual model of
``rulings-anon train`` reads the whole sentence. Its probability of each element is stacked after
the features (``sensitivity_model.CONTEXT_FEATURE``) when a model is given, and ``config.json``
names the model so that ``score --model`` loads it beside the boosters.

Cross-fitting: a contextual model is confident on the rulings it trained on, so the training rows
must not see such probabilities, or the boosters learn to trust the column more than it deserves on
a new court. ``--context-folds FOLDER`` holds one contextual model per group of the corpus,
``FOLDER/GROUP`` trained without that group's rulings (the group names are those train-scorer
prints: courts in lower case, years, sources); each group's rows take their column from it.
``--context-model`` is the model ``score`` runs on new rulings, trained on all groups.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from rulings_anon.errors import InputError

CONTEXT_FOLDS = "context_folds"


def check_context_model(directory: Path, option: str = "--context-model") -> None:
    """A one-line error unless ``directory`` holds a contextual model of ``rulings-anon train``."""
    from rulings_anon.model_kinds import CONTEXTUAL
    from rulings_anon.scoring.prediction import model_kind

    if not directory.is_dir():
        raise InputError(f"{option}: no such model directory", directory)
    if not (directory / "config.json").exists() or model_kind(directory) != CONTEXTUAL:
        raise InputError(f"{option}: not a contextual model of `rulings-anon train`", directory)


def fold_models(folds: Path, groups: Sequence[str]) -> dict[str, Path]:
    """Each group's contextual model in ``folds`` (``FOLDS/GROUP``), one-line errors for those missing."""
    if not folds.is_dir():
        raise InputError("--context-folds: no such folder", folds)
    missing = [g for g in groups if not (folds / g).is_dir()]
    if missing:
        raise InputError(f"--context-folds: no model for group(s) {', '.join(missing)}: FOLDER/GROUP must hold a "
                         "contextual model trained without that group's rulings", folds)
    for group in groups:
        check_context_model(folds / group, "--context-folds")
    return {g: folds / g for g in groups}


def fold_probabilities(models: dict[str, Path], progress: bool = False
                       ) -> Callable[[str, list[dict]], Sequence[np.ndarray]]:
    """``scorer_training.context_columns``' source: a group's records scored by its own fold's model
    (loaded once, when its group comes)."""
    from rulings_anon.document import Document
    from rulings_anon.scoring.prediction import ElementModel

    def probabilities(group: str, records: list[dict]) -> Sequence[np.ndarray]:
        model = ElementModel(models[group], progress)
        return model.probabilities([Document(str(r["id"]), r["text"]) for r in records])

    return probabilities


def context_config(context_model: Path, folds: Path) -> dict:
    """What ``config.json`` records: the model ``score`` loads (an absolute path) and the folds."""
    from rulings_anon.analyzer.sensitivity_model import CONTEXT_MODEL

    return {CONTEXT_MODEL: str(context_model.resolve()), CONTEXT_FOLDS: str(folds.resolve())}
