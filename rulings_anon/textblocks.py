"""Marked-up ruling text (portal XML or HTML) to plain paragraphs with margin numbers.

Both portals mark up a ruling as sections (``tenor``, ``gruende`` ...) of block elements
(``p``, ``h2``, ``dl``/``dd``) and mark margin numbers ("Randnummern") separately:
gesetze-bayern.de with ``<rd nr="12"/>`` at the start of a paragraph, the federal portal with
``<dt><a name="rd_12">12</a></dt>`` before the paragraph's ``dd``. The walk below turns any such
tree into :class:`Block` objects (text with whitespace collapsed, plus the margin number), and
:func:`render` writes them in the corpus text layout:

* paragraphs separated by one blank line; a section heading ("Tenor", "Gründe") is a paragraph;
* a margin number stands on its own line directly above its paragraph ("12\\nDer Kläger ...");
  paragraph extraction (:mod:`rulings_anon.placeholders.paragraphs`) drops such number-only lines, so the
  models never see them while a reader can still cite "Rn. 12".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Elements that end the running paragraph: each one starts a new block.
BLOCK_TAGS = frozenset(
    "p h1 h2 h3 h4 h5 h6 li div dd dl ul ol table tbody thead tr body section article "
    "blockquote pre center main header footer nav form fieldset".split()
)
# Cells of a table row: inline, but separated from their neighbours by a space.
CELL_TAGS = frozenset(("td", "th"))
SKIP_TAGS = frozenset(("script", "style", "head", "noscript", "button", "select", "option", "img"))
# Class or name of an inline element that holds a margin number on an HTML page.
_MARGIN_MARK = re.compile(r"(?:^|[\s_-])(?:rd|rn|randnr|randnummer|paranr|margin)(?:$|[\s_\d-])", re.I)
_MARGIN_NUMBER = re.compile(r"^\d{1,4}$")
# A bare enumeration ("1.", "a)") that the markup set apart from the sentence it numbers.
_BARE_MARKER = re.compile(r"^(?:\d{1,3}|[a-z]{1,2}|[IVX]{1,5}|[A-H])[.)]$")


@dataclass
class Block:
    """One paragraph of a ruling: its text and the margin number printed beside it, if any."""

    text: str
    margin: str | None = None


def local_name(element) -> str:
    """Tag name without namespace, lower case; "" for comments, entities and PIs."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def clean(text: str) -> str:
    """Collapse whitespace (non-breaking spaces included) per line; drop empty lines."""
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _margin_of(element, name: str) -> str | None:
    """The margin number an element stands for, or None when it is ordinary content."""
    if name == "rd":
        return (element.get("nr") or "").strip() or None
    if name != "dt" and len(element):  # a number box holds only its number
        return None
    text = clean("".join(element.itertext()))
    if not _MARGIN_NUMBER.match(text):
        return None
    if name == "dt":
        return text
    marks = " ".join(filter(None, (element.get("class"), element.get("name"), element.get("id"))))
    return text if _MARGIN_MARK.search(marks) else None


class _Collector:
    """Accumulates inline text into blocks while walking a tree."""

    def __init__(self):
        self.blocks: list[Block] = []
        self.parts: list[str] = []
        self.margin: str | None = None

    def add(self, text: str | None) -> None:
        if text:
            self.parts.append(text)

    def flush(self) -> None:
        text = clean("".join(self.parts))
        self.parts = []
        if not text:
            return
        previous = self.blocks[-1] if self.blocks else None
        if previous and previous.margin is None and self.margin is None and _BARE_MARKER.match(previous.text):
            previous.text = f"{previous.text} {text}"
        else:
            self.blocks.append(Block(text, self.margin))
        self.margin = None

    def walk(self, element) -> None:
        name = local_name(element)
        if name and name not in SKIP_TAGS:
            margin = _margin_of(element, name) if name in ("rd", "dt", "a", "span", "div") else None
            if margin is not None:
                if name in ("dt", "div"):
                    self.flush()
                self.margin = margin
            elif name == "br":
                self.add("\n")
            elif name in BLOCK_TAGS or name == "dt":
                self.flush()
                self.add(element.text)
                for child in element:
                    self.walk(child)
                self.flush()
            else:
                self.add(element.text)
                for child in element:
                    self.walk(child)
                if name in CELL_TAGS:
                    self.add(" ")
        self.add(element.tail)


def blocks(element) -> list[Block]:
    """The paragraphs inside ``element`` (the element's own tail is not part of it)."""
    collector = _Collector()
    collector.add(element.text)
    for child in element:
        collector.walk(child)
    collector.flush()
    return collector.blocks


def attach_loose_margins(items: list[Block]) -> list[Block]:
    """Turn a block holding only a number into the margin number of the block after it.

    HTML pages often set the margin number in its own box; in the portal XML it is marked up
    and never reaches this point as a block.
    """
    result: list[Block] = []
    pending: str | None = None
    for block in items:
        if block.margin is None and _MARGIN_NUMBER.match(block.text):
            pending = block.text
            continue
        if pending is not None and block.margin is None:
            block = Block(block.text, pending)
        pending = None
        result.append(block)
    return result


def render(sections: list[tuple[str, list[Block]]]) -> str:
    """The corpus text of headed sections: paragraphs separated by blank lines."""
    paragraphs: list[str] = []
    for heading, items in sections:
        if not items:
            continue
        if heading:
            paragraphs.append(heading)
        for block in items:
            paragraphs.append(f"{block.margin}\n{block.text}" if block.margin else block.text)
    return "\n\n".join(paragraphs)
