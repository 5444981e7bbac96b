"""Table 7.1's validation columns: the model on the validation TFRecords, as during training.

The validation split is anonymized text: placeholders are the positives, and with candidates
the counted elements are a candidate vector masked by the model's scheme, exactly as the training
loop validates (:mod:`models.input_pipeline`). Set beside the test metrics without candidates, the
difference is the validation-test gap of thesis 7.2.
"""

from __future__ import annotations

from pathlib import Path

from rulings_anon.errors import InputError

from .metrics import Confusion


def validation_metrics(model, data_dir, threshold: float = 0.5, seed: int = 0) -> dict:
    """Recall, precision and accuracy of ``model`` (an ``ElementModel``) on ``DATA/validation-*``.

    The candidate vectors and masks are drawn with ``seed``, one sequence after the other, so the
    same model, data and seed give the same figures every time."""
    from rulings_anon.models.input_pipeline import InputConfig, make_dataset
    from rulings_anon.preprocessing.record_format import shard_files
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    data_dir = Path(data_dir)
    files = shard_files(data_dir, "validation")
    if not files:
        raise InputError("no validation-*.tfrecord shards (run 'rulings-anon preprocess')", data_dir)
    config = model.predictor.config
    pipeline = InputConfig.for_model(config)
    tf.random.set_seed(seed)
    confusion = Confusion()
    dataset = make_dataset(files, config.tokenizer, pipeline, config.batch_size, sequential=True)
    for inputs, labels, loss_mask in dataset:
        probabilities = tf.sigmoid(model.predictor.model(inputs, training=False)).numpy().ravel()
        selected = loss_mask.numpy().ravel() > 0
        confusion = confusion + Confusion.count(labels.numpy().ravel() > 0.5, probabilities >= threshold, selected)
    return {"threshold": threshold, **confusion.to_dict()}
