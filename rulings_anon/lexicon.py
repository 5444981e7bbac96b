"""What a German dictionary says a capitalized word is: a common noun, a name, a place.

The shipped lexicon (``rulings_anon/data/lexicon/de-nouns.tsv.gz``, the German Wiktionary's nouns, CC BY-SA 4.0)
read by every stage that needs it: the legal NER's token input and the placeholder detector
("T. R. Physiotherapie-Partnerschaft": an initial before a common noun is a surname). Building the
file is ``rulings_anon.ner.lexicon_builder``'s job.
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from pathlib import Path

from rulings_anon.data import path as data_path
from rulings_anon.errors import ModelError

# Bits of a form; a token whose form is not listed has none (id 0).
COMMON_NOUN, PERSON_NAME, PLACE_NAME, OTHER_PROPER = 1, 2, 4, 8
# Not listed, but it ends in a listed common noun: a compound ("Honorarbescheid" -> "Bescheid").
# German compounds are too many for any list; so are surnames built like them ("Hofmann").
COMPOUND = 16
SIZE = 32  # ids 0..31: every combination of the bits
MIN_HEAD, MIN_MODIFIER = 4, 3
# a word of German letters alone: the form a dictionary or a frequency list can be asked for as it is
GERMAN_LETTERS = re.compile(r"^[A-Za-zÄÖÜäöüß]+$")
DEFAULT = "de-nouns"


def lexicon_file(name: str) -> Path:
    return data_path("lexicon", f"{name}.tsv.gz")


_READ: set[str] = set()  # lexicons :func:`load_lexicon` has read into a dict


@lru_cache(maxsize=2)
def load_lexicon(name: str | None) -> dict[str, int]:
    """Form -> bits of the shipped lexicon ``name`` (empty for None: a model without lexicon);
    :class:`ModelError` when it is not shipped."""
    if name is None:
        return {}
    file = lexicon_file(name)
    if not file.exists():
        raise ModelError(f"{file}: no such lexicon; the NER model names lexicon {name!r}")
    # one split of the whole file instead of a loop over its lines: half the time of 264,000 lines
    fields = gzip.decompress(file.read_bytes()).decode("utf-8").replace("\n", "\t").split("\t")
    if fields[-1] == "":
        fields.pop()
    table = dict(zip(fields[0::2], map(int, fields[1::2]), strict=True))
    _READ.add(name)
    return table


def lookup(table: dict[str, int] | SortedLexicon, token: str) -> int:
    """The id of ``token``: its bits when listed, :data:`COMPOUND` when it is a capitalized word
    ending in a listed common noun (the longest such head), else 0."""
    bits = table.get(token)
    if bits is not None:
        return bits
    if not token[:1].isupper() or not token.isalpha():
        return 0
    for split in range(MIN_MODIFIER, len(token) - MIN_HEAD + 1):
        if table.get(token[split].upper() + token[split + 1:], 0) & COMMON_NOUN:
            return COMPOUND
    return 0


class SortedLexicon:
    """The lexicon file's sorted lines, searched by bisection instead of read into a dict.

    Building the dict of 264,000 forms takes a third of a second, more than the placeholder
    detector needs for 2 MB of rulings; the detector and the recognizers look up a few hundred
    words, so they search the decompressed file (sorted by form, UTF-8 byte order being code
    point order) in place. The NER, which looks up every token, keeps :func:`load_lexicon`.
    """

    def __init__(self, lines: bytes):
        self.lines = lines

    def get(self, form: str, default: int | None = None) -> int | None:
        target = form.encode("utf-8")
        lines, low, high = self.lines, 0, len(self.lines)
        while low < high:
            middle = (low + high) // 2
            start = lines.rfind(b"\n", 0, middle) + 1
            end = lines.find(b"\n", start)
            tab = lines.find(b"\t", start, end)
            found = lines[start:tab]
            if found == target:
                return int(lines[tab + 1:end])
            if found < target:
                low = end + 1
            else:
                high = start
        return default


@lru_cache(maxsize=2)
def sorted_lexicon(name: str) -> SortedLexicon:
    """The shipped lexicon ``name`` as a :class:`SortedLexicon`; :class:`ModelError` when not shipped."""
    file = lexicon_file(name)
    if not file.exists():
        raise ModelError(f"{file}: no such lexicon")
    return SortedLexicon(gzip.decompress(file.read_bytes()))


# Words :func:`noun_bits` searches by bisection before it reads the dict: a caller that looks up
# thousands (the scorer's recognizers) is faster with the dict, the detector (a handful in 2 MB) without.
SEARCHES_BEFORE_DICT = 200
_searches = 0


@lru_cache(maxsize=200_000)
def noun_bits(word: str) -> int:
    """:func:`lookup` of ``word`` in the shipped lexicon (:data:`DEFAULT`), read on first use."""
    global _searches
    _searches += 1
    if _searches <= SEARCHES_BEFORE_DICT and DEFAULT not in _READ:
        return lookup(sorted_lexicon(DEFAULT), word)
    return lookup(load_lexicon(DEFAULT), word)


def built_on_noun(word: str) -> bool:
    """Whether ``word``, listed or not, ends in a listed common noun of :data:`MIN_HEAD` letters or
    more after four letters or more of its own: a compound ("Elterngeld", "Hauptzweck",
    "Arbeitseinkommen"), not "Taucher" or "Bischof" ("Hof" is too short a head)."""
    table = load_lexicon(DEFAULT) if DEFAULT in _READ else sorted_lexicon(DEFAULT)
    return any((table.get(word[k].upper() + word[k + 1:]) or 0) & COMMON_NOUN
               for k in range(4, len(word) - MIN_HEAD + 1))


def common_noun(word: str, compounds: bool = True) -> bool:
    """Whether the shipped lexicon calls ``word`` a common noun, or with ``compounds`` also a compound
    ending in one ("Zwillingstochter"), and not a name: "Kläger" yes, "Müller" (a miller and a
    surname) no."""
    bits = noun_bits(word)
    return bool(bits & (COMMON_NOUN | COMPOUND if compounds else COMMON_NOUN)) and not bits & PERSON_NAME
