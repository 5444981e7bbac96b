"""The contextual model as ``evaluate`` and ``score`` use it: element probabilities per document.

Wraps :func:`models.predict.load_model` (which does paragraph extraction, tokenization, masking of
candidates with the mask token, scheme M7, and maps token predictions back to the text elements)
and feeds it documents in chunks, so a large corpus never sits in memory as one batch, with a
progress bar over the elements.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np

from rulings_anon.defaults import PREDICTION_CHUNK_ELEMENTS
from rulings_anon.document import Document, count_elements
from rulings_anon.errors import ModelError
from rulings_anon.model_kinds import CONTEXTUAL, NER, SENSITIVITY

CHUNK_ELEMENTS = PREDICTION_CHUNK_ELEMENTS


def chunks(documents: Iterable[Document], size: int = CHUNK_ELEMENTS) -> Iterator[list[Document]]:
    """Groups of documents of about ``size`` elements (a larger document is a group of its own)."""
    chunk: list[Document] = []
    count = 0
    for document in documents:
        chunk.append(document)
        count += count_elements(document.text)
        if count >= size:
            yield chunk
            chunk, count = [], 0
    if chunk:
        yield chunk


def load_element_model(model_dir, progress: bool = False):
    """The element model of a directory, chosen by the kind its ``config.json`` records
    (:mod:`rulings_anon.model_kinds`): a contextual model of ``rulings-anon train``
    (:class:`ElementModel`), or a legal NER of ``train-ner`` whose sensitivity output classifies
    every element unmasked (:class:`NerElementModel`; the ``none`` method only), or the sensitivity
    model of capitalized elements (``rulings_anon/data/scorer``, :class:`~rulings_anon.analyzer.sensitivity_model.
    SensitivityElementModel`; the ``none`` method only). A directory written before kinds were
    recorded is recognized by its files. A sensitivity model fitted with a contextual model's
    probability (``train-scorer --context-model``) gets that model loaded beside it (TensorFlow
    only then)."""
    from rulings_anon.analyzer.sensitivity_model import SensitivityElementModel, context_model_dir

    kind = model_kind(model_dir)
    if kind == SENSITIVITY:
        context = context_model_dir(model_dir)
        return SensitivityElementModel(model_dir, progress,
                                       context=ElementModel(context) if context is not None else None)
    loaders = {CONTEXTUAL: ElementModel, NER: NerElementModel}
    return loaders[kind](model_dir, progress)


def model_kind(model_dir) -> str:
    """The kind ``model_dir`` records; for a directory that records none, the kind its files show
    (``contextual`` for any other directory: its loader names what is wrong with it). An unknown
    recorded kind is a :class:`ModelError`."""
    from rulings_anon.model_kinds import recorded_kind

    recorded = recorded_kind(model_dir)
    if recorded is not None:
        return recorded
    from rulings_anon.analyzer.sensitivity_model import is_sensitivity_directory
    from rulings_anon.ner.model import is_ner_directory  # the NER package imports its trainer

    if is_ner_directory(model_dir):
        return NER
    return SENSITIVITY if is_sensitivity_directory(model_dir) else CONTEXTUAL


class ElementModel:
    """A loaded model directory: ``probabilities(documents, candidates)`` -> one array per document."""

    kind = CONTEXTUAL
    reads_recognizer_hits = False

    def __init__(self, model_dir, progress: bool = False):
        self.model_dir = Path(model_dir)
        if not self.model_dir.is_dir():
            raise ModelError(f"{self.model_dir}: no such model directory")
        from rulings_anon.models.predict import load_model

        self.predictor = load_model(self.model_dir)
        self.progress = progress

    def probabilities(self, documents: Sequence[Document],
                      candidates: Mapping[str, set[int]] | None = None) -> list[np.ndarray]:
        """The probability of every element of each document (``split_elements`` order).

        With ``candidates`` (document id -> element indices) those elements are masked; the
        probabilities of the other elements are then meaningless to the caller.
        """
        result: list[np.ndarray] = []
        bar = _bar(self.progress, sum(count_elements(d.text) for d in documents))
        for chunk in chunks(documents, CHUNK_ELEMENTS):
            arrays = self._predict(chunk, candidates)
            bar.update(sum(len(a) for a in arrays))  # one per element, checked in _predict
            result += arrays
        bar.close()
        return result

    def _predict(self, documents: list[Document], candidates) -> list[np.ndarray]:
        wanted = [d for d in documents if d.text.strip()]
        masked = None if candidates is None else {d.id: set(candidates.get(d.id, ())) for d in wanted}
        predictions = self.predictor.predict_documents(wanted, candidates=masked) if wanted else {}
        arrays = []
        for document in documents:
            rows = predictions.get(document.id, [])
            expected = count_elements(document.text)
            if len(rows) != expected:
                raise ModelError(f"{self.model_dir}: the model returned {len(rows)} predictions for the "
                                 f"{expected} elements of document {document.id}")
            arrays.append(np.fromiter((p for _, _, p in rows), dtype=np.float64, count=len(rows)))
        return arrays


class NerElementModel:
    """The legal NER as an element model: an element's probability is the highest sensitivity of
    its tokens (the probability that courts anonymize the reference it belongs to). It sees every
    element as it is, so it classifies unmasked elements (method ``none``) and cannot judge masked
    candidates."""

    kind = NER
    reads_recognizer_hits = False

    def __init__(self, model_dir, progress: bool = False):
        from rulings_anon.ner import load_ner

        self.model_dir = Path(model_dir)
        self.tagger = load_ner(self.model_dir)
        if not self.tagger.config.sensitivity:
            raise ModelError(f"{self.model_dir}: this NER model has no sensitivity output, so it cannot classify "
                             "elements; retrain it with `rulings-anon train-ner`")
        self.progress = progress

    def probabilities(self, documents: Sequence[Document],
                      candidates: Mapping[str, set[int]] | None = None) -> list[np.ndarray]:
        if candidates is not None:
            raise ModelError(f"{self.model_dir}: a NER model classifies unmasked elements only (method none); "
                             "masked candidates need a model of `rulings-anon train`")
        from rulings_anon.analyzer.evidence import blocks

        result: list[np.ndarray] = []
        bar = _bar(self.progress, sum(count_elements(d.text) for d in documents))
        for chunk in chunks(documents, CHUNK_ELEMENTS):
            # The blocks of every document of the chunk, tagged in shared batches.
            pieces = [(i, start, d.text[start:end]) for i, d in enumerate(chunk) for start, end in blocks(d.text)]
            tagged = self.tagger.sensitivity_many([text for _, _, text in pieces])
            starts: list[list[int]] = [[] for _ in chunk]
            values: list[list[np.ndarray]] = [[] for _ in chunk]
            for (i, offset, _), (spans, sensitive) in zip(pieces, tagged, strict=True):
                starts[i] += [offset + s for s, _ in spans]
                values[i].append(sensitive)
            for document, doc_starts, doc_values in zip(chunk, starts, values, strict=True):
                result.append(element_maximum(document.text, np.array(doc_starts, dtype=np.int64),
                                              np.concatenate(doc_values) if doc_values else np.zeros(0, np.float32)))
                bar.update(len(result[-1]))
        bar.close()
        return result


def element_maximum(text: str, token_starts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per whitespace element of ``text``: the highest value of the tokens starting inside it (0 if none)."""
    from rulings_anon.document import iter_element_bounds

    bounds = np.array(list(iter_element_bounds(text)), dtype=np.int64).reshape(-1, 2)
    result = np.zeros(len(bounds), dtype=np.float64)
    if len(token_starts) == 0 or len(bounds) == 0:
        return result
    owner = np.searchsorted(bounds[:, 0], token_starts, side="right") - 1  # element starting at or before
    inside = (owner >= 0) & (token_starts < bounds[np.maximum(owner, 0), 1])
    np.maximum.at(result, owner[inside], values[inside])
    return result


def _bar(enabled: bool, total: int):
    from tqdm import tqdm

    return tqdm(total=total, unit="el", unit_scale=True, desc="model", file=sys.stderr,
                disable=not enabled or not sys.stderr.isatty(), leave=False)
