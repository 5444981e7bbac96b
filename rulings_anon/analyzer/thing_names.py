"""Names that are no person's, after a noun that says what they name: a medicine after its kind
("des Medikaments Isentress", "das Kombinationspräparat Stribild") and a European court's judgment
after its noun ("EuGH-Urteil Ferreira da Silva e Brito", "EuGH-Urteil Boehringer Ingelheim").

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
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.name_parts import starts_no_name
from rulings_anon.document import INITIAL, Element
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
    names = thing_names(text, elements)
    if not names:
        return probabilities
    out = probabilities.astype(np.float64)
    for i, element in enumerate(elements):
        if out[i] > 0 and sf.core_word(element.text) in names:
            out[i] *= THING_WEIGHT
    return out
