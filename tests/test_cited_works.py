"""An author cited before a journal written out ("Kulosa, Der Betrieb 2014, 972") is weighed down,
in score's decision and in the measured one alike (``rulings_anon.analyzer.cited_works``; the
measured one reads the ``journal_author`` mark kept with the features).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import pytest

from rulings_anon.analyzer import cited_works
from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer.public_names import before_written_journal
from tests.decision_rules import spans_at, weighed_words

CASES = [
    # after the name's comma or "in", a journal's words and dashes, a year with its comma, a page
    ("Streitig (so auch Kulosa, Der Betrieb 2014, 972; von Lersner, Deutsches Steuerrecht - DStR - 2012, 1673).",
     ["Kulosa", "Lersner"]),
    ("Anders (Wichmann, Betriebs-Berater 1989, 1228).", ["Wichmann"]),
    ("Ebenso Heuermann in Deutsches Steuerrecht 2017, 1749 und Eckhoff, Finanz-Rundschau - FR - 2007, 989.",
     ["Heuermann", "Eckhoff"]),
    # a salutation before, a title in capitals, no page, no journal's words, a sentence between: none
    ("Herr Müller, Berlin 2003, 12 Zeugen; Dittrich, UROLOGY 1999, 54; Wimmer, Der Betrieb 2014.", []),
    ("Es klagte Huber, 2003, 17 Jahre alt; Bauer, Der Betrieb. 2014, 972.", []),
]


@pytest.mark.parametrize("text, weighed", CASES)
def test_an_author_before_a_journal_written_out_is_weighed_down(text, weighed):
    assert weighed_words(text, lambda _, elements, p: cited_works.without_journal_authors(elements, p),
                         npr.without_journal_authors, cited_works.CITED_AUTHOR_WEIGHT) == (weighed, weighed)


def test_the_default_leaves_the_author_and_recall_first_reaches_it():
    """0.4 for "Kulosa" (as the model gave such an author) falls to 0.04: under the default
    threshold, over recall-first's."""
    text = "Anders Kulosa, Der Betrieb 2014, 972, 976."
    assert spans_at(text, {"Kulosa,": 0.4}, 0.16) == []
    assert spans_at(text, {"Kulosa,": 0.4}, 0.001) == [(7, "Kulosa")]


def test_the_journal_may_hold_at_most_six_words():
    seven = "Meier, Eins Zwei Drei Vier Fünf Sechs Sieben 2014, 972."
    six = "Meier, Eins Zwei Drei Vier Fünf Sechs 2014, 972."
    assert not before_written_journal(seven.split(), 0)
    assert before_written_journal(six.split(), 0)


DOCUMENT_CASES = [
    # right after a cited document's label, its colon allowed: the first author with a comma,
    # a semicolon, or before "et al."
    ("Entgegengehalten wurden D6 Bourgeat, Klinger; Luton: Results of tests, 1991, und D15: Hammetter, "
     "Crystallization Kinetics, 1987.", ["Bourgeat", "Hammetter"]),
    ("Vorgelegt: HLNK38 Klotz et al., Urol Int. 1999, 63.", ["Klotz"]),
    # no label before, a label before a lower-case word or a name without its comma: none
    ("Es klagte Huber, der Nachbar; die Anlage K2 zeigt es; D7 Peter Lorsbach: Sprungretter.", []),
]


@pytest.mark.parametrize("text, weighed", DOCUMENT_CASES)
def test_a_cited_document_s_first_author_is_weighed_down(text, weighed):
    assert weighed_words(text, lambda _, elements, p: cited_works.without_document_authors(elements, p),
                         npr.without_document_authors, cited_works.CITED_AUTHOR_WEIGHT) == (weighed, weighed)
