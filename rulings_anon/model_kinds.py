"""What kind of model a directory holds, as its ``config.json`` records it under ``"kind"``.

Every model directory the project writes says what loads it: ``contextual`` (``rulings-anon
train``, rulings_anon/models/model_dir.py), ``ner`` (``train-ner``, rulings_anon/ner) or ``sensitivity``
(the sensitivity model, rulings_anon/analyzer/sensitivity_model.py). Directories written before the
kind was recorded have none; their loader is then found from their files.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulings_anon.errors import ModelError

CONTEXTUAL, NER, SENSITIVITY = "contextual", "ner", "sensitivity"
MODEL_KINDS = (CONTEXTUAL, NER, SENSITIVITY)
CONFIG_FILE = "config.json"


def recorded_kind(model_dir) -> str | None:
    """The kind ``model_dir``'s ``config.json`` records, or None where it records none (or there is
    no readable config: the loaders name what is wrong then). A kind this version does not know is
    a :class:`ModelError` naming the directory."""
    path = Path(model_dir) / CONFIG_FILE
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    kind = record.get("kind") if isinstance(record, dict) else None
    if kind is None:
        return None
    if kind not in MODEL_KINDS:
        raise ModelError(f"{model_dir}: unknown model kind {kind!r} in {CONFIG_FILE} "
                         f"(known: {', '.join(MODEL_KINDS)})")
    return kind
