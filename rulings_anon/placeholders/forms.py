"""What an element looks like on its own: the forms of placeholders and of their neighbours.

The context rules and the designators of a document both ask the same questions of a single
element: its *core* (without brackets, quotes and trailing punctuation), its *form* ("obvious", or
"potential" with the pattern it matched, or plain text), and the word classes of a neighbour (a name
in clear, a designator noun, a court or authority). They live here, apart from any context, so that
the learned judge reads an element exactly as the rules do. The patterns and word lists are data,
each with a reason (``rulings_anon/data/placeholder_patterns.json``, abbreviations also from ``rulings_anon/data/abbreviations/``);
:class:`Patterns` compiles them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from rulings_anon.data import path as data_path
from rulings_anon.data import resource_lines
from rulings_anon.jsonl import read_json
from rulings_anon.lexicon import common_noun

BARE_LETTER = ("potential", "single_letter")


def is_common_noun(word: str) -> bool:
    """Whether the German noun lexicon lists a word (its last hyphenated part) as a common noun and
    no name ("Physiotherapie-Partnerschaft" yes; "Müller", and "Hammetter" that only looks like a
    compound, no)."""
    return common_noun(word.rstrip(".,;:").rsplit("-", 1)[-1], compounds=False)


class _AnyOf:
    """Several regular expressions matched in turn (each keeps its own group numbers)."""

    def __init__(self, patterns: list[re.Pattern]):
        self.patterns = patterns

    def match(self, text: str) -> bool:
        return any(p.match(text) for p in self.patterns)


def _person_roles() -> frozenset[str]:
    """The ranks, role nouns and relatives before a person's name ("Oberst Sch.", "Referatsleiter
    XX", "Lebensgefährtin B"), lower-cased: ``person_roles`` and ``relatives`` of
    ``rulings_anon/data/name_affixes.json``, which the sensitivity features share."""
    table = read_json(data_path("name_affixes.json"))
    return frozenset(word.lower() for word in table["person_roles"] + table["relatives"])


@dataclass(frozen=True)
class Patterns:
    """The compiled contents of ``placeholder_patterns.json``."""

    obvious: _AnyOf
    shape: dict[str, re.Pattern]  # the forms of neighbouring elements that the context rules test
    potential: dict[str, re.Pattern]
    strip_leading: str
    strip_trailing: str
    abbreviations: dict[str, list[tuple[str, ...]]]
    two_letter_abbreviations: frozenset[str]
    letter_compounds: frozenset[str]
    reference_words: frozenset[str]
    person_triggers: frozenset[str]
    legal_forms: frozenset[str]
    street_words: frozenset[str]
    roman_numerals: frozenset[str]
    letter_suffix_words: frozenset[str]
    ordinal_nouns: frozenset[str]
    court_codes: frozenset[str]
    reference_followers: frozenset[str]
    reference_suffixes: tuple[str, ...]
    function_words: frozenset[str]
    section_followers: frozenset[str]
    month_names: frozenset[str]
    amount_units: frozenset[str]
    cross_reference_openers: frozenset[str]
    public_body_endings: tuple[str, ...]
    statute_word_endings: tuple[str, ...]
    range_words: frozenset[str]
    list_joiners: frozenset[str]
    roman_labels: frozenset[str]
    dashes: tuple[str, ...]
    roman_joiners: tuple[str, ...]
    open_quotes: str
    lower_roman_items: frozenset[str]
    close_quotes: str
    # single-element abbreviations of the resource (``abbreviation_resource``): "St.", "Abb."
    listed_abbreviations: frozenset[str]
    citation_in_words: frozenset[str]
    formula_signs: frozenset[str]
    name_head_endings: tuple[str, ...]
    unit_words: frozenset[str]
    label_verbs: frozenset[str]
    unknown_letters: re.Pattern
    name_particles: frozenset[str]
    genitive_marks: frozenset[str]
    editor_marks: tuple[str, ...]
    author_joins: frozenset[str]

    @classmethod
    def load(cls, file=None) -> Patterns:
        with open(file or data_path("placeholder_patterns.json"), encoding="utf-8") as handle:
            raw = json.load(handle)
        obvious = _AnyOf([re.compile(p) for p in raw["obvious"].values()])
        resource = resource_lines(*raw["abbreviation_resource"].split("/"))
        abbreviations: dict[str, list[tuple[str, ...]]] = {}
        for abbreviation in raw["abbreviations"] + [a for a in resource if "." in a[:-1]]:
            for words in {tuple(abbreviation.split()), tuple(_ABBREVIATION_PARTS.findall(abbreviation))}:
                if words and words not in abbreviations.get(words[0], ()):
                    abbreviations.setdefault(words[0], []).append(words)
        for words in abbreviations.values():
            words.sort(key=len, reverse=True)
        return cls(
            obvious=obvious,
            shape={name: re.compile(p) for name, p in raw["shapes"].items()},
            potential={name: re.compile(p) for name, p in raw["potential"].items()},
            strip_leading=raw["strip_leading"],
            strip_trailing=raw["strip_trailing"],
            abbreviations=abbreviations,
            two_letter_abbreviations=frozenset(raw["abbreviations_two_letters"]),
            letter_compounds=frozenset(raw["letter_compounds"]),
            reference_words=frozenset(raw["reference_words"]),
            person_triggers=frozenset(raw["person_triggers"]) | _person_roles(),
            legal_forms=frozenset(raw["legal_forms"]),
            street_words=frozenset(raw["street_words"]),
            roman_numerals=frozenset(raw["roman_after_code"]),
            letter_suffix_words=frozenset(raw["letter_suffix_words"]),
            ordinal_nouns=frozenset(raw["ordinal_nouns"]),
            court_codes=frozenset(raw["court_codes"]),
            reference_followers=frozenset(raw["reference_followers"]),
            reference_suffixes=tuple(raw["reference_suffixes"]),
            function_words=frozenset(raw["function_words"]),
            section_followers=frozenset(raw["section_followers"]),
            month_names=frozenset(raw["month_names"]),
            amount_units=frozenset(raw["amount_units"]),
            cross_reference_openers=frozenset(raw["cross_reference_openers"]),
            public_body_endings=tuple(raw["public_body_endings"]),
            statute_word_endings=tuple(raw["statute_word_endings"]),
            range_words=frozenset(raw["range_words"]),
            list_joiners=frozenset(raw["list_joiners"]),
            roman_labels=frozenset(raw["roman_labels"]),
            dashes=tuple(raw["dashes"]),
            roman_joiners=tuple(raw["roman_joiners"]),
            open_quotes=raw["open_quotes"],
            lower_roman_items=frozenset(raw["lower_roman_items"]),
            close_quotes=raw["close_quotes"],
            listed_abbreviations=frozenset(a for a in resource if "." not in a[:-1]),
            citation_in_words=frozenset(raw["citation_in_words"]),
            formula_signs=frozenset(raw["formula_signs"]),
            name_head_endings=tuple(raw["name_head_endings"]),
            unit_words=frozenset(raw["unit_words"]),
            label_verbs=frozenset(raw["label_verbs"]),
            unknown_letters=re.compile(raw["unknown_letters"]),
            name_particles=frozenset(raw["name_particles"]),
            genitive_marks=frozenset(raw["genitive_marks"]),
            editor_marks=tuple(raw["editor_marks"]),
            author_joins=frozenset(raw["author_joins"]),
        )


# "i.d.R." -> "i.", "d.", "R.": the elements an abbreviation written with spaces has
_ABBREVIATION_PARTS = re.compile(r"[^.\s]+\.|[^.\s]+$")


@lru_cache(maxsize=4)
def load_patterns(file=None) -> Patterns:
    """The patterns of a file (default: the shipped ones), compiled once per process."""
    return Patterns.load(file)


class Forms:
    """The form of an element and the word classes of its neighbours, read with one set of patterns.

    Elements repeat a lot, so each element's form is cached (up to 200,000 strings)."""

    def __init__(self, patterns: Patterns):
        self.p = patterns
        self._forms: dict[str, tuple[str, str | None] | None] = {}

    def core(self, element: str) -> str:
        """The element without surrounding brackets/quotes and trailing , ; : ! ?

        A sentence period after a closing bracket or after an abbreviation period goes too:
        "(E)." -> "E", "B.." -> "B.".
        """
        core = element.lstrip(self.p.strip_leading).rstrip(self.p.strip_trailing)
        while core.endswith(".") and len(core) > 1 and core[-2] in self.p.strip_trailing:
            core = core[:-1].rstrip(self.p.strip_trailing)
        if core.endswith("..") and not core.endswith("..."):
            core = core[:-1]
        return core

    def norm(self, element: str | None) -> str:
        """The core lower-cased, "" for no element: how the rules compare a neighbour to a word list."""
        return self.core(element).lower() if element else ""

    def form(self, raw: str) -> tuple[str, str | None] | None:
        """What the element looks like on its own: ``(kind, pattern)`` or None for plain text.

        ``kind`` is "obvious" or "potential"; ``pattern`` the potential pattern's name.
        """
        try:
            return self._forms[raw]
        except KeyError:
            pass
        result = None
        # Cheap pre-filter: an element can only be a placeholder if it holds an ellipsis, an "@",
        # a "www."/"http", or its core has a short letter run (one or two letters, then a period, a
        # hyphen or its end) or repeats one letter three times. Plain words never reach the rules.
        if self.p.shape["candidate"].search(raw):
            core = self.core(raw)
            omission = self.p.shape["word_with_ellipsis"].match(core)
            if omission and omission.group(1) in self.p.function_words:
                result = None  # "und…", "des…": words left out of a quotation
            elif core.rstrip(".…") in self.p.amount_units:
                result = None  # "EUR…": an amount left out, no name
            elif self.p.obvious.match(raw) or self.p.obvious.match(core):
                result = ("obvious", None)
            else:
                matched = next((name for name, rx in self.p.potential.items() if rx.match(core)), None)
                if matched is not None:
                    result = ("potential", matched)
        if len(self._forms) < 200_000:
            self._forms[raw] = result
        return result

    def is_initial(self, core: str) -> bool:
        """Whether ``core`` has the form of a capital initial ("B.", "K")."""
        return bool(self.p.potential["single_letter"].match(core))

    def is_suffix(self, element: str | None) -> bool:
        """Whether an element is a hyphenated suffix that continues the one before ("-kreis")."""
        return element is not None and bool(self.p.shape["hyphen_suffix"].match(element))

    def name_like(self, word: str) -> bool:
        """A capitalized word that may be a surname in clear: not an article, trigger, legal
        form, reference word or company word."""
        lower = word.lower()
        return (bool(self.p.shape["plain_word"].match(word)) and lower not in self.p.function_words
                and lower not in self.p.person_triggers and word not in self.p.legal_forms
                and lower not in self.p.reference_words and word not in self.p.letter_suffix_words)

    def designator(self, word: str) -> bool:
        """Whether a (lower-case) word is a compound noun naming a designator, also in the
        genitive: "Steuerklasse", "Hilfsantrags", "Merkzeichens"."""
        if len(word) <= 6 or not word.isalpha():
            return False
        stem = word[:-2] if word.endswith("es") else word[:-1] if word.endswith("s") else word
        return word.endswith(self.p.reference_suffixes) or stem.endswith(self.p.reference_suffixes)

    def public_body(self, word: str) -> bool:
        """Whether a word names a court or an authority ("Amtsgerichts", "Finanzamt"): a letter
        after it is the seat, not a placeholder of the gold. Not an abbreviated court:
        "Richterin am LSG G." is a judge the court anonymized."""
        return word.lstrip(self.p.strip_leading).lower().endswith(self.p.public_body_endings)

    def noun_head(self, word: str) -> str | None:
        """A capitalized word of letters alone, lower-cased without its plural or genitive ending
        ("Kontaktfedern" -> "kontaktfeder"); None for any other element."""
        if not (word[:1].isupper() and word.isalpha() and len(word) > 3):
            return None
        return self.p.shape["noun_ending"].sub("", word.lower())
