"""Text from a file, made safe to show on a terminal.

A ruling or an id may hold control characters: an escape sequence that writes the clipboard
(OSC 52), clears the screen or hides text, a bidi override that shows text in another order than
it is stored, invisible characters that make two ids look alike. Every place that shows such text
on a terminal passes it through :func:`printable`, which writes these characters as Python escapes
(``\\x1b``, ``\\u202e``) and leaves everything else as it is.
"""

from __future__ import annotations

import re

# The C0 controls but tab, newline and carriage return (a CR stays only before a newline), DEL
# and the C1 controls, the Arabic letter mark, zero-width characters and directional marks, bidi
# embeddings, overrides and isolates, the line and paragraph separators, invisible operators, the
# byte-order mark and lone surrogates.
_UNSAFE = ("\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069"
           "\ufeff\ud800-\udfff")
_SHOWN = re.compile(f"[{_UNSAFE}]|\r(?!\n)")
_ONE_LINE = re.compile(f"[{_UNSAFE}\t\n\r]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match) -> str:
    if match.group() in _NAMED:
        return _NAMED[match.group()]
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, one_line: bool = False) -> str:
    """``text`` with every control or invisible formatting character escaped.

    Tabs, newlines and a carriage return before a newline stay, unless ``one_line``: then they are
    escaped too, so the text cannot break a one-line message."""
    return (_ONE_LINE if one_line else _SHOWN).sub(_escape, text)
