"""The text a reader reports, and where each character of it lives in the document.

A reader adds its paragraphs piece by piece: text held by a node of the document (a Word run's
``w:t``, an ODF element's text or tail, a PDF page) is a :class:`Segment` that a writer can
rewrite; text the layout makes (a tab, a line break, the blank line between paragraphs) is not.
:func:`rewritten` turns replacements over the reported text into new text per segment: a
replacement goes into the first segment it touches (that run's formatting), the other segments it
covers lose the covered characters.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

PARAGRAPH_BREAK = "\n\n"


@dataclass(frozen=True)
class Segment:
    """``[start, end)`` of the reported text, held by ``node`` (its ``attr``, for lxml text/tail)."""

    start: int
    end: int
    node: object
    attr: str = "text"


@dataclass
class TextMap:
    """The reported text of a document and its :class:`Segment` objects, in text order."""

    text: str = ""
    segments: list[Segment] = field(default_factory=list)


class TextBuilder:
    """Builds a :class:`TextMap`: paragraphs of pieces, empty paragraphs left out, joined by a blank line."""

    def __init__(self):
        self._parts: list[str] = []
        self._length = 0
        self._segments: list[Segment] = []
        self._paragraph_open = False
        self._paragraph_empty = True

    def add(self, text: str, node=None, attr: str = "text") -> None:
        """Append ``text`` to the running paragraph; with a ``node`` it is a rewritable segment."""
        if not text:
            return
        if self._paragraph_empty and self._length:
            self._parts.append(PARAGRAPH_BREAK)
            self._length += len(PARAGRAPH_BREAK)
        self._paragraph_empty = False
        if node is not None:
            self._segments.append(Segment(self._length, self._length + len(text), node, attr))
        self._parts.append(text)
        self._length += len(text)

    def end_paragraph(self) -> None:
        self._paragraph_empty = True

    def build(self) -> TextMap:
        return TextMap("".join(self._parts), self._segments)


def rewritten(text_map: TextMap, replacements: Iterable[tuple[int, int, str]]) -> list[tuple[Segment, str]]:
    """``(segment, new text)`` for every segment a replacement touches.

    ``replacements`` are ``(start, end, value)`` over the reported text, not overlapping. A
    replacement that touches no segment (it covers layout only: a tab, a paragraph break) is left out.
    """
    segments = text_map.segments
    starts = [s.start for s in segments]
    changes: dict[int, list[tuple[int, int, str]]] = {}
    last_end = 0
    for start, end, value in sorted(replacements, key=lambda r: r[0]):
        if (end <= start and not value) or start < last_end:
            continue
        last_end = end
        first = max(0, bisect.bisect_right(starts, start) - 1)
        owner = True
        for index in range(first, len(segments)):
            segment = segments[index]
            if segment.start >= end and not (end == start and segment.start == start):
                break
            if segment.end <= start and not (segment.end == start == end):
                continue
            local_start, local_end = max(start, segment.start) - segment.start, min(end, segment.end) - segment.start
            changes.setdefault(index, []).append((local_start, local_end, value if owner else ""))
            owner = False
    result = []
    for index, local in sorted(changes.items()):
        segment = segments[index]
        old = text_map.text[segment.start:segment.end]
        pieces, last = [], 0
        for local_start, local_end, value in local:
            pieces += [old[last:local_start], value]
            last = local_end
        pieces.append(old[last:])
        result.append((segment, "".join(pieces)))
    return result


def replaced_text(text: str, replacements: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with the replacements applied (for outputs that are written from the text alone)."""
    pieces, last = [], 0
    for start, end, value in sorted(replacements, key=lambda r: r[0]):
        if start < last:
            continue
        pieces += [text[last:start], value]
        last = end
    pieces.append(text[last:])
    return "".join(pieces)
