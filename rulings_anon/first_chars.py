"""Regexes that skip the positions where they cannot start: their first character as a lookahead.

Python's ``re`` tries a pattern at every position of the text unless the pattern starts with a
literal or a character class. The recognizers' and references' patterns start with a lookbehind
("no word character before") or a choice of words, so each was tried at each of a ruling's
20,000 characters, most of ``score``'s time outside the trees. ``(?=[...])`` of the characters a
match can start with, put in front, rejects all other positions at the first step: the matches
are the same (the class holds every character a match can start with; a test compares the
matches on the bundled rulings), found in a third of the time.
"""

from __future__ import annotations

import re

try:  # the parser of the ``re`` module (Python 3.11 on); without it patterns stay as they are
    from re import _constants as C
    from re import _parser
except ImportError:  # pragma: no cover
    _parser = None

# a class that holds three of the most frequent characters of German text or more ("\w", "a-z")
# rejects too few positions to pay for the lookahead
_FREQUENT = " enirstad"
_CATEGORIES = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
               "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}


class _Unbounded(Exception):
    """The first character is not a class this module can write (any character, a back reference)."""


def _literal(code: int) -> str:
    return re.escape(chr(code))


def _class_items(items) -> list[str]:
    parts = []
    for op, av in items:
        if op is C.LITERAL:
            parts.append(_literal(av))
        elif op is C.RANGE:
            parts.append(f"{_literal(av[0])}-{_literal(av[1])}")
        elif op is C.CATEGORY and str(av) in _CATEGORIES:
            parts.append(_CATEGORIES[str(av)])
        else:  # NEGATE and the rest: a class of everything but ...
            raise _Unbounded
    return parts


def _first(sequence, parts: list[str]) -> bool:
    """Add to ``parts`` the classes of the first character ``sequence`` consumes; whether it can
    consume none (then what follows it counts too)."""
    for op, av in sequence:
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue  # zero width: the first character is the next item's
        if op is C.LITERAL:
            parts.append(_literal(av))
            return False
        if op is C.IN:
            parts.extend(_class_items(av))
            return False
        if op is C.BRANCH:
            empty = False
            for alternative in av[1]:
                empty |= _first(alternative, parts)
            if not empty:
                return False
            continue
        if op is C.SUBPATTERN:
            group, add_flags, del_flags, inner = av
            if add_flags & re.IGNORECASE:
                raise _Unbounded
            if not _first(inner, parts):
                return False
            continue
        if op is C.ATOMIC_GROUP:
            if not _first(av, parts):
                return False
            continue
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            least, _, item = av
            if not _first(item, parts) and least > 0:
                return False
            continue
        raise _Unbounded  # ANY, NOT_LITERAL, GROUPREF, conditional groups
    return True


def _parsed(pattern: str, flags: int):
    """``re``'s parse of ``pattern``; None where it fails (a pattern ``re`` refuses, or a parser of
    another Python version: the pattern then stays as it is)."""
    if _parser is None:
        return None
    try:
        return _parser.parse(pattern, flags)
    except Exception:
        return None


def first_class(pattern: str, flags: int = 0) -> str | None:
    """``[...]``: every character a match of ``pattern`` can start with; None where that is not
    known (a match may be empty, start with any character, or the pattern ignores case)."""
    return _class_of(_parsed(pattern, flags), flags)


def _class_of(parsed, flags: int) -> str | None:
    if parsed is None or flags & re.IGNORECASE:
        return None
    try:
        if parsed.state.flags & re.IGNORECASE:
            return None
        parts: list[str] = []
        if _first(parsed, parts) or not parts:
            return None
    except Exception:  # _Unbounded, or a parser of another Python version
        return None
    return "[" + "".join(dict.fromkeys(parts)) + "]"


def _scanned_everywhere(parsed) -> bool:
    """Whether ``re`` tries the parsed pattern at every position: it starts with no literal and no
    class (a lookbehind, an anchor, a choice of groups)."""
    try:
        sequence = list(parsed)
        while sequence and sequence[0][0] is C.SUBPATTERN:
            sequence = list(sequence[0][1][3])
        if not sequence:
            return False
        op, av = sequence[0]
        if op in (C.LITERAL, C.IN):
            return False
        if op is C.BRANCH:  # ``re`` scans fast for a choice of single literals only
            return not all(alternative and alternative[0][0] is C.LITERAL for alternative in av[1])
        return True
    except Exception:  # a parser of another Python version
        return False


def compile_fast(pattern: str, flags: int = 0) -> re.Pattern:
    """``re.compile(pattern, flags)``, with the lookahead of its first characters in front where
    ``re`` would try it at every position and they are not frequent ones; the same matches."""
    parsed = _parsed(pattern, flags)  # parsed once for both questions
    if parsed is not None and _scanned_everywhere(parsed):
        first = _class_of(parsed, flags)
        if first is not None and len(re.findall(first, _FREQUENT, flags)) < 3:
            end = "\n)" if flags & re.VERBOSE else ")"  # a verbose pattern may end in a comment
            try:
                return re.compile(f"(?={first})(?:{pattern}{end}", flags)
            except re.error:  # global inline flags at the pattern's start, say
                pass
    return re.compile(pattern, flags)
