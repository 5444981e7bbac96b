"""Names that are no person's, after a noun that says what they name: a medicine after its kind
("des Medikaments Isentress", "das Kombinationspräparat Stribild") and a European court's judgment
after its noun ("EuGH-Urteil Ferreira da Silva e Brito", "EuGH-Urteil Boehringer Ingelheim");
and by their shape, a term's name built on an acronym ("TVÜ-Länder", "EntgO-L", "KArbT-NEK").

A patent court's licence case or a social court's claim to a drug speaks of the drug, not of a
person, and the name a drug's kind precedes is its brand, which its maker prints on every box; a
European judgment is cited by its parties' names, which the court of justice publishes. The model
flags such words (unknown to the lexicon: 0.2 to 0.9) as it would a surname. In the six LER courts'
rulings 13 words that are no common noun stand right after a drug noun ("Isentress", "Genvoya",
"Buscopan"), with 58 mentions, and 19 right after a European judgment's noun (all BFH's: "Ferreira",
"Masterrind", "Barlis"), with 45; none is a placeholder. A public rule for the drugs (probability 0, a feature
the trees read) was tried and needed a refit that moved `--recall-first`'s threshold
(docs/experiments.md, "A medicine's name after a drug noun"); this is a decision rule instead: the
word and its other mentions in the ruling are weighed down (times :data:`THING_WEIGHT`), so the
default leaves them and `--recall-first` still reaches them. The rows of
:mod:`rulings_anon.analyzer.name_parts_rows` read it the same way.

A ruling about marks quotes the signs it compares ("die Marke „Myzin“"), which the register
prints for anyone to read: such a word and its other mentions are weighed down too
(:func:`without_quoted_signs`, :mod:`rulings_anon.analyzer.quoted_signs`).

A collective agreement, an ordinance or a mark is often named by an acronym and a hyphenated part
("TVÜ-Länder", "EntgO-L", "KArbT-NEK", "GStO-BVerwG", "IKK-BR"); the model, which knows neither
part, flags such a word as a name (0.2 to 0.5), and consistency spreads it to every mention. In the
five development courts' test rulings 2,770 capitalized words have that shape and none lies in a
placeholder's span. A company so named keeps its flag where a legal form follows ("die ABC-Bau
GmbH"), and so does a word whose second part may be a surname ("KFZ-Mayrhofer"); the others are
weighed down (:func:`without_acronym_compounds`), not zeroed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.fixed_phrases import may_be_thing, thing_at
from rulings_anon.analyzer.name_parts import name_part, starts_no_name, word_surname
from rulings_anon.analyzer.quoted_signs import signs_in
from rulings_anon.document import INITIAL, Element
from rulings_anon.letters import CAPITAL, SMALL
from rulings_anon.lexicon import COMMON_NOUN, noun_bits

# whether score's decision applies the rule (the benchmark switches it off to compare)
THING_NAMES = True
THING_WEIGHT = 0.1
# the ends of the nouns that name a medicine's kind, as context keys: "Arzneimittel",
# "Fertigarzneimittels", "Medikaments", "Kombinationspräparat", "Impfstoffe"
DRUG_NOUN_ENDINGS = ("arzneimittel", "arzneimittels", "medikament", "medikaments", "medikamentes", "medikamente",
                     "präparat", "präparats", "präparates", "präparate", "impfstoff", "impfstoffs", "impfstoffes",
                     "impfstoffe")
# a European court's judgment or order, as context keys ("EuGH-Urteil", "EGMR-Urteils", "EuG-Beschluss")
JUDGMENT_NOUNS = frozenset(f"{court}-{kind}" for court in ("eugh", "eug", "egmr")
                           for kind in ("urteil", "urteils", "urteilen", "beschluss", "beschlusses"))
# whether score's decision weighs down a term's name built on an acronym (the benchmark switches it off)
ACRONYM_COMPOUNDS = True
# whether it weighs down the words of fixed phrases and chemical formulas (fixed_phrases.thing_at)
FIXED_THINGS = True
# and a quoted sign of a ruling about marks (quoted_signs.sign_at)
QUOTED_SIGNS = True
# a word of letters and the parts after its first hyphen
_HYPHENATED = re.compile(rf"^([{CAPITAL}{SMALL}]+)-(.+)$")
# the most letters of an acronym in capitals alone: a longer one may be a name in capitals that
# normalization left so ("MAYR-HOFER" is one, "TVÜ-LÄNDER" not)
ACRONYM_CAPITALS = 4
# what a ruling that holds such a noun holds somewhere: one scan of its text before any element is read
_CUE_STEM = re.compile("[Aa]rzneimittel|[Mm]edikament|[Pp]räparat|[Ii]mpfstoff|EuGH-|EuG-|EGMR-")


def cue_noun(key: str | None) -> bool:
    """Whether ``key`` (a context key: lower case, no punctuation) names a medicine's kind or a
    European judgment."""
    return key is not None and (key.endswith(DRUG_NOUN_ENDINGS) or key in JUDGMENT_NOUNS)


def thing_word(word: str) -> bool:
    """Whether ``word`` (a core word) may be a thing's name: capitalized, two letters or more, no
    initial ("EuGH-Urteil L."), no common noun of the lexicon and no word that starts no name ("dem Arzneimittel Zur Verfügung"
    gives nothing, nor "des Präparats Art", "EuGH-Urteil Kommission")."""
    return (len(word) > 1 and word[:1].isupper() and not INITIAL.match(word) and not noun_bits(word) & COMMON_NOUN
            and not starts_no_name(word))


def thing_names(text: str, elements: Sequence[Element]) -> set[str]:
    """The core words that stand right after a cue noun in ``text`` (a space between, no
    punctuation after the noun): "Isentress" of "des Medikaments Isentress"."""
    if not _CUE_STEM.search(text):  # most rulings name no medicine and cite no European judgment
        return set()
    found = set()
    for i in range(1, len(elements)):
        noun = elements[i - 1].text
        if noun[:1].isupper() and noun == sf.core_word(noun) and cue_noun(sf.context_key(noun)) \
                and text[elements[i - 1].end:elements[i].start] == " ":
            word = sf.core_word(elements[i].text)
            if thing_word(word):
                found.add(word)
    return found


def without_thing_names(text: str, elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`THING_WEIGHT` for every mention of a word a cue noun precedes
    somewhere in the ruling (:func:`thing_names`)."""
    probabilities = np.asarray(probabilities)
    if not THING_NAMES:
        return probabilities
    return every_mention(elements, probabilities, thing_names(text, elements))


