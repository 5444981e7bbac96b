"""The one data model every stage shares: documents, paragraphs, text elements and spans.

Offsets are always character offsets into a document's ``text``, end exclusive, so a span
found in a paragraph, a token sequence or a model prediction can be mapped back to the exact
characters of the input the user gave us.

* :class:`Document`: a ruling (``id``, ``text``, metadata, optional gold ``spans``).
* :class:`Paragraph`: text produced by paragraph extraction plus a map back to document offsets.
* :class:`Element`: a whitespace-separated text element (thesis 5.3.2), the unit that is
  labelled sensitive or not.
* :class:`Span`: a labelled character range (placeholder, gold reference, prediction).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

_ELEMENT_RE = re.compile(r"\S+")
# The period after an initial or abbreviation belongs to it ("K.", "H.-G.", "Dr.", "e.V.", "Co.",
# "str."); after a full word, a legal form or a number ("Meyer.", "KG.", "4.") it ends the sentence.
_KEEPS_PERIOD = re.compile(r"^(?:\S*[-.(])?[A-ZÄÖÜa-zäöü][a-zäöü]?\.$|(?:Co|str|Str|Ltd|Inc|e\.V|Nr)\.$")

# Punctuation around a word that is not part of it ("(Meyer),", "„Limmer“"); a period is the
# caller's to judge, since "K." keeps its own.
WORD_PUNCTUATION = "()[]{}„“”‚‘’\"'«»,;:!?"
# Keys of a span record that are written when set (the "spans" format of docs/architecture.md).
_SPAN_OPTIONAL_KEYS = ("text", "type", "score", "kind", "source")
_SPAN_STRING_KEYS = ("text", "type", "kind", "source")
# The longest id read: ids are matched and printed in every output (a long id gets a file name of a
# safe prefix and a hash); one longer than a paragraph is no id.
MAX_ID_LENGTH = 1000


def _json_kind(value) -> str:
    """What a JSON value is, for an error message that must not show the value (it may be a name)."""
    if isinstance(value, bool):
        return "true/false"
    kinds = {str: "a string", list: "a list", dict: "an object", float: "a fraction", int: "a number"}
    return next((name for kind, name in kinds.items() if isinstance(value, kind)), "null")


def _check_span_record(record) -> None:
    """Refuse a span record whose fields have the wrong JSON types; the message names the field, never
    its value."""
    if not isinstance(record, dict) or "start" not in record or "end" not in record:
        raise ValueError("not a JSON object with 'start' and 'end'")
    for key in ("start", "end"):
        if isinstance(record[key], bool) or not isinstance(record[key], int):
            raise ValueError(f"'{key}' must be an integer, not {_json_kind(record[key])}")
    score = record.get("score")
    if score is not None and (isinstance(score, bool) or not isinstance(score, (int, float))):
        raise ValueError(f"'score' must be a number in 0..1, not {_json_kind(score)}")
    for key in _SPAN_STRING_KEYS:
        if record.get(key) is not None and not isinstance(record[key], str):
            raise ValueError(f"'{key}' must be a string, not {_json_kind(record[key])}")


@dataclass(frozen=True, slots=True)
class Span:
    """A character range ``[start, end)`` of a document with optional label data.

    ``type`` is the reference type (person, company, ...), ``score`` a confidence in 0..1,
    ``kind`` the placeholder kind (``obvious``/``potential``) and ``source`` what found it
    (``placeholder-rules``, ``model``, ``ner``, a recognizer name, ``gold``).
    """

    start: int
    end: int
    text: str | None = None
    type: str | None = None
    score: float | None = None
    kind: str | None = None
    source: str | None = None

    def __post_init__(self):
        if not isinstance(self.start, int) or not isinstance(self.end, int):
            raise ValueError("span offsets must be integers")
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"invalid span offsets [{self.start}, {self.end})")
        if self.score is not None and not 0.0 <= self.score <= 1.0:  # NaN too
            raise ValueError(f"the score {self.score} is not in 0..1")

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span | Element) -> bool:
        return self.start < other.end and other.start < self.end

    def contains(self, other: Span | Element) -> bool:
        return self.start <= other.start and other.end <= self.end

    def to_dict(self) -> dict:
        record = {"start": self.start, "end": self.end}
        for key in _SPAN_OPTIONAL_KEYS:
            value = getattr(self, key)
            if value is not None:
                record[key] = round(value, 6) if key == "score" else value
        return record

    @classmethod
    def from_dict(cls, record: dict, text: str | None = None) -> Span:
        """Build a span from a JSON record; checks the offsets against ``text`` when given.

        A wrong record is a :class:`ValueError` that names the problem and the offsets, never the
        text (it may be a name)."""
        _check_span_record(record)
        start, end = record["start"], record["end"]
        span = cls(
            start=start,
            end=end,
            text=record.get("text"),
            type=record.get("type"),
            score=record.get("score"),
            kind=record.get("kind"),
            source=record.get("source"),
        )
        if text is not None:
            if end > len(text):
                raise ValueError(f"[{start}, {end}) lies beyond the text ({len(text)} chars)")
            if span.text is not None and text[start:end] != span.text:
                raise ValueError(f"[{start}, {end}): its 'text' differs from the document's text there")
        return span


@dataclass(frozen=True, slots=True)
class Element:
    """A text element: a maximal run of non-whitespace characters (thesis 5.3.2).

    ``index`` is its position among the elements of the text it was split from.
    """

    start: int
    end: int
    text: str
    index: int = -1


def split_elements(text: str, offset: int = 0) -> list[Element]:
    """Split ``text`` at whitespace into elements; offsets are shifted by ``offset``."""
    return [
        Element(m.start() + offset, m.end() + offset, m.group(), i)
        for i, m in enumerate(_ELEMENT_RE.finditer(text))
    ]


def iter_element_bounds(text: str) -> Iterator[tuple[int, int]]:
    """Yield ``(start, end)`` of every element without building objects (fast path)."""
    for m in _ELEMENT_RE.finditer(text):
        yield m.span()


def keeps_period(reference_end: str) -> bool:
    """Whether the period ending ``reference_end`` (the end of a reference, "K." or "KG.") is part of it.

    One rule for the detector's placeholder spans and the scorer's sensitive spans.
    """
    return bool(_KEEPS_PERIOD.match(reference_end))


# a capital letter and its period: an initial, which may end a name's first element ("U. Koch")
INITIAL = re.compile(r"^[A-ZÄÖÜ]\.$")


def joined(first: str, second: str) -> bool:
    """Whether two neighbouring elements' texts may be one name's: nothing between the words but
    spaces (an initial keeps its period)."""
    return (first[-1:].isalnum() or INITIAL.match(first.lstrip(WORD_PUNCTUATION)) is not None) \
        and second[:1].isalnum()


def joined_next(text: str, elements: list[Element], i: int) -> bool:
    """Whether element ``i`` and the next may be one name's, as the decision's pairs need them:
    :func:`joined`, and no paragraph break between; the measured decision keeps it per candidate
    (``CourtFeatures.joined``)."""
    return i + 1 < len(elements) and joined(elements[i].text, elements[i + 1].text) \
        and "\n\n" not in text[elements[i].end:elements[i + 1].start]


def comma_next(text: str, elements: list[Element], i: int) -> bool:
    """Whether element ``i`` is a word and a comma and the next a word on the same line, two items
    of a list maybe ("Feuer, Rauch"; not "Kühl-, Gefriergeräte"); the measured decision keeps it per
    candidate (``CourtFeatures.marks["comma"]``)."""
    return i + 1 < len(elements) and elements[i].text.endswith(",") \
        and joined(elements[i].text[:-1], elements[i + 1].text) and "\n" not in text[elements[i].end:elements[i + 1].start]


def count_elements(text: str) -> int:
    return len(text.split())


@dataclass(slots=True)
class Paragraph:
    """A paragraph of extracted text and where each of its characters came from.

    ``segments`` is a sorted list of ``(paragraph_offset, document_offset, length)`` runs: the
    paragraph characters ``[p, p+length)`` are copies of document characters
    ``[d, d+length)``. Characters that paragraph extraction inserted (the space joining two
    lines) map to the document character they replace (the line break).
    """

    text: str
    segments: list[tuple[int, int, int]]
    index: int = 0
    _starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self):
        self._starts = [p for p, _, _ in self.segments]

    @property
    def start(self) -> int:
        """Document offset of the paragraph's first character."""
        return self.segments[0][1] if self.segments else 0

    @property
    def end(self) -> int:
        """Document offset just after the paragraph's last character."""
        if not self.segments:
            return 0
        _, d, n = self.segments[-1]
        return d + n

    def to_document(self, offset: int) -> int:
        """Map a paragraph character offset to the document offset of that character."""
        if offset >= len(self.text):
            return self.end
        i = bisect.bisect_right(self._starts, offset) - 1
        p, d, n = self.segments[i]
        return d + min(offset - p, n)

    def to_document_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a paragraph range ``[start, end)`` to the document range covering it."""
        if end <= start:
            pos = self.to_document(start)
            return pos, pos
        return self.to_document(start), self.to_document(end - 1) + 1

    def elements(self) -> list[Element]:
        """The paragraph's elements with *paragraph* offsets."""
        return split_elements(self.text)


