"""How common a word is in German or English: wordfreq's Zipf scale, without its start-up.

wordfreq turns its data file into a dict of floats at the first lookup, a Python loop over
634,000 German words behind a language match of langcodes: most of a second of every ``score``
before the first ruling. Here the same file (wordfreq's ``large_<lang>.msgpack.gz``, which the
installed package ships) is read into word -> frequency bucket with C loops, the words kept as
their UTF-8 bytes (a third less time than decoding them). A word of letters
alone takes its bucket's value; any other word is cut by wordfreq's own tokenizer and its tokens
are combined as ``wordfreq.word_frequency`` combines them, so every value is wordfreq's (a test
compares them on the bundled rulings' words).

The package itself is never imported: ``import wordfreq`` imports langcodes and ftfy and looks up
its data folder through ``inspect.stack()``, a quarter of a second of every ``score`` whose text
holds one word that is not all letters ("M-GmbH"). What its tokenizer does for German and English
(NFC, case folding, its token expression, straight quotes) and how it weighs a digit sequence are
copied below from wordfreq 3.1.1 (``tokens.py``, ``preprocess.py``, ``numbers.py``,
``language_info.py``; Apache-2.0, Robyn Speer), and a test compares the tokens with the package's.
"""

from __future__ import annotations

import gzip
import importlib.util
import math
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from rulings_anon.errors import ModelError
from rulings_anon.lexicon import GERMAN_LETTERS

LANGUAGES = ("de", "en")  # both tokenized by wordfreq's regex tokenizer (no inferred word breaks)
UNSEEN = 1e-9  # wordfreq's frequency of a word it never saw: zipf 0
# a word English writes this much more often than German (Zipf) is English rather than German: the
# placeholder detector's English text, a company name's English words
ENGLISH_MARGIN = 1.0


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
    table = buckets(lang)
    tokens = lossy_tokenize(word)
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


# wordfreq 3.1.1's tokenizer as it runs for German and English (both Latin script: NFC, plain case
# folding, the regex tokenizer, no transliteration) and its weights of digit sequences.
_SPACELESS_SCRIPTS = ("Hira", "Kana", "Thai", "Khmr", "Laoo", "Mymr", "Tale", "Talu", "Lana")
_EXTRA_JAPANESE_CHARACTERS = "ー々〻〆"
_INITIAL_VOWEL = "[AEHIOUYÁÉÍÓÚÀÈÌÒÙÂÊÎÔÛÅÏÖŒaehiouyáéíóúàèìòùâêîôûåïöœ]"
_SINGLE_QUOTES = re.compile("[\u02bc\u2018-\u201b]")  # ftfy's uncurl_quotes
_DOUBLE_QUOTES = re.compile("[\u201c-\u201f]")
_DIGIT_FREQS = (0.009, 0.300, 0.175, 0.124, 0.096, 0.078, 0.066, 0.057, 0.050, 0.045)
_YEAR_LOG_PEAK, _NOT_YEAR_PROB, _REFERENCE_YEAR, _PLATEAU_WIDTH = -1.9185, 0.1, 2019, 20
_MULTI_DIGIT = re.compile(r"\d[\d.,]+")  # wordfreq's regex patterns, the same under re for these classes
_PURE_DIGITS = re.compile(r"\d+")
_DIGIT = re.compile(r"\d")


@lru_cache(maxsize=1)
def _token_regex():
    """wordfreq's ``TOKEN_RE``: runs of a script written without spaces; "@s"; a word-like start
    (not "l'" before a vowel) and graphemes up to the first word break; a French particle."""
    import regex

    spaceless = r"\p{IsIdeo}" + "".join(rf"\p{{Script={script}}}" for script in _SPACELESS_SCRIPTS)
    return regex.compile(
        rf"[{spaceless}{_EXTRA_JAPANESE_CHARACTERS}]+"
        r"|@s \b"
        rf"|(?=[\w\p{{So}}]) (?!\w\w?'{_INITIAL_VOWEL}) \X+? (?: @s? (?!\w) | \b)"
        r"|\w\w?'",
        regex.V1 | regex.WORD | regex.VERBOSE)


def lossy_tokenize(word: str) -> list[str]:
    """``wordfreq.tokens.lossy_tokenize(word, lang)`` for ``lang`` "de" or "en"."""
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFC", word).casefold())
    tokens = (token.strip("'").casefold() for token in _token_regex().findall(text))
    return [_SINGLE_QUOTES.sub("'", _DOUBLE_QUOTES.sub('"', token)) for token in tokens]


def smash_numbers(text: str) -> str:
    """wordfreq's ``smash_numbers``: every digit of a run of two characters or more (digits,
    dots, commas, starting with a digit) made a zero."""
    return _MULTI_DIGIT.sub(lambda match: _DIGIT.sub("0", match.group(0)), text)


def digit_freq(text: str) -> float:
    """wordfreq's ``digit_freq``: how common the digit sequences of ``text`` are, a four-digit one
    as a year (most common near 2019), the others by Benford's law."""
    frequency = 1.0
    for match in _MULTI_DIGIT.findall(text):
        for digits in _PURE_DIGITS.findall(match):
            frequency *= _year_freq(digits) if len(digits) == 4 else _benford_freq(digits)
    return frequency


def _benford_freq(digits: str) -> float:
    return _DIGIT_FREQS[int(digits[0])] / 10 ** (len(digits) - 1)


def _year_freq(digits: str) -> float:
    year = int(digits)
    if year <= _REFERENCE_YEAR:
        log_frequency = _YEAR_LOG_PEAK - 0.0083 * (_REFERENCE_YEAR - year)
    elif year <= _REFERENCE_YEAR + _PLATEAU_WIDTH:
        log_frequency = _YEAR_LOG_PEAK
    else:
        log_frequency = _YEAR_LOG_PEAK - 0.2 * (year - (_REFERENCE_YEAR + _PLATEAU_WIDTH))
    return 10.0 ** log_frequency + _NOT_YEAR_PROB * _benford_freq(digits)
