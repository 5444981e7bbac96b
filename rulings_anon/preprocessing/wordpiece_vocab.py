"""Learn a BERT WordPiece ``vocab.txt`` from a corpus, for BERT models we pretrain ourselves.

tensorflow-text's ``bert_vocab_from_dataset`` needs over ten minutes on the bundled corpus (a
pure-Python binary search over thresholds). We learn byte-pair merges with SentencePiece (C++,
about two seconds) on BERT's basic words (whitespace and punctuation split) and translate the
pieces to WordPiece form: a piece that starts a word ("▁Urteil") becomes ``Urteil``, any other
("ung") becomes ``##ung``. Every character of the alphabet is kept in both forms, so greedy
longest-match WordPiece never needs ``[UNK]`` for a known character.
"""

from __future__ import annotations

import collections
import io
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_writer

from .tokenizers import BERT_SPECIAL, PLACEHOLDER_SYMBOL

RESERVED_TOKENS = [*BERT_SPECIAL.values(), PLACEHOLDER_SYMBOL]
_WORD_START = "\u2581"


@lru_cache(maxsize=4096)
def _is_punctuation(char: str) -> bool:
    """BERT's definition: ASCII non-alphanumeric symbols and every Unicode P* character."""
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _normalize(text: str, lower_case: bool) -> str:
    if not lower_case:
        return text
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


def basic_words(element: str, lower_case: bool = False) -> list[str]:
    """Split an element like BERT's basic tokenizer: punctuation characters stand alone."""
    words, current = [], []
    for char in _normalize(element, lower_case):
        if _is_punctuation(char):
            if current:
                words.append("".join(current))
                current = []
            words.append(char)
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


def word_counts(texts: Iterable[str], lower_case: bool = False) -> collections.Counter:
    """Counts of BERT basic words over texts (split at whitespace first, each element once)."""
    elements: collections.Counter = collections.Counter()
    for text in texts:
        elements.update(text.split())
    counts: collections.Counter = collections.Counter()
    for element, count in elements.items():
        for word in basic_words(element, lower_case):
            counts[word] += count
    return counts


def learn_vocab(texts: Iterable[str], vocab_size: int = 16000, lower_case: bool = False,
                reserved_tokens: list[str] | None = None, character_coverage: float = 0.9995) -> list[str]:
    """A WordPiece vocabulary of at most ``vocab_size`` tokens learned from ``texts``.

    Order: reserved tokens (``[PAD]`` first, so padding id 0), the alphabet (both forms), then
    the learned pieces in merge order.
    """
    import sentencepiece as spm

    reserved = list(reserved_tokens or RESERVED_TOKENS)
    counts = word_counts(texts, lower_case)
    counts.pop(PLACEHOLDER_SYMBOL, None)
    if not counts:
        raise InputError("no text to learn a WordPiece vocabulary from")
    proto = io.BytesIO()
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(f"{w}\t{c}" for w, c in counts.items() if "\t" not in w),
            input_format="tsv", model_writer=proto, model_type="bpe",
            vocab_size=max(vocab_size - len(reserved), 10), hard_vocab_limit=False,
            character_coverage=character_coverage, num_threads=2, minloglevel=2)
    except RuntimeError as exc:
        raise InputError(f"vocabulary learning failed ({exc}); try a smaller vocabulary size") from None
    processor = spm.SentencePieceProcessor(model_proto=proto.getvalue())
    alphabet, pieces = [], []
    for i in range(processor.get_piece_size()):
        if processor.is_unknown(i) or processor.is_control(i):
            continue
        piece = processor.id_to_piece(i)
        if len(piece.lstrip(_WORD_START)) == 1 and piece not in (_WORD_START,):
            alphabet.append(piece.lstrip(_WORD_START))
        elif piece.startswith(_WORD_START) and len(piece) > 1:
            pieces.append(piece[1:])
        elif piece != _WORD_START:
            pieces.append("##" + piece)
    chars = list(dict.fromkeys(alphabet))
    vocab = list(dict.fromkeys(reserved + chars + ["##" + c for c in chars]))
    seen = set(vocab)
    for piece in pieces:
        if len(vocab) >= vocab_size:
            break
        if piece not in seen:
            vocab.append(piece)
            seen.add(piece)
    return vocab


def write_vocab(path, vocab: list[str]) -> Path:
    """Write a vocab.txt atomically (one token per line)."""
    with atomic_writer(path) as handle:
        handle.write("\n".join(vocab) + "\n")
    return Path(path)
