"""Paragraph extraction (thesis 5.3.1): raw ruling text -> paragraphs without layout.

Rulings arrive with hard line breaks, words hyphenated across lines, enumerations ("1.", "a)",
"II.", "(3)") and bullets. Models need paragraphs: statements of running text, so that sequences
can be packed from whole paragraphs instead of cutting sentences apart. The steps:

1. join a word hyphenated across a line break ("Ver-" / "trag" -> "Vertrag"; "Sach-" / "und"
   keeps the hyphen: it is a German ellipsis compound; "EU-" / "Richtlinie" keeps it too);
2. join consecutive lines of one paragraph with a space; a blank line, an enumeration or a bullet
   starts a new paragraph;
3. remove the enumeration markers, bullets and lines that hold only a margin number.

Every paragraph keeps a map back to the original character offsets (:class:`Paragraph`), so
spans found in paragraphs point into the input text.
"""

from __future__ import annotations

import re

from rulings_anon.document import Paragraph
from rulings_anon.hyphenation import HYPHEN_END as _HYPHEN_END
from rulings_anon.hyphenation import KEEP_HYPHEN_WORDS as _KEEP_HYPHEN_WORDS
from rulings_anon.hyphenation import joins_hyphenated

# An enumeration or bullet at the start of a line: "1.", "12)", "a)", "aa)", "II.", "(3)",
# "A.", "-", "•", "*". Roman numerals and single capital letters need a period; lower-case
# letters need a bracket, so "A. Tatbestand" is an enumeration but "K. hat" only when it is
# the line start of a new block (see _is_marker_line).
_MARKER = re.compile(
    r"""[ \t]*(?:
        \(?\d{1,3}[.)](?:\d{1,3}[.)]?)*       # 1.  12)  (3)  1.2.
      | \(\d{1,3}\)                           # (3)
      | \(?[a-z]{1,2}\)                       # a)  aa)  (b)
      | [IVXLC]{1,6}\.                        # II.
      | (?P<letter>[A-H]\.)                   # A. Tatbestand (headings only, see below)
      | [-–•*·▪]                              # bullets
    )(?:[ \t]+|$)""",
    re.VERBOSE,
)
_MARGIN_NUMBER_LINE = re.compile(r"^[ \t]*(?:Rn\.?|Rz\.?)?[ \t]*\d{1,4}[ \t]*$")


def _lines_with_offsets(text: str):
    """Yield ``(line_without_newline, start_offset)`` for every line of ``text``."""
    pos = 0
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        yield stripped, pos
        pos += len(line)


class _Builder:
    """Accumulates one paragraph's text and its offset segments."""

    def __init__(self):
        self.parts: list[str] = []
        self.segments: list[tuple[int, int, int]] = []
        self.length = 0

    def add(self, text: str, doc_offset: int):
        if not text:
            return
        if self.segments:
            p, d, n = self.segments[-1]
            if p + n == self.length and d + n == doc_offset:
                self.segments[-1] = (p, d, n + len(text))
                self.parts.append(text)
                self.length += len(text)
                return
        self.segments.append((self.length, doc_offset, len(text)))
        self.parts.append(text)
        self.length += len(text)

    def empty(self) -> bool:
        return self.length == 0

    def ends_with_hyphenated_word(self) -> bool:
        return bool(self.parts) and bool(_HYPHEN_END.search(self.parts[-1][-2:]))

    def drop_last_char(self):
        """Remove the trailing hyphen of a word joined with the next line."""
        self.parts[-1] = self.parts[-1][:-1]
        self.length -= 1
        p, d, n = self.segments[-1]
        if n == 1:
            self.segments.pop()
        else:
            self.segments[-1] = (p, d, n - 1)

    def build(self, index: int) -> Paragraph:
        return Paragraph("".join(self.parts), self.segments, index)


def _strip_marker(line: str) -> int:
    """Length of the enumeration/bullet prefixes of ``line`` (0 when there is none).

    "V. 1. Das Urteil" loses both markers. A capital letter with a period counts only before a
    short heading ("A. Tatbestand") or alone: in running text "F. ist Geschäftsführer" it is a
    placeholder, and removing it would lose exactly what we want to find.
    """
    end = 0
    while True:
        m = _MARKER.match(line, end)
        if not m or m.end() == end:
            return end
        if m.group("letter") and len(line[m.end():].split()) > 3:
            return end
        end = m.end()


def extract_paragraphs(text: str, remove_markers: bool = True) -> list[Paragraph]:
    """Split ``text`` into paragraphs (see module docstring); empty paragraphs are dropped."""
    paragraphs: list[Paragraph] = []
    current = _Builder()

    def flush():
        nonlocal current
        if not current.empty():
            paragraphs.append(current.build(len(paragraphs)))
        current = _Builder()

    for line, offset in _lines_with_offsets(text):
        body = line.strip()
        if not body or _MARGIN_NUMBER_LINE.match(line):
            flush()
            continue
        lead = len(line) - len(line.lstrip())
        marker = _strip_marker(line) if remove_markers else 0
        if marker:
            flush()
            lead = marker
        content = line[lead:].rstrip()
        start = offset + lead
        if not current.empty():
            if current.parts and joins_hyphenated(current.parts[-1], content):
                current.drop_last_char()
            elif current.ends_with_hyphenated_word() and not content.startswith(_KEEP_HYPHEN_WORDS):
                pass  # "EU-" + "Richtlinie": keep the hyphen, no space
            else:
                current.add(" ", offset - 1)
        current.add(content, start)
    flush()
    return paragraphs
