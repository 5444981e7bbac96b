"""What the rules know of a document beyond one paragraph: the nouns it follows by letter labels.

A bare capital letter after a noun is a placeholder ("Zeuge B") unless the document hands out
letters after that noun in alphabetical order ("Kanal A ... Kanal B") or numbers its instances
("Kanal 2"): then the noun is a *designator* and its letters are labels. Which nouns are
designators is a property of the whole document, found once when a bare letter first needs it.
:class:`DocumentState` holds it; one is made per document (or per paragraph judged alone) and
passed to the context rules, so that a detector keeps no state between documents.
"""

from __future__ import annotations

from collections.abc import Callable

from .forms import BARE_LETTER, Forms, is_common_noun


class DocumentState:
    """The designator nouns of one document, computed from its paragraphs' element texts on first use."""

    def __init__(self, forms: Forms, paragraphs: Callable[[], list[list[str]]]):
        """``paragraphs``: gives the element texts of each paragraph (called at most once, when needed)."""
        self._forms = forms
        self._paragraphs = paragraphs
        self._designators: frozenset[str] | None = None
        self._variables: frozenset[str] | None = None

    @classmethod
    def of_paragraphs(cls, forms: Forms, paragraphs) -> DocumentState:
        """The state of a document from its paragraphs (those of
        :func:`rulings_anon.placeholders.paragraphs.extract_paragraphs`)."""
        return cls(forms, lambda: [p.text.split() for p in paragraphs])

    @classmethod
    def of_texts(cls, forms: Forms, texts: list[str]) -> DocumentState:
        """The state of one paragraph's element texts judged alone, without its document."""
        return cls(forms, lambda: [texts])

    @property
    def designators(self) -> frozenset[str]:
        """The nouns whose letters are labels (see :func:`find_designators`)."""
        if self._designators is None:
            self._designators = find_designators(self._forms, self._paragraphs())
        return self._designators

    @property
    def variables(self) -> frozenset[str]:
        """The letters the document writes beside a formula sign ("N = 2 s / 10 µs"): a
        quantity's symbol wherever it stands in the document ("dass N im Bereich von 200 000
        liegt"), not a placeholder."""
        if self._variables is None:
            self._variables = find_variables(self._forms, self._paragraphs())
        return self._variables


def list_head(forms: Forms, texts: list[str], i: int) -> int | None:
    """Index of the word before a list of letters that element ``i`` continues
    ("Merkzeichen "G", "B" und "H"" -> "Merkzeichen"), None when it starts no such list."""
    p = forms.p
    k = i - 1
    while k >= 0 and (p.shape["letter_list_item"].match(texts[k]) or texts[k] in p.list_joiners):
        k -= 1
    return k if 0 <= k < i - 1 else None


def letter_head(forms: Forms, texts: list[str], i: int) -> str | None:
    """The noun a bare capital letter follows, also across a list of letters ("Kontaktfedern B,
    C" -> "kontaktfeder"), without its plural or genitive ending; None when no such noun (a
    function word, a person or company word, a court) heads it."""
    p = forms.p
    k = list_head(forms, texts, i)
    if k is None:
        k = i - 1
    if k < 0:
        return None
    word = texts[k]
    head = forms.noun_head(word)
    if head is None:
        return None
    lower = word.lower()
    if (lower in p.function_words or lower in p.person_triggers or word in p.legal_forms
            or word in p.letter_suffix_words or forms.public_body(word)):
        return None
    return head


def find_designators(forms: Forms, paragraphs: list[list[str]]) -> frozenset[str]:
    """The nouns (as :func:`letter_head` gives them) that the element texts of ``paragraphs``
    follow by two or more bare capital letters forming an alphabetical sequence ("A", "B";
    "B", "C", "D")."""
    letters: dict[str, set[str]] = {}
    form = forms.form
    for texts in paragraphs:
        for i, text in enumerate(texts):
            if len(text) > 4 or form(text) != BARE_LETTER or (core := forms.core(text)).endswith("."):
                continue
            head = letter_head(forms, texts, i)
            if head is not None:
                letters.setdefault(head, set()).add(core)
    found = set()
    for head, seen in letters.items():
        codes = sorted(ord(c) for c in seen)
        if len(codes) >= 2 and codes[-1] - codes[0] == len(codes) - 1:
            found.add(head)
    if letters.keys() - found:
        found |= _numbered_heads(forms, paragraphs, letters.keys() - found)
    return frozenset(found)


def _numbered_heads(forms: Forms, paragraphs: list[list[str]], heads) -> set[str]:
    """Those of ``heads`` that the element texts also follow by a numeral, a reference numeral
    or a claim feature ("Kanal 2", "Merkmal 1.3", "Kontaktfeder (7a,"; not a year) and never by
    a name: an initial with a period, a quoted capitalized word or a capitalized word the noun
    lexicon does not call a common noun ("Firma K.", "Serie „Y“", "Klinik Bergmannsheil"). A
    noun that numbers its instances is a designator; one that heads names is not."""
    p = forms.p
    numeral, year = p.shape["designator_numeral"], p.shape["citation_year"]
    numbered: set[str] = set()
    named: set[str] = set()
    for texts in paragraphs:
        for k in range(len(texts) - 1):
            succ = texts[k + 1]
            first = succ[:1]
            if not (first.isdigit() or first == "(" or first.isupper() or first in p.open_quotes + '"'):
                continue
            head = forms.noun_head(texts[k])
            if head not in heads:
                continue
            if numeral.match(succ):
                if not year.match(succ):
                    numbered.add(head)
            elif _names_after(forms, succ):
                named.add(head)
    return numbered - named


def _names_after(forms: Forms, succ: str) -> bool:
    """Whether an element after a noun is a name: an initial with a period ("K."), a quoted
    capitalized word ("„Y“"), a capitalized word that is no common noun ("Bergmannsheil")."""
    p = forms.p
    if p.shape["first_initial"].match(succ.rstrip(",;:")):
        return True
    if succ[:1] in p.open_quotes + '"':
        return succ[1:2].isupper()
    core = forms.core(succ)
    return len(core) > 3 and forms.name_like(core) and not is_common_noun(core)


def find_variables(forms: Forms, paragraphs: list[list[str]]) -> frozenset[str]:
    """The bare capital letters right before or after a formula sign in any paragraph."""
    p = forms.p
    found = set()
    for texts in paragraphs:
        for i, raw in enumerate(texts):
            if raw in p.formula_signs:
                for k in (i - 1, i + 1):
                    if 0 <= k < len(texts) and p.potential["single_letter"].match(texts[k]):
                        found.add(forms.core(texts[k]).rstrip("."))
    return frozenset(found)
