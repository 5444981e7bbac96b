"""A small BERT-style transformer encoder in tf_keras (Devlin et al. 2019, thesis 5.4.1.2).

The encoder takes the three inputs of the TF Hub BERT interface (``input_word_ids``,
``input_mask``, ``input_type_ids``: int32 ``[batch, seq]``) and returns ``sequence_output``
``[batch, seq, hidden]`` and ``pooled_output`` ``[batch, hidden]``, so a model exported from it
(:mod:`models.hub_export`) loads through ``hub.KerasLayer`` exactly like a downloaded BERT.

Shapes in comments: B batch, T sequence length, H hidden width, V vocabulary size.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from rulings_anon.tf import keras, tensorflow

INPUT_NAMES = ("input_word_ids", "input_mask", "input_type_ids")
WORD_EMBEDDINGS = "word_embeddings"


@dataclass(frozen=True)
class EncoderConfig:
    """Every hyperparameter of the encoder; saved as ``encoder_config.json``.

    Args:
        vocab_size: WordPiece vocabulary size (rows of the word embedding).
        hidden: width of every token vector (H).
        layers: number of transformer layers.
        heads: attention heads per layer; ``hidden`` must be divisible by it.
        intermediate: width of the feed-forward layer inside each transformer layer.
        max_seq_len: longest sequence the position embedding covers.
        type_vocab_size: number of segment types (``input_type_ids`` values).
        dropout: dropout rate on embeddings, attention probabilities and layer outputs.
    """

    vocab_size: int
    hidden: int = 128
    layers: int = 2
    heads: int = 2
    intermediate: int = 512
    max_seq_len: int = 128
    type_vocab_size: int = 2
    dropout: float = 0.1

    def __post_init__(self):
        if self.hidden % self.heads:
            raise ValueError(f"hidden width {self.hidden} is not divisible by {self.heads} heads")
        for name in ("vocab_size", "hidden", "layers", "heads", "intermediate", "max_seq_len"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")

    def to_json(self, path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, path) -> EncoderConfig:
        return cls(**json.loads(Path(path).read_text(encoding="utf-8")))


def _initializer():
    # BERT's truncated normal with stddev 0.02 keeps the initial logits small.
    return keras().initializers.TruncatedNormal(stddev=0.02)


def _layer_classes():
    """Define the custom layers lazily, so importing this module does not import TensorFlow."""
    tf = tensorflow()
    tf_keras = keras()

    class PositionEmbedding(tf_keras.layers.Layer):
        """Adds a learned vector per position to ``[B, T, H]`` embeddings (T <= max_seq_len)."""

        def __init__(self, max_seq_len: int, **kwargs):
            super().__init__(**kwargs)
            self.max_seq_len = max_seq_len

        def build(self, input_shape):
            self.position_embeddings = self.add_weight(
                "embeddings", shape=(self.max_seq_len, input_shape[-1]), initializer=_initializer()
            )
            super().build(input_shape)

        def call(self, embeddings):
            length = tf.shape(embeddings)[1]
            return embeddings + self.position_embeddings[tf.newaxis, :length, :]

        def get_config(self):
            return {**super().get_config(), "max_seq_len": self.max_seq_len}

    class AttentionMask(tf_keras.layers.Layer):
        """``input_mask`` ``[B, T]`` -> attention mask ``[B, T, T]``: every query sees the real tokens."""

        def call(self, input_mask):
            mask = tf.cast(input_mask, tf.bool)
            return tf.logical_and(mask[:, :, tf.newaxis], mask[:, tf.newaxis, :])

    return PositionEmbedding, AttentionMask


def _transformer_layer(x, attention_mask, config: EncoderConfig, index: int):
    """One post-layer-norm transformer block: self-attention + FFN, each with residual and norm."""
    tf_keras = keras()
    name = f"transformer/layer_{index}"
    attention = tf_keras.layers.MultiHeadAttention(
        num_heads=config.heads,
        key_dim=config.hidden // config.heads,
        dropout=config.dropout,
        kernel_initializer=_initializer(),
        name=f"{name}/self_attention",
    )(x, x, attention_mask=attention_mask)
    attention = tf_keras.layers.Dropout(config.dropout)(attention)
    x = tf_keras.layers.LayerNormalization(epsilon=1e-12, name=f"{name}/attention_norm")(x + attention)
    ffn = tf_keras.layers.Dense(
        config.intermediate, activation="gelu", kernel_initializer=_initializer(),
        name=f"{name}/intermediate",
    )(x)
    ffn = tf_keras.layers.Dense(config.hidden, kernel_initializer=_initializer(), name=f"{name}/output")(ffn)
    ffn = tf_keras.layers.Dropout(config.dropout)(ffn)
    return tf_keras.layers.LayerNormalization(epsilon=1e-12, name=f"{name}/output_norm")(x + ffn)


def build_encoder(config: EncoderConfig):
    """The encoder as a functional tf_keras model: dict of 3 int32 inputs -> dict of 2 outputs."""
    tf_keras = keras()
    PositionEmbedding, AttentionMask = _layer_classes()
    inputs = {name: tf_keras.Input(shape=(None,), dtype="int32", name=name) for name in INPUT_NAMES}

    words = tf_keras.layers.Embedding(
        config.vocab_size, config.hidden, embeddings_initializer=_initializer(), name=WORD_EMBEDDINGS
    )(inputs["input_word_ids"])  # [B, T, H]
    types = tf_keras.layers.Embedding(
        config.type_vocab_size, config.hidden, embeddings_initializer=_initializer(),
        name="type_embeddings",
    )(inputs["input_type_ids"])
    x = PositionEmbedding(config.max_seq_len, name="position_embedding")(words + types)
    x = tf_keras.layers.LayerNormalization(epsilon=1e-12, name="embeddings/norm")(x)
    x = tf_keras.layers.Dropout(config.dropout)(x)

    attention_mask = AttentionMask(name="attention_mask")(inputs["input_mask"])  # [B, T, T]
    for index in range(config.layers):
        x = _transformer_layer(x, attention_mask, config, index)

    first_token = x[:, 0, :]  # [B, H]: the [CLS] vector
    pooled = tf_keras.layers.Dense(
        config.hidden, activation="tanh", kernel_initializer=_initializer(), name="pooler"
    )(first_token)
    outputs = {"sequence_output": x, "pooled_output": pooled}
    return tf_keras.Model(inputs=inputs, outputs=outputs, name="encoder")


def word_embedding_matrix(encoder):
    """The ``[V, H]`` word embedding weights, shared with the masked-LM output layer."""
    return encoder.get_layer(WORD_EMBEDDINGS).embeddings
