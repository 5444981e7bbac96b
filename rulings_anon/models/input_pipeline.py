"""tf.data pipeline from parsed TFRecords to model inputs: candidates, masking, element bounds.

Each parsed sequence (``preprocessing.record_format.parse_dataset``) becomes
``(inputs, labels, loss_mask)``: ``inputs`` as :mod:`models.architecture` expects them, ``labels`` ``[E]``
(1 = placeholder) and ``loss_mask`` ``[E]``, the elements the loss counts: a candidate vector (one of
the record's N, picked at random per step, thesis 5.4.2.1) or every element with ``candidates=False``.
For BERT with candidates, the candidate elements are masked by the chosen scheme (Table 5.4); without
candidates (Table 6.4's "Cand NO" rows), a scheme masks the placeholders alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulings_anon.defaults import DEFAULT_CANDIDATE_RATE
from rulings_anon.tf import tensorflow

from .masking import (
    MASK_TOKEN,
    MaskingScheme,
    draw_candidates,
    draw_strategies,
    element_bounds,
    get_scheme,
    mask_elements,
)
from .variants import BERT

tf = tensorflow()


@dataclass(frozen=True)
class InputConfig:
    """How sequences become training examples.

    ``scheme`` is None when nothing is masked (GloVe leave-out models, BERT with ``--no-candidates`` and
    no ``--masking``).
    ``random_ids`` is the ``[low, high)`` id range of random replacement tokens.
    """

    glove: bool
    candidates: bool
    scheme: MaskingScheme | None
    candidate_rate: float = 0.02
    mask_id: int = 0
    random_ids: tuple[int, int] = (0, 1)

    @classmethod
    def for_data(cls, data_format: dict, embedding: str, candidates: bool, masking: str | None) -> InputConfig:
        """The pipeline for data of ``data_format`` (``format.json``); random tokens skip the specials."""
        special = data_format.get("special_ids", {})
        low = max(special.values()) + 1 if special else 0
        return cls(
            glove=embedding != BERT,
            candidates=candidates,
            scheme=get_scheme(masking) if masking else None,
            candidate_rate=float(data_format.get("candidate_rate", DEFAULT_CANDIDATE_RATE)),
            mask_id=int(special.get("mask", 0)),
            random_ids=(low, max(int(data_format.get("vocab_size", 1)), low + 1)),
        )

    @classmethod
    def for_model(cls, config) -> InputConfig:
        """The pipeline a trained model was trained with (``config``: a ``ModelConfig``)."""
        return cls.for_data(config.data_format, config.embedding, config.candidates, config.masking)


def _pick_candidates(features, labels, element_mask, rate: float):
    """One of the record's candidate vectors at random, or a fresh draw when it has none."""
    stored = tf.cast(features["candidates"], tf.float32)
    count = tf.shape(stored)[0]

    def pick():
        return stored[tf.random.uniform([], 0, count, tf.int32)] * element_mask

    def draw():
        return draw_candidates(tf, labels, element_mask, rate)

    return tf.cond(count > 0, pick, draw)


def prepare_sequence(features: dict, config: InputConfig):
    """One parsed sequence -> ``(inputs, labels, loss_mask)`` (see the module docstring)."""
    token_ids = tf.cast(features["token_ids"], tf.int32)
    token_element = tf.cast(features["token_element"], tf.int32)
    labels = tf.cast(features["element_label"], tf.float32)
    element_mask = tf.cast(features["element_mask"], tf.float32)
    num_elements = tf.shape(labels)[0]
    if config.candidates:
        loss_mask = _pick_candidates(features, labels, element_mask, config.candidate_rate)
        masked = loss_mask
    else:
        # Without candidate labelling (thesis Table 6.4, "Cand NO") every element counts in the loss
        # and the scheme, if any, masks the placeholders alone.
        loss_mask = element_mask
        masked = labels * element_mask
    if config.scheme is not None:
        strategies = draw_strategies(tf, num_elements, config.scheme)
        token_ids, token_element = mask_elements(
            tf, token_ids, token_element, masked, labels, strategies, config.mask_id, config.random_ids)
    inputs = sequence_inputs(token_ids, token_element, num_elements)
    if config.glove:
        inputs["word_ids"] = tf.cast(features["word_ids"], tf.int32)
    return inputs, labels, loss_mask


def sequence_inputs(token_ids, token_element, num_elements) -> dict:
    """Model inputs of one (possibly masked) sequence, without batch dimension."""
    first, last = element_bounds(tf, token_element, num_elements)
    return {
        "token_ids": token_ids,
        "input_mask": tf.ones_like(token_ids),
        "token_element": token_element,
        "element_first": first,
        "element_last": last,
    }


def mask_candidates(token_ids, token_element, candidates, mask_id: int):
    """Scoring-time masking (thesis 5.5.3, M7): every candidate element becomes one mask token."""
    strategies = tf.fill(tf.shape(candidates), MASK_TOKEN)
    return mask_elements(tf, token_ids, token_element, candidates, tf.zeros_like(candidates), strategies,
                         mask_id, (mask_id, mask_id + 1))


def batch(dataset, batch_size: int, drop_remainder: bool = False):
    """Pad to the longest sequence of each batch; ``token_element`` pads with -1, the rest with 0."""
    inputs_spec = dataset.element_spec[0]
    padding = {name: tf.constant(-1 if name == "token_element" else 0, spec.dtype)
               for name, spec in inputs_spec.items()}
    return dataset.padded_batch(batch_size, padding_values=(padding, 0.0, 0.0), drop_remainder=drop_remainder)


def make_dataset(files, tokenizer_kind: str, config: InputConfig, batch_size: int, *,
                 shuffle_seed: int | None = None, cache: bool = False, drop_remainder: bool = False,
                 sequential: bool = False):
    """Batched ``(inputs, labels, loss_mask)`` from TFRecord files.

    ``shuffle_seed`` shuffles the sequences in a reproducible order (training, so a resumed epoch
    can skip what it already did); ``cache`` keeps the first pass, masks included (validation, so
    every epoch is validated on the same masked sequences); ``drop_remainder`` drops a last, partial
    batch (several replicas: a partial global batch would leave a replica an empty one);
    ``sequential`` prepares one sequence after the other, so that the random candidate vectors and
    masks follow from the global seed alone (a parallel map hands the random draws to whichever
    sequence runs first: figures that change from run to run).
    """
    from rulings_anon.preprocessing.record_format import parse_dataset

    dataset = parse_dataset(files, tokenizer_kind)
    if shuffle_seed is not None:
        dataset = dataset.shuffle(4096, seed=shuffle_seed, reshuffle_each_iteration=False)
    prepare = tf.autograph.experimental.do_not_convert(lambda f: prepare_sequence(f, config))
    dataset = dataset.map(prepare, num_parallel_calls=None if sequential else tf.data.AUTOTUNE)
    if cache:
        dataset = dataset.cache()
    return batch(dataset, batch_size, drop_remainder).prefetch(tf.data.AUTOTUNE)
