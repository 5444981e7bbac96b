"""Scoring API: load a model directory, predict a sensitivity probability per text element.

``load_model(model_dir)`` returns a :class:`Predictor`; :meth:`Predictor.predict_documents` runs the
same paragraph extraction, tokenization and sequence packing as ``preprocess`` (with the tokenizer
assets stored in the model directory), masks the candidate elements (thesis 5.5.3: each candidate
becomes one mask token, as in training with M7) or nothing (the "none" method), and maps the
predictions back to every whitespace element of each document's text. A document element that
paragraph extraction dropped (an enumeration mark) gets probability 0; one that it split or merged
takes the highest probability of the sequence elements it overlaps.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from rulings_anon.document import Document, iter_element_bounds
from rulings_anon.errors import ModelError
from rulings_anon.models.architecture import ELEMENT_INPUTS, TOKEN_INPUTS, EmbeddingSpec, build_model
from rulings_anon.tf import tensorflow

from . import model_dir as md
from .variants import BERT

tf = tensorflow()

DEFAULT_BATCH_SIZE = 128
# Sequences collected before running the model: enough to sort into batches of similar length.
PENDING_BATCHES = 8


def load_keras_model(model_dir):
    """``(model, config)`` of a model directory: the tf_keras model with its trained weights."""
    config = md.check_model_dir(model_dir)
    variant = config.to_variant()
    if config.embedding == BERT:
        spec = EmbeddingSpec(bert_handle=str(Path(model_dir) / md.BERT_DIR))
    else:
        spec = EmbeddingSpec(**config.glove)
    try:
        model = build_model(variant, spec)
    except (ValueError, TypeError) as exc:
        raise ModelError(f"{model_dir}: cannot build variant {variant.name} from config.json: {exc}") from exc
    md.load_weights(model, model_dir)
    return model, config


def load_model(model_dir) -> Predictor:
    """The :class:`Predictor` of a model directory written by ``rulings-anon train``."""
    model, config = load_keras_model(model_dir)
    return Predictor(model, config, Path(model_dir))


class Predictor:
    """Batched, compiled inference of one trained model."""

    def __init__(self, model, config: md.ModelConfig, model_dir: Path):
        self.model = model
        self.config = config
        self.model_dir = model_dir
        self.glove = config.embedding != BERT
        self.mask_id = int(config.special_ids.get("mask", -1))
        names = TOKEN_INPUTS + ELEMENT_INPUTS + (("word_ids",) if self.glove else ())
        signature = {name: tf.TensorSpec([None, None], tf.int32, name=name) for name in names}
        # No autograph: the model has no data-dependent Python control flow, and converting every
        # layer's call costs seconds of start-up.
        self._logits = tf.function(lambda inputs: model(inputs, training=False), input_signature=[signature],
                                   autograph=False)
        self._sequencer = None

    # -- sequences ---------------------------------------------------------------------------------
    def predict_sequences(self, records: list, candidates: list[np.ndarray] | None = None,
                          batch_size: int = DEFAULT_BATCH_SIZE) -> list[np.ndarray]:
        """Probabilities ``[E]`` per record (``preprocessing.record_format.SequenceRecord``).

        ``candidates``: per record a boolean ``[E]`` array of the elements to mask, or None.
        """
        if candidates is not None and self.mask_id < 0 and not self.glove:
            raise ModelError(f"{self.model_dir}: the tokenizer has no mask token, so candidates cannot be masked")
        prepared = []
        for i, record in enumerate(records):
            token_ids = np.asarray(record.token_ids, np.int32)
            token_element = np.asarray(record.token_element, np.int32)
            # Leave-out (GloVe) models never see an element's own tokens: masking changes nothing.
            if candidates is not None and not self.glove and candidates[i].any():
                token_ids, token_element = mask_elements(token_ids, token_element, candidates[i], self.mask_id)
            prepared.append((token_ids, token_element, record.num_elements,
                             np.asarray(record.word_ids, np.int32) if self.glove else None))
        results: list[np.ndarray | None] = [None] * len(records)
        order = sorted(range(len(prepared)), key=lambda k: len(prepared[k][0]))
        for start in range(0, len(order), batch_size):
            chunk = order[start:start + batch_size]
            logits = self._logits(self._batch([prepared[k] for k in chunk])).numpy()
            for row, k in enumerate(chunk):
                results[k] = 1.0 / (1.0 + np.exp(-logits[row, : prepared[k][2]]))
        return results

    def _batch(self, items) -> dict:
        tokens = max(len(item[0]) for item in items)
        elements = max(max(item[2] for item in items), 1)
        batch = {
            "token_ids": np.zeros((len(items), tokens), np.int32),
            "input_mask": np.zeros((len(items), tokens), np.int32),
            "token_element": np.full((len(items), tokens), -1, np.int32),
            "element_first": np.zeros((len(items), elements), np.int32),
            "element_last": np.zeros((len(items), elements), np.int32),
        }
        if self.glove:
            batch["word_ids"] = np.zeros((len(items), elements), np.int32)
        for row, (token_ids, token_element, count, word_ids) in enumerate(items):
            n = len(token_ids)
            batch["token_ids"][row, :n] = token_ids
            batch["input_mask"][row, :n] = 1
            batch["token_element"][row, :n] = token_element
            first, last = element_bounds(token_element, count)
            batch["element_first"][row, :count] = first
            batch["element_last"][row, :count] = last
            if self.glove:
                batch["word_ids"][row, :count] = word_ids
        return batch

    # -- documents ---------------------------------------------------------------------------------
    def _sequences(self, document: Document) -> list:
        if self._sequencer is None:
            from rulings_anon.preprocessing.build import document_sequencer

            self._sequencer = document_sequencer(self.model_dir / md.TOKENIZER_DIR, self.config.data_format)
        return self._sequencer(document)

    def predict_documents(self, documents: Iterable[Document],
                          candidates: dict[str, set[int]] | None = None,
                          batch_size: int = DEFAULT_BATCH_SIZE) -> dict[str, list[tuple[int, int, float]]]:
        """``{doc_id: [(start, end, probability sensitive), ...]}`` for every element of each text.

        Elements are those of ``rulings_anon.document.split_elements(document.text)``, in order.
        ``candidates`` maps a document id to the indices of its elements to mask (thesis 5.5.3:
        random or NER-chosen candidates); None masks nothing (the "none" method).
        """
        scores: dict[str, np.ndarray] = {}
        indexes: dict[str, _ElementIndex] = {}
        pending: list[tuple[str, object, np.ndarray | None]] = []

        def prepare(doc: Document):
            """Python work (paragraphs, tokens, packing), run in a thread beside the model."""
            index = _ElementIndex(doc.text)
            records = self._sequences(doc)
            chosen = None if candidates is None else candidates.get(doc.id, set())
            masks = [None if chosen is None else index.candidate_mask(r, chosen) for r in records]
            return doc.id, index, records, masks

        def flush():
            masks = None if candidates is None else [mask for _, _, mask in pending]
            values = self.predict_sequences([record for _, record, _ in pending], masks, batch_size)
            for (owner, record, _), probabilities in zip(pending, values):
                indexes[owner].spread(record, probabilities, scores[owner])
            pending.clear()

        with ThreadPoolExecutor(max_workers=1) as pool:
            for doc_id, index, records, masks in pool.map(prepare, documents):
                indexes[doc_id] = index
                scores[doc_id] = np.zeros(len(index), np.float64)
                pending.extend((doc_id, record, mask) for record, mask in zip(records, masks))
                if len(pending) >= PENDING_BATCHES * batch_size:
                    flush()
        flush()
        return {doc_id: [(s, e, float(p)) for (s, e), p in zip(indexes[doc_id].bounds(), scores[doc_id])]
                for doc_id in indexes}


def mask_elements(token_ids: np.ndarray, token_element: np.ndarray, chosen: np.ndarray, mask_id: int):
    """Replace each chosen element by one mask token (numpy twin of :func:`models.masking.mask_elements`)."""
    inside = token_element >= 0
    masked = inside & chosen[np.maximum(token_element, 0)]
    first = np.ones(len(token_element), bool)
    first[1:] = token_element[1:] != token_element[:-1]
    keep = ~masked | first
    return np.where(masked, mask_id, token_ids)[keep].astype(np.int32), token_element[keep]


def element_bounds(token_element: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """First and last token position of each of ``count`` elements (elements are in token order)."""
    positions = np.flatnonzero(token_element >= 0)
    elements = token_element[positions]
    first = np.zeros(count, np.int32)
    last = np.zeros(count, np.int32)
    first[elements[::-1]] = positions[::-1]
    last[elements] = positions
    return first, last


class _ElementIndex:
    """A document's element bounds as arrays, to map sequence elements onto them in bulk."""

    def __init__(self, text: str):
        bounds = np.fromiter((b for pair in iter_element_bounds(text) for b in pair), np.int64)
        self.starts, self.ends = bounds[0::2], bounds[1::2]

    def __len__(self) -> int:
        return len(self.starts)

    def bounds(self) -> list[tuple[int, int]]:
        return list(zip(self.starts.tolist(), self.ends.tolist()))

    def overlaps(self, record) -> tuple[np.ndarray, np.ndarray]:
        """``(sequence elements, document elements)``: every overlapping pair of character ranges.

        A sequence element usually is one document element; one joined by paragraph extraction
        ("Mün-" + "chen") overlaps two.
        """
        starts = np.asarray(record.element_start, np.int64)
        ends = np.asarray(record.element_end, np.int64)
        first = np.searchsorted(self.ends, starts, side="right")  # first element ending after start
        stop = np.searchsorted(self.starts, ends, side="left")  # elements starting before end
        counts = np.maximum(stop - first, 0)
        sequence = np.repeat(np.arange(len(starts)), counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        return sequence, np.repeat(first, counts) + offsets

    def candidate_mask(self, record, chosen: set[int]) -> np.ndarray:
        """Sequence elements overlapping a chosen document element."""
        sequence, document = self.overlaps(record)
        mask = np.zeros(record.num_elements, bool)
        mask[sequence[np.isin(document, list(chosen))]] = True
        return mask

    def spread(self, record, values: np.ndarray, scores: np.ndarray) -> None:
        """Each document element takes the highest probability of the sequence elements over it."""
        sequence, document = self.overlaps(record)
        np.maximum.at(scores, document, values[sequence])
