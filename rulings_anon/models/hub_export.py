"""Export an encoder as a TF2 SavedModel with the TF Hub BERT interface.

The exported directory is what ``tensorflow_hub.KerasLayer(path, trainable=True)`` loads in
place of a downloaded BERT (nothing is downloaded at run time):

* calling it with ``{"input_word_ids", "input_mask", "input_type_ids"}`` (int32 ``[B, T]``)
  returns ``{"sequence_output": [B, T, H], "pooled_output": [B, H]}``;
* its ``trainable_variables`` are the encoder weights, so fine-tuning (variant FT) works;
* ``assets/vocab.txt`` is its WordPiece vocabulary, also reachable as the restored object's
  ``vocab_file`` asset, and ``do_lower_case`` is a ``False`` variable (the corpus is cased),
  the attributes TF Hub BERT models carry for their tokenizers;
* ``encoder_config.json`` records the architecture.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from rulings_anon.tf import tensorflow

from .encoder import EncoderConfig, build_encoder

CONFIG_FILE = "encoder_config.json"
VOCAB_ASSET = "vocab.txt"


def export_hub_encoder(encoder, config: EncoderConfig, vocab_file, out_dir) -> Path:
    """Write ``encoder`` to ``out_dir`` as a hub-loadable SavedModel; replaces ``out_dir`` atomically.

    Other files already in ``out_dir`` (checkpoints, ``pretrain.json``) are kept.
    """
    tf = tensorflow()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".export-", dir=out_dir))
    try:
        encoder.vocab_file = tf.saved_model.Asset(str(Path(vocab_file).resolve()))
        encoder.do_lower_case = tf.Variable(False, trainable=False, name="do_lower_case")
        encoder.save(str(staging), include_optimizer=False, save_format="tf")
        # The Asset copies the vocabulary under its own name; hub users expect assets/vocab.txt.
        assets = staging / "assets"
        if Path(vocab_file).name != VOCAB_ASSET:
            shutil.copyfile(vocab_file, assets / VOCAB_ASSET)
        config.to_json(staging / CONFIG_FILE)
        for item in staging.iterdir():
            target = out_dir / item.name
            if target.is_dir():
                shutil.rmtree(target)
            item.replace(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out_dir


def vocab_size(vocab_file) -> int:
    """Number of entries of a ``vocab.txt`` (one token a line)."""
    with open(vocab_file, encoding="utf-8") as handle:
        return sum(1 for _ in handle)


def build_tiny_hub_encoder(out_dir, vocab_file, hidden: int = 32, layers: int = 1, heads: int = 2,
                           max_seq_len: int = 128) -> Path:
    """A tiny untrained hub-compatible encoder over ``vocab_file``, for tests (a few seconds).

    Other stages' tests use it wherever they need a BERT handle without pretraining one.
    """
    config = EncoderConfig(
        vocab_size=vocab_size(vocab_file), hidden=hidden, layers=layers, heads=heads,
        intermediate=hidden * 2, max_seq_len=max_seq_len,
    )
    return export_hub_encoder(build_encoder(config), config, vocab_file, out_dir)
