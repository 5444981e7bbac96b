"""A medicine named after its kind ("des Medikaments Isentress") and a European judgment after its
noun ("EuGH-Urteil Ferreira") are weighed down with their other mentions, and so is a term's name
built on an acronym ("TVÜ-Länder"), in score's decision and in the measured one alike
(``rulings_anon.analyzer.thing_names``).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import thing_names
from rulings_anon.analyzer.decisions import Settings, decide
from rulings_anon.document import split_elements
from tests.decision_rules import spans_at, weighed_words

CASES = [
    # the word after a drug noun, a compound's and an inflected one's too, and its other mentions
    ("Die Umsätze mit dem Arzneimittel Isentress stiegen. Isentress wirkt; das Kombinationspräparat Stribild auch.",
     ["Isentress", "Isentress", "Stribild"]),
    ("Die Zulassung des Medikaments Genvoya ruht.", ["Genvoya"]),
    # a European judgment cited by its parties' names; not the Commission, a common noun
    ("Vgl. EuGH-Urteil Ferreira da Silva e Brito u. a.; Ferreira ist maßgeblich. EGMR-Urteil Kommission.",
     ["Ferreira", "Ferreira"]),
    # a common noun or a function word after the noun, punctuation after it: no thing's name
    ("Dem Arzneimittel Zulassung zu erteilen, lehnte sie ab. Das Präparat Zur Verfügung.", []),
    ("Das Präparat, sagt Müller, wirkt. Müller klagt.", []),
]


@pytest.mark.parametrize("text, weighed", CASES)
def test_a_medicine_after_its_kind_is_weighed_down(text, weighed):
    assert weighed_words(text, thing_names.without_thing_names, npr.without_thing_names,
                         thing_names.THING_WEIGHT) == (weighed, weighed)


def test_the_default_leaves_the_medicine_and_recall_first_reaches_it(monkeypatch):
    """0.9 for "Isentress" (as the model gave it in a licence case) falls to 0.09: under the default
    threshold, over recall-first's; without the rule the default flags both mentions."""
    text = "Die Umsätze mit dem Medikament Isentress stiegen. Abnehmer des Produkts Isentress fielen aus."
    elements = split_elements(text)
    probabilities = np.array([0.9 if e.text == "Isentress" else 0.0 for e in elements])
    assert decide(text, elements, probabilities, Settings(0.16)) == []
    assert [s.start for s in decide(text, elements, probabilities, Settings(0.001))] == [31, 72]
    monkeypatch.setattr(thing_names, "THING_NAMES", False)
    assert [s.text for s in decide(text, elements, probabilities, Settings(0.16))] == ["Isentress", "Isentress"]


ACRONYMS = [
    # a collective agreement, an ordinance, a mark: an acronym and its hyphenated parts, every mention
    ("Der TVÜ-Länder gilt; nach § 29a Abs. 2 TVÜ-Länder und der EntgO-L sowie der KArbT-NEK ist das so.",
     ["TVÜ-Länder", "TVÜ-Länder", "EntgO-L", "KArbT-NEK"]),
    ("Die Abrechnung nach IKK-BR und TVöD-AT.", ["IKK-BR", "TVöD-AT"]),
    # a company's name before its legal form, a part that may be a surname, a capitalized name
    # ("McDonald" ends in small letters), a single capital, a name in capitals: no acronym's term
    ("Die ABC-Bau GmbH und KFZ-Mayrhofer klagen gegen McDonald-Smith und A-Bau.", []),
    ("Zeugin war Frau MAYR-HOFER, nicht die Marke KAGURA-Musik.", []),
]


@pytest.mark.parametrize("text, weighed", ACRONYMS)
def test_a_terms_name_built_on_an_acronym_is_weighed_down(text, weighed):
    assert weighed_words(text, lambda _, elements, p: thing_names.without_acronym_compounds(elements, p),
                         npr.without_acronym_compounds, thing_names.THING_WEIGHT) == (weighed, weighed)


def test_an_acronyms_term_leaves_the_default_and_recall_first_reaches_it():
    """0.3 for "TVÜ-Länder" (as the model gave it in a labour court's ruling) falls to 0.03: under the
    default threshold, over recall-first's, at every mention."""
    text = "Der TVÜ-Länder ist anzuwenden. Nach § 1 TVÜ-Länder ist sie Angestellte."
    assert spans_at(text, {"TVÜ-Länder": 0.3}, 0.16) == []
    assert spans_at(text, {"TVÜ-Länder": 0.3}, 0.001) == [(4, "TVÜ-Länder"), (40, "TVÜ-Länder")]
