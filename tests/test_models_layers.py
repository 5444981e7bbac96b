"""Leave-out layers, variant tables, masking schemes and the optimizer schedule (thesis 5.4)."""

from __future__ import annotations

import numpy as np
import pytest

from rulings_anon.models.architecture import EmbeddingSpec, build_model
from rulings_anon.models.input_pipeline import InputConfig, mask_candidates, prepare_sequence
from rulings_anon.models.leave_out import LOBiRNN, LOConv
from rulings_anon.models.masking import SCHEMES, draw_strategies, get_scheme
from rulings_anon.models.optimization import WarmupLinearDecay, balanced_weights, class_weights
from rulings_anon.models.variants import VARIANTS, LayerSpec, get_variant
from rulings_anon.tf import keras, tensorflow

tf = tensorflow()

# Elements as token counts: element e covers the next COUNTS[e] tokens.
COUNTS = [1, 2, 3, 1, 2, 1, 1, 2]
ELEMENT = 3  # the element whose output must not see its own tokens


def geometry(counts):
    """``(token_element [1, T], first [1, E], last [1, E])`` for elements of the given lengths."""
    token_element, first, last = [], [], []
    for e, n in enumerate(counts):
        first.append(len(token_element))
        token_element.extend([e] * n)
        last.append(len(token_element) - 1)
    return (tf.constant([token_element]), tf.constant([first]), tf.constant([last]))


def layer_output(layer, x, counts):
    token_element, first, last = geometry(counts)
    mask = tf.ones(tf.shape(x)[:2], tf.int32)
    return layer(tf.constant(x, tf.float32), mask, first, last).numpy()[0]


# Linear outputs: with a ReLU, a random kernel could zero an output and hide a neighbour's change.
@pytest.mark.parametrize("make", [lambda: LOConv(5, 6, activation=None), lambda: LOBiRNN(5, depth=2, activation=None)],
                         ids=["LOConv", "LOBiRNN"])
def test_leave_out_layer_output_ignores_the_element_itself(make):
    layer = make()
    rng = np.random.default_rng(1)
    x = rng.normal(size=(1, sum(COUNTS), 4))
    base = layer_output(layer, x, COUNTS)
    start = sum(COUNTS[:ELEMENT])

    changed = x.copy()  # other embeddings inside the element
    changed[0, start] = rng.normal(size=4)
    np.testing.assert_allclose(layer_output(layer, changed, COUNTS)[ELEMENT], base[ELEMENT], atol=1e-5)

    longer = np.concatenate([x[:, :start], rng.normal(size=(1, 3, 4)), x[:, start + 1:]], axis=1)
    counts = COUNTS[:ELEMENT] + [3] + COUNTS[ELEMENT + 1:]  # one token becomes three
    out = layer_output(layer, longer, counts)
    np.testing.assert_allclose(out[ELEMENT], base[ELEMENT], atol=1e-5)

    for neighbour in (start - 1, start + 1):  # last token of the element before, first after
        moved = x.copy()
        moved[0, neighbour] += 1.0
        assert not np.allclose(layer_output(layer, moved, COUNTS)[ELEMENT], base[ELEMENT], atol=1e-4)


def glove_inputs(counts, token_ids, word_ids):
    token_element, first, last = geometry(counts)
    return {"token_ids": tf.constant([token_ids]), "input_mask": tf.ones([1, len(token_ids)], tf.int32),
            "token_element": token_element, "element_first": first, "element_last": last,
            "word_ids": tf.constant([word_ids])}


