"""Masked-LM training data with whole-element masking (thesis 9.4).

BERT masks single WordPiece tokens, so "Schmiede ##berg" with only "##berg" masked is solved
from the word itself, and masked elements end up with vectors unlike unmasked ones (thesis 9.4,
7.2). Here the unit is the text element (whitespace-separated, thesis 5.3.2): about
``mask_rate`` of a sequence's elements are chosen and *all* their tokens are masked together.
Per chosen element, 80 % of the time every token becomes ``[MASK]``, 10 % every token becomes a
random vocabulary token, 10 % the tokens are kept; the model must predict each original token.

Placeholders the courts left ("K.", "M-GmbH", "...") carry no information about what they
replaced: each placeholder element becomes the single placeholder symbol and is never a target.

Shapes: N sequences, B batch, L sequence length, P predictions per sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from rulings_anon.document import Document, Element, Paragraph, element_labels
from rulings_anon.jsonl import atomic_writer

NO_ELEMENT = -1  # element index of [CLS], [SEP] and padding


@dataclass
class TokenSequences:
    """Packed token sequences ``[CLS] tokens [SEP]`` with each token's element.

    ``ids`` int32 ``[N, L]`` (0-padded), ``elements`` int32 ``[N, L]``: index of the token's
    element within its sequence (:data:`NO_ELEMENT` for special tokens and padding),
    ``placeholder`` bool ``[N, L]``: the token is a placeholder symbol.
    """

    ids: np.ndarray
    elements: np.ndarray
    placeholder: np.ndarray

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def lengths(self) -> np.ndarray:
        return (self.ids != 0).sum(axis=1)

    def take(self, index) -> TokenSequences:
        return TokenSequences(self.ids[index], self.elements[index], self.placeholder[index])

    def save(self, path) -> None:
        with atomic_writer(path, "wb") as handle:
            np.savez_compressed(handle, ids=self.ids, elements=self.elements, placeholder=self.placeholder)

    @classmethod
    def load(cls, path) -> TokenSequences:
        with np.load(path) as arrays:
            return cls(arrays["ids"], arrays["elements"], arrays["placeholder"])


# (paragraph, its document) -> (elements with paragraph offsets, is-placeholder per element)
PlaceholderLabeller = Callable[[Paragraph, Document], tuple[list[Element], list[bool]]]


def gold_labeller(paragraph: Paragraph, document: Document):
    """Placeholders from the document's gold ``spans`` (the bundled corpus has them)."""
    elements = paragraph.elements()
    in_document = [Element(*paragraph.to_document_span(e.start, e.end), e.text, e.index) for e in elements]
    return elements, element_labels(in_document, document.spans)


def detector_labeller() -> PlaceholderLabeller:
    """Placeholders found by the rule-based detector (what a fetched corpus has)."""
    from rulings_anon.placeholders.detector import PlaceholderDetector

    detector = PlaceholderDetector()
    return lambda paragraph, document: detector.label_elements(paragraph.text)


LABELLERS = {"detector": detector_labeller, "gold": lambda: gold_labeller}


def labelled_elements(documents: Iterable[Document], labeller: PlaceholderLabeller):
    """Yield per document its ``(element text, is_placeholder)`` pairs, paragraph by paragraph."""
    from rulings_anon.placeholders.paragraphs import extract_paragraphs

    for document in documents:
        pairs: list[tuple[str, bool]] = []
        for paragraph in extract_paragraphs(document.text):
            elements, labels = labeller(paragraph, document)
            pairs.extend((e.text, flag) for e, flag in zip(elements, labels, strict=True))
        yield pairs


