"""Court-style placeholders for real references, and consistent surrogates drawn for them.

What the operators of :mod:`rulings_anon.replacement.operators` put in place of a reference that
``score`` found (``--anonymize``, ``--pseudonymize``). Court style (the placeholders the training
corpus is made of):

* persons: the initial of every name word with a period: "Thilo Kemper" -> "T. K.",
  "Herrn Kemper" -> "Herrn K.", "Thilo von Schmiedeberg" -> "T. v. S.";
* companies and organizations: the initial of every word of the name, without periods, and the
  legal form, "Meyer Bau GmbH" -> "M B GmbH", "Wimmer & Söhne KG" -> "W & S KG" (the commonest form
  in the bundled courts' rulings, see docs/experiments.md); a name that a legal form follows, after
  at most three more words of the name, is taken in whole ("die Wimmer Logistik GmbH" with the
  span "Wimmer" -> "die W L GmbH": no word of it is left to locate the party), whatever type the
  span has; without a legal form the initial with a period;
* places, streets, dates, numbers, accounts, e-mail addresses and everything else: "...".

An initial is a whole letter of the composed text: "Öztürk" written decomposed (NFD) -> "Ö.".

A span without a type gets the type the terminal tool infers from its context
(:func:`rulings_anon.replacement.type_inference.infer_type`: "Herrn Kemper" is a person, "in Kehl" a place),
or, where its context says nothing, the type another mention of the same words has by its own.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rulings_anon.data import path as data_path
from rulings_anon.document import Span
from rulings_anon.entity_types import RECOGNIZER_TYPES, STYLE_OF_TYPE
from rulings_anon.jsonl import read_json

FILLER = "..."
_WORD = re.compile(r"[^\s-]+")


@lru_cache(maxsize=1)
def _legal_form_tail() -> re.Pattern:
    """A legal form ending a name, or following it after a space or hyphen, as a whole word ("KAG"
    holds no "AG"); the hyphenated ones only after a hyphen ("Danninger-KAG", not "nach dem KAG")."""
    affixes = read_json(data_path("name_affixes.json"))
    forms = sorted(affixes["legal_forms"], key=len, reverse=True)
    alternation = "|".join(re.escape(f).replace(r"\ ", r"\s*") for f in forms)
    hyphenated = "|".join(map(re.escape, affixes["hyphenated_legal_forms"]))
    return re.compile(rf"(?:[\s-]*(?<![^\s-])(?P<form>{alternation})|-(?P<hyphenated>{hyphenated}))(?![\w])")


def _form(match: re.Match) -> str:
    """The legal form a match of :func:`_legal_form_tail` holds."""
    return match.group("form") or match.group("hyphenated")


def reference_type(text: str, span: Span) -> str:
    """The span's type, or the type inferred from its context when it has none; where its context
    says nothing, the type another mention of the same words has by its own ("Geschäftsführer
    Christen" is a person, so "Danach hat Christen nichts getan" is one too: one name, one
    placeholder, "C.")."""
    if span.type:
        return span.type
    from rulings_anon.replacement.type_inference import infer_type

    kind = infer_type(text, span.start, span.end)
    return _mention_type(text, text[span.start:span.end]) or kind if kind == "other" else kind


@lru_cache(maxsize=256)  # a document's pieces: its text is hashed once, and few documents are held
def _mention_type(text: str, piece: str) -> str | None:
    """The first type other than ``other`` that a mention of ``piece`` (a capitalized name) in
    ``text`` has by its context, or None."""
    from rulings_anon.replacement.type_inference import infer_type

    if not piece[:1].isupper():
        return None
    for match in re.finditer(rf"(?<!\w){re.escape(piece)}(?!\w)", text):
        kind = infer_type(text, match.start(), match.end())
        if kind != "other":
            return kind
    return None


def initial(word: str) -> str:
    """The first letter of ``word`` as one composed grapheme ("O" + combining diaeresis -> "Ö")."""
    word = unicodedata.normalize("NFC", word)
    end = 1
    while end < len(word) and unicodedata.combining(word[end]):
        end += 1
    return word[:end]


def _initials(words: str) -> str:
    letters = [w for w in _WORD.findall(unicodedata.normalize("NFC", words)) if w[0].isalpha()]
    return " ".join(f"{initial(w)}." for w in letters) or FILLER


_JOINERS = ("&", "+", "und")  # kept between the initials of a company name: "W & S KG"


@lru_cache(maxsize=1)
def _name_then_form() -> re.Pattern:
    """At most three more words of a company's name, then its legal form: " Logistik GmbH"."""
    words = r"(?P<words>(?:[ \t]+(?:[A-ZÄÖÜ][\w'’]*(?:-[\w'’]+)*|&|\+|und)){0,3}?)"
    return re.compile(words + _legal_form_tail().pattern)


