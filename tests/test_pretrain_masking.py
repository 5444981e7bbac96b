"""Whole-element masking and sequence packing for the masked-LM pretraining (thesis 9.4); no TF."""

import numpy as np
import pytest

from rulings_anon.models.pretrain_data import (
    NO_ELEMENT,
    TokenSequences,
    WholeElementMasking,
    mask_whole_elements,
    pack_sequences,
)

SPECIAL = {"cls": 2, "sep": 3, "placeholder": 5}
MASK_ID = 4
# A toy "tokenizer": each element text maps to fixed token ids (multi-token elements included).
PIECES = {"Der": [10], "Kläger": [11, 12], "wohnt": [13], "in": [14], "Schmiedeberg": [15, 16, 17],
          "bei": [18], "der": [19], "Firma.": [20, 21]}


def tokenize(texts):
    return [PIECES[t] for t in texts]


def test_pack_sequences_keeps_elements_whole_and_placeholders_as_one_token():
    document = [("Der", False), ("Kläger", False), ("K.", True), ("wohnt", False), ("in", False),
                ("Schmiedeberg", False), ("bei", False), ("der", False), ("M-GmbH", True), ("Firma.", False)]
    sequences = pack_sequences([document], tokenize, SPECIAL, max_seq_len=8)
    # room for 6 tokens per sequence: "Firma." (2 tokens) no longer fits after 6, so it opens sequence 3
    assert sequences.ids.tolist() == [
        [2, 10, 11, 12, 5, 13, 14, 3],
        [2, 15, 16, 17, 18, 19, 5, 3],
        [2, 20, 21, 3, 0, 0, 0, 0],
    ]
    assert sequences.elements.tolist() == [
        [-1, 0, 1, 1, 2, 3, 4, -1],
        [-1, 0, 0, 0, 1, 2, 3, -1],
        [-1, 0, 0, -1, -1, -1, -1, -1],
    ]
    assert np.argwhere(sequences.placeholder).tolist() == [[0, 4], [1, 6]]
    assert sequences.lengths.tolist() == [8, 8, 4]


def _random_sequences(rng, count=64, length=64):
    """Sequences of elements with 1-4 tokens each, about 10 % of elements placeholders."""
    ids = np.zeros((count, length), np.int32)
    elements = np.full((count, length), NO_ELEMENT, np.int32)
    placeholder = np.zeros((count, length), bool)
    for row in range(count):
        ids[row, 0] = SPECIAL["cls"]
        position, element = 1, 0
        while True:
            size = int(rng.integers(1, 5))
            is_placeholder = rng.random() < 0.1
            if is_placeholder:
                size = 1
            if position + size >= length - 1:
                break
            ids[row, position:position + size] = (
                SPECIAL["placeholder"] if is_placeholder else rng.integers(10, 500, size))
            elements[row, position:position + size] = element
            placeholder[row, position:position + size] = is_placeholder
            position += size
            element += 1
        ids[row, position] = SPECIAL["sep"]
    return TokenSequences(ids, elements, placeholder)


@pytest.fixture(scope="module")
def draws():
    rng = np.random.default_rng(7)
    sequences = _random_sequences(rng)
    scheme = WholeElementMasking()
    replacement = np.arange(10, 500, dtype=np.int32)
    slots = scheme.max_predictions(64)
    return sequences, [mask_whole_elements(sequences, scheme, rng, MASK_ID, replacement, slots) for _ in range(40)]


def test_every_token_of_a_chosen_element_is_a_target_and_nothing_else(draws):
    sequences, batches = draws
    for batch in batches:
        for row, chosen in enumerate(batch.chosen):
            targets = batch.positions[row][batch.weights[row] > 0].tolist()
            expected = np.flatnonzero(np.isin(sequences.elements[row], chosen)).tolist()
            assert targets == expected
            assert batch.targets[row][batch.weights[row] > 0].tolist() == sequences.ids[row, expected].tolist()


def test_placeholders_and_special_tokens_are_never_targets_nor_changed(draws):
    sequences, batches = draws
    for batch in batches:
        for row in range(len(sequences)):
            targets = batch.positions[row][batch.weights[row] > 0]
            assert not sequences.placeholder[row, targets].any()
            assert (sequences.elements[row, targets] != NO_ELEMENT).all()
            untouched = ~np.isin(np.arange(sequences.ids.shape[1]), targets)
            assert (batch.input_ids[row, untouched] == sequences.ids[row, untouched]).all()


def test_an_element_is_masked_all_together_with_80_10_10_per_element(draws):
    sequences, batches = draws
    outcomes = {"mask": 0, "random": 0, "keep": 0}
    for batch in batches:
        for row, chosen in enumerate(batch.chosen):
            for element in chosen:
                where = sequences.elements[row] == element
                new, old = batch.input_ids[row, where], sequences.ids[row, where]
                if (new == MASK_ID).all():
                    outcomes["mask"] += 1
                elif (new == old).all():
                    outcomes["keep"] += 1
                else:
                    assert not (new == MASK_ID).any(), "a random element has no [MASK] token"
                    outcomes["random"] += 1
    total = sum(outcomes.values())
    assert total > 2000
    # a random element may draw its own tokens by chance (1/490 per token): counted as "keep"
    assert outcomes["mask"] / total == pytest.approx(0.8, abs=0.03)
    assert outcomes["random"] / total == pytest.approx(0.1, abs=0.02)
    assert outcomes["keep"] / total == pytest.approx(0.1, abs=0.02)


def test_about_mask_rate_of_the_elements_are_chosen(draws):
    sequences, batches = draws
    eligible = [
        len(np.unique(sequences.elements[row][(sequences.elements[row] >= 0) & ~sequences.placeholder[row]]))
        for row in range(len(sequences))
    ]
    for batch in batches:
        for row, chosen in enumerate(batch.chosen):
            assert len(chosen) == max(1, round(0.15 * eligible[row]))
