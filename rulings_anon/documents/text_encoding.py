"""The encoding of a text file without a byte-order mark that is not UTF-8, told by charset-normalizer.

Only the encodings German court files come in are considered (Windows-1252 and ISO-8859-1 from
Windows editors, UTF-16 without a mark from "Unicode" exports): a detector free to choose among
all code pages reads short German texts as Turkish or Central European ones.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")
COMMON = ("utf_8", "cp1252", "latin_1", "utf_16_le", "utf_16_be")


def detected_text(data: bytes) -> tuple[str, str] | None:
    """``(text, encoding)`` when ``data`` is text in one of :data:`COMMON`, else None."""
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=list(COMMON)).best()
    if best is None:
        return None
    text = str(best)
    if _CONTROL.search(text):
        return None
    return text.lstrip("\ufeff"), best.encoding