def _company(name: str, form: str) -> str:
    """"M B GmbH", "W & S KG", "S e. K.": the initials of the name's words and the legal form."""
    letters = [initial(w) if w[0].isalpha() and w not in _JOINERS else w
               for w in _WORD.findall(unicodedata.normalize("NFC", name)) if w[0].isalpha() or w in _JOINERS]
    return f"{' '.join(letters)} {form}" if letters and letters[0] not in _JOINERS else FILLER


def _shape(name: str, form: str) -> str:
    """What a surrogate of a company is drawn for: "M-GmbH", "S. e. K." (one name word and the form)."""
    first = initial(name.strip())
    return f"{first}-{form}" if form[0].isupper() else f"{first}. {form}"


def court_placeholder(text: str, span: Span, surrogate_shape: bool = False) -> tuple[int, int, str]:
    """``(start, end, placeholder)``: the range to replace (the span, perhaps with the rest of a
    company's name and its legal form after it) and the court-style placeholder for it; with
    ``surrogate_shape`` a company's is the shape its surrogate is drawn for ("M-GmbH")."""
    company = _shape if surrogate_shape else _company
    style = STYLE_OF_TYPE.get(reference_type(text, span))
    piece = text[span.start:span.end]
    if piece[:1].isupper() and not any(c.isdigit() for c in piece):  # a company's name, whatever its type
        inside = None
        for match in _legal_form_tail().finditer(piece):
            if match.end() == len(piece) and match.start() > 0:
                inside = match
        if inside is not None:
            return span.start, span.end, company(piece[:inside.start()], _form(inside))
        after = _name_then_form().match(text, span.end)
        if after is not None:
            return span.start, after.end(), company(piece + after.group("words"), _form(after))
    if style == "initials":
        return span.start, span.end, _initials(piece)
    if style == "company":
        return span.start, span.end, f"{initial(piece)}." if piece[:1].isalpha() else FILLER
    return span.start, span.end, FILLER


