"""What the terminal tool asks about: the elements of a document that are not plain words.

Thesis 5.5.1: the document is split into whitespace elements and processed in order; elements
that are simple words are matched by a regex and skipped, every other element is shown to the
user. A *unit* is one question: a placeholder the detector found (several elements when the
reference spans them, "K. B.", "M-GmbH & Co. KG") or one other element that is not a plain word.
Detector hits are always asked, even when they look like words ("Kstraße").
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from rulings_anon.document import Element, split_elements

# A plain word: letters (two or more, hyphenated parts, a trailing hyphen of a split compound),
# a number ("12.", "1.234,50", "69a"), or a symbol, with brackets, quotes and punctuation around.
PLAIN_WORD = re.compile(
    r"^[(\[„\"'‚»]*"
    r"(?:[A-Za-zÄÖÜäöüß]{2,}(?:-[A-Za-zÄÖÜäöüß]+)*-?|\d+(?:[.,/:]\d+)*[a-z]?\.?|[-–—&+/€%*§]+)"
    r"[)\]“\"'‘«.,;:!?]*$"
)
_LEADING = "([{„\"‚'»«<"
_TRAILING = ")]}“\"‘'«»>,;:!?"


@dataclass(frozen=True)
class Unit:
    """One question: the character range ``[start, end)`` and the elements it covers."""

    start: int
    end: int
    first: int
    last: int
    detected: bool
    kind: str | None = None

    def covers(self, element: Element) -> bool:
        return self.first <= element.index <= self.last


def core_range(element: Element) -> tuple[int, int]:
    """The element without surrounding brackets, quotes and trailing punctuation (not a final ".")."""
    text = element.text
    left = len(text) - len(text.lstrip(_LEADING))
    right = len(text.rstrip(_TRAILING))
    if right <= left:
        return element.start, element.end
    return element.start + left, element.start + right


def document_units(text: str, detector) -> tuple[list[Element], list[Unit]]:
    """The elements of ``text`` and its units in document order.

    ``detector`` is a :class:`rulings_anon.placeholders.detector.PlaceholderDetector` (anything with
    ``detect(text) -> list[Span]``).
    """
    elements = split_elements(text)
    starts = [e.start for e in elements]
    units: list[Unit] = []
    taken = [False] * len(elements)
    for span in detector.detect(text):
        first = _element_at(starts, elements, span.start)
        last = _element_at(starts, elements, max(span.start, span.end - 1))
        if any(taken[first:last + 1]):
            continue
        for i in range(first, last + 1):
            taken[i] = True
        units.append(Unit(span.start, span.end, first, last, True, span.kind))
    for element in elements:
        if not taken[element.index] and not PLAIN_WORD.match(element.text):
            start, end = core_range(element)
            units.append(Unit(start, end, element.index, element.index, False))
    units.sort(key=lambda u: u.start)
    return elements, units


def widen(unit: Unit, elements: list[Element], by: int) -> Unit:
    """The unit grown (``by`` = 1) or shrunk (``by`` = -1) by one element at its end."""
    last = min(max(unit.first, unit.last + by), len(elements) - 1)
    if last == unit.last:
        return unit
    end = core_range(elements[last])[1] if last > unit.first else core_range(elements[unit.first])[1]
    return Unit(unit.start, end, unit.first, last, unit.detected, unit.kind)


def _element_at(starts: list[int], elements: list[Element], offset: int) -> int:
    """Index of the element containing (or, in whitespace, following) ``offset``."""
    i = bisect.bisect_right(starts, offset) - 1
    if i < 0:
        return 0
    if offset >= elements[i].end and i + 1 < len(elements):
        return i + 1
    return i
