"""Tokenizers, sequence packing and the TFRecord round trip of ``preprocess``.

A tiny hand-written corpus with gold placeholder spans goes through the real tokenizers (a
WordPiece vocabulary and a SentencePiece model learned from it), the real builder and real
TFRecord files; every test reads the records back and compares with the source text.
"""

from __future__ import annotations

import collections
import json
import random

import pytest

from rulings_anon.cli import main
from rulings_anon.document import Document, element_labels, split_elements
from rulings_anon.preprocessing import record_format as rf
from rulings_anon.preprocessing.build import document_sequencer, make_records, validation_split
from rulings_anon.preprocessing.sequences import (
    Chunk,
    candidate_vectors,
    is_sentence_end,
    pack,
    split_paragraph,
)
from rulings_anon.preprocessing.tokenizers import (
    PLACEHOLDER_SYMBOL,
    BertWordPiece,
    GloveTokenizer,
    build_word_vocab,
    train_sentencepiece,
    word_of,
)
from rulings_anon.preprocessing.wordpiece_vocab import RESERVED_TOKENS, basic_words, learn_vocab, write_vocab

SENTENCES = [
    "Der Kläger K. verlangt von der Beklagten M-GmbH Schadensersatz.",
    "Die Klage ist zulässig, aber unbegründet.",
    "Herr Dr. S. wohnte in ... und arbeitete bei der Firma.",
    "Das Landgericht hat die Klage abgewiesen.",
    "Die Berufung der Klägerin hatte keinen Erfolg.",
]


def _document(doc_id: str, paragraphs: list[str]) -> Document:
    """A document with gold spans over the placeholders of the sentences above."""
    text = "\n\n".join(paragraphs)
    spans = []
    for element in split_elements(text):
        if element.text in ("K.", "M-GmbH", "S.", "..."):
            spans.append({"start": element.start, "end": element.end, "type": "PER"})
    return Document.from_record({"id": doc_id, "text": text, "spans": spans})


def _corpus() -> list[Document]:
    rng = random.Random(7)
    docs = []
    for d in range(6):
        paragraphs = [" ".join(rng.sample(SENTENCES, 3)) for _ in range(3)]
        if d == 0:  # one paragraph far longer than a sequence: split at sentence ends
            paragraphs.append(" ".join(SENTENCES * 4))
        docs.append(_document(f"doc-{d}", paragraphs))
    return docs


MAX_SEQ_LEN = 48


@pytest.fixture(scope="module")
def corpus():
    return _corpus()


@pytest.fixture(scope="module")
def bert_tokenizer(tmp_path_factory, corpus):
    vocab = learn_vocab((d.text for d in corpus), vocab_size=120)
    path = write_vocab(tmp_path_factory.mktemp("vocab") / "vocab.txt", vocab)
    return BertWordPiece(path)


@pytest.fixture(scope="module")
def glove_tokenizer(tmp_path_factory, corpus):
    root = tmp_path_factory.mktemp("sp")
    counts = collections.Counter(e for d in corpus for e in d.text.split())
    model = train_sentencepiece(counts, root / "pieces.model", vocab_size=80)
    build_word_vocab(counts, root / "words.txt", min_count=1)
    return GloveTokenizer(model, root / "words.txt")


@pytest.fixture(scope="module", params=["bert", "glove"])
def built(request, tmp_path_factory, corpus, bert_tokenizer, glove_tokenizer):
    tokenizer = bert_tokenizer if request.param == "bert" else glove_tokenizer
    out = tmp_path_factory.mktemp(f"data-{request.param}")
    stats = make_records(corpus, tokenizer, out, max_seq_len=MAX_SEQ_LEN, candidate_vectors=4,
                         candidate_rate=0.2, validation_share=0.3)
    records = list(rf.read_records(rf.shard_files(out, "train") + rf.shard_files(out, "validation")))
    return request.param, tokenizer, out, stats, records


def _by_document(records):
    grouped = collections.defaultdict(list)
    for record in records:
        grouped[record.doc_id].append(record)
    return {doc_id: sorted(rs, key=lambda r: r.sequence_index) for doc_id, rs in grouped.items()}


