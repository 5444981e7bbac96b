"""A surname that is also a word, standing bare as a clause's subject: "Vielmehr hat Taucher ihren
ersten Abschluss erst 2014 erworben", "Das FG hat verkannt, dass Pfeifer eine andere Anschrift
hatte", "Im Streitfall wurde Koch freigesprochen".

German writes a singular common noun with a determiner. Where a subordinate clause opens with a
bare noun and its verb is singular ("dass Taucher ... hatte"), or a singular auxiliary follows an
adverb or a phrase and a bare noun stands right after it ("Vielmehr hat Taucher"), that noun is a
name (the position: :func:`rulings_anon.analyzer.clauses.bare_subject`). The model gives such a
word what it gives the noun (0.0003 for "Taucher" after "hat"), and no cue of a person stands
beside it: on the dev courts, leaving one court out, surnames that are words standing alone were
the most of what the default left in clear (docs/experiments.md, "A surname standing bare as a
clause's subject"). The word in that position is flagged (its probability raised to the
threshold, unless a rule made it 0) where it (:func:`subject_word`) is

- a surname to the lexicon ("Koch", "Pfeifer") that German writes under Zipf 5.5, or
- a common noun that the dev courts' rulings do not print in clear
  (:func:`rulings_anon.analyzer.common_words.common_words`: "Einspruch", "Rechtsschutz", "Vorsatz"
  are theirs; "Taucher", "Bischof" are not), written under Zipf 4.5 and not built on another
  listed noun (:func:`rulings_anon.lexicon.built_on_noun`: a new court's own terms, "dass
  Elterngeld gezahlt wird", are compounds the dev courts do not print);
- not an abstract noun's ending ("-ung", "-heit"), a role, a relative or a title, a weekday or a
  month.

Counted in the five dev courts' anonymized rulings (whose names are placeholders), the rule takes
2 words in clear ("Besuchern", "Beauftragte"); with the common words counted without the court the
rule is asked of, as a new court meets them, 0 to 3 a court ("Käse", "Genüge"). The measured decision reads the position kept per candidate when the features
are computed (the ``subject`` mark of :data:`rulings_anon.analyzer.sensitivity_model.MARKS`) and
asks :func:`subject_word` of the row's word.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.clauses import bare_subject, opens_subject
from rulings_anon.analyzer.common_words import common_words
from rulings_anon.analyzer.name_parts import NAME_WORD, raised, role_word, starts_no_name, word_surname
from rulings_anon.document import Element
from rulings_anon.lexicon import COMMON_NOUN, built_on_noun, noun_bits
from rulings_anon.word_frequency import zipf

# whether score's decision applies the rule (the benchmark switches it off to compare)
SUBJECT_NAMES = True
SURNAME_ZIPF = 5.5  # a surname to the lexicon, as name_parts.PARTY_NAME_ZIPF
NOUN_ZIPF = 4.5  # a common noun, as name_parts.COORDINATED_NOUN_ZIPF
_ABSTRACT_ENDINGS = ("ung", "heit", "keit", "schaft", "ion", "tät", "nis", "ismus", "ment", "enz", "anz")
_CALENDAR = frozenset("Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag Sonnabend Januar Februar März "
                      "April Mai Juni Juli August September Oktober November Dezember".split())


@lru_cache(maxsize=65536)
def subject_word(word: str) -> bool:
    """Whether ``word`` (a core word), standing bare as a clause's subject, is a surname (see the
    module docstring)."""
    if len(word) < 3 or not NAME_WORD.match(word) or word.endswith(_ABSTRACT_ENDINGS) or word in _CALENDAR \
            or starts_no_name(word) or role_word(word):
        return False
    if word_surname(word):
        return zipf(word, "de") < SURNAME_ZIPF
    return (bool(noun_bits(word) & COMMON_NOUN) and word not in common_words() and zipf(word, "de") < NOUN_ZIPF
            and not built_on_noun(word))


def subject_name(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` (``raw``: the elements' texts) is a surname standing bare as its
    clause's subject (:func:`rulings_anon.analyzer.clauses.bare_subject`, :func:`subject_word`)."""
    return bare_subject(raw, i) and subject_word(sf.core_word(raw[i]))


def with_subject_names(elements: Sequence[Element], probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with each surname standing bare as a clause's subject (:func:`subject_name`)
    raised to ``threshold`` where it is below it and above 0; the others as they are."""
    probabilities = np.asarray(probabilities)
    if not SUBJECT_NAMES:
        return probabilities
    raw, named = None, []
    for i in [i + 1 for i, e in enumerate(elements[:-2]) if opens_subject(e.text)]:
        if not 0 < probabilities[i] < threshold:
            continue
        raw = raw if raw is not None else [e.text for e in elements]
        if subject_name(raw, i):
            named.append(i)
    return raised(probabilities, named, threshold)
