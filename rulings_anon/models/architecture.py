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


class VariantModel(tf_keras.Model):
    """The model of one variant: embeddings, the variant's layers, a float32 linear output.

    Subclassed rather than functional, so building one costs nothing until its first call.
    """

    def __init__(self, variant: Variant, embedding: EmbeddingSpec, **kwargs):
        super().__init__(name=kwargs.pop("name", variant.name), **kwargs)
        self.glove_input = variant.embedding != BERT
        if not self.glove_input:
            if not embedding.bert_handle:
                raise ValueError(f"variant {variant.name} needs a BERT handle")
            self.bert = bert_layer(embedding.bert_handle, trainable=variant.fine_tune)
        else:
            self.glove = CombinedGloVe(embedding.piece_vocab, embedding.piece_dim, embedding.word_vocab,
                                       embedding.word_dim, name="glove")
        self.embedding_dropout = tf_keras.layers.Dropout(variant.dropout, name="embedding_dropout")
        self.head, self.kinds = _head_layers(variant)
        self.per_element = any(kind == "leave_out" for kind in self.kinds)
        self.output_dropout = tf_keras.layers.Dropout(variant.dropout, name="output_dropout")
        self.output_layer = tf_keras.layers.Dense(1, dtype="float32", name="output")
        self.element_max = ElementMax(name="element_max")

    def call(self, inputs, training=None):
        token_mask = inputs["input_mask"]
        if self.glove_input:
            x = self.glove(inputs["token_ids"], inputs["token_element"], inputs["word_ids"])
        else:
            x = bert_sequence_output(self.bert, inputs["token_ids"], token_mask)
        x = self.embedding_dropout(x, training=training)
        for kind, layer in zip(self.kinds, self.head):
            if kind == "leave_out":
                x = layer(x, token_mask, inputs["element_first"], inputs["element_last"])
            elif kind == "conv":
                x = layer(_zero_padding(x, token_mask))
            elif kind == "bilstm":
                # The mask keeps right padding out of the backward direction.
                x = layer(x, mask=tf.cast(token_mask, tf.bool))
            else:
                x = layer(x, training=training)
        logits = self.output_layer(self.output_dropout(x, training=training))[..., 0]
        if not self.per_element:
            logits = self.element_max(logits, inputs["token_element"], inputs["element_first"])
        return logits


def _head_layers(variant: Variant) -> tuple[list, list[str]]:
    """The variant's layers in order, with how each is called (dense, conv, bilstm, leave_out)."""
    layers, kinds = [], []
    specs = variant.specs
    i = 0
    while i < len(specs):
        spec = specs[i]
        if spec.kind == "lr":
            depth = 1  # consecutive lr specs are the stacked levels of one LOBiRNN
            while i + depth < len(specs) and specs[i + depth].kind == "lr":
                depth += 1
            layers.append(LOBiRNN(spec.units, depth, name=f"lobirnn_{i}"))
            kinds.append("leave_out")
            i += depth
            continue
        if spec.kind == "lc":
            layers.append(LOConv(spec.units, spec.kernel, name=f"loconv_{i}"))
            kinds.append("leave_out")
        elif spec.kind == "d":
            layers += [tf_keras.layers.Dropout(variant.dropout, name=f"dropout_{i}"),
                       tf_keras.layers.Dense(spec.units, activation="relu", name=f"dense_{i}")]
            kinds += ["dropout", "dense"]
        elif spec.kind == "c":
            layers.append(tf_keras.layers.Conv1D(spec.units, spec.kernel, padding="same", activation="relu",
                                                 name=f"conv_{i}"))
            kinds.append("conv")
        else:
            layers.append(tf_keras.layers.Bidirectional(
                tf_keras.layers.LSTM(spec.units, return_sequences=True), name=f"bilstm_{i}"))
            kinds.append("bilstm")
        i += 1
    return layers, kinds


def build_model(variant: Variant, embedding: EmbeddingSpec, strategy=None) -> VariantModel:
    """The tf_keras model of ``variant`` over ``embedding``, its weights created (random).

    Under a ``tf.distribute`` strategy, call this inside its scope and pass it: the first call,
    which creates the weights, must run in a replica context (the hub BERT insists on it).
    """
    model = VariantModel(variant, embedding)
    inputs = dummy_inputs(model.glove_input)
    if strategy is None:
        model(inputs, training=False)
    else:
        strategy.run(lambda: model(inputs, training=False))
    return model


def dummy_inputs(glove: bool) -> dict:
    """One sequence of two one-token elements: enough to create every weight."""
    inputs = {
        "token_ids": tf.constant([[1, 1]], tf.int32),
        "input_mask": tf.constant([[1, 1]], tf.int32),
        "token_element": tf.constant([[0, 1]], tf.int32),
        "element_first": tf.constant([[0, 1]], tf.int32),
        "element_last": tf.constant([[0, 1]], tf.int32),
    }
    if glove:
        inputs["word_ids"] = tf.constant([[0, 0]], tf.int32)
    return inputs


def _zero_padding(x, token_mask):
    """Zero the vectors of padding tokens, so a convolution never reads what padding holds."""
    return x * tf.cast(token_mask, x.dtype)[:, :, None]
