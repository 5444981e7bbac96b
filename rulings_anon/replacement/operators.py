"""Replacing spans of a text: one engine, pluggable operators (as Presidio's anonymizer).

Detection and replacement are separate steps. Whatever found the spans (the placeholder detector,
the terminal tool's decisions, a LER record's gold spans, ``score``), :func:`replace` rewrites the
text with one :class:`Operator` and returns a :class:`Replaced`: the new text, the
:class:`~rulings_anon.document.Span` of each replacement in it, and the edits that map offsets of
the old text to the new one. The operators (:data:`OPERATORS`):

* :class:`CourtPlaceholder`: court style, "Thilo Kemper" -> "T. K.", "Meyer GmbH" -> "M GmbH",
  everything else "..." (``score --anonymize``; :mod:`rulings_anon.replacement.court_style`);
* :class:`CategoryTag`: the reference type in angle brackets, "Thilo Kemper" -> "<person>";
* :class:`PlaceholderSurrogate`: a placeholder the court left -> a realistic surrogate that keeps
  what the placeholder shows ("Dr. A. G." -> "Dr. Arnold Griesmann"; ``replace``, ``replace
  --auto``, the TFRecord builder and ``build-testset``); its span covers the name without titles
  and legal forms (:func:`sensitive_part`);
* :class:`ReferenceSurrogate`: a real reference -> a consistent surrogate drawn for its court-style
  placeholder (``score --pseudonymize``; :class:`~rulings_anon.replacement.court_style.Pseudonymizer`).

The functions below the operators are the entry points the stages call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rulings_anon.document import Span
from rulings_anon.entity_types import AFFIXED_TYPES, TAG_LABELS
from rulings_anon.references import strip_affixes
from rulings_anon.replacement.court_style import (
    FILLER,
    Pseudonymizer,
    court_placeholder,
    real_value_shape,
    reference_type,
    surrogate_type,
)
from rulings_anon.replacement.surrogates import (
    LEGAL_FORMS,
    ReplacementTable,
    SurrogateGenerator,
    canonical_type,
)


@dataclass(frozen=True)
class Piece:
    """What an operator puts in place of one span.

    ``value`` replaces ``[start, end)`` of the old text (the span, or more: a legal form right after
    it); ``span`` is the new reference within ``value`` (offsets into ``value``, with its type);
    ``extra`` follows the value outside the span (the period of a placeholder that ended a sentence).
    """

    start: int
    end: int
    value: str
    span: Span
    extra: str = ""


@dataclass(frozen=True)
class Edit:
    """A replaced range: old ``[old_start, old_end)`` became ``[start, end)`` plus ``extra`` chars."""

    old_start: int
    old_end: int
    start: int
    end: int
    extra: int


@dataclass(frozen=True)
class Replaced:
    """The result of :func:`replace`: the new text, the replacements' spans in it, the edits."""

    text: str
    spans: list[Span]
    edits: list[Edit]

    def moved(self, offset: int, is_end: bool) -> int:
        """Where ``offset`` of the old text lies in the new one; an offset inside a replaced range
        goes to the replacement's start (or end, for an end offset)."""
        shift = 0
        for edit in self.edits:
            if offset < edit.old_start or (offset == edit.old_start and is_end):
                break  # before the replaced range (an end at its start stays before it)
            if offset < edit.old_end or (offset == edit.old_end and is_end):
                return edit.end if is_end else edit.start
            shift = edit.end + edit.extra - edit.old_end
        return offset + shift

    def span_dicts(self) -> list[dict]:
        """The spans as ``{"start", "end", "type"}`` records (the gold format)."""
        return [span.to_dict() for span in self.spans]


class Operator:
    """Replaces one span (Presidio's ``Operator``): :meth:`operate` returns the :class:`Piece`.

    A ``strict`` operator refuses overlapping spans and spans beyond the text (placeholders and gold
    spans must be neither); the others leave a span that overlaps an earlier replacement as it is
    (scored spans may touch a legal form that the span before took in).
    """

    name = ""
    strict = False

    def operate(self, text: str, span: Span) -> Piece:
        raise NotImplementedError


