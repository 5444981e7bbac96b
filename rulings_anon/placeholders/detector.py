"""Rule-based placeholder detection (thesis 5.3.2, appendix A.1): the weak labels.

Courts replace every sensitive reference by a placeholder ("Herr K.", "die M-GmbH",
"in ... wohnhaft", "Xxxxx"). The detector finds them with a sliding window over whitespace text
elements: each element is classified from itself (the *candidate*) and its *predecessor* and
*successor*.

* **Obvious** placeholders are marked as such by their form ("K." in quotes, "Xxxxx",
  "...-Straße"): placeholders wherever they stand.
* **Potential** placeholders ("K.", "N", "...", "M-GmbH") are placeholders unless the context
  says otherwise: an abbreviation ("a. a. O.", "i. V. m."), a page, margin number or appendix
  reference ("S. 24", "Rn. 12", "Anlage A 34"), a case number ("5 C 40.84", "IX ZB 72/08"),
  a statute reference ("§ 35 a", "SGB V", "LandesVO L. K."), an omission inside a quotation,
  the first initial of a name in clear (a judge's signature, a cited author), and what the
  issue's gold does not count: a court's or authority's seat ("Amtsgericht P."), an amount or a
  date left out ("von X €", "vom ... Januar 1984").

Citations name no one anonymized: case names with "/" ("Hutchinson / U. K."), cited authors'
initials ("W. - R. Schenke, in:"); and letters a document hands out in alphabetical order after
one noun are labels ("Kanal A ... Kanal B").

All patterns, word lists and the element shapes the context rules test are data, each with a
reason: ``data/placeholder_patterns.json`` (abbreviations also from ``data/abbreviations/``); this
module keeps the mechanism.

Two views of the result: :meth:`PlaceholderDetector.label_elements` says, per element, whether
it is a placeholder (the labels models train on); :meth:`PlaceholderDetector.detect` returns
spans where a placeholder of several elements ("Herr K. B." -> "K. B.", "R. straße 4",
"M-GmbH & Co. KG") is one span, with offsets into the input text.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from data import path as data_path
from data import resource_lines
from rulings_anon import signatures
from rulings_anon.document import Element, Span, keeps_period, split_elements
from rulings_anon.jsonl import read_json
from rulings_anon.lexicon import COMMON_NOUN, PERSON_NAME, common_noun, noun_bits

from .paragraphs import extract_paragraphs

SOURCE = "placeholder-rules"



_BARE_LETTER = ("potential", "single_letter")


def _common_noun(word: str) -> bool:
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
    ``data/name_affixes.json``, which the sensitivity features share."""
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
        )


# "i.d.R." -> "i.", "d.", "R.": the elements an abbreviation written with spaces has
_ABBREVIATION_PARTS = re.compile(r"[^.\s]+\.|[^.\s]+$")


@lru_cache(maxsize=4)
def load_patterns(file=None) -> Patterns:
    return Patterns.load(file)


# Cheap pre-filter: an element can only be a placeholder if it holds an ellipsis, an "@",
# a "www."/"http", or its core has a short letter run (one or two letters, then a period, a
# hyphen or its end) or repeats one letter three times. Plain words never reach the rules.


@dataclass(frozen=True)
class _Window:
    """A potential placeholder with its neighbours, as the context rules read them."""

    texts: list[str]
    i: int
    core: str  # the element without surrounding punctuation
    pattern: str  # the potential pattern it matched
    raw: str
    pred: str | None
    succ: str | None
    pred_norm: str
    succ_core: str
    after_succ: str  # the element after the successor, "" at the end

    @classmethod
    def at(cls, texts: list[str], i: int, core: str, pattern: str, detector: PlaceholderDetector) -> _Window:
        pred = texts[i - 1] if i > 0 else None
        succ = texts[i + 1] if i + 1 < len(texts) else None
        return cls(texts, i, core, pattern, texts[i], pred, succ, detector._norm(pred),
                   detector.core(succ) if succ else "", texts[i + 2] if i + 2 < len(texts) else "")


