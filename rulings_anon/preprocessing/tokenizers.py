"""Text elements to token ids: BERT WordPiece and SentencePiece + word ids for GloVe (thesis 5.3.3).

Both tokenizers work on whole text elements (whitespace-free strings), so every token belongs to
exactly one element. A placeholder element never reaches the tokenizer: it becomes the one
placeholder-symbol token (:data:`PLACEHOLDER_SYMBOL`), which therefore cannot be fragmented.

* :class:`BertWordPiece`: the vocabulary of the BERT handle in use (``assets/vocab.txt``),
  tokenized with tensorflow-text's ``FastBertTokenizer`` (punctuation split + greedy longest
  match). A vocabulary without ``[PLH]`` lends its first ``[unused...]`` slot to the symbol.
* :class:`GloveTokenizer`: a SentencePiece unigram model trained on the corpus elements
  (``[PLH]`` a user-defined symbol) plus a vocabulary of lower-cased alphanumeric words, so each
  element maps to one word id and one or more piece ids.
"""

from __future__ import annotations

import collections
import io
import re
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

from rulings_anon.errors import InputError

PLACEHOLDER_SYMBOL = "[PLH]"
BERT_SPECIAL = {"pad": "[PAD]", "unk": "[UNK]", "cls": "[CLS]", "sep": "[SEP]", "mask": "[MASK]"}
# SentencePiece ids fixed at training time: 0 pads, 1 is unknown, 2 the placeholder symbol.
PIECE_SPECIAL = {"pad": 0, "unk": 1, "placeholder": 2}
# Word vocabulary: the first entries of words.txt.
WORD_SPECIAL = ("<pad>", "<unk>", "<plh>")
_NOT_ALNUM = re.compile(r"[\W_]+")

# Tokenizer batch size: large batches amortize the TF op overhead.
_BATCH = 100_000


def read_vocab(path) -> list[str]:
    """Lines of a vocab.txt (one token per line), stripped of the line break only."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such vocabulary file", path)
    with open(path, encoding="utf-8") as handle:
        tokens = [line.rstrip("\n").rstrip("\r") for line in handle]
    while tokens and not tokens[-1]:
        tokens.pop()
    if not tokens:
        raise InputError("the vocabulary file is empty", path)
    return tokens


class BertWordPiece:
    """WordPiece ids per element with the vocabulary of a BERT model."""

    kind = "bert"

    def __init__(self, vocab_file, lower_case: bool = False):
        self.vocab_file = Path(vocab_file)
        self.vocab = read_vocab(vocab_file)
        self.lower_case = lower_case
        index = {token: i for i, token in enumerate(self.vocab)}
        missing = [t for t in BERT_SPECIAL.values() if t not in index]
        if missing:
            raise InputError(f"the vocabulary lacks {', '.join(missing)}: not a BERT vocab.txt", vocab_file)
        self.special_ids = {name: index[token] for name, token in BERT_SPECIAL.items()}
        self.special_ids["placeholder"] = _placeholder_id(index, vocab_file)
        self._tokenizer = None

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def _fast(self):
        if self._tokenizer is None:
            from rulings_anon.tf import tensorflow

            tf = tensorflow()  # first: tensorflow_text would load TensorFlow without its settings
            import tensorflow_text as tft

            self._tokenizer = tft.FastBertTokenizer(
                self.vocab, token_out_type=tf.int64, unknown_token=BERT_SPECIAL["unk"],
                lower_case_nfd_strip_accents=self.lower_case)
        return self._tokenizer

    def tokenize_elements(self, elements: Sequence[str]) -> list[list[int]]:
        """WordPiece ids of each element; an element the tokenizer drops entirely gets [UNK].

        Each distinct element is tokenized once (most words of a ruling repeat); repeats share
        one list, so callers must not change the lists in place.
        """
        unique = list(dict.fromkeys(elements))
        pieces: list[list[int]] = []
        unk = [self.special_ids["unk"]]
        for i in range(0, len(unique), _BATCH):
            ragged = self._fast().tokenize(unique[i:i + _BATCH])
            flat = ragged.flat_values.numpy().tolist()
            bounds = ragged.row_splits.numpy().tolist()
            pieces.extend([flat[a:b] or unk for a, b in zip(bounds, bounds[1:])])
        ids = dict(zip(unique, pieces))
        return [ids[element] for element in elements]

    def tokens(self, ids: Iterable[int]) -> list[str]:
        return [self.vocab[i] for i in ids]

    def save_assets(self, directory) -> dict:
        """Copy vocab.txt into ``directory``; returns the asset names for format.json."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        target = directory / "vocab.txt"
        if self.vocab_file.resolve() != target.resolve():
            shutil.copyfile(self.vocab_file, target)
        return {"vocab": "vocab.txt"}

    def format_meta(self) -> dict:
        return {"vocab_size": self.vocab_size, "special_ids": self.special_ids, "lower_case": self.lower_case}


def _placeholder_id(index: dict, vocab_file) -> int:
    if PLACEHOLDER_SYMBOL in index:
        return index[PLACEHOLDER_SYMBOL]
    unused = [t for t in index if t.startswith("[unused")]
    if unused:
        return index[min(unused, key=index.get)]
    raise InputError(f"the vocabulary has neither {PLACEHOLDER_SYMBOL} nor an [unused...] slot for it", vocab_file)


def word_of(element: str) -> str:
    """The word token of an element: its letters and digits, lower-cased ("Urteil," -> "urteil").

    An element without letters or digits ("§", "-") is its own word.
    """
    lowered = element.lower()
    return _NOT_ALNUM.sub("", lowered) or lowered


