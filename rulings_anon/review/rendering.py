"""A ruling's text as HTML with its spans marked, every character escaped.

The text is cut into chunks, each carrying the character offset where it starts (``data-o``),
so the page's script turns a selection back into offsets of the ruling. A carriage return is
written as a character reference: the HTML parser would fold a literal one into the line feed
beside it and shift every offset after it.
"""

from __future__ import annotations

import html

from markupsafe import Markup

from .database import ACTIVE, SpanRow


def escape(text: str) -> str:
    return html.escape(text, quote=True).replace("\r", "&#13;")


def confidence(score: float | None) -> str:
    """A class for the suggestion's confidence: rule (a recognizer or the reviewer), high, mid, low."""
    if score is None:
        return "rule"
    return "high" if score >= 0.9 else "mid" if score >= 0.6 else "low"


def shown(spans: list[SpanRow]) -> list[SpanRow]:
    """The spans marked: every one not rejected, and the rejected ones that overlap none of them."""
    active = [s for s in spans if s.state in ACTIVE]
    rejected = [s for s in spans if s.state == "rejected" and not any(s.start < a.end and a.start < s.end
                                                                        for a in active)]
    chosen, end = [], -1
    for span in sorted(active + rejected, key=lambda s: (s.start, s.end)):
        if span.start >= end:
            chosen.append(span)
            end = span.end
    return chosen


def marked_text(text: str, spans: list[SpanRow]) -> Markup:
    parts, at = [], 0
    for span in shown(spans):
        if span.start > at:
            parts.append(f'<span data-o="{at}">{escape(text[at:span.start])}</span>')
        score = "" if span.score is None else f" · {span.score:.2f}"
        parts.append(
            f'<mark id="s{span.id}" class="sp t-{escape((span.type or "other").replace("/", "-"))} '
            f'st-{span.state} c-{confidence(span.score)}{" added" if span.origin == "added" else ""}" '
            f'data-id="{span.id}" data-v="{span.version}" data-o="{span.start}" data-end="{span.end}" '
            f'data-type="{escape(span.type or "")}" title="{escape(span.type or "other")}{score} · {span.state}">'
            f'{escape(text[span.start:span.end])}</mark>')
        at = span.end
    if at < len(text):
        parts.append(f'<span data-o="{at}">{escape(text[at:])}</span>')
    return Markup("".join(parts))


def plain_text(text: str) -> Markup:
    return Markup(escape(text))
