"""Where a word stands in its clause, read from the elements around it: a bare noun opening a
subordinate clause whose verb is singular ("dass Taucher eine andere Anschrift hatte"), or right
after a singular auxiliary whose clause opens with no subject ("Vielmehr hat Taucher ...").
:mod:`rulings_anon.analyzer.subject_names` decides which such words are names; the measured
decision reads the position kept per candidate when the features are computed (the ``subject``
mark of :data:`rulings_anon.analyzer.sensitivity_model.MARKS`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulings_anon.analyzer import sensitivity as sf

SUBJECT_CONJUNCTIONS = frozenset("dass ob weil wenn falls obwohl nachdem sobald sodass bevor solange".split())
SINGULAR_AUXILIARIES = frozenset("hat habe hatte hätte ist sei war wäre wurde würde wird werde".split())
_SINGULAR_MODALS = frozenset("kann könne konnte könnte muss müsse musste müsste soll solle sollte darf dürfe "
                             "durfte dürfte will wolle wollte".split())
# words that open a clause with its subject, so that a bare noun after the auxiliary is its object
# or its predicate ("Die Beklagte hat Klageabweisung beantragt", "Er ist Inhaber")
_SUBJECT_OPENERS = frozenset("der die das des dem den ein eine einer eines einem einen er sie es ihr ihm ihn ich "
                             "du wir man dies dieser diese dieses jener jene jenes".split())
_CLAUSE_ENDS = (".", ",", ";", ":", "!", "?")
MAX_CLAUSE = 30  # elements searched for a subordinate clause's verb
MAX_OPENING = 12  # elements searched back for the auxiliary's clause's first word


def singular_verb(word: str) -> bool:
    """Whether ``word`` (an element's text, lower case) is a singular finite verb: a singular
    auxiliary or modal, or a form ending in "t" or "te" ("wohnt", "hatte"), not a plural's "-en"."""
    word = word.rstrip(".,;:!?)“\"'")
    return word in SINGULAR_AUXILIARIES or word in _SINGULAR_MODALS or word.endswith(("t", "te"))


def clause_verb(raw: Sequence[str], i: int) -> str | None:
    """The last word of the clause element ``i`` stands in, lower case: the first after it ending
    with punctuation, or the one before "und"/"oder", within :data:`MAX_CLAUSE` elements."""
    for j in range(i + 1, min(len(raw), i + MAX_CLAUSE)):
        if raw[j] in ("und", "oder"):
            return raw[j - 1].lower()
        if raw[j].endswith(_CLAUSE_ENDS):
            return raw[j].lower()
    return None


def clause_opening(raw: Sequence[str], i: int) -> str:
    """The first word of the clause element ``i`` stands in, lower case, quotes and brackets off."""
    j = i
    while j > 0 and i - j < MAX_OPENING and not raw[j - 1].endswith(_CLAUSE_ENDS):
        j -= 1
    return raw[j].strip("(„\"“").lower()


def opens_subject(previous: str) -> bool:
    """Whether ``previous`` (an element's text) may stand right before a clause's bare subject: one
    of :data:`SUBJECT_CONJUNCTIONS` or :data:`SINGULAR_AUXILIARIES`; a caller asks this cheap test
    of every element before :func:`bare_subject`."""
    return previous in SUBJECT_CONJUNCTIONS or previous in SINGULAR_AUXILIARIES


def bare_subject(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` (``raw``: the elements' texts), a capitalized word without quotes or
    brackets, stands bare as its clause's subject: after one of :data:`SUBJECT_CONJUNCTIONS` with
    a singular verb ending the clause (:func:`singular_verb`; not "dass Kontaktfedern ... brechen"),
    or after one of :data:`SINGULAR_AUXILIARIES` whose clause does not open with an article or a
    pronoun ("Vielmehr hat Taucher", not "Die Beklagte hat Klageabweisung"); a small word after it,
    or its comma or period ("hat Taucher nach", "wurde Koch.", not "hat Taucher Ausrüstung")."""
    if i < 1 or i + 1 >= len(raw) or not raw[i][:1].isupper():
        return False
    word = sf.core_word(raw[i])
    if raw[i] not in (word, word + ",", word + "."):
        return False
    previous = raw[i - 1]
    if previous in SUBJECT_CONJUNCTIONS:
        verb = clause_verb(raw, i)
        if verb is None or not singular_verb(verb):
            return False
    elif previous in SINGULAR_AUXILIARIES:
        if clause_opening(raw, i - 1) in _SUBJECT_OPENERS:
            return False
    else:
        return False
    return raw[i + 1][:1].islower() or raw[i] != word
