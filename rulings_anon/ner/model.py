"""The legal NER model: a BiLSTM over word and character-CNN embeddings with a softmax output.

Shapes: B windows, T tokens, C characters per token, V words, K tags.
words [B, T] -> embedding [B, T, word_dim]; chars [B, T, C] -> embedding [B, T, C, char_dim]
-> Conv1D over C, max over C -> [B, T, char_filters]; with a lexicon, lexicon ids [B, T] ->
embedding [B, T, lexicon_dim]; concatenated -> BiLSTM [B, T, 2*hidden]
-> Dense softmax [B, T, K] ("tags") and, with ``sensitivity``, Dense sigmoid [B, T, 1] ("sensitive").
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rulings_anon.errors import ModelError
from rulings_anon.jsonl import atomic_writer
from rulings_anon.lexicon import SIZE as LEXICON_SIZE
from rulings_anon.model_kinds import NER
from rulings_anon.tf import keras

# The learning rate's factor at a share of the run done (0 at the first batch, 1 after the last):
# a run that ends at a small rate ends nearer a minimum instead of wherever its last batches left it.
LEARNING_RATE_SCHEDULES = {
    "constant": lambda done: 1.0,
    "linear": lambda done: 1.0 - done,
    "cosine": lambda done: 0.5 * (1.0 + math.cos(math.pi * done)),
}


def learning_rate_at(config: NerConfig, done: float) -> float:
    """The learning rate after ``done`` (0..1) of a run under ``config``'s schedule."""
    try:
        schedule = LEARNING_RATE_SCHEDULES[config.learning_rate_schedule]
    except KeyError:
        raise ModelError(f"unknown learning rate schedule {config.learning_rate_schedule!r} "
                         f"(one of {', '.join(LEARNING_RATE_SCHEDULES)})") from None
    return config.learning_rate * schedule(done)


FORMAT_FAMILY = "rulings-anon-ner/"
FORMAT = FORMAT_FAMILY + "1"


@dataclass
class NerConfig:
    """Hyperparameters and tag set of a NER model directory (``config.json``)."""

    tags: list[str]
    candidate_types: list[str]
    # A second output: per token the probability that courts anonymize the reference it belongs
    # to (the NER's score of a candidate). False for models trained before it existed.
    sensitivity: bool = False
    vocab_size: int = 0
    char_vocab_size: int = 0
    max_chars: int = 12
    word_dim: int = 64
    char_dim: int = 24
    char_filters: int = 48
    hidden: int = 64
    dropout: float = 0.25
    word_dropout: float = 0.15
    # Surrogate names come from a few hundred listed names: left known, the tagger calls a name
    # sensitive because it has seen it as a surrogate, which real rulings never reward. This share
    # of the words of candidate-type entities (surrogates or not, so that an unknown word tells
    # nothing about sensitivity) is unknown in each epoch; other words: word_dropout.
    entity_dropout: float = 0.5
    # The model keeps the mean of the weights after each of the last this many epochs (1: the last).
    average_epochs: int = 1
    # The share of sensitive persons given an academic title in training (dataset.add_titles).
    titled_persons: float = 0.0
    # The share of surrogate surnames and places invented from two listed ones, so that the
    # training names are too many to learn by heart.
    invented_names: float = 0.7
    # The German noun lexicon (rulings_anon.ner.lexicon_builder) whose bits are a token input, or None.
    lexicon: str | None = None
    lexicon_dim: int = 8
    window: int = 64
    predict_window: int = 128
    predict_margin: int = 16
    learning_rate: float = 2e-3
    # How the learning rate falls over the run (a name in LEARNING_RATE_SCHEDULES): "constant"
    # for models trained before the schedule was an option.
    learning_rate_schedule: str = "constant"
    # Thesis 9.2: the NER must favour recall of the references that may be sensitive. Tokens of
    # candidate types weigh this much more in the loss, and windows holding one are repeated.
    candidate_weight: float = 8.0
    candidate_oversample: int = 5
    # At prediction: a token is tagged with its best candidate type when the candidate types'
    # probabilities sum to this much (None: plain argmax). Set on a dev court, never on BSG.
    candidate_threshold: float | None = 0.15
    format: str = FORMAT
    training: dict = field(default_factory=dict)
    kind: str = NER  # what loads the directory (rulings_anon.model_kinds)

    def save(self, directory: Path) -> None:
        with atomic_writer(directory / "config.json") as handle:
            handle.write(json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, directory: Path) -> NerConfig:
        path = directory / "config.json"
        if not path.exists():
            raise ModelError(f"{directory}: not a NER model directory (no config.json); train one with `rulings-anon train-ner`")
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ModelError(f"{path}: not valid JSON ({exc.msg})") from exc
        if record.get("format") != FORMAT:
            raise ModelError(f"{path}: format {record.get('format')!r} is not {FORMAT!r}; retrain with `rulings-anon train-ner`")
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in record.items() if k in known})


def is_ner_directory(directory) -> bool:
    """Whether ``directory``'s ``config.json`` is a NER model's, of any format version (a wrong
    version is then refused by :meth:`NerConfig.load`, naming it)."""
    path = Path(directory) / "config.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(record, dict) and str(record.get("format", "")).startswith(FORMAT_FAMILY)


def build_model(config: NerConfig):
    """The tagger as a tf_keras functional model with inputs ``words``, ``chars`` (and ``lexicon``)."""
    k = keras()
    layers = k.layers
    words = k.Input((None,), dtype="int32", name="words")
    chars = k.Input((None, config.max_chars), dtype="int32", name="chars")
    word_vectors = layers.Embedding(config.vocab_size, config.word_dim, mask_zero=True, name="word_embedding")(words)
    char_vectors = layers.Embedding(config.char_vocab_size, config.char_dim, name="char_embedding")(chars)
    char_features = layers.TimeDistributed(
        layers.Conv1D(config.char_filters, 3, padding="same", activation="relu"), name="char_cnn")(char_vectors)
    char_features = layers.TimeDistributed(layers.GlobalMaxPooling1D(), name="char_pool")(char_features)
    inputs = {"words": words, "chars": chars}
    parts = [word_vectors, char_features]
    if config.lexicon:
        inputs["lexicon"] = k.Input((None,), dtype="int32", name="lexicon")
        parts.append(layers.Embedding(LEXICON_SIZE, config.lexicon_dim, name="lexicon_embedding")(inputs["lexicon"]))
    x = layers.Concatenate(name="token_vectors")(parts)
    x = layers.Dropout(config.dropout)(x)
    x = layers.Bidirectional(layers.LSTM(config.hidden, return_sequences=True, recurrent_activation="hard_sigmoid"), name="bilstm")(x)
    x = layers.Dropout(config.dropout)(x)
    tags = layers.Dense(len(config.tags), activation="softmax", name="tags")(x)
    optimizer = k.optimizers.Adam(config.learning_rate)
    if not config.sensitivity:
        model = k.Model(inputs, tags, name="legal_ner")
        model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy", weighted_metrics=[])
        return model
    sensitive = layers.Dense(1, activation="sigmoid", name="sensitive")(x)  # [B, T, 1]
    model = k.Model(inputs, {"tags": tags, "sensitive": sensitive}, name="legal_ner")
    model.compile(optimizer=optimizer, loss={"tags": "sparse_categorical_crossentropy", "sensitive": "binary_crossentropy"},
                  weighted_metrics=[])
    return model
