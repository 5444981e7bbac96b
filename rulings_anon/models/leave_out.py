"""Leave-out layers (thesis 5.4.1.1, figures 5.2 and 5.3): an element's output never sees the element.

A placeholder ("K.") gives its label away by its form; a real name would give it away by its form at
scoring time too, but for the wrong reasons. These layers make each element's output depend on its
context only, so no masking is needed. Both take token features ``x`` ``[B, T, D]``, the token mask
``[B, T]`` and, per element, the positions of its first and last token ``[B, E]``, and return one
vector per element ``[B, E, C]``.

Because the element's own tokens are skipped by construction (not zeroed inside a fixed window), the
output of element i is unchanged when its tokens change, *including their number*. They cannot be
stacked: a second layer would see the first layer's outputs of element i's neighbours, which saw i.
"""

from __future__ import annotations

from rulings_anon.tf import keras, tensorflow

tf = tensorflow()
tf_keras = keras()


def _gather(values, positions):
    """``values[b, positions[b, e]]``: ``[B, T, C]`` x ``[B, E]`` -> ``[B, E, C]``."""
    return tf.gather(values, positions, batch_dims=1)


@tf_keras.utils.register_keras_serializable(package="rulings_anon")
class LOConv(tf_keras.layers.Layer):
    """Leave-out convolution: a kernel of ``kernel_size`` tokens split around each element.

    The filter is extended by a zero block exactly as wide as the element (figure 5.2): its left half
    covers the ``kernel_size // 2`` tokens before the element's first token, its right half the tokens
    after its last token. Implemented as two 1-D convolutions, read at the element boundaries.
    """

    def __init__(self, filters: int, kernel_size: int, activation="relu", **kwargs):
        super().__init__(**kwargs)
        self.filters = filters
        self.kernel_size = kernel_size
        self.left = kernel_size // 2
        self.right = kernel_size - self.left
        self.activation = tf_keras.activations.get(activation)
        self.left_conv = tf_keras.layers.Conv1D(filters, self.left, name="left", dtype=self.dtype_policy)
        self.right_conv = tf_keras.layers.Conv1D(
            filters, self.right, use_bias=False, name="right", dtype=self.dtype_policy
        )

    def call(self, x, token_mask, first, last):
        x = x * tf.cast(token_mask, x.dtype)[:, :, None]
        length = tf.shape(x)[1]
        # left_out[t] covers x[t-left .. t-1]; right_out[t] covers x[t+1 .. t+right].
        left_out = self.left_conv(tf.pad(x, [[0, 0], [self.left, 0], [0, 0]]))[:, :length]
        right_out = self.right_conv(tf.pad(x, [[0, 0], [0, self.right], [0, 0]])[:, 1:])
        return self.activation(_gather(left_out, first) + _gather(right_out, last))

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "activation": tf_keras.activations.serialize(self.activation)}


@tf_keras.utils.register_keras_serializable(package="rulings_anon")
class LOBiRNN(tf_keras.layers.Layer):
    """Leave-out BiLSTM: separate forward and backward LSTM stacks (figure 5.3).

    The output of an element is the forward state at the token before the element concatenated with
    the backward state at the token after it (zeros at the sequence edges), combined by a dense layer.
    """

    def __init__(self, units: int, depth: int = 1, activation="relu", **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.depth = depth
        policy = self.dtype_policy
        self.forward_stack = [
            tf_keras.layers.LSTM(units, return_sequences=True, name=f"forward_{i}", dtype=policy)
            for i in range(depth)
        ]
        self.backward_stack = [
            tf_keras.layers.LSTM(units, return_sequences=True, name=f"backward_{i}", dtype=policy)
            for i in range(depth)
        ]
        self.combine = tf_keras.layers.Dense(units, activation=activation, name="combine", dtype=policy)

    def call(self, x, token_mask, first, last):
        mask = tf.cast(token_mask, x.dtype)[:, :, None]
        lengths = tf.cast(tf.reduce_sum(tf.cast(token_mask, tf.int32), axis=1), tf.int64)
        forward = x * mask
        for layer in self.forward_stack:
            forward = layer(forward)
        # Reverse each sequence within its own length so padding stays at the end for both stacks.
        backward = tf.reverse_sequence(x * mask, lengths, seq_axis=1, batch_axis=0)
        for layer in self.backward_stack:
            backward = layer(backward)
        backward = tf.reverse_sequence(backward, lengths, seq_axis=1, batch_axis=0) * mask
        before = tf.pad(forward * mask, [[0, 0], [1, 0], [0, 0]])  # before[t] = forward[t-1]
        after = tf.pad(backward, [[0, 0], [0, 1], [0, 0]])[:, 1:]  # after[t] = backward[t+1]
        context = tf.concat([_gather(before, first), _gather(after, last)], axis=-1)
        return self.combine(context)

    def get_config(self):
        return {**super().get_config(), "units": self.units, "depth": self.depth}
