"""Learn a cased WordPiece ``vocab.txt`` from a corpus, fast.

TF Text's ``bert_vocab_from_dataset`` binary-searches a count threshold in pure Python and takes
minutes on the bundled corpus. SentencePiece learns a BPE vocabulary over the same word counts in
well under a second; its pieces map onto WordPiece: a piece starting a word ("▁Gericht") is the
word-initial token "Gericht", any other piece ("ung") the continuation "##ung". Every character
is added in both forms, so no word is ever [UNK] for an unseen piece combination.

Words are what BERT's basic tokenizer makes of the text elements (split at punctuation), so the
vocabulary fits ``tensorflow_text.BertTokenizer(vocab, lower_case=False)``.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from rulings_anon.jsonl import atomic_writer
from rulings_anon.tf import tensorflow

WORD_START = "\u2581"  # SentencePiece's word-boundary mark
CONTINUATION = "##"
_BATCH = 100_000


def word_counts(element_texts: Iterable[str]) -> Counter:
    """Count the basic-tokenizer words (punctuation split off) of the element texts."""
    tf = tensorflow()
    from tensorflow_text.python.ops.bert_tokenizer import BasicTokenizer

    splitter = BasicTokenizer(lower_case=False)
    counts: Counter = Counter()
    batch: list[str] = []

    def flush():
        if batch:
            counts.update(splitter.tokenize(tf.constant(batch)).flat_values.numpy().tolist())
            batch.clear()

    for text in element_texts:
        batch.append(text)
        if len(batch) == _BATCH:
            flush()
    flush()
    return Counter({word.decode("utf-8"): n for word, n in counts.items()})


def wordpiece_tokens(pieces: Iterable[str], alphabet: Iterable[str]) -> list[str]:
    """SentencePiece pieces -> WordPiece tokens (word-initial plain, the rest with ``##``)."""
    tokens: dict[str, None] = {}
    for piece in pieces:
        if piece.startswith(WORD_START):
            if len(piece) > 1:
                tokens[piece[1:]] = None
        else:
            tokens[CONTINUATION + piece] = None
    for char in alphabet:
        tokens.setdefault(char, None)
        tokens.setdefault(CONTINUATION + char, None)
    return list(tokens)


def learn_vocabulary(element_texts: Iterable[str], size: int, reserved: list[str], path) -> list[str]:
    """Write ``reserved`` tokens plus about ``size - len(reserved)`` learned tokens to ``path``."""
    import sentencepiece as spm

    counts = word_counts(element_texts)
    words = {w: n for w, n in counts.items() if w and "\t" not in w and WORD_START not in w}
    alphabet = sorted({char for word in words for char in word})
    # Every character ends up twice (plain and ##), so BPE gets the rest of the budget.
    budget = max(len(alphabet) + 1, size - len(reserved) - len(alphabet))
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "words.tsv"
        tsv.write_text("".join(f"{w}\t{n}\n" for w, n in words.items()), encoding="utf-8")
        spm.SentencePieceTrainer.train(
            input=str(tsv), input_format="tsv", model_prefix=str(Path(tmp) / "bpe"), model_type="bpe",
            vocab_size=budget, character_coverage=1.0, num_threads=2, minloglevel=2,
            hard_vocab_limit=False, bos_id=-1, eos_id=-1, split_digits=False,
        )
        lines = (Path(tmp) / "bpe.vocab").read_text(encoding="utf-8").splitlines()
    pieces = [line.split("\t")[0] for line in lines[1:]]  # line 0 is <unk>
    learned = [t for t in wordpiece_tokens(pieces, alphabet) if t not in reserved]
    vocab = list(reserved) + learned
    with atomic_writer(path) as handle:
        handle.write("".join(f"{token}\n" for token in vocab))
    return vocab
