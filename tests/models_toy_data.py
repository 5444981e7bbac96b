"""Tiny preprocessed data directories for the models tests: real TFRecords of a toy language.

The rule to learn is contextual: the element after "Herr" or "Frau" is a placeholder. Other elements
are one to three random word tokens. Written with preprocessing.record_format, like ``preprocess``
writes them, plus ``format.json``, ``tokenizer/`` and (GloVe) ``glove/`` vector tables.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from rulings_anon.preprocessing.record_format import SequenceRecord, shard_name, write_format, write_records

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[PLH]"]
WORDS = ["Herr", "Frau"] + [f"wort{i}" for i in range(48)]
VOCAB = SPECIALS + WORDS
SPECIAL_IDS = {"pad": 0, "unk": 1, "cls": 2, "sep": 3, "mask": 4, "placeholder": 5}
TRIGGERS = (6, 7)
MAX_SEQ_LEN = 64
CANDIDATE_RATE = 0.15


def toy_sequence(rng: random.Random, doc_id: str, index: int, bert: bool, elements: int = 24):
    """One sequence: ``[CLS]`` (BERT) + elements + ``[SEP]`` (BERT), with labels and 2 candidate rows."""
    tokens, token_element, starts, counts, labels = [], [], [], [], []
    if bert:
        tokens.append(SPECIAL_IDS["cls"])
        token_element.append(-1)
    after_trigger = False
    for e in range(elements):
        if after_trigger:
            pieces, label = [SPECIAL_IDS["placeholder"]], 1
        elif rng.random() < 0.2:
            pieces, label = [rng.choice(TRIGGERS)], 0
        else:
            pieces, label = [rng.randrange(8, len(VOCAB)) for _ in range(rng.randint(1, 3))], 0
        after_trigger = pieces[0] in TRIGGERS
        starts.append(len(tokens))
        counts.append(len(pieces))
        labels.append(label)
        tokens.extend(pieces)
        token_element.extend([e] * len(pieces))
    if bert:
        tokens.append(SPECIAL_IDS["sep"])
        token_element.append(-1)
    candidates = [[1 if labels[e] or rng.random() < CANDIDATE_RATE else 0 for e in range(elements)]
                  for _ in range(2)]
    offsets = [7 * e for e in range(elements)]
    return SequenceRecord(
        doc_id=doc_id, sequence_index=index, token_ids=tokens, token_element=token_element,
        element_token_start=starts, element_token_count=counts, element_label=labels,
        element_start=offsets, element_end=[o + 5 for o in offsets], element_paragraph=[0] * elements,
        candidates=candidates,
        word_ids=None if bert else [rng.randrange(0, 20) for _ in range(elements)],
    )


def write_toy_data(root, kind: str, train: int = 32, validation: int = 8, seed: int = 0,
                   elements: int = 24) -> Path:
    """A data directory of ``kind`` ("bert" or "glove"): ``train``/``validation`` sequences of
    ``elements`` elements each."""
    rng = random.Random(seed)
    root = Path(root)
    bert = kind == "bert"
    for split, count in (("train", train), ("validation", validation)):
        records = [toy_sequence(rng, f"{split}-{i // 4}", i % 4, bert, elements) for i in range(count)]
        write_records(root / shard_name(split, 0), records)
    (root / "tokenizer").mkdir(parents=True, exist_ok=True)
    (root / "tokenizer" / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    meta = {"tokenizer": kind, "max_seq_len": MAX_SEQ_LEN, "candidate_vectors": 2,
            "candidate_rate": CANDIDATE_RATE, "labels": "weak", "vocab_size": len(VOCAB)}
    if bert:
        meta.update(special_ids=SPECIAL_IDS, assets={"vocab": "tokenizer/vocab.txt"}, lower_case=False)
    else:
        vectors = np.random.default_rng(seed)
        (root / "glove").mkdir(exist_ok=True)
        np.save(root / "glove" / "pieces.npy", vectors.normal(size=(len(VOCAB), 8)).astype("float32"))
        words = vectors.normal(size=(20, 6)).astype("float32")
        words[0] = 0.0  # unknown word
        np.save(root / "glove" / "words.npy", words)
        meta.update(special_ids={k: v for k, v in SPECIAL_IDS.items() if k in ("pad", "unk", "placeholder")},
                    assets={"piece_vectors": "glove/pieces.npy", "word_vectors": "glove/words.npy"},
                    word_vocab_size=20)
    write_format(root, meta)
    return root


def write_tiny_bert(path, vocab_size: int = len(VOCAB), hidden: int = 16, seed: int = 0) -> str:
    """A minimal SavedModel with the TF Hub BERT interface, quick to load (tests only).

    Each token's output mixes its own embedding with its neighbours', so context is learnable.
    ``models.hub_export.build_tiny_hub_encoder`` exports a real transformer; loading it costs half
    a second per model, too much for the many models the training tests build.
    """
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    rng = tf.random.Generator.from_seed(seed)
    embeddings = tf.Variable(rng.normal([vocab_size, hidden], stddev=0.5), name="embeddings")
    mix = tf.Variable(rng.normal([3 * hidden, hidden], stddev=0.3), name="mix")
    spec = {name: tf.TensorSpec([None, None], tf.int32, name=name)
            for name in ("input_word_ids", "input_mask", "input_type_ids")}

    @tf.function(input_signature=[spec])
    def call(inputs):
        x = tf.gather(embeddings, inputs["input_word_ids"])
        x *= tf.cast(inputs["input_mask"], tf.float32)[:, :, None]
        before = tf.pad(x, [[0, 0], [1, 0], [0, 0]])[:, :-1]
        after = tf.pad(x, [[0, 0], [0, 1], [0, 0]])[:, 1:]
        sequence = tf.tanh(tf.einsum("bth,hk->btk", tf.concat([x, before, after], -1), mix))
        return {"sequence_output": sequence, "pooled_output": sequence[:, 0]}

    root = tf.train.Checkpoint()
    root.__call__ = call
    root.variables = [embeddings, mix]
    root.trainable_variables = [embeddings, mix]
    root.regularization_losses = []
    tf.saved_model.save(root, str(path))
    return str(path)
