"""Capitalized words that name nobody by what stands around them or by their shape: a word of a fixed
phrase ("in Kraft treten", "außer Kraft", "nach Treu und Glauben", "die in Rede stehenden Waren",
"Deutsche Mark") and a chemical formula ("Li2O", "SiO2", "Al2O3").

The lexicon knows "Kraft", "Treu" and "Mark" as names, so the model gives such a word 0.001 to 0.3:
too little for the default, except "Deutsche Mark", but enough for ``--recall-first`` to flag it
wherever the phrase stands (every statute's "in Kraft getreten"). A formula of element symbols and
counts is no word the lexicon lists, and the model judges it as it would an unknown surname. In such
a phrase, or in that shape, a word names no person, place or company; :func:`thing_at` says where,
and the decision weighs the word down as it weighs a thing's name
(:mod:`rulings_anon.analyzer.thing_names`), so ``--recall-first`` still reaches it.

A phrase is matched on the elements' words without their punctuation ("in Kraft." ends a sentence);
every capitalized word of it is the thing ("Deutsche" and "Mark", "Treu" and "Glauben"). Some labels
of cited documents have a formula's shape ("NiK4", "NIK5"); they name nobody either. In the six LER
courts' rulings these rules mark 576 words (304 of phrases, 272 of formulas' shape), none of them in
a placeholder (``benchmarks/count_thing_words.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rulings_anon.analyzer.sensitivity import core_word

# the phrases, word by word as a ruling writes them
FIXED_PHRASES = (
    ("in", "Kraft"), ("In", "Kraft"), ("außer", "Kraft"), ("Außer", "Kraft"),
    ("Treu", "und", "Glauben"),
    ("in", "Rede"), ("In", "Rede"),
    ("Deutsche", "Mark"), ("Deutscher", "Mark"), ("Deutschen", "Mark"),
)
# per capitalized word of a phrase: the phrases it stands in and its place there
_PLACES: dict[str, list[tuple[tuple[str, ...], int]]] = {}
for _phrase in FIXED_PHRASES:
    for _k, _word in enumerate(_phrase):
        if _word[:1].isupper():
            _PLACES.setdefault(_word, []).append((_phrase, _k))

# what an element holds if it may be such a word: a digit or a phrase's capitalized word (a quick
# test on its text before the words around it are read), and the letters such a word starts with
_MAYBE = re.compile(r"\d|" + "|".join(sorted(_PLACES)))
_FIRST_LETTERS = frozenset(word[0] for word in _PLACES)

_ELEMENTS = ("H|He|Li|Be|B|C|N|O|F|Ne|Na|Mg|Al|Si|P|S|Cl|Ar|K|Ca|Sc|Ti|V|Cr|Mn|Fe|Co|Ni|Cu|Zn|Ga|Ge|As|"
             "Se|Br|Kr|Rb|Sr|Y|Zr|Nb|Mo|Ru|Rh|Pd|Ag|Cd|In|Sn|Sb|Te|I|Xe|Cs|Ba|La|Ce|Pr|Nd|Sm|Eu|Gd|Tb|"
             "Dy|Ho|Er|Tm|Yb|Lu|Hf|Ta|W|Re|Os|Ir|Pt|Au|Hg|Tl|Pb|Bi|Th|U")
# two element symbols or more, each with its count or none, a count somewhere ("K2O", "Al2O3", "CO2")
_FORMULA = re.compile(rf"^(?:(?:{_ELEMENTS})\d*){{2,}}$")


@lru_cache(maxsize=65536)
def chemical_formula(word: str) -> bool:
    """Whether ``word`` (a core word) is a chemical formula: element symbols with their counts,
    two symbols or more and a digit among them ("Li2O", "SiO2", "CaCO3"; not "M1", "D5a")."""
    return any(c.isdigit() for c in word) and bool(_FORMULA.match(word))


def in_fixed_phrase(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` of the elements ``raw`` is a capitalized word of one of
    :data:`FIXED_PHRASES` standing there ("in [Kraft] getreten", "Treu und [Glauben]")."""
    places = _PLACES.get(core_word(raw[i]))
    if not places:
        return False
    for phrase, k in places:
        start = i - k
        if start < 0 or start + len(phrase) > len(raw):
            continue
        # the words before the last as written, the last with its punctuation ("in Kraft.")
        if all(raw[start + j] == word for j, word in enumerate(phrase[:-1])) \
                and core_word(raw[start + len(phrase) - 1]) == phrase[-1]:
            return True
    return False


def may_be_thing(element: str) -> bool:
    """Whether the element's text (not empty) holds a digit or a phrase's capitalized word: the
    quick test before :func:`thing_at` reads the words around it. A word of letters alone that no
    phrase's word starts like is answered without the pattern."""
    if element[0] not in _FIRST_LETTERS and element.isalpha():
        return False
    return _MAYBE.search(element) is not None


def thing_at(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` names nobody: a word of a fixed phrase or a chemical formula."""
    word = core_word(raw[i])
    return (word in _PLACES and in_fixed_phrase(raw, i)) or chemical_formula(word)
