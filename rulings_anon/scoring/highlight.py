"""``score --show``: a document's text with its sensitive spans marked.

On a terminal the spans are shown in reverse video with their score; elsewhere (a pipe, a file)
they are wrapped in «guillemets», as in the thesis's example 7.3.1, so the output stays plain text.
Control characters of the ruling are shown escaped, so its text cannot drive the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulings_anon.document import Span
from rulings_anon.escapes import printable

_ANSI_ON = "\x1b[1;7m"
_ANSI_SCORE = "\x1b[2m"
_ANSI_OFF = "\x1b[0m"


def highlight(text: str, spans: Sequence[Span], ansi: bool) -> str:
    """``text`` with every span marked (``ansi``: escape codes and scores; else «...»)."""
    pieces, last = [], 0
    for span in sorted(spans, key=lambda s: s.start):
        if span.start < last:
            continue
        pieces.append(printable(text[last:span.start]))
        piece = printable(text[span.start:span.end])
        if ansi:
            score = f"{_ANSI_SCORE}[{span.score:.2f}]" if span.score is not None else ""
            pieces.append(f"{_ANSI_ON}{piece}{_ANSI_OFF}{score}{_ANSI_OFF}")
        else:
            pieces.append(f"«{piece}»")
        last = span.end
    pieces.append(printable(text[last:]))
    return "".join(pieces)
