"""Court-style placeholders for real references, and consistent surrogates drawn for them.

What the operators of :mod:`rulings_anon.replacement.operators` put in place of a reference that
``score`` found (``--anonymize``, ``--pseudonymize``). Court style (the placeholders the training
corpus is made of):

* persons: the initial of every name word with a period: "Thilo Kemper" -> "T. K.",
  "Herrn Kemper" -> "Herrn K.", "Thilo von Schmiedeberg" -> "T. v. S.";
* companies and organizations: the initial and the legal form, "Meyer Bau GmbH" -> "M-GmbH" (a
  legal form right after the span is taken in: "Meyer GmbH" with the span "Meyer" -> "M-GmbH");
  without a legal form the initial with a period;
* places, streets, dates, numbers, accounts, e-mail addresses and everything else: "...".

A span without a type gets the type the terminal tool infers from its context
(:func:`rulings_anon.replacement.type_inference.infer_type`: "Herrn Kemper" is a person, "in Kehl" a place).
"""

from __future__ import annotations

import re
from functools import lru_cache

from data import path as data_path
from rulings_anon.document import Span
from rulings_anon.jsonl import read_json

FILLER = "..."
# Reference types (rulings_anon.replacement.surrogates.TYPES, LER tags, recognizer types) -> placeholder style.
STYLE_OF_TYPE = {
    "person": "initials", "PER": "initials", "AN": "initials",
    "company": "company", "UN": "company", "organization": "company", "ORG": "company",
}
_WORD = re.compile(r"[^\s-]+")


@lru_cache(maxsize=1)
def _legal_form_tail() -> re.Pattern:
    """A legal form ending a name, or following it after a space or hyphen."""
    forms = sorted(read_json(data_path("name_affixes.json"))["legal_forms"], key=len, reverse=True)
    alternation = "|".join(re.escape(f).replace(r"\ ", r"\s*") for f in forms)
    return re.compile(rf"[\s-]*(?P<form>{alternation})(?![\w])")


def reference_type(text: str, span: Span) -> str:
    """The span's type, or the type inferred from its context when it has none."""
    if span.type:
        return span.type
    from rulings_anon.replacement.type_inference import infer_type

    return infer_type(text, span.start, span.end)


def _initials(words: str) -> str:
    letters = [w for w in _WORD.findall(words) if w[0].isalpha()]
    return " ".join(f"{w[0]}." for w in letters) or FILLER


def _with_form(initial: str, form: str) -> str:
    """"M-GmbH", "M-GmbH & Co. KG"; a form in lower case or abbreviated keeps a space: "S. e. K."."""
    return f"{initial}-{form}" if form[0].isupper() else f"{initial}. {form}"


def court_placeholder(text: str, span: Span) -> tuple[int, int, str]:
    """``(start, end, placeholder)``: the range to replace (the span, perhaps with a following legal
    form) and the court-style placeholder for it."""
    style = STYLE_OF_TYPE.get(reference_type(text, span))
    piece = text[span.start:span.end]
    if style == "initials":
        return span.start, span.end, _initials(piece)
    if style == "company":
        tail = _legal_form_tail()
        inside = None
        for match in tail.finditer(piece):
            if match.end() == len(piece) and match.start() > 0:
                inside = match
        if inside is not None:
            return span.start, span.end, _with_form(piece[0], inside.group("form"))
        after = tail.match(text, span.end)
        if after is not None and piece[:1].isalpha():
            return span.start, after.end(), _with_form(piece[0], after.group("form"))
        return span.start, span.end, f"{piece[0]}." if piece[:1].isalpha() else FILLER
    return span.start, span.end, FILLER


