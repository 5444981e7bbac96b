"""A surname that is also a word, standing bare as a clause's subject, is flagged, in score's
decision and in the measured one alike (``rulings_anon.analyzer.subject_names``; the measured one
reads the ``subject`` mark kept with the features).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer.clauses import singular_verb
from rulings_anon.analyzer.subject_names import with_subject_names
from rulings_anon.document import split_elements
from tests.decision_rules import spans_at

THRESHOLD = 0.16

CASES = [
    # a singular auxiliary after an adverb or a phrase, the name right after it
    ("Im Streitfall hat Taucher nach den Feststellungen des FG keine Ausbildung abgeschlossen.", ["Taucher"]),
    ("Vielmehr hat Taucher ihren ersten Abschluss erworben.", ["Taucher"]),
    ("Im Jahr 2019 wurde Koch freigesprochen. Danach hat Sommer die Wohnung gekündigt.", ["Koch", "Sommer"]),
    # a subordinate clause opened by the name, its verb singular
    ("Das FG hat verkannt, dass Pfeifer eine andere Anschrift hatte.", ["Pfeifer"]),
    ("Offen ist, ob Bischof das Grundstück selbst bewohnt.", ["Bischof"]),
    # the auxiliary's clause opens with its subject: the noun is an object or a predicate
    ("Die Beklagte hat Klageabweisung beantragt.", []),
    ("Er sei Taucher gewesen.", []),
    # a plural verb, a word the courts print in clear, an abstract noun, a weekday, quotes
    ("Es ist nicht ersichtlich, dass Taucher noch vor dem Einbau brechen.", []),
    ("Es steht fest, dass Rechtsschutz gewährt wird.", []),
    ("Es steht fest, dass Pflegegeld gezahlt wird; danach wurde Wohngeld bewilligt.", []),  # compounds
    ("Fraglich ist, ob Verwaltung vorliegt.", []),
    ("Nächster Bankarbeitstag war Montag, der 7. Dezember.", []),
    ("Es ist klar, dass „Taucher“ eine Marke ist.", []),
    # a capitalized word after the noun: no bare subject ("hat Taucher Ausrüstung")
    ("Vielmehr hat Taucher Ausrüstung gekauft.", []),
]


def raised_words(text: str) -> tuple[list[str], list[str]]:
    """The words each version of the rule raises from 0.01 to the threshold: score's decision's
    elements and the measured decision's rows, as core words."""
    elements = split_elements(text)
    raised = with_subject_names(elements, np.full(len(elements), 0.01), THRESHOLD)
    court = sm.extract_court([{"id": "a", "text": text, "spans": []}])
    measured = npr.with_subject_names(court, np.full(len(court.words), 0.01, np.float32), THRESHOLD)
    return ([sf.core_word(e.text) for e, p in zip(elements, raised, strict=True) if p >= THRESHOLD],
            [w for w, p in zip(court.words, measured, strict=True) if p >= THRESHOLD])


@pytest.mark.parametrize("text, flagged", CASES)
def test_a_surname_standing_bare_as_a_subject_is_flagged(text, flagged):
    assert raised_words(text) == (flagged, flagged)


def test_the_name_spreads_to_its_other_mentions_and_a_rule_s_zero_stays():
    text = "Vielmehr hat Taucher ihren Abschluss erst 2014 erworben. Die Arbeitszeit der Taucher betrug 40 Stunden."
    assert spans_at(text, {"Taucher": 0.01}, THRESHOLD) == [(13, "Taucher"), (77, "Taucher")]
    assert spans_at(text, {"Taucher": 0.0}, THRESHOLD) == []  # a public word: a rule said 0


@pytest.mark.parametrize("verb, singular", [("hatte", True), ("wohnt.", True), ("ist,", True), ("könne", True),
                                            ("sind.", False), ("brechen", False), ("hatten", False)])
def test_a_singular_verb(verb, singular):
    assert singular_verb(verb) is singular