class GloveTokenizer:
    """SentencePiece piece ids and a word id per element (the combined GloVe inputs, 5.4.1.3)."""

    kind = "glove"

    def __init__(self, sentencepiece_model, words_file):
        import sentencepiece as spm

        self.model_file = Path(sentencepiece_model)
        self.words_file = Path(words_file)
        if not self.model_file.exists():
            raise InputError("no such SentencePiece model", self.model_file)
        self.processor = spm.SentencePieceProcessor(model_file=str(self.model_file))
        if self.processor.piece_to_id(PLACEHOLDER_SYMBOL) != PIECE_SPECIAL["placeholder"]:
            raise InputError(f"the SentencePiece model lacks {PLACEHOLDER_SYMBOL} as id 2", self.model_file)
        self.words = read_vocab(words_file)
        if tuple(self.words[:len(WORD_SPECIAL)]) != WORD_SPECIAL:
            raise InputError(f"a word vocabulary starts with {', '.join(WORD_SPECIAL)}", words_file)
        self.word_index = {w: i for i, w in enumerate(self.words)}
        self.special_ids = dict(PIECE_SPECIAL)

    @property
    def vocab_size(self) -> int:
        return self.processor.get_piece_size()

    def tokenize_elements(self, elements: Sequence[str]) -> list[list[int]]:
        """SentencePiece ids of each element (each starts a new word, "▁...")."""
        unk = [PIECE_SPECIAL["unk"]]
        return [ids or unk for ids in self.processor.encode(list(elements), num_threads=2)]

    def word_ids(self, elements: Sequence[str]) -> list[int]:
        unk = WORD_SPECIAL.index("<unk>")
        return [self.word_index.get(word_of(e), unk) for e in elements]

    @property
    def placeholder_word_id(self) -> int:
        return WORD_SPECIAL.index("<plh>")

    def tokens(self, ids: Iterable[int]) -> list[str]:
        return [self.processor.id_to_piece(i) for i in ids]

    def save_assets(self, directory) -> dict:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        for source, name in ((self.model_file, "pieces.model"), (self.words_file, "words.txt")):
            if source.resolve() != (directory / name).resolve():
                shutil.copyfile(source, directory / name)
        return {"sentencepiece": "pieces.model", "words": "words.txt"}

    def format_meta(self) -> dict:
        return {"vocab_size": self.vocab_size, "special_ids": self.special_ids,
                "word_vocab_size": len(self.words)}


def train_sentencepiece(element_counts: collections.Counter, model_file, vocab_size: int = 8000) -> Path:
    """Train a unigram SentencePiece model on element counts; writes ``model_file``.

    Training on (element, count) pairs instead of running text gives the same statistics for
    whitespace-free elements in a fraction of the time. ``[PLH]`` is a user-defined symbol
    (id 2) and is removed from the counts, so no piece is learned from placeholders.
    """
    import sentencepiece as spm

    model_file = Path(model_file)
    counts = [(e, c) for e, c in element_counts.items() if e != PLACEHOLDER_SYMBOL and "\t" not in e]
    if not counts:
        raise InputError("no text to train the SentencePiece model on")
    proto = io.BytesIO()
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(f"{e}\t{c}" for e, c in counts), input_format="tsv",
            model_writer=proto, model_type="unigram", vocab_size=vocab_size, hard_vocab_limit=False,
            character_coverage=0.9995, user_defined_symbols=[PLACEHOLDER_SYMBOL],
            pad_id=PIECE_SPECIAL["pad"], unk_id=PIECE_SPECIAL["unk"], bos_id=-1, eos_id=-1,
            # Fewer seeds and EM sub-iterations: 25 s instead of a minute on the bundled corpus.
            seed_sentencepiece_size=100_000, num_sub_iterations=2, shrinking_factor=0.5,
            num_threads=2, minloglevel=2)
    except RuntimeError as exc:
        raise InputError(f"SentencePiece training failed ({exc}); try a smaller --sp-vocab-size") from None
    from rulings_anon.jsonl import atomic_writer

    with atomic_writer(model_file, "wb") as handle:
        handle.write(proto.getvalue())
    return model_file


def build_word_vocab(element_counts: collections.Counter, words_file, max_words: int = 100_000,
                     min_count: int = 2) -> list[str]:
    """The word vocabulary: :data:`WORD_SPECIAL`, then words seen ``min_count`` times, most frequent first."""
    from rulings_anon.jsonl import atomic_writer

    counts: collections.Counter = collections.Counter()
    for element, count in element_counts.items():
        if element != PLACEHOLDER_SYMBOL:
            counts[word_of(element)] += count
    ranked = sorted((w for w, c in counts.items() if c >= min_count and w not in WORD_SPECIAL),
                    key=lambda w: (-counts[w], w))
    words = list(WORD_SPECIAL) + ranked[:max_words]
    with atomic_writer(words_file) as handle:
        handle.write("\n".join(words) + "\n")
    return words


def load_tokenizer(data_dir, meta: dict | None = None):
    """The tokenizer a data directory was built with (from its ``format.json`` and assets)."""
    from .record_format import read_format

    meta = meta or read_format(data_dir)
    assets = {name: Path(data_dir) / relative for name, relative in meta["assets"].items()}
    if meta["tokenizer"] == "bert":
        return BertWordPiece(assets["vocab"], lower_case=meta.get("lower_case", False))
    return GloveTokenizer(assets["sentencepiece"], assets["words"])