@pytest.mark.parametrize("name", ["LOConv2", "LORNN2"])
def test_leave_out_model_logit_ignores_ids_words_and_length_of_the_element(name):
    """Whole GloVe model: token ids, word id and token count of element i don't move logit i."""
    keras().utils.set_random_seed(7)  # fixed weights: a random draw could leave every ReLU dead
    model = build_model(get_variant(name).scaled(16),
                        EmbeddingSpec(piece_vocab=30, piece_dim=6, word_vocab=10, word_dim=4))
    rng = np.random.default_rng(2)
    tokens = list(rng.integers(0, 30, sum(COUNTS)))
    words = list(rng.integers(0, 10, len(COUNTS)))
    base = model(glove_inputs(COUNTS, tokens, words)).numpy()[0]
    start = sum(COUNTS[:ELEMENT])

    other_ids = tokens[:start] + [(tokens[start] + 7) % 30] + tokens[start + 1:]
    other_word = words[:ELEMENT] + [(words[ELEMENT] + 3) % 10] + words[ELEMENT + 1:]
    assert model(glove_inputs(COUNTS, other_ids, other_word)).numpy()[0][ELEMENT] == pytest.approx(
        base[ELEMENT], abs=1e-5)
    longer_counts = COUNTS[:ELEMENT] + [4] + COUNTS[ELEMENT + 1:]
    longer = tokens[:start] + [1, 2, 3, 4] + tokens[start + 1:]
    assert model(glove_inputs(longer_counts, longer, words)).numpy()[0][ELEMENT] == pytest.approx(
        base[ELEMENT], abs=1e-5)

    neighbour_word = words[:ELEMENT + 1] + [(words[ELEMENT + 1] + 3) % 10] + words[ELEMENT + 2:]
    assert model(glove_inputs(COUNTS, tokens, neighbour_word)).numpy()[0][ELEMENT] != pytest.approx(
        base[ELEMENT], abs=1e-6)


def test_variant_tables_match_the_thesis():
    assert len(VARIANTS) == 17
    assert VARIANTS["RNN4"].layers == ("r512", "r512", "d256", "d128", "d64")
    assert VARIANTS["LOConv1"].layers == ("lc32x256", "d256", "d128", "d64")
    assert VARIANTS["LORNN3"].layers == ("lr512", "lr512", "lr512", "d512", "d256")
    assert VARIANTS["FT"].fine_tune and VARIANTS["FT"].batch_size == 6
    assert {v.batch_size for n, v in VARIANTS.items() if n != "FT"} == {16}
    assert LayerSpec.parse("lc32x256") == LayerSpec("lc", 256, 32)
    assert get_variant("loconv3").name == "LOConv3"
    with pytest.raises(KeyError, match="LORNN1"):
        get_variant("Conv9")
    with pytest.raises(ValueError):
        LayerSpec.parse("x12")


def test_masking_scheme_table():
    assert [SCHEMES[f"M{i}"].proportions for i in range(1, 8)] == [
        (1.0, 0.0, 0.0), (0.1, 0.9, 0.0), (0.0, 1.0, 0.0), (0.25, 0.25, 0.5), (0.25, 0.15, 0.6),
        (0.0, 0.2, 0.8), (0.0, 0.0, 1.0)]
    # Pseudonymized training data: keep (strategy 3) and the mask token.
    assert [SCHEMES[f"P{i}"].proportions for i in range(1, 4)] == [
        (0.0, 0.0, 0.5, 0.5), (0.0, 0.0, 0.2, 0.8), (0.0, 0.0, 0.0, 1.0)]
    assert list(SCHEMES) == [*(f"M{i}" for i in range(1, 8)), "P1", "P2", "P3"]
    assert all(sum(s.proportions) == pytest.approx(1.0) for s in SCHEMES.values())
    assert SCHEMES["P2"].describe() == "mask token 0.2, keep 0.8"
    assert SCHEMES["M4"].describe() == "placeholder-only 0.25, random 0.25, mask token 0.5"


@pytest.mark.parametrize("name", ["M2", "M4", "M5", "M6", "P1", "P2"])
def test_strategies_are_drawn_with_the_scheme_proportions(name):
    scheme = get_scheme(name)
    drawn = draw_strategies(tf, 40_000, scheme).numpy()
    shares = np.bincount(drawn, minlength=len(scheme.proportions)) / drawn.size
    np.testing.assert_allclose(shares, scheme.proportions, atol=0.01)