@dataclass(slots=True)
class Document:
    """A ruling or any text to process.

    ``meta`` keeps every other field of the input record (court, date, file number, ...),
    ``spans`` the gold spans when the record has them (gold/test set format).
    """

    id: str
    text: str
    meta: dict = field(default_factory=dict)
    spans: list[Span] = field(default_factory=list)
    gold: bool = field(default=False, compare=False)  # the record had 'spans' (a gold document)

    @classmethod
    def from_record(cls, record: dict, where: str = "record") -> Document:
        """Build from a JSON object with at least ``text``; ``id`` defaults to ``where``."""
        if not isinstance(record, dict):
            raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
        text = record.get("text")
        if not isinstance(text, str):
            raise ValueError(f"{where}: the record has no 'text' string")
        doc_id = record.get("id", where)
        if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)):
            raise ValueError(f"{where}: 'id' must be a string or an integer, not {_json_kind(doc_id)}")
        doc_id = str(doc_id)
        if len(doc_id) > MAX_ID_LENGTH:
            raise ValueError(f"{where}: 'id' is {len(doc_id):,} characters long; an id has at most "
                             f"{MAX_ID_LENGTH:,}")
        spans = _read_spans(record.get("spans"), text, where)
        meta = {k: v for k, v in record.items() if k not in ("id", "text", "spans")}
        return cls(doc_id, text, meta, spans, gold=isinstance(record.get("spans"), list))

    def to_record(self, with_spans: bool = True) -> dict:
        record = {"id": self.id, **self.meta, "text": self.text}
        if with_spans and self.spans:
            record["spans"] = [s.to_dict() for s in self.spans]
        return record

    def elements(self) -> list[Element]:
        return split_elements(self.text)


