"""An author cited before a journal written out ("Kulosa, Der Betrieb 2014, 972") is weighed down,
in score's decision and in the measured one alike (``rulings_anon.analyzer.cited_works``; the
measured one reads the ``journal_author`` mark kept with the features).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import pytest

from rulings_anon.analyzer import cited_works
from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer.public_names import (
    EDITION_REACH,
    before_written_journal,
    commentary_name,
    commentary_reach,
)
from rulings_anon.document import split_elements
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


COMMENTARY_CASES = [
    # authors before "in", the editor after it, the title's abbreviations and the edition, no comma
    ("Ebenso Osterloh / Nußberger in Sachs GG 7. Aufl. Art. 3 Rn. 295 und Forst in Richardi BetrVG 16. Aufl. § 3 Rn. 1.",
     ["Osterloh", "Nußberger", "Sachs", "Forst", "Richardi"]),
    ("Anders Spengler / Dick in Burger TVöD / TV-L 3. Aufl. § 16 Rn. 9.", ["Spengler", "Dick", "Burger"]),
    # the author before a title written in abbreviations, and those abbreviations; BeckOK's edition
    ("Anders Basedow in: Münch. Komm. z. BGB, 7. Aufl., § 305 Rn. 2; Wessing in BeckOK StPO, 29. Ed.",
     ["Basedow", "Münch", "Komm", "Wessing", "BeckOK"]),
    # a tribute's honoree and the author before the tribute
    ("Ebenso Wißmann FS Bepler 2012 S. 649; Grunsky Freundesgabe für Söllner S. 41; ders., FS Rudolphi, 2004.",
     ["Wißmann", "Bepler", "Grunsky", "Söllner", "Rudolphi"]),
    # a place after "in", an editor's comma (the public rules' form), no edition: none
    ("Der Kläger Meier in Passau 2. Instanz; Müller in Berlin, 3. Aufl.; Schmitt in Schmitt EFZG § 12.", []),
]


@pytest.mark.parametrize("text, weighed", COMMENTARY_CASES)
def test_a_commentary_s_or_a_tribute_s_scholars_cited_without_commas_are_weighed_down(text, weighed):
    assert weighed_words(text, cited_works.without_commentary_names,
                         npr.without_commentary_names, cited_works.CITED_AUTHOR_WEIGHT) == (weighed, weighed)


def test_a_commentary_s_editor_is_asked_only_near_its_edition():
    """The test is asked of the elements shortly before an edition or around a tribute, and those
    hold every word it calls a scholar's name."""
    text = "Zuvor wohnte Huber in Passau. " * 20 + "Ebenso Forst in Richardi BetrVG 16. Aufl. § 3 Rn. 1."
    elements = split_elements(text)
    raw = [e.text for e in elements]
    reach = commentary_reach(text, elements)
    assert [raw[i] for i in range(len(raw)) if commentary_name(raw, i)] == ["Forst", "Richardi"]
    edition = raw.index("Aufl.")
    assert reach == list(range(edition - EDITION_REACH, edition))