def test_round_trip_keeps_element_boundaries_offsets_and_labels(built, corpus):
    kind, _, _, stats, records = built
    grouped = _by_document(records)
    assert set(grouped) == {d.id for d in corpus}
    for document in corpus:
        elements = split_elements(document.text)
        got = [(s, e, label) for r in grouped[document.id]
               for s, e, label in zip(r.element_start, r.element_end, r.element_label)]
        expected = [(e.start, e.end, int(label))
                    for e, label in zip(elements, element_labels(elements, document.spans))]
        assert got == expected
        assert [r.sequence_index for r in grouped[document.id]] == list(range(len(grouped[document.id])))
    assert stats["elements"] == sum(len(d.text.split()) for d in corpus)
    assert stats["placeholder_elements"] == sum(len(d.spans) for d in corpus)
    assert stats["sequences"] == len(records) == stats["train_sequences"] + stats["validation_sequences"]
    assert stats["split_paragraphs"] >= 1  # doc-0's long paragraph


def test_no_element_is_split_and_sequences_fit(built):
    kind, tokenizer, _, _, records = built
    frame = 1 if kind == "bert" else 0
    for record in records:
        assert len(record.token_ids) <= MAX_SEQ_LEN
        assert record.token_element[:frame] == [-1] * frame
        position = frame
        for i in range(record.num_elements):
            assert record.element_token_start[i] == position
            count = record.element_token_count[i]
            assert count >= 1
            assert record.token_element[position:position + count] == [i] * count
            position += count
        assert position + frame == len(record.token_ids)
        if kind == "bert":
            assert record.token_ids[0] == tokenizer.special_ids["cls"]
            assert record.token_ids[-1] == tokenizer.special_ids["sep"]


def test_placeholder_is_one_symbol_token(built):
    _, tokenizer, _, _, records = built
    plh = tokenizer.special_ids["placeholder"]
    positives = 0
    for record in records:
        for i, label in enumerate(record.element_label):
            tokens = record.element_tokens(i)
            if label:
                positives += 1
                assert tokens == [plh]
            else:
                assert plh not in tokens
    assert positives > 0
    assert tokenizer.tokens([plh]) == [PLACEHOLDER_SYMBOL]


def test_candidate_vectors_hold_every_positive(built):
    _, _, _, stats, records = built
    extra = total = 0
    for record in records:
        assert len(record.candidates) == 4
        for vector in record.candidates:
            assert len(vector) == record.num_elements
            assert all(c >= label for c, label in zip(vector, record.element_label))
            extra += sum(c and not label for c, label in zip(vector, record.element_label))
            total += record.element_label.count(0)
    assert 0.1 < extra / total < 0.3  # candidate rate 0.2


def test_parse_dataset_gives_the_documented_tensors(built):
    kind, _, out, _, records = built
    meta = rf.read_format(out)
    assert meta["tokenizer"] == kind and meta["max_seq_len"] == MAX_SEQ_LEN
    files = rf.shard_files(out, "train")
    parsed = next(iter(rf.parse_dataset(files, kind)))
    first = next(rf.read_records(files))
    assert parsed["token_ids"].numpy().tolist() == first.token_ids
    assert parsed["candidates"].shape == (4, first.num_elements)
    assert parsed["element_mask"].numpy().tolist() == [1] * first.num_elements
    assert ("word_ids" in parsed) == (kind == "glove")
    batch = next(iter(rf.padded_batch(rf.parse_dataset(files, kind), 3)))
    assert batch["token_ids"].shape[0] == 3
    assert int(batch["input_mask"].numpy().sum()) == sum(
        len(r.token_ids) for r in list(rf.read_records(files))[:3])


def test_glove_records_carry_one_word_id_per_element(glove_tokenizer, tmp_path):
    doc = _document("w", ["Der Kläger K. verlangt Schadensersatz."])
    make_records([doc], glove_tokenizer, tmp_path, candidate_vectors=1)
    (record,) = rf.read_records(rf.shard_files(tmp_path))
    words = [glove_tokenizer.words[i] for i in record.word_ids]
    assert words == ["der", "kläger", "<plh>", "verlangt", "schadensersatz"]
    assert word_of("§") == "§" and word_of("(Urteil),") == "urteil"