MASK, PLH, FIRST_WORD, VOCAB = 4, 5, 10, 60


def sequence(elements: int, seed: int, pseudonymized: bool = False):
    """A parsed record: [CLS] + elements of 1..3 tokens + [SEP]; every 4th element a placeholder.

    ``pseudonymized``: the positives are surrogates of 2..3 word tokens instead of [PLH].
    """
    rng = np.random.default_rng(seed)
    tokens, token_element, labels = [2], [-1], []
    for e in range(elements):
        if e % 4 == 0 and not pseudonymized:
            pieces = [PLH]
        else:
            pieces = list(rng.integers(FIRST_WORD, VOCAB, rng.integers(2 if e % 4 == 0 else 1, 4)))
        labels.append(int(e % 4 == 0))
        tokens += pieces
        token_element += [e] * len(pieces)
    tokens.append(3)
    token_element.append(-1)
    candidates = [[1 if labels[e] or e % 3 == 0 else 0 for e in range(elements)]]
    return {"token_ids": tf.constant(tokens, tf.int64), "token_element": tf.constant(token_element, tf.int64),
            "element_label": tf.constant(labels, tf.int64), "element_mask": tf.ones([elements], tf.int64),
            "candidates": tf.constant(candidates, tf.int64)}


def element_tokens(token_ids, token_element):
    groups = {}
    for token, e in zip(token_ids, token_element):
        if e >= 0:
            groups.setdefault(int(e), []).append(int(token))
    return groups


def masked_candidates(config, seed: int, pseudonymized: bool = False, sequences: int = 20):
    """``(original tokens, tokens after masking, label)`` of every candidate element of ``sequences``
    masked sequences; elements outside the loss must come out unchanged."""
    tf.random.set_seed(seed)
    for index in range(sequences):
        features = sequence(200, index, pseudonymized=pseudonymized)
        inputs, labels, loss_mask = prepare_sequence(features, config)
        assert loss_mask.numpy().tolist() == features["candidates"].numpy()[0].tolist()
        before = element_tokens(features["token_ids"].numpy(), features["token_element"].numpy())
        after = element_tokens(inputs["token_ids"].numpy(), inputs["token_element"].numpy())
        first, last = inputs["element_first"].numpy(), inputs["element_last"].numpy()
        for e, original in before.items():
            assert [int(t) for t in inputs["token_ids"].numpy()[first[e]:last[e] + 1]] == after[e]
            if not loss_mask.numpy()[e]:
                assert after[e] == original
                continue
            yield original, after[e], int(labels.numpy()[e])


@pytest.mark.parametrize("name", ["M1", "M4", "M7"])
def test_tf_data_masking_replaces_whole_candidates_in_scheme_proportions(name):
    scheme = get_scheme(name)
    config = InputConfig(glove=False, candidates=True, scheme=scheme, mask_id=MASK,
                            random_ids=(FIRST_WORD, VOCAB))
    outcome = {"mask": 0, "random": 0, "kept": 0}
    placeholder_masked = 0
    for original, after, label in masked_candidates(config, seed=11):
        if label:
            placeholder_masked += after != [PLH]
        elif after == original:
            outcome["kept"] += 1
        elif after == [MASK]:
            outcome["mask"] += 1
        else:
            assert len(after) == 1 and FIRST_WORD <= after[0] < VOCAB
            outcome["random"] += 1
    total = sum(outcome.values())
    # Non-placeholder candidates: placeholder-only leaves them as they are (a random token that
    # happens to equal a one-token original also reads "kept": 1 in 50, within the tolerance).
    expected = {"kept": scheme.placeholder_only, "random": scheme.random, "mask": scheme.mask_token}
    for key, share in expected.items():
        assert outcome[key] / total == pytest.approx(share, abs=0.05), (key, outcome)  # ~1,000 draws
    if name in ("M1", "M7"):
        assert placeholder_masked == 1000  # 50 placeholders x 20 sequences, every one masked


