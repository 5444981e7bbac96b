"""When a word hyphenated across a line break is one word ("Ver-" / "trag" -> "Vertrag").

Shared by the paragraph extraction and the text normalization, so both join exactly the same
words: the hyphen stays before a German ellipsis compound ("Sach-" / "und Rechtslage") and before
a capital ("EU-" / "Richtlinie").
"""

from __future__ import annotations

import re

HYPHEN_END = re.compile(r"[A-Za-zÄÖÜäöüß]-$")
LOWER_START = re.compile(r"[a-zäöüß]")
KEEP_HYPHEN_WORDS = ("und ", "oder ", "bzw.", "sowie ", "als ", "wie ")


def joins_hyphenated(line_end: str, next_line: str) -> bool:
    """Whether a line ending in ``line_end`` ("...Wim-") and the next line's text ("mer ...",
    leading whitespace removed) are one word whose hyphen goes."""
    return (bool(HYPHEN_END.search(line_end[-2:])) and bool(LOWER_START.match(next_line))
            and not next_line.startswith(KEEP_HYPHEN_WORDS))
