"""The two embeddings the variants sit on: BERT through TF Hub, and combined GloVe vectors.

* BERT (thesis 5.4.1.2): ``tensorflow_hub.KerasLayer(handle)``, where ``handle`` is a URL or a local
  SavedModel directory with the TF Hub BERT interface (inputs ``input_word_ids``, ``input_mask``,
  ``input_type_ids``; outputs ``sequence_output``, ``pooled_output``). Frozen for the feature-based
  heads, trainable for FT.
* GloVe (thesis 5.4.1.3): per token, the 200-d corpus vector of its SentencePiece token concatenated
  with the 300-d pretrained vector of its element's lower-cased word; unknown words, and every word
  when no pretrained file was given, get zeros. Both tables are frozen.
"""

from __future__ import annotations

import numpy as np

from rulings_anon.errors import ModelError
from rulings_anon.tf import keras, tensorflow

tf = tensorflow()
tf_keras = keras()


def bert_layer(handle: str, trainable: bool):
    """The hub layer for ``handle``; a missing or foreign directory raises :class:`ModelError`."""
    import tensorflow_hub as hub

    try:
        # Loaded here rather than by KerasLayer(handle), which first imports Keras 3 (1.3 s) only to
        # look for load options; hub.load applies the same default options.
        return hub.KerasLayer(hub.load(str(handle)), trainable=trainable, name="bert")
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot load BERT from {handle}: {exc}") from exc


def bert_sequence_output(layer, token_ids, input_mask):
    """``sequence_output`` ``[B, T, H]`` of the hub layer for int32 ids and mask.

    A frozen BERT gets no gradient: the feature-based heads train without backpropagating into it.
    """
    outputs = layer({
        "input_word_ids": token_ids,
        "input_mask": input_mask,
        "input_type_ids": tf.zeros_like(token_ids),
    })
    sequence = outputs["sequence_output"]
    return sequence if layer.trainable else tf.stop_gradient(sequence)


@tf_keras.utils.register_keras_serializable(package="rulings_anon")
class CombinedGloVe(tf_keras.layers.Layer):
    """Token vectors ``[B, T, 200 + 300]`` from piece ids ``[B, T]`` and element word ids ``[B, E]``.

    ``word_dim`` is 0 when no pretrained vectors exist, so a model without them stays smaller.
    """

    def __init__(self, piece_vocab: int, piece_dim: int, word_vocab: int, word_dim: int, **kwargs):
        super().__init__(**kwargs)
        self.piece_vocab, self.piece_dim = piece_vocab, piece_dim
        self.word_vocab, self.word_dim = word_vocab, word_dim
        self.pieces = tf_keras.layers.Embedding(piece_vocab, piece_dim, trainable=False, name="pieces")
        self.words = (tf_keras.layers.Embedding(word_vocab, word_dim, trainable=False, name="words")
                      if word_dim else None)

    def call(self, token_ids, token_element, word_ids):
        vectors = self.pieces(token_ids)
        if self.words is None:
            return vectors
        # A token takes its element's word vector; [CLS]/padding tokens (element -1) get zeros.
        token_words = tf.gather(word_ids, tf.maximum(token_element, 0), batch_dims=1)
        word_vectors = self.words(token_words) * tf.cast(token_element >= 0, vectors.dtype)[:, :, None]
        return tf.concat([vectors, tf.cast(word_vectors, vectors.dtype)], axis=-1)

    def set_tables(self, piece_vectors: np.ndarray, word_vectors: np.ndarray | None) -> None:
        """Load the vector tables (after the layer is built)."""
        self.pieces.set_weights([piece_vectors])
        if self.words is not None:
            self.words.set_weights([word_vectors])

    def get_config(self):
        return {**super().get_config(), "piece_vocab": self.piece_vocab, "piece_dim": self.piece_dim,
                "word_vocab": self.word_vocab, "word_dim": self.word_dim}