class Pseudonymizer:
    """Consistent surrogates for the real references of one document.

    A reference is turned into its court-style placeholder first ("Thilo Kemper" -> "T. K.",
    "Meyer GmbH" -> "M-GmbH"), and the terminal tool's generator draws a realistic value for that
    placeholder, keeping initials and legal forms. Person names are mapped word by word, so
    "Thilo Kemper" -> "Tobias Kraus" makes a later "Herrn Kemper" "Herrn Kraus"; every other
    reference keeps its value wherever its text recurs. Two different names never share a value.
    """

    def __init__(self, doc_id: str, seed: int = 0):
        from rulings_anon.replacement.surrogates import NameMemo, SurrogateGenerator

        self.generator = SurrogateGenerator(seed).for_document(doc_id)
        self.used: set[str] = set()
        self.words: dict[str, str] = {}
        self.values: dict[tuple[str, str], str] = {}
        self._memo = NameMemo

    def _draw(self, placeholder: str, kind: str, before: str, original: str) -> str:
        # The original is given, so a surrogate never repeats the real name, even where the only
        # listed name of its initial is that name ("Yilmaz"); marking its words used keeps the draws.
        memo = self._memo(used=self.used | set(original.split()))
        value = self.generator.surrogate(placeholder, kind, before, memo, original)
        self.used |= memo.used - set(original.split())
        return value

    def person(self, name: str, before: str) -> str:
        words = name.split()
        unknown = [w for w in words if w not in self.words and w[:1].isupper()]
        if unknown:
            placeholder = " ".join(f"{w[0]}." if w[:1].isupper() else w for w in words)
            drawn = self._draw(placeholder, "person", before, name).split()
            if len(drawn) == len(words):
                for word, value in zip(words, drawn, strict=True):
                    self.words.setdefault(word, value)
            else:
                return " ".join(drawn)
        return " ".join(self.words.get(w, w) for w in words)

    def other(self, original: str, placeholder: str, kind: str, before: str) -> str:
        key = (kind, original)
        if key not in self.values:
            self.values[key] = self._draw(placeholder, kind, before, original)
        return self.values[key]


# A street word ending a street name ("Hauptstraße", "Hauptstr.", "Birkenweg", "Am Markt").
_STREET_WORD = re.compile(r"(?i:stra(?:ß|ss)e|str\.|weg|platz|gasse|allee|ring|damm|ufer|chaussee|pfad|steig|markt)$")
_HOUSE_NUMBER = re.compile(r"^\d+(?:\s?[a-zA-Z])?(?:[-/]\d+[a-zA-Z]?)?(?P<tail>[,;:.)]*)$")


def real_value_shape(original: str, kind: str) -> str:
    """What the surrogate generator is given for a real (not yet anonymized) value of ``kind``: the
    court-style placeholder of its parts, so that the surrogate keeps its kind and layout. A street
    keeps being a street with its house number: "Hauptstraße 4" -> "H-Straße ..." (a street of
    initial H, then a number) -> "Hirschstraße 57"; a street without a street word ("Unter den
    Linden 5") becomes one of its initial. Other kinds are given as they are."""
    if kind != "street":
        return original
    tokens = original.split()
    shaped, street = [], False
    for token in tokens:
        number = _HOUSE_NUMBER.match(token)
        word = _STREET_WORD.search(token)
        if number:
            shaped.append("..." + number.group("tail"))
        elif word and token[:1].isupper():
            stem = token[:word.start()].rstrip("-")
            suffix = word.group()
            shaped.append(f"{stem[:1]}-{suffix[:1].upper()}{suffix[1:]}" if stem else suffix[:1].upper() + suffix[1:])
            street = True
        elif not street and token[:1].isupper():
            continue  # a name word of a street without a street word: replaced below
        else:
            shaped.append(token)
    if not street:
        initial = next((t[0] for t in tokens if t[:1].isupper()), "")
        numbers = [t for t in shaped if t.startswith("...")]
        shaped = [f"{initial}-Straße" if initial else "Straße", *numbers]
    return " ".join(shaped)


# Recognizer types (rulings_anon/analyzer/recognizers) -> the surrogate generator's types.
_RECOGNIZER_TYPES = {"IBAN": "account", "ACCOUNT": "account", "EMAIL": "email/url", "URL": "email/url",
                     "BIRTH_DATE": "date"}


def surrogate_type(kind: str) -> str:
    """A type the surrogate generator knows (its own names, LER tags, recognizer types)."""
    from rulings_anon.replacement.surrogates import canonical_type

    try:
        return canonical_type(kind)
    except ValueError:
        return _RECOGNIZER_TYPES.get(kind, "number" if kind.isupper() else "other")
