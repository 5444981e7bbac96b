"""The recognizer template: named, scored regex patterns, context words and a validator.

Shaped after Presidio's ``PatternRecognizer``: each recognizer is a class with class-level
``PATTERNS`` (each named and scored), ``CONTEXT`` words that raise the score when they occur
shortly before a match, and :meth:`Recognizer.validate_result`, which can reject a match
(a failed checksum) or confirm it (score 1.0). A pattern may capture the reference in a group
named ``ref`` so that context written into the pattern ("geb. am") stays out of the span.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from rulings_anon.document import Span
from rulings_anon.first_chars import compile_fast

# Characters before a match that are searched for context words.
CONTEXT_WINDOW = 60
# Score added when a context word precedes the match (capped at 1.0).
CONTEXT_BOOST = 0.35


@dataclass(frozen=True)
class Pattern:
    """A named regex with its base score; ``needs_context`` drops matches without context."""

    name: str
    regex: str
    score: float
    needs_context: bool = False
    flags: int = 0

    def compiled(self) -> re.Pattern:
        return compile_fast(self.regex, self.flags | re.VERBOSE)


class Recognizer:
    """Base class: subclasses set ``name``, ``entity_type``, ``PATTERNS`` and ``CONTEXT``."""

    name: ClassVar[str]
    entity_type: ClassVar[str]
    PATTERNS: ClassVar[tuple[Pattern, ...]] = ()
    CONTEXT: ClassVar[tuple[str, ...]] = ()
    # A regex for the text right before a match that rules the match out ("ISBN " before digits).
    EXCLUDE_BEFORE: ClassVar[str | None] = None
    # Strings of which every match of every pattern contains one ("@" for e-mail): a text without
    # any of them is skipped without running the patterns. Empty: always run.
    REQUIRES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **options):
        if options:
            raise TypeError(f"recognizer {self.name!r} takes no options, got {sorted(options)}")
        self._compiled = [(p, p.compiled()) for p in self.PATTERNS]
        words = "|".join(re.escape(w) for w in sorted(self.CONTEXT, key=len, reverse=True))
        self._context = re.compile(rf"(?<!\w)(?:{words})", re.IGNORECASE) if words else None
        self._exclude = re.compile(rf"(?:{self.EXCLUDE_BEFORE})$") if self.EXCLUDE_BEFORE else None

    def validate_result(self, reference: str) -> bool | None:
        """``False`` rejects the match, ``True`` confirms it (score 1.0), ``None`` keeps the score."""
        return None

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        """``(pattern, start, end)`` of each raw match; the ``ref`` group when the pattern has one."""
        for pattern, regex in self._compiled:
            for match in regex.finditer(text):
                group = "ref" if "ref" in regex.groupindex else 0
                start, end = match.span(group)
                if end > start:
                    yield pattern, start, end

    def has_context(self, text: str, start: int) -> bool:
        if self._context is None:
            return False
        return self._context.search(text, max(0, start - CONTEXT_WINDOW), start) is not None

    def analyze(self, text: str) -> list[Span]:
        """Validated, context-scored spans of this recognizer's references in ``text``."""
        if self.REQUIRES and not any(required in text for required in self.REQUIRES):
            return []
        spans = []
        for pattern, start, end in self.candidates(text):
            if self._exclude and self._exclude.search(text, max(0, start - CONTEXT_WINDOW), start):
                continue
            reference = text[start:end]
            valid = self.validate_result(reference)
            if valid is False:
                continue
            context = self.has_context(text, start)
            if pattern.needs_context and not context:
                continue
            score = 1.0 if valid else min(1.0, pattern.score + (CONTEXT_BOOST if context else 0.0))
            spans.append(Span(start, end, reference, self.entity_type, score, source=self.name))
        return spans