def _read_spans(records, text: str, where: str) -> list[Span]:
    """The spans of a document record, each checked against ``text``; the error names the span by
    its position."""
    if records is None:
        return []
    if not isinstance(records, list):
        raise ValueError(f"{where}: 'spans' must be a list, not {_json_kind(records)}")
    spans = []
    for number, record in enumerate(records, 1):
        try:
            spans.append(Span.from_dict(record, text))
        except ValueError as exc:
            raise ValueError(f"span {number}: {exc}") from None
    return spans


def spans_record(doc_id: str, spans: list[Span]) -> dict:
    """The spans-file record (docs/architecture.md): ``{"id", "spans": [...]}``."""
    return {"id": doc_id, "spans": [s.to_dict() for s in spans]}


def element_labels(elements: list[Element], spans: list[Span]) -> list[bool]:
    """For each element, whether any span overlaps it (element-level labelling, thesis 5.5.3).

    Both lists must be sorted by start; runs in ``O(len(elements) + len(spans))``.
    """
    labels = [False] * len(elements)
    ordered = sorted(spans, key=lambda s: s.start)
    j = 0
    for i, element in enumerate(elements):
        while j < len(ordered) and ordered[j].end <= element.start:
            j += 1
        k = j
        while k < len(ordered) and ordered[k].start < element.end:
            if ordered[k].end > element.start and ordered[k].end > ordered[k].start:
                labels[i] = True
                break
            k += 1
    return labels