def every_mention(elements: Sequence[Element], probabilities: np.ndarray, words: set[str] | frozenset[str]) -> np.ndarray:
    """``probabilities`` times :data:`THING_WEIGHT` at every element above 0 whose core word is one
    of ``words`` (a thing's name, a quoted sign); the same array where there is none."""
    if not words:
        return probabilities
    out = probabilities.astype(np.float64)
    for i in np.flatnonzero(probabilities > 0):
        if sf.core_word(elements[i].text) in words:
            out[i] *= THING_WEIGHT
    return out


@lru_cache(maxsize=65536)
def acronym_compound(word: str) -> bool:
    """Whether ``word`` (a core word) is an acronym joined by a hyphen to parts that are acronyms,
    letters or common nouns ("TVÜ-Länder", "EntgO-L", "GStO-BVerwG"): no part after
    the hyphen a name's part, a surname the lexicon knows or a word it does not list
    ("KFZ-Mayrhofer")."""
    match = _HYPHENATED.match(word)
    if match is None or not acronym(match.group(1)) or len(match.group(1)) < 2:
        return False
    for part in match.group(2).split("-"):
        if acronym(part):
            continue
        if not (part[:1].isupper() and noun_bits(part) & COMMON_NOUN) or name_part(part) or word_surname(part):
            return False
    return True


def acronym(part: str) -> bool:
    """Whether ``part`` (letters) is an acronym or a letter: in capitals, at most
    :data:`ACRONYM_CAPITALS` of them ("TVÜ", "NEK", "L"), or two capitals or more and a capital last
    ("EntgO", "KArbT", "BVerwG"; not "McDonald")."""
    if part.isupper():
        return len(part) <= ACRONYM_CAPITALS
    return part.isalpha() and part[-1:].isupper() and sum(c.isupper() for c in part) >= 2


def without_fixed_things(elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`THING_WEIGHT` for every word of a fixed phrase and every
    chemical formula (:func:`rulings_anon.analyzer.fixed_phrases.thing_at`: "in Kraft", "Li2O")."""
    probabilities = np.asarray(probabilities)
    if not FIXED_THINGS:
        return probabilities
    maybe = [i for i in np.flatnonzero(probabilities > 0).tolist() if may_be_thing(elements[i].text)]
    return weighed(elements, probabilities, maybe, thing_at, THING_WEIGHT)


def without_quoted_signs(text: str, elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`THING_WEIGHT` for every mention of a word a ruling about marks
    quotes as a sign (:func:`rulings_anon.analyzer.quoted_signs.sign_at`: "die Marke „Myzin“", "Myzin ist")."""
    probabilities = np.asarray(probabilities)
    return every_mention(elements, probabilities, signs_in(text)) if QUOTED_SIGNS else probabilities


def weighed(elements: Sequence[Element], probabilities: np.ndarray, indices: Sequence[int],
            test: Callable[[Sequence[str], int], bool], weight: float) -> np.ndarray:
    """``probabilities`` times ``weight`` at each of ``indices`` above 0 that ``test`` (asked of the
    elements' texts and the index) calls no name; the same array where none is. The loop of the
    rules that weigh a word down by what stands around it (a fixed phrase's word, a cited author:
    :mod:`rulings_anon.analyzer.cited_works`)."""
    raw, out = None, None
    for i in indices:
        if not probabilities[i] > 0:
            continue
        raw = raw if raw is not None else [e.text for e in elements]
        if test(raw, i):
            if out is None:
                out = probabilities.astype(np.float64)
            out[i] *= weight
    return probabilities if out is None else out


def without_acronym_compounds(elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`THING_WEIGHT` for every :func:`acronym_compound` that no legal
    form follows."""
    probabilities = np.asarray(probabilities)
    if not ACRONYM_COMPOUNDS:
        return probabilities
    out, forms = None, sf._affixes()["legal_forms"]
    for i in np.flatnonzero(probabilities > 0):
        raw = elements[i].text
        if "-" not in raw or not acronym_compound(sf.core_word(raw)):
            continue
        if i + 1 < len(elements) and sf.core_word(elements[i + 1].text) in forms:
            continue
        if out is None:
            out = probabilities.astype(np.float64)
        out[i] *= THING_WEIGHT
    return probabilities if out is None else out
