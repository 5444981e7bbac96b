"""Turn the German LER corpus (CoNLL, one token per line) into readable rulings with gold spans.

The LER files (Leitner, Rehm, Moreno-Schneider 2019, CC BY 4.0) hold federal court decisions
that the courts had already anonymized; the placeholders they left ("K.", "M-GmbH", "...") are
tagged as PER, AN, ST, STR, UN, ORG or LDS entities, while judges (RR), courts, laws and
citations stay in clear. The files have no document boundaries, so we cut them into documents
of about a ruling's length at sentence boundaries.

Each output record is a ruling in the corpus format of docs/architecture.md plus

* ``spans``: the gold placeholders, one span per sensitive entity from its first to its last
  *placeholder token* (:data:`GOLD_PLACEHOLDER_TOKEN`), typed with the LER tag;
* ``entities``: every LER entity (all 19 types) with its offsets, for NER training and for
  pseudonymizing whole references consistently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulings_anon.entity_types import ANONYMIZED_LER_TAGS
from rulings_anon.errors import InputError

# A token inside a sensitive entity is a placeholder token when it looks like what the courts
# put in place of a name: one or two letters with or without a period ("K.", "St.", "N", "w"),
# an ellipsis, initials with a hyphenated rest ("M-GmbH", "H-Stadt"), a run of one letter
# ("Xxxxx"), an initial glued to a street word ("Kstraße") or a name cut to its suffix
# ("-Straße"). Real names inside those entities ("Berlin", "Google", "ZDS") are not.
GOLD_PLACEHOLDER_TOKEN = re.compile(
    r"""^(?:
        [A-ZÄÖÜ][a-zäöü]?\.?              # K.  St.  N  Hi
      | [a-zäöü]\.?                        # w  v.
      | \.{2,}\S* | \S*…\S* | \S+\.{3}     # ...  …  ...-Straße  M...
      | [A-ZÄÖÜ]{1,2}\.?-\S+               # M-GmbH  H-Stadt  M-R  P-Platzes
      | ([A-Za-zÄÖÜäöü])(?i:\1){2,}(?:-\S+)?   # Xxxxx  XXX  Zzzz-Straße
      | [A-ZÄÖÜ](?:straße|str\.|weg|platz|gasse|allee|ring)\S*   # Kstraße
      | -[A-ZÄÖÜ]\S*                       # -Straße (name part removed)
    )$""",
    re.VERBOSE,
)

# An initial numbered to tell persons of one letter apart, its ellipsis a token of its own:
# "Herren M1… und M2…" are placeholders whole, the "M1" as much as the "…".
_INDEXED_INITIAL = re.compile(r"^[A-ZÄÖÜ]{1,2}\d{1,2}$")
_LEGAL_FORM_TOKENS = {"Co.", "Co", "AG", "KG", "SE", "UG", "eG", "mbH", "Ltd.", "Inc.", "&"}
_NO_SPACE_BEFORE = {",", ".", ")", "]", ";", ":", "!", "?", "“", "'", "%", "…"}
_NO_SPACE_AFTER = {"(", "[", "„", "‚"}
_ENUMERATION = re.compile(r"^(?:\d{1,3}\.|[IVX]{1,5}\.|[A-Za-z]{1,2}\)?|\(\d{1,3}\)|\d{1,3}\))$")
_HEADINGS = {"Tenor", "Gründe", "Tatbestand", "Entscheidungsgründe", "Leitsatz", "Leitsätze",
             "Orientierungssatz", "Sachverhalt"}


@dataclass
class Sentence:
    tokens: list[str]
    tags: list[str]


@dataclass
class LerDocument:
    """A detokenized document under construction."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    entities: list[dict] = field(default_factory=list)
    spans: list[dict] = field(default_factory=list)
    tokens: int = 0


def read_conll(path) -> Iterator[Sentence]:
    """Sentences of a CoNLL-2002 file (``token TAG`` lines, blank line between sentences)."""
    path = Path(path)
    tokens: list[str] = []
    tags: list[str] = []
    try:
        with open(path, encoding="utf-8") as handle:
            for line_no, line in enumerate(handle, 1):
                line = line.rstrip("\n")
                if not line.strip():
                    if tokens:
                        yield Sentence(tokens, tags)
                        tokens, tags = [], []
                    continue
                token, sep, tag = line.rpartition(" ")
                if not sep or not token:
                    raise InputError("expected 'token TAG'", path, line_no)
                tokens.append(token)
                tags.append(tag)
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path) from None
    if tokens:
        yield Sentence(tokens, tags)


