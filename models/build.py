"""Build a tf_keras model from a variant: embeddings, the variant's layers, one logit per element.

Inputs (a dict of int32 tensors; letters: B batch, T tokens, E elements):

* ``token_ids`` ``[B, T]``, ``input_mask`` ``[B, T]`` (1 = real token);
* ``token_element`` ``[B, T]``: element of each token, -1 for [CLS]/[SEP]/padding;
* ``element_first``, ``element_last`` ``[B, E]``: position of each element's first and last token;
* ``word_ids`` ``[B, E]`` (GloVe only): each element's pretrained-vocabulary word id.

Output: ``logits`` ``[B, E]`` float32, one per element; the sigmoid of a logit is the probability that
the element is sensitive (thesis 5.4.1.2: single linear output, sigmoid). Token-level heads (Dense,
Conv, RNN, FT) give each token a logit and an element takes the maximum of its tokens' logits: an
element is sensitive when any of its tokens is (thesis 5.5.3). Leave-out heads give one vector per
element directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulings_anon.tf import keras, tensorflow

from .embeddings import CombinedGloVe, bert_layer, bert_sequence_output
from .leave_out import LOBiRNN, LOConv
from .variants import BERT, Variant

tf = tensorflow()
tf_keras = keras()

TOKEN_INPUTS = ("token_ids", "input_mask", "token_element")
ELEMENT_INPUTS = ("element_first", "element_last")


@dataclass(frozen=True)
class EmbeddingSpec:
    """What the embeddings need: a BERT handle, or the GloVe table sizes."""

    bert_handle: str | None = None
    piece_vocab: int = 0
    piece_dim: int = 0
    word_vocab: int = 0
    word_dim: int = 0


@tf_keras.utils.register_keras_serializable(package="rulings_anon")
class ElementMax(tf_keras.layers.Layer):
    """Per-element maximum of per-token logits: ``[B, T]`` -> ``[B, E]`` (0 for padding elements)."""

    def call(self, token_logits, token_element, element_first):
        token_logits = tf.cast(token_logits, tf.float32)
        batch = tf.shape(token_logits)[0]
        elements = tf.shape(element_first)[1]
        rows = tf.range(batch)[:, None] * elements
        segment = tf.where(token_element >= 0, rows + token_element, batch * elements)
        pooled = tf.math.unsorted_segment_max(token_logits, segment, batch * elements + 1)
        pooled = tf.reshape(pooled[:-1], [batch, elements])
        counts = tf.math.unsorted_segment_sum(tf.ones_like(segment), segment, batch * elements + 1)
        return tf.where(tf.reshape(counts[:-1], [batch, elements]) > 0, pooled, 0.0)


def model_inputs(variant: Variant) -> dict:
    inputs = {name: tf_keras.Input((None,), dtype=tf.int32, name=name) for name in TOKEN_INPUTS + ELEMENT_INPUTS}
    if variant.embedding != BERT:
        inputs["word_ids"] = tf_keras.Input((None,), dtype=tf.int32, name="word_ids")
    return inputs


def build_model(variant: Variant, embedding: EmbeddingSpec, name: str | None = None):
    """The tf_keras model of ``variant`` over ``embedding`` (see the module docstring for I/O)."""
    inputs = model_inputs(variant)
    if variant.embedding == BERT:
        if not embedding.bert_handle:
            raise ValueError(f"variant {variant.name} needs a BERT handle")
        layer = bert_layer(embedding.bert_handle, trainable=variant.fine_tune)
        x = bert_sequence_output(layer, inputs["token_ids"], inputs["input_mask"])
    else:
        glove = CombinedGloVe(embedding.piece_vocab, embedding.piece_dim, embedding.word_vocab,
                              embedding.word_dim, name="glove")
        x = glove(inputs["token_ids"], inputs["token_element"], inputs["word_ids"])
    x = tf_keras.layers.Dropout(variant.dropout, name="embedding_dropout")(x)
    token_mask = inputs["input_mask"]
    boundaries = (token_mask, inputs["element_first"], inputs["element_last"])
    specs = variant.specs
    per_element = False
    i = 0
    while i < len(specs):
        spec = specs[i]
        if spec.kind == "lr":
            depth = 1  # consecutive lr specs are the stacked levels of one LOBiRNN
            while i + depth < len(specs) and specs[i + depth].kind == "lr":
                depth += 1
            x = LOBiRNN(spec.units, depth, name=f"lobirnn_{i}")(x, *boundaries)
            per_element = True
            i += depth
            continue
        if spec.kind == "lc":
            x = LOConv(spec.units, spec.kernel, name=f"loconv_{i}")(x, *boundaries)
            per_element = True
        elif spec.kind == "d":
            x = tf_keras.layers.Dropout(variant.dropout, name=f"dropout_{i}")(x)
            x = tf_keras.layers.Dense(spec.units, activation="relu", name=f"dense_{i}")(x)
        elif spec.kind == "c":
            x = _zero_padding(x, token_mask)
            x = tf_keras.layers.Conv1D(spec.units, spec.kernel, padding="same", activation="relu",
                                       name=f"conv_{i}")(x)
        else:
            # The mask keeps right padding out of the backward direction.
            x = tf_keras.layers.Bidirectional(tf_keras.layers.LSTM(spec.units, return_sequences=True),
                                              name=f"bilstm_{i}")(x, mask=tf.cast(token_mask, tf.bool))
        i += 1
    x = tf_keras.layers.Dropout(variant.dropout, name="output_dropout")(x)
    logits = tf_keras.layers.Dense(1, dtype="float32", name="output")(x)[..., 0]
    if not per_element:
        logits = ElementMax(name="element_max")(logits, inputs["token_element"], inputs["element_first"])
    return tf_keras.Model(inputs, logits, name=name or variant.name)


def _zero_padding(x, token_mask):
    """Zero the vectors of padding tokens, so a convolution never reads what padding holds."""
    return x * tf.cast(token_mask, x.dtype)[:, :, None]
