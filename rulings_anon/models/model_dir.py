"""A model directory holds everything scoring needs, so a model trained on a GPU scores on a laptop.

Layout::

    MODEL/config.json          ModelConfig: variant, masking, tokenizer, data format, training summary
    MODEL/weights/model.*      best weights (a TF checkpoint of the whole tf_keras model)
    MODEL/tokenizer/           tokenizer assets copied from DATA/tokenizer
    MODEL/bert/                BERT variants: the SavedModel the model was trained on, copied
    MODEL/checkpoints/         training state for resuming (not needed for scoring)
    MODEL/logs/                TensorBoard logs; MODEL/history.json: per-epoch losses and metrics

:func:`check_model_dir` names what is missing or incompatible as a :class:`ModelError`.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from rulings_anon.errors import ModelError
from rulings_anon.jsonl import read_json, write_json
from rulings_anon.model_kinds import CONTEXTUAL
from rulings_anon.version import __version__

from .variants import VARIANTS, Variant

MODEL_FORMAT = 1
CONFIG_FILE = "config.json"
WEIGHTS_DIR = "weights"
WEIGHTS_PREFIX = "weights/model"
TOKENIZER_DIR = "tokenizer"
BERT_DIR = "bert"
CHECKPOINT_DIR = "checkpoints"
LOG_DIR = "logs"
HISTORY_FILE = "history.json"
REQUIRED_KEYS = ("variant", "embedding", "layers", "dropout", "fine_tune", "tokenizer", "data_format")


@dataclass
class ModelConfig:
    """What ``config.json`` records. ``layers`` are the variant's specs as built (after any width
    divisor), ``data_format`` the ``format.json`` of the training data (special ids, max length)."""

    variant: str
    embedding: str
    layers: list[str]
    dropout: float
    fine_tune: bool
    tokenizer: str
    data_format: dict
    masking: str | None = None
    candidates: bool = True
    candidate_rate: float = 0.02
    width_divisor: int = 1
    bert_handle: str | None = None
    glove: dict = field(default_factory=dict)
    class_weights: list[float] = field(default_factory=lambda: [1.0, 1.0])
    optimizer: dict = field(default_factory=dict)
    batch_size: int = 16
    epochs: int = 1
    training: dict = field(default_factory=dict)
    # What the training sequences were (sha256 of the train record files): a run resumes only on
    # the same data. Empty in models trained before it was recorded.
    data_fingerprint: str = ""
    model_format: int = MODEL_FORMAT
    package_version: str = __version__
    kind: str = CONTEXTUAL  # what loads the directory (rulings_anon.model_kinds)

    @property
    def max_seq_len(self) -> int:
        return int(self.data_format.get("max_seq_len", 0))

    @property
    def special_ids(self) -> dict:
        return self.data_format.get("special_ids", {})

    def to_variant(self) -> Variant:
        """The variant as trained (the table entry with this config's layer widths)."""
        base = VARIANTS[self.variant]
        return Variant(base.name, self.embedding, tuple(self.layers), self.dropout, self.fine_tune,
                       self.batch_size)

    def write(self, model_dir) -> None:
        write_json(Path(model_dir) / CONFIG_FILE, asdict(self))

    @classmethod
    def read(cls, model_dir) -> ModelConfig:
        path = Path(model_dir) / CONFIG_FILE
        if not path.exists():
            raise ModelError(f"{model_dir}: no {CONFIG_FILE}; not a model directory written by 'rulings-anon train'")
        record = read_json(path)
        if record.get("model_format") != MODEL_FORMAT:
            raise ModelError(f"{path}: model format {record.get('model_format')} (package "
                             f"{record.get('package_version')}) cannot be read by this version, which "
                             f"reads format {MODEL_FORMAT}; train the model again")
        if record.get("variant") not in VARIANTS:
            raise ModelError(f"{path}: unknown variant {record.get('variant')!r}; known: {', '.join(VARIANTS)}")
        missing = [key for key in REQUIRED_KEYS if key not in record]
        if missing:
            raise ModelError(f"{path}: missing keys {', '.join(missing)}")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in record.items() if k in known})


def required_files(config: ModelConfig) -> list[str]:
    """Paths (relative to the model directory) scoring cannot do without."""
    files = [CONFIG_FILE, f"{WEIGHTS_PREFIX}.index", TOKENIZER_DIR]
    if config.embedding == "bert":
        files.append(f"{BERT_DIR}/saved_model.pb")
    return files


def check_model_dir(model_dir) -> ModelConfig:
    """Read ``config.json`` and make sure every file scoring needs is there."""
    model_dir = Path(model_dir)
    if not model_dir.is_dir():
        raise ModelError(f"{model_dir}: no such model directory")
    config = ModelConfig.read(model_dir)
    missing = [name for name in required_files(config) if not (model_dir / name).exists()]
    if missing:
        raise ModelError(f"{model_dir}: incomplete model directory, missing {', '.join(missing)}")
    return config


def copy_tree(source, target) -> None:
    """Copy a directory into place atomically (stage beside it, then rename)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        shutil.copytree(source, staging / "tree")
        if target.exists():
            shutil.rmtree(target)
        (staging / "tree").replace(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def resolve_bert_handle(handle: str) -> Path:
    """A local directory for ``handle``: the directory itself, or TF Hub's cached download of a URL."""
    path = Path(handle)
    if path.is_dir():
        return path
    from rulings_anon.tf import tensorflow

    tensorflow()  # first: tensorflow_hub would load TensorFlow without its settings
    import tensorflow_hub as hub

    try:
        return Path(hub.resolve(handle))
    except Exception as exc:  # hub raises several unrelated types for an unreachable handle
        raise ModelError(f"cannot resolve BERT handle {handle}: {exc}") from exc


def save_weights(model, model_dir) -> None:
    """Write the model's weights to ``MODEL/weights/`` atomically (stage, then swap directories)."""
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    model_dir = Path(model_dir)
    staging = Path(tempfile.mkdtemp(prefix=".weights-", dir=model_dir))
    try:
        tf.train.Checkpoint(model=model).write(str(staging / "model"))
        target = model_dir / WEIGHTS_DIR
        old = model_dir / ".weights-old"
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
            target.replace(old)
        staging.replace(target)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def load_weights(model, model_dir) -> None:
    """Restore weights written by :func:`save_weights`; a mismatch raises :class:`ModelError`."""
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    prefix = str(Path(model_dir) / WEIGHTS_PREFIX)
    try:
        tf.train.Checkpoint(model=model).read(prefix).assert_consumed()
    except (AssertionError, ValueError, tf.errors.OpError) as exc:
        raise ModelError(f"{model_dir}: weights do not fit the model in config.json: {exc}") from exc
