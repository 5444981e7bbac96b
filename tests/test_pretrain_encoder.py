"""Pretrain a tiny BERT a few steps on bundled rulings, resume it, and load it through TF Hub."""

import argparse
import json
import time

import pytest

from rulings_anon import data
from rulings_anon.errors import InputError
from rulings_anon.inputs import read_documents
from rulings_anon.models.hub_export import build_tiny_hub_encoder
from rulings_anon.models.pretrain import PretrainSettings, pretrain
from rulings_anon.models.pretrain_commands import COMMANDS
from rulings_anon.models.pretrain_data import TokenSequences
from rulings_anon.preprocessing.tokenizers import PLACEHOLDER_SYMBOL, BertWordPiece
from rulings_anon.preprocessing.wordpiece_vocab import RESERVED_TOKENS
from rulings_anon.tf import tensorflow

TINY = PretrainSettings(
    vocab_size=800, layers=1, hidden=32, heads=2, intermediate=64, max_seq_len=64, steps=40, batch_size=16,
    learning_rate=5e-3, placeholders="gold", checkpoint_every=10, log_every=5, eval_sequences=32,
)


@pytest.fixture(scope="module")
def documents():
    """Four bundled rulings (two courts), cut to their first 6,000 characters."""
    docs = list(read_documents(data.ler_corpus_files(["bag", "bgh"])))
    chosen = docs[:2] + docs[-2:]
    for doc in chosen:
        doc.text = doc.text[:6000]
        doc.spans = [s for s in doc.spans if s.end <= 6000]
    return chosen


@pytest.fixture(scope="module")
def run(documents, tmp_path_factory):
    """A 40-step run interrupted after 20 steps and resumed."""
    out = tmp_path_factory.mktemp("encoder")
    first = pretrain(documents, out, PretrainSettings(**{**TINY.to_dict(), "steps": 20,
                                                         "masking": TINY.masking}))
    second = pretrain(documents, out, TINY)  # the same corpus and settings: resumes, to 40 steps
    return out, first, second


def test_resumed_run_continues_from_its_checkpoint(run):
    out, first, second = run
    assert first["steps_this_run"] == 20 and second["steps_this_run"] == 20
    assert [entry["step"] for entry in second["history"]] == list(range(5, 41, 5))
    assert second["settings"]["steps"] == 40
    assert json.loads((out / "pretrain" / "settings.json").read_text())["steps"] == 40
    report = json.loads((out / "pretrain.json").read_text())
    assert report["held_out"] == second["held_out"]
    assert 0.0 <= report["held_out"]["mlm_accuracy"] <= 1.0 and report["held_out"]["targets"] > 0


def test_mlm_loss_decreases(run):
    history = run[2]["history"]
    # 40 steps on ~100 sequences: the tiny model learns at least the token frequencies
    assert history[-1]["loss"] < history[0]["loss"] - 0.25
    assert history[-1]["accuracy"] > history[0]["accuracy"]
    assert run[2]["held_out"]["mlm_loss"] < history[0]["loss"]


def test_placeholders_are_one_token_and_never_targets(run, documents):
    out = run[0]
    vocab = (out / "assets" / "vocab.txt").read_text().splitlines()
    assert vocab[: len(RESERVED_TOKENS)] == list(RESERVED_TOKENS)
    sequences = TokenSequences.load(out / "pretrain" / "sequences.npz")
    placeholder_id = vocab.index(PLACEHOLDER_SYMBOL)
    assert sequences.placeholder.sum() == (sequences.ids == placeholder_id).sum()
    # every gold placeholder element became one [PLH] token (spans cut at 6,000 chars, elements whole)
    gold = sum(len({e for e in doc.elements() if any(s.overlaps(e) for s in doc.spans)}) for doc in documents)
    assert (sequences.ids == placeholder_id).sum() == gold > 0


