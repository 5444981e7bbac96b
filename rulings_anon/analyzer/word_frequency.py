"""How common a word is in German or English: wordfreq's Zipf scale, without its start-up.

wordfreq turns its data file into a dict of floats at the first lookup, a Python loop over
634,000 German words behind a language match of langcodes: most of a second of every ``score``
before the first ruling. Here the same file (wordfreq's ``large_<lang>.msgpack.gz``, which the
installed package ships) is read into word -> frequency bucket with C loops, the words kept as
their UTF-8 bytes (a third less time than decoding them). A word of letters
alone takes its bucket's value; any other word is cut by wordfreq's own tokenizer and its tokens
are combined as ``wordfreq.word_frequency`` combines them, so every value is wordfreq's (a test
compares them on the bundled rulings' words).
"""

from __future__ import annotations

import gzip
import importlib.util
import math
from functools import lru_cache
from pathlib import Path

from rulings_anon.errors import ModelError
from rulings_anon.lexicon import GERMAN_LETTERS

LANGUAGES = ("de", "en")  # both tokenized by wordfreq's regex tokenizer (no inferred word breaks)
UNSEEN = 1e-9  # wordfreq's frequency of a word it never saw: zipf 0


def _data_file(lang: str) -> Path:
    """wordfreq's word list of ``lang``, found without importing the package (which would import
    langcodes and ftfy)."""
    spec = importlib.util.find_spec("wordfreq")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("the wordfreq package is not installed (pip install wordfreq==3.1.1)")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / f"large_{lang}.msgpack.gz"


@lru_cache(maxsize=len(LANGUAGES))
def buckets(lang: str) -> dict[bytes, int]:
    """Word (UTF-8) -> its bucket in wordfreq's list of ``lang``: its frequency is ``10 ** (-bucket / 100)``."""
    import msgpack

    if lang not in LANGUAGES:
        raise ValueError(f"no word frequencies of {lang!r}; known: {', '.join(LANGUAGES)}")
    file = _data_file(lang)
    try:
        header, *pack = msgpack.unpackb(gzip.decompress(file.read_bytes()), raw=True)
    except (OSError, ValueError) as error:
        raise ModelError(f"{file}: cannot read wordfreq's word list ({error})") from error
    if not isinstance(header, dict) or header.get(b"format") != b"cB" or header.get(b"version") != 1:
        raise ModelError(f"{file}: not a wordfreq word list of format cB version 1")
    table: dict[bytes, int] = {}
    for bucket, words in enumerate(pack):
        if words:
            table.update(dict.fromkeys(words, bucket))  # a later bucket wins, as in wordfreq's loop
    return table


def _frequency(bucket: int) -> float:
    return 10 ** (-bucket / 100)  # wordfreq's cB_to_freq(-bucket)


@lru_cache(maxsize=1000)
def _bucket_zipf(bucket: int) -> float:
    """The Zipf value of a word of ``bucket``: its frequency to wordfreq's three digits, as a Zipf
    value to two."""
    frequency = _frequency(bucket)
    frequency = round(frequency, math.floor(-math.log10(frequency)) + 3)
    return round(math.log10(frequency) + 9, 2)


def zipf(word: str, lang: str) -> float:
    """``wordfreq.zipf_frequency(word, lang)``: 0 for a word wordfreq never saw."""
    if GERMAN_LETTERS.match(word):
        bucket = buckets(lang).get(word.casefold().encode("utf-8", "surrogatepass"))
        return 0.0 if bucket is None else _bucket_zipf(bucket)
    return _tokens_zipf(word, lang)


def _tokens_zipf(word: str, lang: str) -> float:
    """wordfreq's ``_word_frequency`` on the bucket table: the tokens' frequencies combined by
    1/f = 1/f1 + 1/f2 + ..., a digit sequence weighted by how common its digits are."""
    from wordfreq.numbers import digit_freq, smash_numbers
    from wordfreq.tokens import lossy_tokenize

    table = buckets(lang)
    tokens = lossy_tokenize(word, lang)
    frequency = UNSEEN
    if tokens:
        one_over = 0.0
        for token in tokens:
            smashed = smash_numbers(token)
            bucket = table.get(smashed.encode("utf-8", "surrogatepass"))
            if bucket is None:
                one_over = 0.0
                break
            token_frequency = _frequency(bucket)
            if smashed != token:
                token_frequency *= digit_freq(token)
            one_over += 1.0 / token_frequency
        if one_over:
            unrounded = max(1.0 / one_over, UNSEEN)
            frequency = round(unrounded, math.floor(-math.log(unrounded, 10)) + 3)
    return round(math.log(frequency, 10) + 9, 2)