def pack_sequences(
    documents_elements: Iterable[list[tuple[str, bool]]],
    tokenize: Callable[[Sequence[str]], list[list[int]]],
    special: dict[str, int],
    max_seq_len: int,
) -> TokenSequences:
    """Tokenize elements and pack each document's elements into ``[CLS] ... [SEP]`` sequences.

    A sequence never splits an element and never mixes documents; an element longer than a
    whole sequence is cut. ``special`` maps ``cls``, ``sep`` and ``placeholder`` to token ids.
    """
    room = max_seq_len - 2
    rows: list[tuple[list[int], list[int], list[bool]]] = []
    for pairs in documents_elements:
        texts = [text for text, is_placeholder in pairs if not is_placeholder]
        pieces = iter(tokenize(texts)) if texts else iter(())
        ids: list[int] = []
        elements: list[int] = []
        flags: list[bool] = []
        for _, is_placeholder in pairs:
            tokens = [special["placeholder"]] if is_placeholder else next(pieces)[:room]
            if not tokens:
                continue
            if len(ids) + len(tokens) > room:
                rows.append((ids, elements, flags))
                ids, elements, flags = [], [], []
            element = elements[-1] + 1 if elements else 0
            ids.extend(tokens)
            elements.extend([element] * len(tokens))
            flags.extend([is_placeholder] * len(tokens))
        if ids:
            rows.append((ids, elements, flags))

    n = len(rows)
    out = TokenSequences(
        np.zeros((n, max_seq_len), np.int32),
        np.full((n, max_seq_len), NO_ELEMENT, np.int32),
        np.zeros((n, max_seq_len), bool),
    )
    for i, (ids, elements, flags) in enumerate(rows):
        length = len(ids)
        out.ids[i, : length + 2] = [special["cls"], *ids, special["sep"]]
        out.elements[i, 1 : length + 1] = elements
        out.placeholder[i, 1 : length + 1] = flags
    return out


@dataclass(frozen=True)
class WholeElementMasking:
    """Whole-element masking: which share of elements, and what their tokens become.

    ``mask_share``/``random_share`` of the chosen elements get ``[MASK]``/random tokens; the
    rest keep their tokens (BERT's 80/10/10, drawn per element, not per token).
    """

    mask_rate: float = 0.15
    mask_share: float = 0.8
    random_share: float = 0.1

    def max_predictions(self, max_seq_len: int) -> int:
        """Target slots per sequence: whole elements overshoot the token rate, so 1.5x room."""
        return max(1, int(np.ceil(max_seq_len * self.mask_rate * 1.5)))


@dataclass
class MaskedBatch:
    """Model inputs and MLM targets: ``input_ids``/``input_mask`` ``[B, L]``,
    ``positions``/``targets`` int32 ``[B, P]``, ``weights`` float32 ``[B, P]`` (0 = padding slot),
    ``chosen`` per sequence: the element indices that were masked.
    """

    input_ids: np.ndarray
    input_mask: np.ndarray
    positions: np.ndarray
    targets: np.ndarray
    weights: np.ndarray
    chosen: list[list[int]]


def mask_whole_elements(
    batch: TokenSequences,
    scheme: WholeElementMasking,
    rng: np.random.Generator,
    mask_id: int,
    replacement_ids: np.ndarray,
    max_predictions: int,
) -> MaskedBatch:
    """Mask about ``scheme.mask_rate`` of each sequence's non-placeholder elements, all tokens of each.

    Elements are drawn in random order and taken while their tokens fit into ``max_predictions``
    target slots. ``replacement_ids`` are the ids a randomly replaced token may become (no
    special tokens, no placeholder symbol).
    """
    size, length = batch.ids.shape
    input_ids = batch.ids.copy()
    positions = np.zeros((size, max_predictions), np.int32)
    targets = np.zeros((size, max_predictions), np.int32)
    weights = np.zeros((size, max_predictions), np.float32)
    chosen_all: list[list[int]] = []
    for row in range(size):
        eligible = (batch.elements[row] != NO_ELEMENT) & ~batch.placeholder[row]
        candidates = np.unique(batch.elements[row][eligible])
        wanted = max(1, int(round(scheme.mask_rate * len(candidates)))) if len(candidates) else 0
        chosen: list[int] = []
        slots: list[int] = []
        for element in rng.permutation(candidates):
            if len(chosen) == wanted:
                break
            where = np.flatnonzero(batch.elements[row] == element)
            if len(slots) + len(where) > max_predictions:
                continue
            chosen.append(int(element))
            slots.extend(where.tolist())
            action = rng.random()
            if action < scheme.mask_share:
                input_ids[row, where] = mask_id
            elif action < scheme.mask_share + scheme.random_share:
                input_ids[row, where] = rng.choice(replacement_ids, size=len(where))
        slots.sort()
        positions[row, : len(slots)] = slots
        targets[row, : len(slots)] = batch.ids[row, slots]
        weights[row, : len(slots)] = 1.0
        chosen_all.append(sorted(chosen))
    input_mask = (batch.ids != 0).astype(np.int32)
    return MaskedBatch(input_ids, input_mask, positions, targets, weights, chosen_all)