def replace(text: str, spans: Sequence[Span], operator: Operator) -> Replaced:
    """``text`` with every span replaced by ``operator``."""
    # Strict operators order spans by (start, end); the others by start, and of spans starting
    # together the one given first is replaced.
    key = (lambda s: (s.start, s.end)) if operator.strict else (lambda s: s.start)
    pieces, new_spans, edits = [], [], []
    last, length = 0, 0
    for span in sorted(spans, key=key):
        if span.start < last:
            if operator.strict:
                raise ValueError(f"overlapping spans at [{span.start}, {span.end})")
            continue
        if operator.strict and span.end > len(text):
            raise ValueError(f"span [{span.start}, {span.end}) lies beyond the text ({len(text)} chars)")
        piece = operator.operate(text, span)
        pieces.append(text[last:piece.start])
        length += piece.start - last
        pieces.append(piece.value + piece.extra)
        new_spans.append(Span(length + piece.span.start, length + piece.span.end, type=piece.span.type))
        edits.append(Edit(piece.start, piece.end, length, length + len(piece.value), len(piece.extra)))
        length += len(piece.value) + len(piece.extra)
        last = piece.end
    pieces.append(text[last:])
    return Replaced("".join(pieces), new_spans, edits)


class CourtPlaceholder(Operator):
    """Court style: "Thilo Kemper" -> "T. K.", "Meyer Bau GmbH" -> "M B GmbH", a place -> "..."."""

    name = "court_placeholder"

    def operate(self, text: str, span: Span) -> Piece:
        start, end, placeholder = court_placeholder(text, span)
        return Piece(start, end, placeholder, Span(0, len(placeholder), type=span.type))


class CategoryTag(Operator):
    """The reference type in angle brackets: "Thilo Kemper" -> "<person>", an IBAN -> "<account>"."""

    name = "category_tag"

    def operate(self, text: str, span: Span) -> Piece:
        kind = surrogate_type(reference_type(text, span))
        tag = f"<{kind}>"
        return Piece(span.start, span.end, tag, Span(0, len(tag), type=kind))


# a legal form after the placeholder, up to four words of the company's name between, capitalized or
# "und" ("T. Dienstleistungs GmbH", "M. Bau und Handels GmbH"), none an article that starts a
# sentence ("gegen K. Die GmbH zahlte")
_LEGAL_WORD = re.compile(r"(?:[^\S\n]+(?:und\b|&|(?!(?:Die|Der|Das|Den|Dem|Des|Ein|Eine|Einer|Eines|Einem|Einen)\b)"
                         r"[A-ZÄÖÜ][\w&-]*)){0,4}[^\S\n]*(?:"
                         + "|".join(re.escape(f) for f in sorted(LEGAL_FORMS, key=len, reverse=True) if f[0].isalpha())
                         + r")\b")


def ends_sentence(text: str, end: int) -> bool:
    """Whether the period just before ``end`` also ends the sentence ("gegen Herrn K. Der ...")."""
    rest = text[end:end + 40]
    if not rest.strip() or re.match(r"[ \t]*\n", rest):
        return True
    return bool(re.match(r"\s+[A-ZÄÖÜ„\"]", rest)) and not _LEGAL_WORD.match(rest)


def sensitive_part(value: str, kind: str) -> tuple[int, int]:
    """``[start, end)`` of ``value`` that is sensitive: without leading salutations and titles
    and a trailing legal form, cut by the rules ``score`` cuts its names with
    (:func:`rulings_anon.references.strip_affixes`, thesis 9.2), so that the gold and the scored
    spans agree on what a name is. A value that is nothing but affixes stays whole."""
    if kind not in AFFIXED_TYPES:  # "Dr.-Kemper-Straße" stays whole; dates, numbers have no affixes
        return 0, len(value)
    part = strip_affixes(value, Span(0, len(value), value))
    return (part.start, part.end) if part is not None else (0, len(value))