def test_running_again_with_other_settings_or_corpus_is_an_error(run, documents):
    with pytest.raises(InputError, match=r"other settings \(layers\); pass --restart"):
        pretrain(documents, run[0], PretrainSettings(**{**TINY.to_dict(), "layers": 2, "masking": TINY.masking}))
    record = run[0] / "pretrain" / "run.json"
    kept = record.read_text()
    record.write_text(json.dumps({**json.loads(kept), "fingerprint": "f" * 64}))  # a run of a known corpus
    try:
        with pytest.raises(InputError, match="pretraining run on another corpus; pass --restart"):
            pretrain(documents, run[0], TINY, fingerprint="e" * 64)
    finally:
        record.write_text(kept)


def test_export_loads_with_hub_and_fine_tunes(run):
    import tensorflow_hub as hub

    tf = tensorflow()
    out = run[0]
    layer = hub.KerasLayer(str(out), trainable=True)
    inputs = {
        "input_word_ids": tf.constant([[2, 40, 41, 3, 0], [2, 42, 3, 0, 0]], tf.int32),
        "input_mask": tf.constant([[1, 1, 1, 1, 0], [1, 1, 1, 0, 0]], tf.int32),
        "input_type_ids": tf.zeros([2, 5], tf.int32),
    }
    outputs = layer(inputs)
    assert outputs["sequence_output"].shape == (2, 5, 32) and outputs["sequence_output"].dtype == tf.float32
    assert outputs["pooled_output"].shape == (2, 32) and outputs["pooled_output"].dtype == tf.float32
    assert not bool(layer.resolved_object.do_lower_case.numpy())
    assert (out / "assets" / "vocab.txt").read_text() == (out / "pretrain" / "vocab.txt").read_text()
    # fine-tuning: gradients reach the encoder's variables
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(inputs, training=True)["pooled_output"])
    gradients = tape.gradient(loss, layer.trainable_variables)
    assert len(layer.trainable_variables) > 10
    assert sum(g is not None for g in gradients) == len(gradients)


def test_learned_vocabulary_fits_the_corpus(run, documents):
    out = run[0]
    tokenizer = BertWordPiece(out / "assets" / "vocab.txt")
    assert tokenizer.vocab[: len(RESERVED_TOKENS)] == list(RESERVED_TOKENS)
    assert 600 <= tokenizer.vocab_size <= 800
    elements = documents[0].text.split()
    pieces = [p for element in tokenizer.tokenize_elements(elements) for p in element]
    # the vocabulary covers 99.95 % of the characters: a rare one may stay [UNK]
    assert pieces.count(tokenizer.special_ids["unk"]) <= 0.005 * len(pieces)
    assert len(pieces) < 3 * len(elements)


def test_tiny_hub_encoder_builds_fast(tmp_path):
    import tensorflow_hub as hub

    tf = tensorflow()
    (tmp_path / "vocab.txt").write_text("".join(f"{t}\n" for t in [*RESERVED_TOKENS, "a", "##b"]))
    started = time.monotonic()
    path = build_tiny_hub_encoder(tmp_path / "tiny", tmp_path / "vocab.txt")
    assert time.monotonic() - started < 10
    layer = hub.KerasLayer(str(path), trainable=True)
    ids = tf.constant([[2, 6, 7, 3]], tf.int32)
    outputs = layer({"input_word_ids": ids, "input_mask": tf.ones_like(ids), "input_type_ids": tf.zeros_like(ids)})
    assert outputs["sequence_output"].shape == (1, 4, 32)


def test_command_rejects_bad_flags_in_one_line(tmp_path):
    command = COMMANDS[0]
    parser = argparse.ArgumentParser()
    command.configure(parser)
    args = parser.parse_args(["--out", str(tmp_path / "enc"), "--hidden", "30", "--heads", "4"])
    with pytest.raises(InputError, match="--hidden 30 must be divisible by --heads 4"):
        command.run(args)
