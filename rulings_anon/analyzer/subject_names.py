"""A surname that is also a word, standing bare as a clause's subject: "Vielmehr hat Taucher ihren
ersten Abschluss erst 2014 erworben", "Das FG hat verkannt, dass Pfeifer eine andere Anschrift
hatte", "Im Streitfall wurde Koch freigesprochen".

German writes a singular common noun with a determiner. Where a subordinate clause opens with a
bare noun and its verb is singular ("dass Taucher ... hatte"), or a singular auxiliary follows an
adverb or a phrase and a bare noun stands right after it ("Vielmehr hat Taucher"), that noun is a
name. The model gives such a word what it gives the noun (0.0003 for "Taucher" after "hat"), and no
cue of a person stands beside it: on the dev courts, leaving one court out, these surnames were the
most of what the default left in clear (docs/experiments.md, "A surname standing as a clause's
subject"). The word is flagged (its probability raised to the threshold) where

- :data:`SUBJECT_CONJUNCTIONS` stands right before it and the clause's last word before its first
  punctuation is a singular verb (:func:`singular_verb`: "hatte", "ist", "wohnt"; not "sind",
  "brechen": "dass Kontaktfedern noch vor dem Einbau brechen"), or
- one of :data:`SINGULAR_AUXILIARIES` stands right before it and its clause does not open with an
  article or a pronoun (no subject before the auxiliary: "Die Beklagte hat Klageabweisung
  beantragt", "Ihr sei Vertrauensschutz zu gewähren");
- a small word follows it or it ends with a comma or a period ("hat Taucher nach", "wurde Koch.");
- the word (:func:`subject_word`) is a surname to the lexicon ("Koch", "Pfeifer") that German writes
  under Zipf 5.5, or a common noun that the dev courts' rulings do not print in clear
  (:func:`rulings_anon.analyzer.common_words.common_words`: "Einspruch", "Rechtsschutz", "Vorsatz"
  are theirs; "Taucher", "Bischof" are not) written under Zipf 4.5; not an abstract noun's ending
  ("-ung", "-heit"), a role, a relative or a title, a weekday or a month.

Counted before any fit, in the six courts' anonymized rulings (whose names are placeholders) the
test holds 4 words in clear ("Montag", "Hauptzweck", "Besuchern", "Beauftragte"). The measured
decision reads the same test, kept per candidate when the features are computed (the ``subject``
mark of :data:`rulings_anon.analyzer.sensitivity_model.MARKS`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.common_words import common_words
from rulings_anon.document import Element
from rulings_anon.lexicon import COMMON_NOUN, noun_bits
from rulings_anon.word_frequency import zipf

# whether score's decision applies the rule (the benchmark switches it off to compare)
SUBJECT_NAMES = True
SUBJECT_CONJUNCTIONS = frozenset("dass ob weil wenn falls obwohl nachdem sobald sodass bevor solange".split())
SINGULAR_AUXILIARIES = frozenset("hat habe hatte hätte ist sei war wäre wurde würde wird werde".split())
_SINGULAR_MODALS = frozenset("kann könne konnte könnte muss müsse musste müsste soll solle sollte darf dürfe "
                             "durfte dürfte will wolle wollte".split())
# words that open a clause with its subject, so that a bare noun after the auxiliary is its object
# or its predicate ("Die Beklagte hat Klageabweisung beantragt", "Er ist Inhaberin")
_SUBJECT_OPENERS = frozenset("der die das des dem den ein eine einer eines einem einen er sie es ihr ihm ihn ich "
                             "du wir man dies dieser diese dieses jener jene jenes".split())
_CLAUSE_ENDS = (".", ",", ";", ":", "!", "?")
MAX_CLAUSE = 30  # elements searched for a subordinate clause's verb
MAX_OPENING = 12  # elements searched back for the auxiliary's clause's first word
SURNAME_ZIPF = 5.5  # a surname to the lexicon, as name_parts.PARTY_NAME_ZIPF
NOUN_ZIPF = 4.5  # a common noun, as name_parts.COORDINATED_NOUN_ZIPF
_ABSTRACT_ENDINGS = ("ung", "heit", "keit", "schaft", "ion", "tät", "nis", "ismus", "ment", "enz", "anz")
_CALENDAR = frozenset("Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag Sonnabend Januar Februar März "
                      "April Mai Juni Juli August September Oktober November Dezember".split())


def singular_verb(word: str) -> bool:
    """Whether ``word`` (an element's text, lower case) is a singular finite verb: a singular
    auxiliary or modal, or a form ending in "t" that is no plural's "-en" ("wohnt", "hatte" too)."""
    word = word.rstrip(".,;:!?)“\"'")
    return word in SINGULAR_AUXILIARIES or word in _SINGULAR_MODALS or word.endswith(("t", "te"))


def subject_word(word: str) -> bool:
    """Whether ``word`` (a core word) may be a surname standing bare (see the module docstring)."""
    from rulings_anon.analyzer.name_parts import NAME_WORD, _role_word, starts_no_name, word_surname

    if len(word) < 3 or not NAME_WORD.match(word) or word.endswith(_ABSTRACT_ENDINGS) or word in _CALENDAR \
            or starts_no_name(word) or _role_word(word):
        return False
    if word_surname(word):
        return zipf(word, "de") < SURNAME_ZIPF
    return bool(noun_bits(word) & COMMON_NOUN) and word not in common_words() and zipf(word, "de") < NOUN_ZIPF


def _clause_verb(raw: Sequence[str], i: int) -> str | None:
    """The last word of the clause element ``i`` stands in: the first after it ending with
    punctuation, or before "und"/"oder", within :data:`MAX_CLAUSE` elements."""
    for j in range(i + 1, min(len(raw), i + MAX_CLAUSE)):
        if raw[j] in ("und", "oder"):
            return raw[j - 1].lower()
        if raw[j].endswith(_CLAUSE_ENDS):
            return raw[j].lower()
    return None


def _clause_opening(raw: Sequence[str], i: int) -> str:
    """The first word of the clause element ``i`` stands in, lower case, quotes and brackets off."""
    j = i
    while j > 0 and i - j < MAX_OPENING and not raw[j - 1].endswith(_CLAUSE_ENDS):
        j -= 1
    return raw[j].strip("(„\"“").lower()


def subject_name(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` (``raw``: the elements' texts) is a surname standing bare as its
    clause's subject (see the module docstring)."""
    if i < 1 or i + 1 >= len(raw):
        return False
    word = sf.core_word(raw[i])
    if raw[i] not in (word, word + ",", word + "."):
        return False
    previous = raw[i - 1]
    if previous in SUBJECT_CONJUNCTIONS:
        verb = _clause_verb(raw, i)
        if verb is None or not singular_verb(verb):
            return False
    elif previous in SINGULAR_AUXILIARIES:
        if _clause_opening(raw, i - 1) in _SUBJECT_OPENERS:
            return False
    else:
        return False
    if not raw[i + 1][:1].islower() and raw[i] == word:
        return False
    return subject_word(word)


def with_subject_names(elements: Sequence[Element], probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with each surname standing bare as a clause's subject (:func:`subject_name`)
    raised to ``threshold`` where it is below it and above 0; the others as they are."""
    probabilities = np.asarray(probabilities)
    if not SUBJECT_NAMES:
        return probabilities
    raw, named = None, []
    for i in range(1, len(elements) - 1):
        previous = elements[i - 1].text
        if previous not in SUBJECT_CONJUNCTIONS and previous not in SINGULAR_AUXILIARIES \
                or not 0 < probabilities[i] < threshold:
            continue
        raw = raw if raw is not None else [e.text for e in elements]
        if subject_name(raw, i):
            named.append(i)
    if not named:
        return probabilities
    out = probabilities.astype(np.float64)  # in float64, as role_names.with_role_names
    out[named] = threshold
    return out