# a person's placeholder with its genitive "s" set apart ("R. s Büro": the court kept the case ending)
_SPACED_GENITIVE = re.compile(r"^(.*\S)[^\S\n]+s$")


class PlaceholderSurrogate(Operator):
    """A court's placeholder -> a realistic surrogate of its type from ``table`` (the same
    placeholder of a type gets the same value); a placeholder's sentence-ending period is kept, and a
    word glued to the placeholder's period gets a space ("E.in Höhe" -> "Egli in Höhe"), as does a word
    the placeholder's ellipsis is glued to ("Firma…" -> "Firma Egli"); a genitive "s" the court set
    apart joins the surrogate ("R. s Büro" -> "Rieners Büro")."""

    name = "placeholder_surrogate"
    strict = True

    def __init__(self, table: ReplacementTable):
        self.table = table

    def operate(self, text: str, span: Span) -> Piece:
        placeholder = text[span.start:span.end]
        genitive = _SPACED_GENITIVE.match(placeholder) if canonical_type(span.type) == "person" else None
        if genitive:
            placeholder = genitive.group(1)
        value = self.table.replacement(placeholder, span.type, text[max(0, span.start - 60):span.start])
        if genitive:
            value += "s"
            placeholder += "s"
        extra = "." if placeholder.endswith(".") and not value.endswith(".") and ends_sentence(text, span.end) else ""
        if placeholder.endswith(".") and text[span.end:span.end + 1].isalpha():  # "E.in Höhe": a space lost
            extra = " "
        kind = canonical_type(span.type)
        lead, trail = sensitive_part(value, kind)
        if placeholder.startswith(("…", ".")) and text[span.start - 1:span.start].isalpha():  # "Firma…": a space lost
            value, lead, trail = " " + value, lead + 1, trail + 1
        return Piece(span.start, span.end, value, Span(lead, trail, type=kind), extra)


class ReferenceSurrogate(Operator):
    """A real reference -> a consistent surrogate drawn for its court-style placeholder
    ("Thilo Kemper" -> "Tobias Kraus", and a later "Herrn Kemper" -> "Herrn Kraus")."""

    name = "reference_surrogate"

    def __init__(self, doc_id: str, seed: int = 0, mapping=None):
        self.table = Pseudonymizer(doc_id, seed, mapping)

    def operate(self, text: str, span: Span) -> Piece:
        kind = surrogate_type(reference_type(text, span))
        start, end, placeholder = court_placeholder(text, span, surrogate_shape=True)
        before = text[max(0, start - 60):start]
        if kind == "person":
            value = self.table.person(text[start:end], before, text, end)
        else:
            shape = placeholder if placeholder != FILLER else real_value_shape(text[start:end], kind)
            value = self.table.other(text[start:end], shape, kind, before)
        return Piece(start, end, value, Span(0, len(value), type=canonical_type(kind)))


# The operators by name, listed (as Presidio's operators factory lists its anonymizers).
OPERATORS = {op.name: op for op in (CourtPlaceholder, CategoryTag, PlaceholderSurrogate, ReferenceSurrogate)}


def as_span(span: Span | dict) -> Span:
    """A :class:`~rulings_anon.document.Span`, from itself or from its ``{"start", "end", "type"}`` record."""
    if isinstance(span, Span):
        return span
    return Span(span["start"], span["end"], type=span.get("type"))


def anonymize(text: str, spans: Sequence[Span]) -> str:
    """``text`` with every span replaced by its court-style placeholder (``score --anonymize``)."""
    return replace(text, spans, CourtPlaceholder()).text


def pseudonymize_references(text: str, spans: Sequence[Span], doc_id: str, seed: int = 0,
                            mapping=None) -> tuple[str, list[dict]]:
    """``text`` with every real reference replaced by a consistent surrogate (``score
    --pseudonymize``); returns the new text and the spans ``{"start", "end", "type"}`` of the
    surrogates. A ``mapping`` (:class:`~rulings_anon.replacement.surrogate_mapping.SurrogateMapping`)
    gives the surrogates chosen in other rulings and takes this one's."""
    replaced = replace(text, spans, ReferenceSurrogate(doc_id, seed, mapping))
    return replaced.text, replaced.span_dicts()


