"""When a word hyphenated across a line break is one word ("Ver-" / "trag" -> "Vertrag").

Shared by the paragraph extraction and the text normalization, so both join exactly the same
words: the hyphen stays before a German ellipsis compound ("Sach-" / "und Rechtslage") and before
a capital ("EU-" / "Richtlinie").
"""

from __future__ import annotations

import re

# a letter before the hyphen (and a small letter after the break), of any alphabet: "Hél-" / "ène"
HYPHEN_END = re.compile(r"[^\W\d_]-$")
KEEP_HYPHEN_WORDS = ("und ", "oder ", "bzw.", "sowie ", "als ", "wie ")


def joins_hyphenated(line_end: str, next_line: str) -> bool:
    """Whether a line ending in ``line_end`` ("...Wim-") and the next line's text ("mer ...",
    leading whitespace removed) are one word whose hyphen goes."""
    return (bool(HYPHEN_END.search(line_end[-2:])) and next_line[:1].islower()
            and not next_line.startswith(KEEP_HYPHEN_WORDS))