class Pseudonymizer:
    """Consistent surrogates for the real references of one document, which a reader does not notice.

    Person names are mapped word by word, so "Thilo Kemper" -> "Tobias Kraus" makes a later
    "Herrn Kemper" "Herrn Kraus"; a genitive keeps its ending ("Kempers" -> "Krauses" is "Kraus'",
    "Schulzes" -> "Webers"); a first name gets a first name of the same gender (from the name lists,
    else "Frau"/"Herr" or a feminine noun before it), a surname a surname, each keeping its initial.
    A place or an organization keeps one value wherever it recurs, whatever type a mention got;
    plates, phone numbers, e-mail addresses and IBANs get a value of the same format
    (:mod:`rulings_anon.replacement.formatted_values`); other references a value drawn for their
    court-style placeholder. No surrogate repeats its original, and two entities never share one.
    A :class:`~rulings_anon.replacement.surrogate_mapping.SurrogateMapping` given as ``mapping``
    is consulted first and extended, so a case's rulings share their surrogates.
    """

    def __init__(self, doc_id: str, seed: int = 0, mapping=None):
        from rulings_anon.replacement.surrogates import NameMemo, SurrogateGenerator

        self.generator = SurrogateGenerator(seed).for_document(doc_id)
        self.mapping = mapping
        self.used: set[str] = set()
        if mapping is not None:
            self.used = {word for value in mapping.surrogates() for word in value.split()}
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

    def _known(self, kind: str, original: str) -> str | None:
        return self.mapping.get(kind, original) if self.mapping is not None else None

    def _remember(self, kind: str, original: str, value: str) -> None:
        if self.mapping is not None:
            self.mapping.put(kind, original, value)

    def _word(self, word: str, first_name: bool, context: str) -> str:
        """The surrogate of one name word (each part of a hyphenated one on its own)."""
        from rulings_anon.replacement.surrogates import plain_name

        if "-" in word.strip("-"):
            return "-".join(self._word(part, first_name, context) if part[:1].isupper() else part
                            for part in word.split("-"))
        key = plain_name(word)
        value = self.words.get(key) or self._known("person", key)
        if value is None:
            pool = first_name_pool(word, context, self.generator.rng) if first_name else "surname"
            memo = self._memo(used=set(self.used))
            memo.avoid(word)
            for _ in range(5):  # not a near copy either: "Tom" for "Thomas", "Schulz" for "Schulze"
                value = self.generator.name(pool, word[:1], memo, "person")
                if not near_copy(plain_name(value), key):
                    break
                memo.names.clear()
            self._remember("person", key, value)
        self.words[key] = value
        self.used.add(value)
        return value

    def _genitive_base(self, word: str, text: str, end: int | None) -> str | None:
        """The name a genitive ``word`` inflects ("Schulzes" -> "Schulze", "Fuchs'" -> "Fuchs"), or None."""
        from rulings_anon.replacement.surrogates import plain_name

        if word[-1:] in ("'", "’") and len(word) > 2:
            return word[:-1]
        if not word.endswith("s") or len(word) < 4:
            return None
        base = word[:-1]
        if plain_name(base) in self.words or self._known("person", plain_name(base)) is not None:
            return base
        if text and re.search(rf"(?<!\w){re.escape(base)}(?!\w)", text):
            return base  # the name is also in the ruling without the ending
        after = text[end:end + 40] if text and end is not None else ""
        if base[-1] not in "suaioxzßhj" and re.match(r"[ \t]+[A-ZÄÖÜ][a-zäöüß]{2,}", after):
            return base  # "Frau Schulzes Antrag": a noun follows the name
        return None

    def person(self, name: str, before: str, text: str = "", end: int | None = None) -> str:
        """The surrogate of a person's name ``name`` (``before`` it in ``text``; ``end`` is where it ends there)."""
        from rulings_anon.replacement.surrogates import genitive

        words = name.split()
        names = [i for i, w in enumerate(words) if w[:1].isupper() and not _ABBREVIATION.match(w)]
        if not names:  # written in small letters (a user name, "schattenwolf88"): a surname in small letters
            return self._word(name[:1].upper() + name[1:], False, before).lower() if name.strip() else name
        last = names[-1]
        out = []
        for i, word in enumerate(words):
            if i not in names:
                out.append(word)
                continue
            context = " ".join([before, *words[:i]])
            if i == last and (len(names) > 1 or not is_first_name(word)):
                base = self._genitive_base(word, text, end)
                value = self._word(base or word, False, context)
                out.append(genitive(value) if base else value)
            else:
                out.append(self._word(word, True, context))
        return " ".join(out)

    def other(self, original: str, placeholder: str, kind: str, before: str) -> str:
        from rulings_anon.replacement.formatted_values import formatted_surrogate, kind_of
        from rulings_anon.replacement.surrogate_mapping import normalized

        form = kind_of(original)
        group = form or ("name" if kind in ("place", "organization", "company", "other") else kind)
        key = (group, normalized(original))
        if key not in self.values:
            value = self._known(*key)
            if value is None and form is not None:
                pools = self.generator._pools
                value = formatted_surrogate(original, self.generator.rng, pools["first_male"] + pools["first_female"],
                                            pools["surname"])
            if value is None:
                value = self._draw(placeholder, kind, before, original)
            self._remember(*key, value)
            self.values[key] = value
            self.used |= set(value.split())
        return self.values[key]


def near_copy(a: str, b: str) -> bool:
    """Whether two plain names read nearly alike: one starts the other, or most letters agree."""
    from difflib import SequenceMatcher

    return a.startswith(b) or b.startswith(a) or SequenceMatcher(None, a, b).ratio() >= 0.6


_ABBREVIATION = re.compile(r"^[A-ZÄÖÜ][a-zäöü]{0,4}\.$")  # "Dr.", "Prof.", an initial "T."


@lru_cache(maxsize=1)
def _first_names() -> tuple[frozenset, frozenset, frozenset]:
    from rulings_anon.replacement.surrogates import german_pools

    pools = german_pools()
    return frozenset(pools["first_female"]), frozenset(pools["first_male"]), frozenset(pools["surname"])


def is_first_name(word: str) -> bool:
    """Whether ``word`` is a listed first name that is no listed surname."""
    female, male, surnames = _first_names()
    return (word in female or word in male) and word not in surnames


def first_name_pool(word: str, context: str, rng) -> str:
    """The pool of a first name's surrogate: the gender of the name lists, else of the context
    ("Frau", "Herrn", "die Klägerin"), else drawn."""
    from rulings_anon.replacement.surrogates import _FEMALE_CUE, _MALE_CUE

    female, male, _ = _first_names()
    if word in female and word not in male:
        return "first_female"
    if word in male and word not in female:
        return "first_male"
    if _FEMALE_CUE.search(context):
        return "first_female"
    if _MALE_CUE.search(context):
        return "first_male"
    return rng.choice(("first_male", "first_female"))


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


def surrogate_type(kind: str) -> str:
    """A type the surrogate generator knows (its own names, LER tags, recognizer types)."""
    from rulings_anon.replacement.surrogates import canonical_type

    try:
        return canonical_type(kind)
    except ValueError:
        return RECOGNIZER_TYPES.get(kind, "number" if kind.isupper() else "other")