def pseudonymize(text: str, spans: Sequence[Span | dict], generator: SurrogateGenerator,
                 table: ReplacementTable | None = None) -> tuple[str, list[dict]]:
    """Replace every placeholder span of ``text`` by a surrogate of its type; returns (new text,
    gold spans ``{"start", "end", "type"}``).

    ``spans`` (:class:`~rulings_anon.document.Span` objects or their ``{"start", "end", "type"}``
    records) do not overlap; a span's ``type`` is a type name or a LER tag (None -> ``other``).
    Pass a ``table`` to reuse or fix values (the terminal tool does); otherwise a fresh one is used.
    """
    replaced = replace(text, [as_span(s) for s in spans], PlaceholderSurrogate(table or ReplacementTable(generator)))
    return replaced.text, replaced.span_dicts()


def pseudonymize_record(record: dict, generator: SurrogateGenerator) -> dict:
    """A LER-style record ``{"id", "text", "spans", "entities"?}`` with its spans replaced.

    Uses ``generator.for_document(record["id"])``, so each record's values depend only on the seed
    and its id. ``entities`` are moved to the new offsets; an entity overlapping a replacement
    grows or shrinks with it.
    """
    spans = [as_span(s) for s in record.get("spans") or []]
    table = ReplacementTable(generator.for_document(record.get("id", "")))
    replaced = replace(record["text"], spans, PlaceholderSurrogate(table))
    out = {**record, "text": replaced.text, "spans": replaced.span_dicts()}
    if "entities" in record:
        out["entities"] = [{**e, "start": replaced.moved(e["start"], False), "end": replaced.moved(e["end"], True)}
                           for e in record["entities"]]
    return out


def entity_key(text: str, span: Span, kind: str) -> str:
    """What tells an entity apart within a ruling: a person's surname without salutation, title or
    genitive ending ("Herrn Dr. Wimmer", "Thomas Wimmers" -> "wimmer"), else the whole value."""
    if kind == "person":
        core = strip_affixes(text, span) or span
        words = re.findall(r"\w+", text[core.start:core.end])
        if words:
            return words[-1].lower()
    return " ".join(text[span.start:span.end].split()).lower()


class NumberedTag(Operator):
    """The type and the entity's number within the ruling: "Thomas Wimmer" -> "[Person 1]", a later
    "Herrn Wimmer" -> "[Person 1]" again, "Erika Kemper" -> "[Person 2]"."""

    name = "numbered_tag"

    def __init__(self):
        self.numbers: dict[tuple[str, str], int] = {}

    def operate(self, text: str, span: Span) -> Piece:
        kind = surrogate_type(reference_type(text, span))
        key = entity_key(text, span, kind)
        if key.endswith("s") and (kind, key[:-1]) in self.numbers:
            key = key[:-1]  # a genitive of a name met before
        if (kind, key) not in self.numbers:
            self.numbers[(kind, key)] = 1 + sum(1 for k, _ in self.numbers if k == kind)
        tag = f"[{TAG_LABELS.get(kind, 'Angabe')} {self.numbers[(kind, key)]}]"
        return Piece(span.start, span.end, tag, Span(0, len(tag), type=kind))


REDACTED = "███"


class Redact(Operator):
    """Blacked out, whatever it was: "Thomas Wimmer" -> "███"."""

    name = "redact"

    def operate(self, text: str, span: Span) -> Piece:
        kind = surrogate_type(reference_type(text, span))
        return Piece(span.start, span.end, REDACTED, Span(0, len(REDACTED), type=kind))


class Keep(Operator):
    """Left as it is (a type the court's policy does not anonymize)."""

    name = "keep"

    def operate(self, text: str, span: Span) -> Piece:
        value = text[span.start:span.end]
        return Piece(span.start, span.end, value, Span(0, len(value), type=span.type))


OPERATORS.update({op.name: op for op in (NumberedTag, Redact, Keep)})