@pytest.mark.parametrize("name", ["P1", "P2", "P3"])
def test_keep_schemes_leave_candidates_as_they_are_or_mask_them_whole(name):
    """Pseudonymized sequences: a candidate, surrogate or not, is kept with the scheme's keep share,
    else it becomes one mask token; nothing is replaced by random tokens."""
    scheme = get_scheme(name)
    config = InputConfig(glove=False, candidates=True, scheme=scheme, mask_id=MASK,
                            random_ids=(FIRST_WORD, VOCAB))
    outcome = {(label, result): 0 for label in (0, 1) for result in ("kept", "mask")}
    for original, after, label in masked_candidates(config, seed=5, pseudonymized=True):
        assert after in (original, [MASK]), (original, after)
        outcome[label, "kept" if after == original else "mask"] += 1
    # 50 surrogates (2..3 tokens each) and about 50 other candidates per sequence, 20 sequences.
    assert outcome[1, "kept"] + outcome[1, "mask"] == 1000
    for label in (0, 1):
        total = outcome[label, "kept"] + outcome[label, "mask"]
        assert outcome[label, "kept"] / total == pytest.approx(scheme.keep, abs=0.05), outcome
    if name == "P3":
        assert outcome[0, "mask"] == outcome[1, "mask"] == 0


def test_scoring_masks_each_candidate_element_as_one_mask_token():
    features = sequence(8, 0)
    candidates = tf.constant([0, 1, 1, 0, 0, 0, 0, 1], tf.float32)
    ids, elements = mask_candidates(tf.cast(features["token_ids"], tf.int32),
                                    tf.cast(features["token_element"], tf.int32), candidates, MASK)
    groups = element_tokens(ids.numpy(), elements.numpy())
    original = element_tokens(features["token_ids"].numpy(), features["token_element"].numpy())
    assert [groups[e] == [MASK] for e in range(8)] == [bool(c) for c in candidates.numpy()]
    assert all(groups[e] == original[e] for e in range(8) if not candidates.numpy()[e])


def test_learning_rate_warms_up_then_decays_linearly_to_zero():
    schedule = WarmupLinearDecay(warmup_lr=1e-2, initial_lr=1e-5, warmup_steps=5, total_steps=105)
    values = [float(schedule(step)) for step in (0, 4, 5, 55, 105)]
    np.testing.assert_allclose(values, [1e-2, 1e-2, 1e-5, 0.5e-5, 0.0], rtol=1e-5, atol=1e-12)


def test_balanced_class_weights_make_both_classes_weigh_half():
    positive, negative = balanced_weights(10, 90)
    assert positive * 10 == pytest.approx(negative * 90)
    assert class_weights("3", 10, 90) == (3.0, 1.0)
    with pytest.raises(ValueError, match="balanced"):
        class_weights("many", 10, 90)


@pytest.mark.parametrize("name", ["M7", "M3"])
def test_without_candidates_a_scheme_masks_the_placeholders_alone(name):
    """Table 6.4's "Cand NO" rows (RNN1 with M2, LOConv1 with M3): every element counts in the loss,
    the placeholders are masked by the scheme and every other element stays as it was."""
    config = InputConfig(glove=False, candidates=False, scheme=get_scheme(name), mask_id=MASK,
                            random_ids=(FIRST_WORD, VOCAB))
    tf.random.set_seed(3)
    features = sequence(40, 0)
    inputs, labels, loss_mask = prepare_sequence(features, config)
    assert loss_mask.numpy().tolist() == [1.0] * 40
    before = element_tokens(features["token_ids"].numpy(), features["token_element"].numpy())
    after = element_tokens(inputs["token_ids"].numpy(), inputs["token_element"].numpy())
    for e, original in before.items():
        if labels.numpy()[e]:
            assert original == [PLH] and len(after[e]) == 1 and after[e] != [PLH]
            assert after[e] == [MASK] if name == "M7" else FIRST_WORD <= after[e][0] < VOCAB
        else:
            assert after[e] == original