def entity_runs(tags: list[str]) -> list[tuple[int, int, str]]:
    """``(first, last_exclusive, type)`` of each IOB2 entity in a tag sequence."""
    runs = []
    start, kind = None, None
    for i, tag in enumerate(tags + ["O"]):
        inside = tag.startswith("I-") and kind == tag[2:]
        if start is not None and not inside:
            runs.append((start, i, kind))
            start, kind = None, None
        if tag.startswith("B-") or (tag.startswith("I-") and start is None):
            start, kind = i, tag[2:]
    return runs


def detokenize(tokens: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """Join tokens into readable text; returns the text and each token's ``(start, end)``."""
    out: list[str] = []
    offsets = []
    pos = 0
    open_quote = False
    previous = None
    for token in tokens:
        if previous is None or token in _NO_SPACE_BEFORE or previous in _NO_SPACE_AFTER:
            space = False
        elif token == '"' and open_quote:  # closing quote
            space = False
        elif previous == '"' and open_quote:  # just after an opening quote
            space = False
        else:
            space = True
        if token == '"':
            open_quote = not open_quote
        if space:
            out.append(" ")
            pos += 1
        offsets.append((pos, pos + len(token)))
        out.append(token)
        pos += len(token)
        previous = token
    return "".join(out), offsets


def placeholder_runs(tokens: list[str], first: int, last: int) -> list[tuple[int, int]]:
    """Maximal runs ``(first, last_exclusive)`` of placeholder tokens in ``tokens[first:last]``.

    Legal-form abbreviations look like initials but are not placeholders: "Co." and the
    "e. V." of a registered association are left out. A numbered initial before its ellipsis
    ("M1" "…") is one.
    """
    marked = [(bool(GOLD_PLACEHOLDER_TOKEN.match(t)) and t not in _LEGAL_FORM_TOKENS)
              or (bool(_INDEXED_INITIAL.match(t)) and k + 1 < last and tokens[k + 1].startswith(("…", "..")))
              for k, t in enumerate(tokens[first:last], first)]
    for k in range(len(marked) - 1):
        if tokens[first + k] == "e." and tokens[first + k + 1] == "V.":
            marked[k] = marked[k + 1] = False
    runs = []
    k = 0
    while k < len(marked):
        if marked[k]:
            j = k
            while j + 1 < len(marked) and marked[j + 1]:
                j += 1
            runs.append((first + k, first + j + 1))
            k = j + 1
        else:
            k += 1
    return runs


def _starts_paragraph(sentence: Sentence, sentences_in_paragraph: int) -> bool:
    first = sentence.tokens[0]
    if _ENUMERATION.match(first) and (len(first) > 1 or len(sentence.tokens) > 1
                                      and sentence.tokens[1] == ")"):
        return True
    if len(sentence.tokens) <= 2 and first in _HEADINGS:
        return True
    return sentences_in_paragraph >= 5


def build_documents(sentences: Iterable[Sentence], court: str, tokens_per_document: int = 3000
                    ) -> Iterator[dict]:
    """Cut a court's sentence stream into ruling-sized documents with gold spans and entities."""
    number = 0
    doc = LerDocument()
    in_paragraph = 0

    def finish(doc: LerDocument) -> dict:
        return {
            "id": f"ler-{court}-{number:04d}",
            "court": court.upper(),
            "source": "german-ler",
            "text": "".join(doc.parts),
            "spans": doc.spans,
            "entities": doc.entities,
        }

    for sentence in sentences:
        if doc.tokens >= tokens_per_document and _starts_paragraph(sentence, 99):
            yield finish(doc)
            number += 1
            doc = LerDocument()
            in_paragraph = 0
        text, offsets = detokenize(sentence.tokens)
        if doc.parts:
            separator = "\n\n" if _starts_paragraph(sentence, in_paragraph) else " "
            if separator == "\n\n":
                in_paragraph = 0
            doc.parts.append(separator)
            doc.length += len(separator)
        base = doc.length
        for first, last, kind in entity_runs(sentence.tags):
            start, end = base + offsets[first][0], base + offsets[last - 1][1]
            doc.entities.append({"start": start, "end": end, "type": kind})
            if kind not in ANONYMIZED_LER_TAGS:  # the rest the courts left in clear
                continue
            for run_first, run_last in placeholder_runs(sentence.tokens, first, last):
                doc.spans.append({"start": base + offsets[run_first][0],
                                  "end": base + offsets[run_last - 1][1], "type": kind})
        doc.parts.append(text)
        doc.length += len(text)
        doc.tokens += len(sentence.tokens)
        in_paragraph += 1
    if doc.parts:
        yield finish(doc)
