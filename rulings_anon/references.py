"""Multi-element references (thesis 9.3): one reference, one span, however many elements.

A whitespace split cuts "Thilo von Schmiedeberg", "Fentler + Sohn GmbH", "DE91 1000 0000 0123
4567 89" and "25. September 1996" into several text elements, yet each is one reference: it is
proposed, masked and anonymized as a whole. This module

* finds such references in plain text (:func:`group_references`): dates with a month name,
  numbers grouped by spaces, names with particles, company names ending in a legal form, places
  with particles or prefixes ("Bruck an der Leitha", "Bad Aussee");
* (:mod:`rulings_anon.analyzer.merging` grows candidate spans to these references and joins
  fragments of one name);
* cuts salutations, titles and legal forms off a proposed name (:func:`strip_affixes`): "Prof.
  Dr. Thilo von Schmiedeberg" -> "Thilo von Schmiedeberg", "Fentler + Sohn GmbH" -> "Fentler
  + Sohn" (thesis 9.2: the legal form is not the sensitive part);
* lists the elements of each reference (:func:`element_groups`), the unit a masking scheme masks.

The word lists are data: ``rulings_anon/data/name_affixes.json``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from rulings_anon.data import path as data_path
from rulings_anon.document import Element, Span
from rulings_anon.entity_types import NAME_GROWING_TYPES, PLACE_GROWING_TYPES
from rulings_anon.entity_types import UNKNOWN_TYPE as UNKNOWN_TYPE
from rulings_anon.first_chars import compile_fast
from rulings_anon.jsonl import read_json

SOURCE = "references"
NER_SOURCE = "ner"  # the source of the legal NER's spans (rulings_anon.ner.tagger.SOURCE is this)
# Person-like types whose fragments may grow into a name reference with particles; place types
# whose spans may grow into a place reference ("Bruck" -> "Bruck an der Leitha").
NAME_TYPES, PLACE_TYPES = NAME_GROWING_TYPES, PLACE_GROWING_TYPES

# Any diploma, also as rulings print it with spaces ("Dipl.-Ing.", "Dipl. - Phys.").
DIPLOMA = r"Dipl\.\s*-\s*\w+\."

_MONTHS = "Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"


def _alternation(words, flexible_space: bool = True) -> str:
    """A regex alternation of ``words``, longest first; spaces inside match any whitespace run."""
    escaped = []
    for word in sorted(set(words), key=len, reverse=True):
        pattern = re.escape(word)
        if flexible_space:
            pattern = pattern.replace(r"\ ", r"\s*")
        escaped.append(pattern)
    return "|".join(escaped)


@dataclass(frozen=True)
class ReferenceRules:
    """The compiled rules of ``rulings_anon/data/name_affixes.json``."""

    prefix: re.Pattern
    legal_form_tail: re.Pattern
    legal_form_head: re.Pattern
    particle_gap: re.Pattern
    name_gap: re.Pattern
    kinds: tuple[tuple[str, re.Pattern], ...]

    @classmethod
    def from_data(cls, affixes: dict) -> ReferenceRules:
        prefixes = _alternation(affixes["salutations"] + affixes["academic_titles"] + affixes["prefixes"])
        legal = _alternation(affixes["legal_forms"])
        particles = _alternation(affixes["particles"], flexible_space=False).replace(r"\ ", r"\s+")
        connectors = _alternation(affixes["connectors"])
        # Function words, party roles and salutations: "der Sonderurlaub von Herrn Neumüller" is
        # no name "Sonderurlaub von Herrn".
        stop = _alternation(affixes["not_name_words"] + affixes["salutations"], flexible_space=False)
        place_particles = _alternation(affixes["place_particles"], flexible_space=False).replace(r"\ ", r"\s+")
        place_prefixes = _alternation(affixes["place_prefixes"], flexible_space=False)
        not_tails = _alternation(affixes["not_place_tails"], flexible_space=False)
        # A capitalized word that may be part of a name: not a function word or a party role.
        cap = rf"(?!(?:{stop})(?!\w))[A-ZÄÖÜ][\w'’.-]*\w\.?"
        # " an der Leitha": a place's particle and the name after it.
        place_tail = rf"\s+(?:{place_particles})\s+(?!(?:{not_tails})(?!\w)){cap}"
        kinds = (
            # "25. September 1996", "1. Mai", "September 1996"
            ("date", rf"(?<![\w.])(?:[0-3]?\d\.\s*(?:{_MONTHS})(?:\s+(?:1[6-9]|20)\d\d)?|(?:{_MONTHS})\s+(?:1[6-9]|20)\d\d)(?!\d)"),
            # "DE91 1000 0000 0123 4567 89", "30 2017 029 616", "EP 1 234 567 B1", "030 123 45 67"
            ("number", r"(?<![\w.,/-])(?:[A-Z]{2}\d{0,2}\s)?\d{1,4}(?:\s\d{2,4}){2,}(?:\s[A-Z]\d)?(?![\w/]|[.,]\d)"),
            # "Fentler + Sohn GmbH", "Meyer Bau GmbH & Co. KG", "Isenberg AG"
            ("company", rf"(?<![\w-]){cap}(?:\s+(?:{cap}|{connectors}|{particles})){{0,4}}[\s-]+(?:{legal})(?![\w])"),
            # "Thilo von Schmiedeberg", "Ursula van der Meer", "von Schmiedeberg"
            ("name", rf"(?<![\w-])(?:{cap}\s+)?(?:{particles})\s+{cap}(?:-{cap})?(?![\w-])"),
            # "Bruck an der Leitha", "Rothenburg ob der Tauber", "Bad Aussee", "Sankt Veit an der Glan"
            ("place", rf"(?<![\w-])(?:(?:{place_prefixes})\s+{cap}(?:{place_tail})?|{cap}{place_tail})(?![\w-])"),
        )
        return cls(
            prefix=re.compile(rf"^(?:(?:{prefixes}|{DIPLOMA})(?:\s+|$))+"),
            legal_form_tail=re.compile(rf"(?:(?:^|[\s,-]+)(?:{legal}))+[\s,;:]*$"),
            legal_form_head=re.compile(rf"[ \t-]*(?:{legal})(?![\w])"),
            particle_gap=re.compile(rf"^\s+(?:(?:{particles}|{connectors})\s+)?$"),
            # " an der ", " von ": the words between two words of one name or one place
            name_gap=re.compile(rf"\s+(?:{particles}|{place_particles})\s+"),
            kinds=tuple((kind, compile_fast(regex)) for kind, regex in kinds),
        )


@lru_cache(maxsize=1)
def rules() -> ReferenceRules:
    return ReferenceRules.from_data(read_json(data_path("name_affixes.json")))


def group_references(text: str) -> list[Span]:
    """The multi-element references of ``text`` (two elements or more), sorted, not overlapping.

    ``type`` is the kind (``date``, ``number``, ``company``, ``name``); where two kinds overlap the
    one listed first wins ("1. Mai 2000" is a date, not a number).
    """
    starts: list[int] = []  # accepted references, sorted and disjoint: neighbours decide overlap
    found: list[Span] = []
    for kind, regex in rules().kinds:
        for match in regex.finditer(text):
            start, end = match.span()
            if not any(c.isspace() for c in text[start:end]):
                continue
            i = bisect.bisect_left(starts, start)
            if (i > 0 and found[i - 1].end > start) or (i < len(found) and found[i].start < end):
                continue
            starts.insert(i, start)
            found.insert(i, Span(start, end, text[start:end], kind, source=SOURCE))
    return found


def strip_affixes(text: str, span: Span) -> Span | None:
    """``span`` without leading salutations/titles and trailing legal forms; None if nothing is left."""
    piece = text[span.start:span.end]
    r = rules()
    head = r.prefix.match(piece)
    start = span.start + (head.end() if head else 0)
    tail = r.legal_form_tail.search(piece, head.end() if head else 0)
    end = span.start + (tail.start() if tail else len(piece))
    while start < end and text[start] in " \t\n,;:":
        start += 1
    while end > start and text[end - 1] in " \t\n,;:":
        end -= 1
    if end <= start:
        return None
    if (start, end) == (span.start, span.end):
        return span
    return with_bounds(span, start, end, text)


def before_legal_form(text: str, end: int) -> bool:
    """Whether a legal form follows ``end``: the word before "GmbH" names a company ("Christen
    GmbH"), whatever else it means."""
    return rules().legal_form_head.match(text, end) is not None


def with_bounds(span: Span, start: int, end: int, text: str) -> Span:
    """``span`` moved to ``start:end`` of ``text``, keeping its type, score, kind and source."""
    return Span(start, end, text[start:end], span.type, span.score, span.kind, span.source)


def element_groups(elements: list[Element], spans: list[Span]) -> list[list[int]]:
    """For each span, the indices of the elements it overlaps: the elements masked together."""
    starts = [e.start for e in elements]
    groups = []
    for span in spans:
        i = max(0, bisect.bisect_right(starts, span.start) - 1)
        group = []
        while i < len(elements) and elements[i].start < span.end:
            if elements[i].end > span.start:
                group.append(i)
            i += 1
        groups.append(group)
    return groups
