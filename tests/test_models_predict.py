"""The scoring API: a trained model directory predicts every element of new documents."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

from rulings_anon.document import Document, split_elements
from rulings_anon.errors import ModelError
from rulings_anon.models.hub_export import build_tiny_hub_encoder
from rulings_anon.models.masking import MASK_TOKEN, mask_elements
from rulings_anon.models.optimization import OptimizerConfig
from rulings_anon.models.predict import load_model
from rulings_anon.models.predict import mask_elements as mask_elements_numpy
from rulings_anon.models.training import Trainer, TrainOptions
from rulings_anon.preprocessing.build import make_records
from rulings_anon.preprocessing.tokenizers import BertWordPiece
from rulings_anon.tf import tensorflow

tf = tensorflow()

NAMES = ["K.", "M.", "S.", "B."]
FILLER = "Die Kammer hat in der Sache nach Prüfung der Akten entschieden und den Antrag abgelehnt .".split()


def ruling(i: int) -> dict:
    """A document whose placeholders follow "Herr" / "Frau", with gold spans."""
    words, spans, offset = [], [], 0
    for j in range(30):
        word = FILLER[(i + j) % len(FILLER)]
        if j % 6 == 2:
            word = "Herr" if (i + j) % 2 else "Frau"
        elif j % 6 == 3:
            word = NAMES[(i + j) % len(NAMES)]
            spans.append({"start": offset, "end": offset + len(word), "type": "PER"})
        words.append(word)
        offset += len(word) + 1
    return {"id": f"doc{i}", "text": " ".join(words), "spans": spans}


# Line-broken text: "I." is removed by paragraph extraction, "Mün-" + "chen" joined.
SCORED = Document("new", "I. Der Antrag von Herr Müller aus Mün-\nchen wird abgelehnt.\n\n"
                         "1. Frau Schmidt hat in der Sache entschieden.")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("predict")
    # WordPiece splits off punctuation: the vocabulary holds bare words and "." / "-".
    words = sorted({w for i in range(4) for w in re.findall(r"\w+|[^\w\s]", ruling(i)["text"])} | {"-"})
    vocab = root / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[PLH]"] + words) + "\n")
    tokenizer = BertWordPiece(vocab)
    make_records([ruling(i) for i in range(8)], tokenizer, root / "data", max_seq_len=48,
                 validation_share=0.2)
    encoder = build_tiny_hub_encoder(root / "encoder", vocab, hidden=16, max_seq_len=48)
    options = TrainOptions(data=root / "data", variant="Conv4", out=root / "model", epochs=1,
                           bert_handle=str(encoder), width_divisor=4, progress=False,
                           optimizer=OptimizerConfig(warmup_lr=1e-2, initial_lr=1e-2))
    Trainer(options).run()
    shutil.rmtree(encoder)  # the model directory must not need the original BERT handle
    return root / "model"


def test_every_element_of_every_document_gets_a_probability(model_dir):
    predictor = load_model(model_dir)
    documents = [SCORED, Document("empty", "  \n ")]
    result = predictor.predict_documents(documents)
    elements = split_elements(SCORED.text)
    assert [(s, e) for s, e, _ in result["new"]] == [(el.start, el.end) for el in elements]
    assert result["empty"] == []
    scores = {el.text: p for el, (_, _, p) in zip(elements, result["new"])}
    assert scores["I."] == 0.0 and scores["1."] == 0.0  # enumeration marks: not part of any paragraph
    assert scores["Mün-"] == scores["chen"] > 0.0  # one element "München" after paragraph extraction
    assert all(0.0 < p < 1.0 for text, p in scores.items() if text not in ("I.", "1."))


def test_candidates_are_masked_and_only_they_change(model_dir):
    predictor = load_model(model_dir)
    plain = predictor.predict_documents([SCORED])["new"]
    texts = [el.text for el in split_elements(SCORED.text)]
    chosen = {texts.index("Müller"), texts.index("Schmidt")}
    masked = predictor.predict_documents([SCORED], candidates={"new": chosen})["new"]
    assert [p for i, (_, _, p) in enumerate(masked) if i in chosen] != [
        p for i, (_, _, p) in enumerate(plain) if i in chosen]
    # Its scores are those of the sequences with exactly these elements masked, one [MASK] each.
    starts = {SCORED.text.index("Müller"), SCORED.text.index("Schmidt")}
    records = predictor._sequences(SCORED)
    masks = [np.isin(r.element_start, list(starts)) for r in records]
    assert sum(int(m.sum()) for m in masks) == 2
    expected = predictor.predict_sequences(records, masks)
    for record, values in zip(records, expected):
        for start, value in zip(record.element_start, values):
            i = next(k for k, el in enumerate(split_elements(SCORED.text)) if el.start == start)
            assert masked[i][2] == pytest.approx(float(value), abs=1e-6)


def test_a_copied_model_directory_reloads_and_predicts_the_same(model_dir, tmp_path):
    before = load_model(model_dir).predict_documents([SCORED])
    shutil.copytree(model_dir, tmp_path / "laptop", ignore=shutil.ignore_patterns("checkpoints", "logs"))
    assert load_model(tmp_path / "laptop").predict_documents([SCORED]) == before
    (tmp_path / "laptop" / "weights" / "model.index").unlink()
    with pytest.raises(ModelError, match="missing weights/model.index"):
        load_model(tmp_path / "laptop")


def test_a_trained_directory_records_its_kind_and_loads_with_or_without_it(model_dir, tmp_path):
    import json

    from rulings_anon.scoring.prediction import ElementModel, load_element_model

    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    assert config["kind"] == "contextual"
    assert isinstance(load_element_model(model_dir), ElementModel)
    # A directory trained before the kind was recorded is still the contextual model's.
    shutil.copytree(model_dir, tmp_path / "old", ignore=shutil.ignore_patterns("checkpoints", "logs"))
    del config["kind"]
    (tmp_path / "old" / "config.json").write_text(json.dumps(config), encoding="utf-8")
    old = load_element_model(tmp_path / "old")
    assert isinstance(old, ElementModel)
    assert [len(p) for p in old.probabilities([SCORED])] == [len(split_elements(SCORED.text))]


def test_numpy_scoring_mask_equals_the_training_mask():
    token_ids = np.array([2, 11, 12, 13, 14, 15, 16, 3], np.int32)
    token_element = np.array([-1, 0, 0, 1, 2, 2, 2, -1], np.int32)
    chosen = np.array([True, False, True])
    ids, elements = mask_elements_numpy(token_ids, token_element, chosen, 4)
    assert ids.tolist() == [2, 4, 13, 4, 3] and elements.tolist() == [-1, 0, 1, 2, -1]
    tf_ids, tf_elements = mask_elements(tf, tf.constant(token_ids), tf.constant(token_element),
                                        tf.constant(chosen, tf.float32), tf.zeros([3]),
                                        tf.fill([3], MASK_TOKEN), 4, (4, 5))
    assert tf_ids.numpy().tolist() == ids.tolist() and tf_elements.numpy().tolist() == elements.tolist()
