"""Candidate spans grown to the multi-element references they touch (thesis 9.3).

A span overlapping a reference that :func:`rulings_anon.references.group_references` finds grows
to cover it, and spans that are fragments of one name ("Thilo" + "von" + "Schmiedeberg") are
joined (:func:`merge_into_references`). Which part of a merged span names it is the analyzer's
call: a standalone recognizer hit first, then the legal NER's.
"""

from __future__ import annotations

import bisect

from rulings_anon.document import Span
from rulings_anon.references import (
    NAME_TYPES,
    NER_SOURCE,
    PLACE_TYPES,
    UNKNOWN_TYPE,
    group_references,
    rules,
    with_bounds,
)


def merge_into_references(text: str, spans: list[Span], references: list[Span] | None = None) -> list[Span]:
    """Grow each span to the references it touches and join spans that are fragments of one.

    A span overlapping a date or number reference, or a company reference, grows to cover it; a
    person span grows to a name reference it overlaps, a place span to a place reference. Spans
    separated only by a particle or a connector ("Thilo" / "von" / "Schmiedeberg", "Fentler" / "+"
    / "Sohn") become one.
    Overlapping results are merged; the merged span keeps the type, source and score of a part
    that is sensitive on its own (a standalone recognizer hit), else of its part found by the NER
    (the NER's score decides whether courts anonymize a reference), else of its best-scored part.
    """
    if references is None:
        references = group_references(text)
    references = sorted(references, key=lambda r: r.start)
    ref_starts = [r.start for r in references]
    grown = []
    for span in spans:
        start, end = span.start, span.end
        # References are disjoint: those overlapping the span start just before or inside it.
        i = max(0, bisect.bisect_right(ref_starts, span.start) - 1)
        while i < len(references) and references[i].start < span.end:
            ref = references[i]
            if ref.end > span.start and _grows_into(text, span, ref):
                start, end = min(start, ref.start), max(end, ref.end)
            i += 1
        grown.append(with_bounds(span, start, end, text))
    return _join(text, grown)


def _grows_into(text: str, span: Span, ref: Span) -> bool:
    """Whether ``span`` grows to the reference ``ref`` it overlaps: a name reference takes person
    spans only, a place reference place spans only (an unknown word is either), and not when its last word is a common word
    ("Hamburg am Landgericht" is no place; :func:`rulings_anon.analyzer.common_words.common_words`)."""
    if ref.type == "name":
        return span.type in NAME_TYPES or span.type == UNKNOWN_TYPE
    if ref.type == "place":
        if span.type not in PLACE_TYPES and span.type != UNKNOWN_TYPE:
            return False
        from rulings_anon.analyzer.common_words import common_words

        return text[ref.start:ref.end].split()[-1].rstrip(".") not in common_words()
    return True


def _join(text: str, spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    gap = rules().particle_gap
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if merged:
            last = merged[-1]
            touching = span.start <= last.end or (
                span.start > last.end and gap.match(text[last.end:span.start]) is not None
            )
            if touching:
                best = max((last, span), key=_rank)
                scores = [s.score for s in (last, span) if s.score is not None and s.source == best.source]
                end = max(last.end, span.end)
                merged[-1] = Span(last.start, end, text[last.start:end], best.type,
                                  max(scores) if scores else best.score, best.kind, best.source)
                continue
        merged.append(span)
    return merged


def _rank(span: Span) -> tuple[bool, bool, float]:
    """Which part of a merged span names it: a recognizer hit that is sensitive on its own ("Herrn
    Wilmsen" stays sensitive when the NER also proposed "Wilmsen"), then the NER's (its score is
    the probability that courts anonymize the reference, which decides), else the best-scored one."""
    from rulings_anon.analyzer.recognizers import is_standalone_hit

    return is_standalone_hit(span), span.source == NER_SOURCE, span.score or 0.0