def test_document_sequencer_tokenizes_new_text_like_the_records(built, corpus):
    kind, _, out, _, records = built
    sequencer = document_sequencer(out / rf.TOKENIZER_DIR, rf.read_format(out))
    document = corpus[1]
    fresh = sequencer(Document(document.id, document.text))
    stored = _by_document(records)[document.id]
    assert [r.element_start for r in fresh] == [r.element_start for r in stored]
    assert all(label == 0 for r in fresh for label in r.element_label)
    # Placeholders are tokenized as written, other elements exactly as in the records.
    for new, old in zip(fresh, stored):
        for i, label in enumerate(old.element_label):
            if not label:
                assert new.element_tokens(i) == old.element_tokens(i)


def test_long_paragraph_splits_at_sentence_ends():
    # 12 elements of 2 tokens; sentence ends after elements 2, 5 and 9 (0-based).
    counts = [2] * 12
    ends = [i in (2, 5, 9) for i in range(12)]
    chunks = split_paragraph(0, counts, ends, capacity=10)
    assert [(c.first, c.end) for c in chunks] == [(0, 3), (3, 6), (6, 10), (10, 12)]
    assert all(c.tokens <= 10 for c in chunks)
    # Without sentence ends the cut falls on the element boundary at the token middle.
    assert [(c.first, c.end) for c in split_paragraph(0, [1] * 8, [False] * 8, 5)] == [(0, 4), (4, 8)]


def test_pack_joins_paragraphs_until_full():
    paragraphs = [([3, 3], [False, True]), ([2], [True]), ([5, 5], [True, True])]
    assert pack(paragraphs, capacity=8) == [
        [Chunk(0, 0, 2, 6), Chunk(1, 0, 1, 2)],
        [Chunk(2, 0, 1, 5)],
        [Chunk(2, 1, 2, 5)],
    ]


def test_sentence_ends_skip_abbreviations():
    assert is_sentence_end("Erfolg.") and is_sentence_end("worden?“")
    assert not is_sentence_end("Abs.") and not is_sentence_end("K.") and not is_sentence_end("Urteil")


def test_candidate_vectors_are_seeded_and_keep_positives():
    labels = [0] * 100 + [1, 1]
    vectors = candidate_vectors(labels, 5, 0.02, random.Random(1))
    assert vectors == candidate_vectors(labels, 5, 0.02, random.Random(1))
    for vector in vectors:
        assert vector[100] == vector[101] == 1
        assert sum(vector[:100]) == 2


def test_validation_split_is_stable_and_about_ten_percent():
    ids = [f"doc-{i}" for i in range(2000)]
    shares = [validation_split(i) for i in ids]
    assert shares == [validation_split(i) for i in ids]
    assert 0.08 < shares.count("validation") / len(ids) < 0.12


def test_wordpiece_vocab_starts_with_the_reserved_tokens(corpus):
    vocab = learn_vocab((d.text for d in corpus), vocab_size=100)
    assert vocab[:6] == RESERVED_TOKENS == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[PLH]"]
    assert len(vocab) <= 100 and len(set(vocab)) == len(vocab)
    assert "K" in vocab and "##K" in vocab  # every character in both forms
    assert basic_words("(M-GmbH),") == ["(", "M", "-", "GmbH", ")", ","]


