"""Import TensorFlow the one way this project uses it: Keras 2 (tf_keras) for TF Hub layers.

Call :func:`tensorflow` instead of ``import tensorflow`` so ``TF_USE_LEGACY_KERAS=1`` is set
before TensorFlow loads and its start-up chatter stays quiet. Only commands that need a model
import it; ``fetch``, ``split``, ``detect-placeholders`` and ``replace`` never do.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile


@contextlib.contextmanager
def _quiet_native_stderr():
    """Hold back what native code writes to file descriptor 2 while TensorFlow loads.

    TensorFlow's C++ libraries log "oneDNN custom operations are on", "Could not find cuda drivers"
    and the like before ``TF_CPP_MIN_LOG_LEVEL`` takes effect. The text is kept and written out
    after all if the import fails, so nothing that explains a failure is lost.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real stderr (embedded or captured): nothing to hold back
        yield
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            held.seek(0)
            os.write(2, held.read())
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def tensorflow():
    """Return the ``tensorflow`` module, configured for tf_keras."""
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if "tensorflow" not in sys.modules:
        with _quiet_native_stderr():
            import tensorflow  # noqa: F401
    import tensorflow as tf

    return tf


def keras():
    """Return ``tf_keras`` (Keras 2), after :func:`tensorflow` has set the environment."""
    tensorflow()
    import tf_keras

    return tf_keras
