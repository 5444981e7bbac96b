"""Names outside a document's text: link targets, field codes, bookmark names, alt text.

A Word or OpenDocument file repeats what its text says where no reader of the text sees it: a
hyperlink's target ("mailto:thomas.wimmer@kanzlei.de"), a field's instruction (``HYPERLINK``,
``MERGEFIELD``, ``AUTHOR``), a bookmark's name, the title and description of an image. The
replacements made in the text decide what happens there: a value that holds a replaced text
gets that text's replacement (the same as the body), and a value that still holds one of its
words afterwards, in any case and with umlauts written out ("wimmer", "mueller", "muller"), is
dropped by the writer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]{3,}")
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def _variants(text: str) -> set[str]:
    """``text`` case-folded as it is, with umlauts written out, and without accents."""
    folded = unicodedata.normalize("NFC", text).lower()
    plain = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
    return {folded, folded.translate(_UMLAUTS), plain.replace("ß", "ss")}


class HiddenNames:
    """What the replacements ``(start, end, value)`` over ``text`` make of a value outside the text."""

    def __init__(self, text: str, replacements: Iterable[tuple[int, int, str]]):
        self.values: dict[str, str] = {}
        words: set[str] = set()
        for start, end, value in replacements:
            original = text[start:end]
            if original == value or not original.strip():
                continue  # kept as it is: nothing to hide
            self.values.setdefault(original, value)
            shown = {w.lower() for w in _WORD.findall(value)}  # "GmbH" of "M-GmbH" is no secret
            for word in _WORD.findall(original):
                if word.lower() not in shown:
                    words |= _variants(word)
        originals = sorted(self.values, key=len, reverse=True)
        self._originals = (re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, originals)) + r")(?!\w)")
                           if originals else None)
        self._words = re.compile("|".join(map(re.escape, sorted(words, key=len, reverse=True)))) if words else None

    def __bool__(self) -> bool:
        return self._words is not None

    def holds_name(self, value: str) -> bool:
        """Whether ``value`` holds a word of a replaced text, in any case or spelling."""
        if self._words is None or len(value) < 3:
            return False
        return any(self._words.search(v) for v in _variants(value))

    def cleaned(self, value: str) -> str | None:
        """``value`` with every replaced text in it replaced as in the body, or None when a word of
        one is still in it (the caller drops the value)."""
        if self._originals is not None:
            value = self._originals.sub(lambda m: self.values[m.group()], value)
        return None if self.holds_name(value) else value


def renamed(names: Iterable[str], hidden: HiddenNames, prefix: str) -> dict[str, str]:
    """New names for the bookmark names that hold a name: ``prefix`` and a number, unused."""
    names = list(dict.fromkeys(names))
    taken, renames = set(names), {}
    number = 0
    for name in names:
        if hidden.holds_name(name):
            number += 1
            while f"{prefix}{number}" in taken:
                number += 1
            renames[name] = f"{prefix}{number}"
    return renames


def with_renames(value: str, renames: dict[str, str]) -> str:
    """``value`` (a field instruction) with every renamed bookmark name, as a whole word, renamed."""
    if not renames:
        return value
    pattern = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, sorted(renames, key=len, reverse=True)))
                         + r")(?![\w])")
    return pattern.sub(lambda m: renames[m.group()], value)