def test_preprocess_command_writes_data_and_prints_the_table(tmp_path, corpus, capsys):
    corpus_file = tmp_path / "corpus.jsonl"
    corpus_file.write_text("".join(json.dumps(d.to_record()) + "\n" for d in corpus), encoding="utf-8")
    out = tmp_path / "data"
    code = main(["preprocess", str(corpus_file), "--out", str(out), "--max-seq-len", "64",
                 "--wordpiece-vocab-size", "150", "--candidate-vectors", "2"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "placeholder elements" in printed and "tokens per element" in printed
    stats = json.loads((out / rf.STATS_FILE).read_text())
    for key in ("documents", "elements", "placeholder_elements", "tokens_per_element", "sequences",
                "positive_rate", "train_sequences", "validation_sequences"):
        assert key in stats
    assert stats["documents"] == 6 and stats["placeholder_elements"] > 0  # the detector's weak labels
    vocab = out / "tokenizer" / "vocab.txt"
    assert vocab.exists() and rf.read_format(out)["labels"] == "weak"
    # A rerun with the same settings reuses the learned vocabulary instead of learning it again.
    learned = vocab.stat().st_mtime_ns
    assert main(["preprocess", str(corpus_file), "--out", str(out), "--max-seq-len", "64",
                 "--wordpiece-vocab-size", "150", "--candidate-vectors", "2", "--json"]) == 0
    assert vocab.stat().st_mtime_ns == learned
    assert json.loads(capsys.readouterr().out)["sequences"] == stats["sequences"]


def test_a_vocabulary_without_the_symbol_lends_an_unused_slot(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("[PAD]\n[unused0]\n[unused1]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nKlage\n", encoding="utf-8")
    tokenizer = BertWordPiece(vocab)
    assert tokenizer.special_ids == {"pad": 0, "unk": 3, "cls": 4, "sep": 5, "mask": 6, "placeholder": 1}
    assert tokenizer.tokenize_elements(["Klage", "Klage.", "\u200b"]) == [[7], [7, 3], [3]]


def test_preprocess_names_a_missing_vocabulary(tmp_path, corpus, capsys):
    corpus_file = tmp_path / "corpus.jsonl"
    corpus_file.write_text(json.dumps(corpus[0].to_record()) + "\n", encoding="utf-8")
    code = main(["preprocess", str(corpus_file), "--out", str(tmp_path / "d"), "--vocab", str(tmp_path / "nope.txt")])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == f"rulings-anon preprocess: error: {tmp_path / 'nope.txt'}: no such vocabulary file"


def test_preprocess_glove_writes_vectors_the_models_can_load(tmp_path, corpus):
    import numpy as np

    from rulings_anon.preprocessing.glove import load_text

    corpus_file = tmp_path / "corpus.jsonl"
    corpus_file.write_text("".join(json.dumps(d.to_record()) + "\n" for d in corpus), encoding="utf-8")
    pretrained = tmp_path / "wiki.txt"
    pretrained.write_text("klage 1 2 3\nkläger 4 5 6\nunbekannt 7 8 9\n", encoding="utf-8")
    out = tmp_path / "data"
    assert main(["preprocess", str(corpus_file), "--out", str(out), "--tokenizer", "glove",
                 "--sp-vocab-size", "80", "--glove-dim", "4", "--glove-epochs", "2",
                 "--glove-min-cooccurrence", "0", "--pretrained-glove", str(pretrained)]) == 0
    meta = rf.read_format(out)
    pieces = np.load(out / meta["assets"]["piece_vectors"])
    assert pieces.shape == (meta["vocab_size"], 4) and not pieces[0].any()
    tokens, text_vectors = load_text(out / meta["assets"]["piece_vectors_text"])
    assert tokens[2] == PLACEHOLDER_SYMBOL and np.allclose(text_vectors, pieces, atol=1e-5)
    words = (out / meta["assets"]["words"]).read_text(encoding="utf-8").split("\n")
    matrix = np.load(out / meta["assets"]["word_vectors"])
    assert matrix[words.index("klage")].tolist() == [1, 2, 3]
    assert matrix[words.index("kläger")].tolist() == [4, 5, 6]
    assert not matrix[words.index("landgericht")].any()  # not in the pretrained file: zero vector
    stats = json.loads((out / rf.STATS_FILE).read_text())
    assert stats["glove_loss_last"] < stats["glove_loss_first"]


# -- pseudonymized training data (preprocess --pseudonymize) -------------------------------------

PSEUDO_TEXT = ("Der Kläger K. verlangt von der Beklagten M-GmbH Schadensersatz.\n\n"
               "Herr Dr. S. wohnte in ... und arbeitete bei der Firma.")
# Seed 0, document "doc-0": the terminal tool's surrogates (faker pinned in setup.cfg).
PSEUDO_RESULT = ("Der Kläger Kostolzin verlangt von der Beklagten Mitschke GmbH Schadensersatz.\n\n"
                 "Herr Dr. Schäfer wohnte in Einbeck und arbeitete bei der Firma.")
PSEUDO_SURROGATES = PSEUDO_RESULT.split()
# "GmbH" is no sensitive part of "Mitschke GmbH" (rulings_anon.replacement.surrogates.sensitive_part).
PSEUDO_LABELS = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]


def _pseudo_document() -> Document:
    spans = [{"start": PSEUDO_TEXT.index(p), "end": PSEUDO_TEXT.index(p) + len(p), "type": t}
             for p, t in (("K.", "PER"), ("M-GmbH", "UN"), ("S.", "PER"), ("...", "ST"))]
    return Document.from_record({"id": "doc-0", "text": PSEUDO_TEXT, "spans": spans})


@pytest.mark.parametrize("kind", ["bert", "glove"])
def test_pseudonymized_records_keep_the_surrogate_tokens_and_label_them(kind, bert_tokenizer, glove_tokenizer,
                                                                         tmp_path):
    tokenizer = bert_tokenizer if kind == "bert" else glove_tokenizer
    stats = make_records([_pseudo_document()], tokenizer, tmp_path, pseudonymize=0, candidate_vectors=2)
    (record,) = rf.read_records(rf.shard_files(tmp_path))
    assert record.element_label == PSEUDO_LABELS
    assert stats["placeholder_elements"] == 4  # Kostolzin, Mitschke, Schäfer, Einbeck
    expected = tokenizer.tokenize_elements(PSEUDO_SURROGATES)
    plh = tokenizer.special_ids["placeholder"]
    for i, surrogate in enumerate(PSEUDO_SURROGATES):
        assert record.element_tokens(i) == expected[i], surrogate
        assert plh not in record.element_tokens(i)
    assert len(record.element_tokens(2)) > 1  # "Kostolzin" in pieces, not one symbol
    if kind == "glove":
        assert tokenizer.placeholder_word_id not in record.word_ids
        assert record.word_ids == tokenizer.word_ids(PSEUDO_SURROGATES)
    # Offsets are into the pseudonymized text; every surrogate element is a candidate.
    assert list(zip(record.element_start, record.element_end)) == [(e.start, e.end)
                                                                    for e in split_elements(PSEUDO_RESULT)]
    assert all(c >= label for vector in record.candidates for c, label in zip(vector, PSEUDO_LABELS))
    # Without --pseudonymize the same document keeps its placeholders as the one symbol.
    make_records([_pseudo_document()], tokenizer, tmp_path / "plain", candidate_vectors=2)
    (plain,) = rf.read_records(rf.shard_files(tmp_path / "plain"))
    assert [plain.element_tokens(i) for i, label in enumerate(plain.element_label) if label] == [[plh]] * 4


def test_preprocess_pseudonymize_gives_the_texts_and_gold_of_replace_auto(tmp_path, corpus, capsys):
    corpus_file = tmp_path / "corpus.jsonl"
    corpus_file.write_text("".join(json.dumps(d.to_record(with_spans=False)) + "\n" for d in corpus),
                           encoding="utf-8")
    out = tmp_path / "data"
    assert main(["preprocess", str(corpus_file), "--out", str(out), "--max-seq-len", "64",
                 "--wordpiece-vocab-size", "150", "--candidate-vectors", "2", "--pseudonymize", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    meta = rf.read_format(out)
    assert meta["pseudonymize"] == 0 and meta["surrogates"] is True and meta["labels"] == "weak"
    assert meta["options"]["pseudonymize"] == 0 and stats["pseudonymize"] == 0
    # The weak placeholders replaced exactly as `replace --auto` (same seed) builds a test set.
    assert main(["replace", str(corpus_file), "--out", str(tmp_path / "auto"), "--auto"]) == 0
    gold = {g["id"]: Document.from_record(g) for g in map(json.loads, (tmp_path / "auto" / "pseudonymized.jsonl")
                                                          .read_text(encoding="utf-8").splitlines())}
    assert stats["surrogate_spans"] == sum(len(g.spans) for g in gold.values()) > 0
    vocab = (out / "tokenizer" / "vocab.txt").read_text(encoding="utf-8").split("\n")
    plh = vocab.index(PLACEHOLDER_SYMBOL)
    grouped = _by_document(rf.read_records(rf.shard_files(out, "train") + rf.shard_files(out, "validation")))
    for doc_id, document in gold.items():
        elements = split_elements(document.text)
        got = [(s, e, label) for r in grouped[doc_id]
               for s, e, label in zip(r.element_start, r.element_end, r.element_label)]
        assert got == [(e.start, e.end, int(label))
                       for e, label in zip(elements, element_labels(elements, document.spans))]
        assert all(plh not in r.token_ids for r in grouped[doc_id])
    assert stats["placeholder_elements"] == sum(
        sum(element_labels(split_elements(g.text), g.spans)) for g in gold.values())
