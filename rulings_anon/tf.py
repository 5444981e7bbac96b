"""Import TensorFlow the one way this project uses it: Keras 2 (tf_keras) for TF Hub layers.

Call :func:`tensorflow` instead of ``import tensorflow`` so ``TF_USE_LEGACY_KERAS=1`` is set
before TensorFlow loads and its start-up chatter stays quiet. Only commands that need a model
import it; ``fetch``, ``split``, ``detect-placeholders`` and ``replace`` never do.
"""

from __future__ import annotations

import os


def tensorflow():
    """Return the ``tensorflow`` module, configured for tf_keras."""
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    return tf


def keras():
    """Return ``tf_keras`` (Keras 2), after :func:`tensorflow` has set the environment."""
    tensorflow()
    import tf_keras

    return tf_keras