class PlaceholderDetector:
    """Finds anonymization placeholders in paragraphs or whole documents."""

    def __init__(self, patterns: Patterns | None = None, judge=None):
        """``judge``: a :class:`rulings_anon.placeholders.judge.PlaceholderModel` that decides every
        candidate from the rules' judgements and its window (None: the rules decide alone)."""
        self.p = patterns or load_patterns()
        self._forms: dict[str, tuple[str, str | None] | None] = {}
        self.judge = judge
        # designator nouns (see :meth:`designators`) of the document being labelled (its
        # paragraphs; None: each paragraph alone) and of the paragraph, found when first needed
        self._document_paragraphs = None
        self._document_designators: frozenset[str] | None = None
        self._paragraph: list[str] = []
        self._designators: frozenset[str] | None = None
        self._featurizer = None

    # -- element level ------------------------------------------------------------------

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

    def _norm(self, element: str | None) -> str:
        return self.core(element).lower() if element else ""

    def form(self, raw: str) -> tuple[str, str | None] | None:
        """What the element looks like on its own: ``(kind, pattern)`` or None for plain text.

        ``kind`` is "obvious" or "potential"; ``pattern`` the potential pattern's name. Elements
        repeat a lot, so results are cached per element string.
        """
        try:
            return self._forms[raw]
        except KeyError:
            pass
        result = None
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

    def classify(self, texts: list[str], i: int) -> str | None:
        """``"obvious"``, ``"potential"`` or None for element ``i`` of the element texts."""
        form = self.form(texts[i])
        if form is None:
            return None
        kind, pattern = form
        if kind == "potential" and self._rejected(texts, i, self.core(texts[i]), pattern):
            return None
        return kind

    def _rejected(self, texts: list[str], i: int, core: str, pattern: str) -> bool:
        """The context rules that turn a potential placeholder into ordinary text, in groups: an
        omission, abbreviations and designations, hyphenated letter words, the contexts of single
        letters and initials, references, and a letter before a word in clear."""
        w = _Window.at(texts, i, core, pattern, self)
        if pattern == "simple_ellipsis":
            return self._omission(w)
        if core in self.p.two_letter_abbreviations:
            return True
        if w.pred_norm in self.p.unit_words and self.p.unknown_letters.match(core):
            return False  # "Abteilung X des BND", "Referat XY": a unit left unnamed
        if pattern == "surname_abbreviation":
            return self._abbreviation(w)
        if core in self.p.listed_abbreviations and w.succ and w.succ[0].isupper() \
                and w.succ_core.lower() not in self.p.function_words:
            return True  # "St. Petersburg", "Bd. II"; "St. habe" is a name cut short
        if pattern in ("single_letter", "initials", "two_letters") and self._suffix(w.succ):
            return False  # "Landratsamt E. -kreis": an initial before a hyphenated suffix names a place
        if self._abbreviation_or_designation(w) or self._citation(w) or self._label(w):
            return True
        if pattern in ("letter_suffix", "hyphen_initials"):
            # "M-GmbH", "H-Stadt", "M-R" are placeholders; "E-Shop", "A-Öffner" are words
            rest = core.split("-", 1)[1].rstrip(".")
            stem = self.p.shape["genitive_ending"].sub("", rest)  # genitive: "A-Vereins", "K-Konzerns"
            return not (rest in self.p.letter_suffix_words or stem in self.p.letter_suffix_words
                        or rest[:1].upper() + rest[1:] in self.p.letter_suffix_words  # "E.-kreis"
                        or rest in self.p.legal_forms
                        or self.p.potential["hyphen_initials"].match(core)
                        or self.p.shape["hyphen_initials_rest"].match(rest))
        if self._letter_in_context(w) or self._reference(w) or self._before_word_in_clear(w):
            return True
        if pattern == "single_lower_letter" and self.p.shape["lower_initial"].match(core) and core not in self.p.name_particles \
                and w.succ_core.endswith(".") and self.classify_simple(w.succ_core):
            return True  # "d. R.", "i. G.": a lower-case abbreviation completed by a capital one
        if pattern == "single_lower_letter":
            # "a", "b" are list items or abbreviations unless a name or legal form is next to them
            name_next = w.succ is not None and (
                w.succ_core in self.p.legal_forms or self.classify_simple(w.succ_core)
            )
            return not (w.pred_norm in self.p.person_triggers or name_next)
        return False

    def rejection_groups(self, texts: list[str], i: int, pattern: str) -> tuple[str, ...]:
        """Which of :meth:`_rejected`'s context groups turn potential placeholder ``i`` into
        ordinary text, each by name (the learned judge reads them as features)."""
        w = _Window.at(texts, i, self.core(texts[i]), pattern, self)
        if pattern == "simple_ellipsis":
            return ("omission",) if self._omission(w) else ()
        groups = (("designation", self._abbreviation_or_designation), ("letter_context", self._letter_in_context),
                  ("reference", self._reference), ("before_clear", self._before_word_in_clear),
                  ("citation", self._citation), ("label", self._label))
        return tuple(name for name, rule in groups if rule(w))

    def _abbreviation(self, w: _Window) -> bool:
        """Whether a shortened word ("Sch.", "St.", "Abb.") is an abbreviation, not a surname cut short.

        A surname cut short stands where a name is expected: after a person word or an initial
        the detector keeps ("Herrn Sch.", "an E. Sch."), and, unless a resource lists it as an
        abbreviation or it is a word of the noun lexicon ("St.", "Abb.", "Uhr."), also after an
        article or preposition or a noun that heads a place's or firm's name ("in Sch.", "Stadtkreis
        Sch.", "Betrieb Sch.")."""
        core, pred = w.core, w.pred
        if core.lower() in self.p.reference_words or core in self.p.legal_forms:
            return True  # "von Art. 3", "T Inc."
        if (w.pred_norm in self.p.person_triggers and w.pred_norm not in self.p.function_words) \
                or self._initial_before(w.texts, w.i):
            return False
        if core in self.p.listed_abbreviations:
            return True
        name_slot = pred is not None and pred.isalpha() and (
            w.pred_norm in self.p.function_words or w.pred_norm.endswith(self.p.name_head_endings))
        if not name_slot or (w.succ and w.succ[0].isupper() and w.succ_core.lower() not in self.p.function_words):
            return True  # "der Nds. MasterVO": an abbreviation before its noun
        return _common_noun(core.rstrip(".")) or self._reference(w)

    def _citation(self, w: _Window) -> bool:
        """Initials in a citation: a case name with "/" ("Hutchinson / U. K.", "G. R. / Niederlande",
        "Bogner B / Barbie B") or a cited author's first initials before a surname in clear that a
        citation continues ("W. - R. Schenke, in:", "H. Maurer, Verwaltungsrecht, 2011") or after a
        surname before "in" ("Claßen A. in Lademann")."""
        if w.pattern not in ("single_letter", "initials", "two_letters"):
            return False
        texts = w.texts
        start, end = self._initial_run(texts, w.i)
        before = texts[start - 1] if start > 0 else ""
        after = texts[end + 1] if end + 1 < len(texts) else ""
        if (before == "/" and start > 1 and self._name_like(texts[start - 2].rstrip(",;"))) or (
                after == "/" and end + 2 < len(texts) and self._name_like(self.core(texts[end + 2]).rstrip("."))):
            return True  # a case name: "Hutchinson / U. K.", "G. R. / Niederlande"
        if before and self._name_like(before) and start > 1 and texts[start - 2] == "/":
            return True  # "Bogner B / Barbie B": the second party's letter
        if not w.core.endswith("."):
            return False  # a cited author's first name is written with a period: "H. Maurer"
        if (before and self._name_like(before) and after in self.p.citation_in_words
                and end + 2 < len(texts) and self._name_like(texts[end + 2].rstrip(",;"))):
            return True  # "Claßen A. in Lademann"
        if not (after and self._name_like(after.rstrip(","))):
            return False
        k = end + 2  # after the surname
        if k < len(texts) and texts[k] in self.p.citation_in_words:
            return True  # "W. - R. Schenke, in:", "K. Schneider in Littmann"
        if not after.endswith(",") or self._norm(before) in self.p.person_triggers:
            return False
        for word in texts[k:k + 8]:  # "H. Maurer, Allgemeines Verwaltungsrecht, 2011"
            if self.p.shape["citation_year"].match(word):
                return True
            if word.endswith((".", ";", ":")) and not word.rstrip(".").isdigit():
                return False
        return False

    def _suffix(self, element: str | None) -> bool:
        """Whether an element is a hyphenated suffix that continues the one before ("-kreis")."""
        return element is not None and bool(self.p.shape["hyphen_suffix"].match(element))

    def _initial_run(self, texts: list[str], i: int) -> tuple[int, int]:
        """First and last index of the run of initials element ``i`` belongs to ("W. - R.", "U. K.")."""
        def initial(k: int) -> bool:
            return (0 <= k < len(texts) and bool(self.p.shape["run_initial"].match(texts[k]))
                    and texts[k] not in self.p.two_letter_abbreviations)
        start = i
        dashes = self.p.dashes
        while initial(start - 1) or (start > 0 and texts[start - 1] in dashes and initial(start - 2)):
            start -= 1 if initial(start - 1) else 2
        end = i
        while initial(end + 1) or (end + 1 < len(texts) and texts[end + 1] in dashes and initial(end + 2)):
            end += 1 if initial(end + 1) else 2
        return start, end

    def _label(self, w: _Window) -> bool:
        """A letter used as a label: after a roman numeral ("Zone III A"), beside a formula sign
        ("N = 4"), or after a noun that the document follows by letters in alphabetical sequence
        ("Kanal A ... Kanal B", "Kontaktfedern B und C"): labels are handed out in order, the
        initials of names are not."""
        if w.pattern != "single_letter":
            return False
        pred, succ = w.pred, w.succ
        if pred is not None and len(pred) > 1 and pred in self.p.roman_numerals:
            return True
        if (succ is not None and succ in self.p.formula_signs) or (pred is not None and pred in self.p.formula_signs):
            return True
        if w.core.endswith("."):
            return False  # a letter with a period is an initial
        designators = self._current_designators()
        return bool(designators) and self._letter_head(w.texts, w.i) in designators

    def _letter_head(self, texts: list[str], i: int) -> str | None:
        """The noun a bare capital letter follows, also across a list of letters ("Kontaktfedern B,
        C" -> "kontaktfeder"), without its plural or genitive ending; None when no such noun (a
        function word, a person or company word, a court) heads it."""
        k = self._list_head(texts, i)
        if k is None:
            k = i - 1
        if k < 0:
            return None
        word = texts[k]
        head = self._noun_head(word)
        if head is None:
            return None
        lower = word.lower()
        if (lower in self.p.function_words or lower in self.p.person_triggers or word in self.p.legal_forms
                or word in self.p.letter_suffix_words or self._public_body(word)):
            return None
        return head

    def _noun_head(self, word: str) -> str | None:
        """A capitalized word of letters alone, lower-cased without its plural or genitive ending
        ("Kontaktfedern" -> "kontaktfeder"); None for any other element."""
        if not (word[:1].isupper() and word.isalpha() and len(word) > 3):
            return None
        return self.p.shape["noun_ending"].sub("", word.lower())

    def designators(self, paragraphs: list[list[str]]) -> frozenset[str]:
        """The nouns (as :meth:`_letter_head` gives them) that the element texts of ``paragraphs``
        follow by two or more bare capital letters forming an alphabetical sequence ("A", "B";
        "B", "C", "D")."""
        letters: dict[str, set[str]] = {}
        form = self.form
        for texts in paragraphs:
            for i, text in enumerate(texts):
                if len(text) > 4 or form(text) != _BARE_LETTER or (core := self.core(text)).endswith("."):
                    continue
                head = self._letter_head(texts, i)
                if head is not None:
                    letters.setdefault(head, set()).add(core)
        found = set()
        for head, seen in letters.items():
            codes = sorted(ord(c) for c in seen)
            if len(codes) >= 2 and codes[-1] - codes[0] == len(codes) - 1:
                found.add(head)
        if letters.keys() - found:
            found |= self._numbered_heads(paragraphs, letters.keys() - found)
        return frozenset(found)

    def _numbered_heads(self, paragraphs: list[list[str]], heads) -> set[str]:
        """Those of ``heads`` that the element texts also follow by a numeral, a reference numeral
        or a claim feature ("Kanal 2", "Merkmal 1.3", "Kontaktfeder (7a,"; not a year) and never by
        a name: an initial with a period, a quoted capitalized word or a capitalized word the noun
        lexicon does not call a common noun ("Firma K.", "Serie „Y“", "Klinik Bergmannsheil"). A
        noun that numbers its instances is a designator; one that heads names is not."""
        numeral, year = self.p.shape["designator_numeral"], self.p.shape["citation_year"]
        numbered: set[str] = set()
        named: set[str] = set()
        for texts in paragraphs:
            for k in range(len(texts) - 1):
                succ = texts[k + 1]
                first = succ[:1]
                if not (first.isdigit() or first == "(" or first.isupper() or first in self.p.open_quotes + '"'):
                    continue
                head = self._noun_head(texts[k])
                if head not in heads:
                    continue
                if numeral.match(succ):
                    if not year.match(succ):
                        numbered.add(head)
                elif self._names_after(succ):
                    named.add(head)
        return numbered - named

    def _names_after(self, succ: str) -> bool:
        """Whether an element after a noun is a name: an initial with a period ("K."), a quoted
        capitalized word ("„Y“"), a capitalized word that is no common noun ("Bergmannsheil")."""
        if self.p.shape["first_initial"].match(succ.rstrip(",;:")):
            return True
        if succ[:1] in self.p.open_quotes + '"':
            return succ[1:2].isupper()
        core = self.core(succ)
        return len(core) > 3 and self._name_like(core) and not _common_noun(core)

    def _omission(self, w: _Window) -> bool:
        """Whether an ellipsis is an omission: "(...)", "[...]", "...“", "..." inside a quotation or
        after a sentence or clause end; a placeholder ellipsis follows a word ("in ... wohnhaft")."""
        texts, i, raw, pred, succ, succ_core = w.texts, w.i, w.raw, w.pred, w.succ, w.succ_core
        # After a capital letter it continues that placeholder ("die Firma B ... GmbH",
        # "der Zeuge W ...,"), also in a quotation.
        if (pred is not None and self.p.potential["single_letter"].match(pred)
                and raw[0] not in self.p.strip_leading and self.classify(texts, i - 1) is not None):
            return False
        # an amount or a date left out ("in Höhe von ... €", "vom ... Januar 1984") is no name;
        # nor is an omission before a new sentence, a section or a closing quote ("gezahlt wird
        # ... Sie endet", "für die Beschäftigten ... § 2", "auf 5% ... “")
        # a name left out after a noun keeps the comma after it ("zum Standort ..., wo"); other
        # punctuation around an ellipsis marks an omission
        # (a capitalized word that starts a sentence may be no noun: "Vorsorglich ...,")
        after_noun = (raw[-1] in ",;" and raw[:-1] == w.core and pred is not None and i > 1
                      and bool(self.p.shape["plain_word"].match(pred)) and texts[i - 2][-1] not in ".:;!?")
        return (bool(self.p.shape["bracketed_omission"].match(raw)) or self._inside_quote(texts, i)
                or (raw != w.core and not after_noun)
                or pred is None or pred[-1] in ".,;:!?)" or (succ is not None and self.p.shape["number"].match(succ_core))
                or succ_core in self.p.amount_units or succ_core in self.p.month_names
                or (succ is not None and (succ[0] in "§" + self.p.close_quotes + '"'
                                          or (succ[0].isupper() and succ_core.lower() in self.p.function_words))))

    def _abbreviation_or_designation(self, w: _Window) -> bool:
        """"D. h.", "S-Bahnhof"; "Steuerklasse I", "Hilfsantrag A", "Vorschlagsliste „C“",
        "Merkzeichen "G", "B" und "H"" (a designator before the letter or at the head of its list)."""
        if w.core in self.p.two_letter_abbreviations or w.core.rstrip(".") in self.p.letter_compounds:
            return True
        if w.succ is not None and w.succ_core in self.p.label_verbs:
            return True  # "mit B bezeichneten Kontaktfedern": a reference sign
        return self._designator(w.pred_norm) or (
            (k := self._list_head(w.texts, w.i)) is not None
            and (self._designator(head := self._norm(w.texts[k])) or head in self.p.reference_words)
        )

    def _letter_in_context(self, w: _Window) -> bool:
        """Single letters and initials that the words around them make no placeholder: list items,
        seats of courts and authorities, statute names, case numbers, outline labels, middle
        initials, codes, amounts, signatures, cited authors, section references."""
        texts, i, raw, pred, succ, pattern = w.texts, w.i, w.raw, w.pred, w.succ, w.pattern
        pred_norm, succ_core, after_succ = w.pred_norm, w.succ_core, w.after_succ
        if pattern == "same_lower_letters" and (
            raw.startswith("(") or raw.rstrip(",.;:").endswith(")") or w.core.rstrip(".") in self.p.lower_roman_items
            or (pred is not None and self.p.shape["enumeration_label"].match(pred))
        ):
            return True  # list items "aaa)", "(bbb)", "bb aaa (1)", "Buchst. iii"
        if w.core.rstrip(".") == "I" and self._roman_one(raw, pred_norm, succ_core):
            return True
        if pattern in ("single_letter", "initials") and self._in_name_list(texts, i):
            return True
        if pattern in ("single_letter", "two_letters") and (
            self._in_signature(texts, i) or self._cited_author(raw, pred, succ, after_succ)
        ):
            return True  # "Krumbiegel M. Jostes D. Reidelbach", "Schiek / M. Schmidt", "K. Schneider in Littmann"
        if pattern != "single_letter":
            return False
        return (
            # after a lower-case abbreviation a capital initial completes it: "i. G.", "d. R."; not after
            # a name particle ("v. M.")
            (pred is not None and bool(self.p.shape["lower_initial"].match(pred)) and pred not in self.p.name_particles)
            # a second part joined by a hyphen to an abbreviation in clear: "Schl. - H."
            or (pred in self.p.dashes and i > 1 and bool(self.p.shape["word_abbreviation"].match(texts[i - 2]))
                and self.classify(texts, i - 2) is None)
            # "Amtsgericht P.", "Amtsgericht - Familiengericht - O.", "Finanzamt X"
            or (pred is not None and (self._public_body(pred)
                                   or (pred in self.p.dashes and i > 1 and self._public_body(texts[i - 2]))))
            or self._in_statute_name(texts, i)  # "LandesVO L. K.", "MTV H"
            or self._in_letter_range(texts, i)  # "Hauptteile A bis D"
            # the register letter of a case number: "13 A 1994 / 17. A", "3d A 317 / 11. O"
            or (i > 1 and texts[i - 2] == "/" and bool(self.p.shape["day_or_year"].match(texts[i - 1])))
            # an outline label before its roman subsection: "B. I. Die Verfassungsbeschwerde"
            or (raw.endswith(".") and succ in self.p.roman_labels and (pred is None or pred[-1] in ".:;"))
            or (raw.endswith(".") and self._middle_initial(pred, succ))  # "Peter J. Tettinger"
            # a designation or file number: "BTX / A", "II / A", "UN Doc. E / CN. 4"
            or (pred == "/" and i > 1 and bool(self.p.shape["code_or_roman"].match(texts[i - 2])))
            or (succ == "/" and bool(self.p.shape["code_or_roman"].match(after_succ)))
            # "zum Preis von X €", "< Y > EUR", "Krämer in D / P / M"
            or succ_core in self.p.amount_units
            or (succ == ">" and self.core(after_succ) in self.p.amount_units)
            or self._in_slash_run(texts, i)
            # "K § 7 RdNr 237", "Anlage A Nr. 12", "BT-Drs. V / 1009", "Quartal I / 2009"
            or succ in self.p.section_followers
            or (succ == "/" and bool(self.p.shape["number"].match(self.core(after_succ))))
            # tax-type letters of a finance court case number "2 K 2039/15 E, G, U"
            or self._after_case_number(texts, i)
        )

    def _reference(self, w: _Window) -> bool:
        """A letter or numeral of a reference: page, margin number, appendix, exhibit and statute
        references ("S. 24", "Anlage K 1", "§ 35 a", "Art. 3 b"), case numbers ("5 C 40.84",
        "B 12 KR 5/16 R", "V ZR 130/15"), section references ("zu C II 3 der Gründe"), statute
        books ("SGB V", "BGBl. I"); not before an amount ("das Grundstück A 12.900.000 €")."""
        texts, i, pred, succ, pattern = w.texts, w.i, w.pred, w.succ, w.pattern
        pred_norm, succ_core, after_succ = w.pred_norm, w.succ_core, w.after_succ
        amount = bool(self.p.shape["number"].match(succ_core)) and self.core(after_succ).rstrip(".") in self.p.amount_units
        if succ and pattern != "initials" and not amount and (
            self.p.shape["number"].match(succ_core) or succ_core in self.p.roman_numerals
            or succ_core in self.p.court_codes
            or (self.p.shape["court_code"].match(succ_core) and succ_core.rstrip(".") not in self.p.legal_forms
                and (len(succ_core) > 1 or self.p.shape["number"].match(after_succ)))
        ):
            return True
        # "s." is "siehe" or a page, unless it is itself an initial: "die Partnerin S. R."
        if (pred_norm in self.p.reference_words and not self._initial_before(texts, i)) \
                or pred in self.p.cross_reference_openers:
            return True
        # "C - 174/11" (EuGH case), "zu I der Gründe", "des I. Senats"
        if succ_core in self.p.dashes and self.p.shape["number"].match(after_succ):
            return True
        if self.core(after_succ) in self.p.reference_followers:
            return True
        roman = self.p.roman_numerals
        if w.core.rstrip(".") in roman and (
            succ_core in self.p.ordinal_nouns
            or (succ_core in self.p.roman_joiners and self.core(after_succ).rstrip(".") in roman)
            or (pred_norm in self.p.roman_joiners and i > 1 and self.core(texts[i - 2]).rstrip(".") in roman)
        ):
            return True  # "des I. Senats", "Nr. 2 b I bis VI", "Ziffern I bis V"
        # outline labels: "oben A II.", "unter II. D Nr. 5.3"
        if pattern == "single_letter" and (
            (succ_core.endswith(".") and len(succ_core) > 2 and succ_core.rstrip(".") in roman)
            or (pred is not None and pred.endswith(".") and len(pred) > 2 and pred.rstrip(".") in roman)
        ):
            return True
        if pred and self.p.shape["bare_number"].match(self.core(pred) if self.core(pred) else pred):
            return True
        return bool(w.core.rstrip(".") in roman and pred and self.p.shape["all_caps_code"].match(self.core(pred)))

    def _before_word_in_clear(self, w: _Window) -> bool:
        """A section marker at a sentence start ("A. Die Revision ist unbegründet") or a first
        initial before a name in clear ("K. Schmidt"): followed by a capitalized word that is not
        itself an initial. Not when a comma follows the initial ("Dr. K., Institut für") or a title
        precedes it and a bracket or a new sentence follows ("Dr. S. (Neurologe)")."""
        pred, succ, succ_core = w.pred, w.succ, w.succ_core
        return bool(
            w.pattern in ("single_letter", "two_letters") and succ and succ_core[:1].isupper()
            and (pred is None or pred.rstrip(self.p.close_quotes + '"')[-1:] in (".", ":", ";") or w.pred_norm in ("", ))
            # a second initial before a common noun is a surname: "T. R. Physiotherapie-Partnerschaft"
            # (before a name it is another first initial: "W. F. Hammetter")
            and not (self._initial_before(w.texts, w.i) and _common_noun(succ_core))
            and not w.raw.endswith(",")
            and not (w.pred_norm in self.p.person_triggers
                     and (succ.startswith("(") or succ_core.lower() in self.p.function_words))
            # a person word after it: "Herrn Dr. G Herr D" names two people, G is no first initial
            and succ_core.lower() not in self.p.person_triggers
            and not self.p.potential["single_letter"].match(succ_core)
            and not self.p.potential["two_letters"].match(succ_core)
            and succ_core not in self.p.legal_forms
        )

    def _roman_one(self, raw: str, pred_norm: str, succ_core: str) -> bool:
        """Whether a bare "I" is the roman numeral one ("München I", "BStBl I", "(I.)").

        It names a company or person only after an article, a preposition or a person
        trigger ("die I GmbH", "in I und S", "der Angeklagte I.") or before a legal form.
        """
        if raw.startswith("("):
            return True
        return not (pred_norm in self.p.function_words or pred_norm in self.p.person_triggers
                    or succ_core in self.p.legal_forms or succ_core in self.p.street_words)

    def _in_letter_range(self, texts: list[str], i: int) -> bool:
        """Whether a letter is an end of a range of letters ("Hauptteile A bis D"): labels are
        ranged, names are not."""
        def letter(k: int) -> bool:
            return 0 <= k < len(texts) and bool(self.p.potential["single_letter"].match(self.core(texts[k])))
        return ((i + 2 < len(texts) and texts[i + 1] in self.p.range_words and letter(i + 2))
                or (i >= 2 and texts[i - 1] in self.p.range_words and letter(i - 2)))

    def _in_name_list(self, texts: list[str], i: int) -> bool:
        """Whether the initial stands in a run of names in clear, as in a signature line
        ("Schmidt Treber K. Schmidt Hayen Fritz"): two bare capitalized words on each side
        (or the paragraph's edge) that are neither articles nor person triggers."""
        if not (0 < i < len(texts) - 1):
            return False
        return all(k < 0 or k >= len(texts) or self._name_like(texts[k]) for k in (i - 2, i - 1, i + 1, i + 2))

    def _designator(self, word: str) -> bool:
        """Whether a (lower-case) word is a compound noun naming a designator, also in the
        genitive: "Steuerklasse", "Hilfsantrags", "Merkzeichens"."""
        if len(word) <= 6 or not word.isalpha():
            return False
        stem = word[:-2] if word.endswith("es") else word[:-1] if word.endswith("s") else word
        return word.endswith(self.p.reference_suffixes) or stem.endswith(self.p.reference_suffixes)

    def _list_head(self, texts: list[str], i: int) -> int | None:
        """Index of the word before a list of letters that element ``i`` continues
        ("Merkzeichen "G", "B" und "H"" -> "Merkzeichen"), None when it starts no such list."""
        k = i - 1
        while k >= 0 and (self.p.shape["letter_list_item"].match(texts[k]) or texts[k] in self.p.list_joiners):
            k -= 1
        return k if 0 <= k < i - 1 else None

    def _initial_before(self, texts: list[str], i: int) -> bool:
        """Whether the element before ``i`` is a capital initial the detector keeps ("S. R.")."""
        if i == 0:
            return False
        pred = self.core(texts[i - 1])
        return (pred[:1].isupper() and bool(self.p.potential["single_letter"].match(pred))
                and self.classify(texts, i - 1) is not None)

    def _in_statute_name(self, texts: list[str], i: int) -> bool:
        """Whether initials follow a statute's or agreement's name ("LandesVO L. K.", "MTV H")."""
        k = i - 1
        while k >= 0 and self.p.shape["first_initial"].match(texts[k]) and len(texts[k]) == 2:
            k -= 1
        return k >= 0 and texts[k].lstrip(self.p.strip_leading).endswith(self.p.statute_word_endings)

    def _middle_initial(self, pred: str | None, succ: str | None) -> bool:
        """Whether an initial stands between a first name the noun lexicon lists (and no common
        noun) and a surname in clear: "Peter J. Tettinger"."""
        if not (pred and succ and self.p.shape["plain_word"].match(pred) and self._name_like(succ.rstrip(".,;:"))):
            return False
        bits = noun_bits(pred)
        return bool(bits & PERSON_NAME) and not bits & COMMON_NOUN

    def _public_body(self, word: str) -> bool:
        """Whether a word names a court or an authority ("Amtsgerichts", "Finanzamt"): a letter
        after it is the seat, not a placeholder of the gold. Not an abbreviated court:
        "Richterin am LSG G." is a judge the court anonymized."""
        return word.lstrip(self.p.strip_leading).lower().endswith(self.p.public_body_endings)

    def _in_slash_run(self, texts: list[str], i: int) -> bool:
        """Whether a letter is one of three or more joined by slashes ("D / P / M")."""
        def letter(k: int) -> bool:
            return 0 <= k < len(texts) and bool(self.p.shape["letter_in_slash_run"].match(texts[k]))
        start = i
        while letter(start - 2) and texts[start - 1] == "/":
            start -= 2
        end = i
        while letter(end + 2) and texts[end + 1] == "/":
            end += 2
        return (end - start) // 2 + 1 >= 3

    def _name_like(self, word: str) -> bool:
        """A capitalized word that may be a surname in clear: not an article, trigger, legal
        form, reference word or company word."""
        lower = word.lower()
        return (bool(self.p.shape["plain_word"].match(word)) and lower not in self.p.function_words
                and lower not in self.p.person_triggers and word not in self.p.legal_forms
                and lower not in self.p.reference_words and word not in self.p.letter_suffix_words)

    def _in_signature(self, texts: list[str], i: int) -> bool:
        """Whether a first-name initial stands in the judges' signature after a sentence: a run of
        at least four names and initials, three of them names in clear, the initial before a name
        ("Fischermeier Spelge Krumbiegel M. Jostes D. Reidelbach")."""
        if i + 1 >= len(texts) or not self._name_like(texts[i + 1]):
            return False
        return signatures.in_run(texts, i, lambda w: self._name_like(w) or bool(self.p.shape["first_initial"].match(w)), 4,
                                self._name_like, 3)

    def _cited_author(self, raw: str, pred: str | None, succ: str | None, after_succ: str) -> bool:
        """Whether an initial is a cited author's first name before a surname in clear: after
        the "/" of an editor's name ("Schiek / M. Schmidt") or before "in" and a commentary
        ("K. Schneider in Littmann")."""
        if not (self.p.shape["first_initial"].match(raw) and succ and self._name_like(succ.rstrip(","))):
            return False
        return (pred is not None and pred.endswith("/")) or after_succ == "in"

    def _after_case_number(self, texts: list[str], i: int) -> bool:
        """Whether a letter continues a comma list that follows a case number ("4146/12 E, U, F")."""
        k = i - 1
        while k >= 0 and self.p.shape["letter_in_list"].match(texts[k]):
            k -= 1
        return k < i - 1 and k >= 0 and bool(self.p.shape["case_number_tail"].match(texts[k]))

    def classify_simple(self, core: str) -> bool:
        """Whether ``core`` has the form of a capital initial ("B.", "K")."""
        return bool(self.p.potential["single_letter"].match(core))

    def _in_abbreviation(self, texts: list[str], candidates: list[int]) -> set[int]:
        """Indices of elements that belong to a known abbreviation like "a. a. O."

        Every listed abbreviation starts with a one- or two-letter element, which is always a
        candidate, so only candidates need to be tried as starts.
        """
        inside: set[int] = set()
        for i in candidates:
            if i in inside:
                continue
            options = self.p.abbreviations.get(self.core(texts[i]))
            for words in options or ():
                n = len(words)
                # the words in order, no comma inside ("K., O., J." are three initials, not "K. O.")
                # the last period may be missing ("m. w. N)")
                if i + n <= len(texts) and all(
                    (self.core(texts[i + k]) == words[k]
                     or (k == n - 1 > 0 and self.core(texts[i + k]) + "." == words[k]))
                    and (k == n - 1 or not texts[i + k].endswith((",", ";")))
                    for k in range(n)
                ):
                    inside.update(range(i, i + n))
                    break
        return inside

    def _inside_quote(self, texts: list[str], i: int) -> bool:
        """Whether element ``i`` lies inside a quotation (German or straight quotes)."""
        before = " ".join(texts[:i])
        depth = sum(before.count(q) for q in self.p.open_quotes) - sum(before.count(q) for q in self.p.close_quotes)
        return depth > 0 or before.count('"') % 2 == 1

    def label_texts(self, texts: list[str]) -> list[str | None]:
        """Placeholder kind (or None) for each element text of one paragraph."""
        form = self.form
        kinds: list[str | None] = [None] * len(texts)
        candidates = [i for i, t in enumerate(texts) if form(t) is not None]
        if not candidates:
            return kinds
        self.prepare(texts)
        if self.judge is not None:
            return self._continued(texts, self._judged(texts, kinds))
        abbreviations = self._in_abbreviation(texts, candidates)
        for i in candidates:
            if i in abbreviations:
                continue
            kinds[i] = self.classify(texts, i)
        return self._continued(texts, kinds)

    def _continued(self, texts: list[str], kinds: list[str | None]) -> list[str | None]:
        """``kinds`` with a genitive "s" written apart after a placeholder labelled like it ("R. s
        Büro")."""
        for i in range(1, len(texts)):
            if kinds[i] is None and kinds[i - 1] is not None and texts[i] in self.p.genitive_marks:
                kinds[i] = kinds[i - 1]
        return kinds

    def _judged(self, texts: list[str], kinds: list[str | None]) -> list[str | None]:
        """``kinds`` filled in by the learned judge (imported on first use)."""
        from .judge import WindowFeatures, paragraph_candidates

        if self._featurizer is None:
            self._featurizer = WindowFeatures(self)
        for i, form, features in paragraph_candidates(self, self._featurizer, texts):
            if self.judge.is_placeholder(features):
                kinds[i] = form[0]
        return kinds

    def label_elements(self, text: str) -> tuple[list[Element], list[bool]]:
        """Elements of ``text`` (one paragraph) and whether each is a placeholder."""
        elements = split_elements(text)
        kinds = self.label_texts([e.text for e in elements])
        return elements, [k is not None for k in kinds]

    # -- span level -----------------------------------------------------------------------

    def _tail_length(self, texts: list[str], j: int) -> int:
        """How many elements after a placeholder belong to the same reference."""
        n = 0
        street = False
        if j < len(texts) and self._suffix(texts[j]):
            n = 1  # "E. -kreis"
        while j + n < len(texts):
            core = self.core(texts[j + n])
            if core in self.p.legal_forms or core.rstrip(".") in self.p.legal_forms:
                n += 1
                continue
            if core in self.p.street_words:
                street = True
                n += 1
                continue
            if street and self.p.shape["house_number"].match(texts[j + n]):
                n += 1
            break
        # a trailing "&" or "+" without a following company word is not part of the name
        while n and self.core(texts[j + n - 1]) in ("&", "+"):
            n -= 1
        return n

    def _lead(self, first: str) -> int:
        """Characters before the reference in its first element: brackets and quotes."""
        return len(first) - len(first.lstrip(self.p.strip_leading))

    def _trail(self, last: str) -> int:
        """Characters after the reference in its last element: punctuation, a sentence period.

        The period of an initial or abbreviation ("K.", "Co.", "str.") belongs to the reference;
        a period after a full word or number ("KG.", "4.") ends the sentence.
        """
        core = self.core(last)
        cut = len(last) - last.find(core) - len(core) if core else 0
        if (core.endswith(".") and not core.endswith("...") and not keeps_period(core)
                and not self.p.potential["surname_abbreviation"].match(core)):  # "Sch." keeps its period
            cut += 1
        return min(cut, len(last) - 1)

    def paragraph_spans(self, text: str) -> list[tuple[int, int, str]]:
        """``(start, end, kind)`` of each placeholder reference in one paragraph."""
        texts = text.split()
        kinds = self.label_texts(texts)
        if not any(kinds):
            return []
        elements = split_elements(text)
        spans = []
        i = 0
        while i < len(elements):
            if kinds[i] is None:
                i += 1
                continue
            j = i
            kind = kinds[i]
            while j + 1 < len(elements) and kinds[j + 1] is not None and not texts[j].endswith((",", ";")):
                j += 1
                if kinds[j] == "obvious":
                    kind = "obvious"
            tail = self._tail_length(texts, j + 1)
            last = j + tail
            start, end = elements[i].start, elements[last].end
            spans.append((start + self._lead(texts[i]), end - self._trail(texts[last]), kind))
            i = last + 1
        return spans

    def prepare(self, texts: list[str]) -> None:
        """Make ready to judge the elements of one paragraph: the designator nouns are those of
        the document (inside :meth:`document`) or else of the paragraph alone, found when a bare
        letter first needs them."""
        self._paragraph = texts
        self._designators = None

    def _current_designators(self) -> frozenset[str]:
        if self._document_paragraphs is not None:
            if self._document_designators is None:
                self._document_designators = self.designators([p.text.split() for p in self._document_paragraphs])
            return self._document_designators
        if self._designators is None:
            self._designators = self.designators([self._paragraph])
        return self._designators

    @contextmanager
    def document(self, paragraphs):
        """Within it, letters are judged with the designator nouns of the whole document (the
        paragraphs of :func:`extract_paragraphs`)."""
        self._document_paragraphs, self._document_designators = paragraphs, None
        try:
            yield
        finally:
            self._document_paragraphs = self._document_designators = None

    def detect(self, text: str) -> list[Span]:
        """Placeholder spans of a whole document, offsets into ``text``."""
        spans = []
        paragraphs = extract_paragraphs(text)
        with self.document(paragraphs):
            found = [(paragraph, self.paragraph_spans(paragraph.text)) for paragraph in paragraphs]
        for paragraph, paragraph_spans in found:
            for start, end, kind in paragraph_spans:
                a, b = paragraph.to_document_span(start, end)
                spans.append(Span(a, b, text[a:b], kind=kind, source=SOURCE))
        return spans

    def document_element_labels(self, text: str) -> tuple[list[Element], list[bool]]:
        """Every element of the *document* text and whether the detector calls it a placeholder.

        Elements are split from the original text (not the paragraphs), so they line up with
        gold labels and decisions files that were made on the same text.
        """
        elements = split_elements(text)
        flagged: list[tuple[int, int]] = []
        paragraphs = extract_paragraphs(text)
        with self.document(paragraphs):
            for paragraph in paragraphs:
                p_elements, labels = self.label_elements(paragraph.text)
                for element, label in zip(p_elements, labels):
                    if label:
                        flagged.append(paragraph.to_document_span(element.start, element.end))
        labels = [False] * len(elements)
        j = 0
        flagged.sort()
        for i, element in enumerate(elements):
            while j < len(flagged) and flagged[j][1] <= element.start:
                j += 1
            if j < len(flagged) and flagged[j][0] < element.end:
                labels[i] = True
        return elements, labels
