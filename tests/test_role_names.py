"""A person named right after their role ("Geschäftsführer Christen") and an institution right after
its kind ("des Landkreises Mann"): the decision rule of
``rulings_anon.analyzer.role_names``, in score's decision and in the measured one alike.

Fictitious sentences, exact elements and spans; the model's probabilities are set by hand where the
rule alone is under test, and the bundled model judges the end-to-end case.
"""

from __future__ import annotations

import numpy as np
import pytest

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import role_names
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer.decisions import Settings, decide
from rulings_anon.document import split_elements
from rulings_anon.engine import Analyzer

CASES = [
    ("Das Schreiben war von deren Geschäftsführer Christen unterzeichnet.", ["Christen"]),
    ("Die Liste ist ungültig, da der Kandidat Dorn unter Nr. 21 aufgenommen wurde.", ["Dorn"]),
    ("Die Einsatzleiterin, Kriminaloberkommissarin Dörfer, ordnete die Durchsuchung an.", ["Dörfer,"]),
    ("Er teilte sich das Zimmer mit dem Mitangeklagten Freitag und schwieg.", ["Freitag"]),
    # a kind of person, not one: an indefinite determiner before the role
    ("Nach der Rechtsprechung darf ein Rechtsanwalt Fristen ausschöpfen.", []),
    # a capitalized common noun after the word: "Freie Mitarbeiterin" is no name
    ("Unterschrieben mit dem Zusatz Rechtsanwältin Freie Mitarbeiterin.", []),
    # the ruling writes the word as a noun elsewhere ("die Beschwerde")
    ("Die Beschwerde ist unzulässig. Zuvor legte der Verteidiger Beschwerde ein.", []),
    # a title: the name comes later, and a punctuation mark after the role ends it
    ("Beigeordnet wird Rechtsanwalt Dr. Kern, der Geschäftsführer, Herr Sommer, nicht.", []),
    ("Vertreten durch einen Rechtsanwalt, Steuerberater, Steuerbevollmächtigten oder Wirtschaftsprüfer.", []),
    # a relative is no role of this rule; a witness's is a party's (a surname that is a word too)
    ("Der Zeuge Sommer und die Ehefrau Rentenzahlungen.", ["Sommer"]),
    # a line break after the role: a list of keywords, not a name
    ("Schlagworte: Insolvenzverwalter, Geschäftsführer\nFundstellen: NZI 2024, 475", []),
    # an institution named after its kind
    ("Die Beklagte trat in die Rechtsstellung des Landkreises Mann ein.", ["Mann"]),
    ("Der Personalrat des Kreiskrankenhauses Reiter und die Tarifgemeinschaft Vogel stimmten zu.",
     ["Reiter", "Vogel"]),
    ("Sie wurde in der Klinik Hohenfels behandelt; das Landratsamt Kronach erließ den Bescheid.",
     ["Hohenfels", "Kronach"]),
    # a town's or a court's kind is no such institution; a title after the kind is no name
    ("Die Stadt Gartenau und das Amtsgericht Seefeld entschieden. Die Klinik Dr. Sommer schwieg.", []),
    # a civil party's role names a surname the lexicon knows as a name too, not a noun nor a frequent word
    ("Der Kläger Wagner verlangt Schadensersatz; die Beklagte Koch bestreitet.", ["Wagner", "Koch"]),
    ("Das Gericht gab dem Kläger Zeit zur Stellungnahme und dem Beklagten Gelegenheit zur Äußerung.", []),
    ("Die Antragsgegnerin Fuchs rügte, der Kläger Leistungen beziehe.", ["Fuchs"]),
    # a relative's noun names a first name, not a noun nor a surname that is no first name
    ("Das Jugendamt nahm das Kind Jonas in Obhut; mit seiner Tochter Anna wollte er Urlaub machen.", ["Jonas", "Anna"]),
    ("Der Ehefrau Rentenzahlungen zu gewähren, lehnte die Kasse ab; der Sohn Koch.", []),
    # and a word the lexicon does not list at all, not a town or a word that starts no name
    ("Sie bezog Kindergeld für ihre Tochter Laimer und nicht für den Sohn Leipzig oder die Tochter Die.", ["Laimer"]),
    # a sentence ends after the word: the capitalized word after it ("Für", a noun to the lexicon) says nothing
    ("Sie bezog Kindergeld für ihre Tochter Laimer. Für den Sohn erhielt sie nichts.", ["Laimer."]),
    # a co-defendant tried separately, in small letters too; the participle of an aim names nobody
    ("Er kaufte beim gesondert verfolgten Denk und beim anderweitig Verfolgten Kastner ein.", ["Denk", "Kastner"]),
    ("Der verfolgte Sinn und der verfolgten Kastner; des getrennt verfolgten Bruder nicht.", []),
    # a criminal case's parties, its witnesses and experts
    ("Die Rüge des Angeklagten Keller greift nicht; die Zeugin Vogel und der Sachverständige Koch schwiegen.",
     ["Keller", "Vogel", "Koch"]),
    ("Dem Angeklagten Revision zu gewähren, lehnte der Beschuldigte Hilfe ab; der Zeugin Glauben schenkte es.", []),
    ("Die Nebenklägerin Vogel und der Geschädigte Koch sagten aus; dem Geschädigten Schmerzensgeld zu zahlen.",
     ["Vogel", "Koch"]),
    # a colleague, a neighbour: the singular forms no plural shares
    ("Seine Kollegin Schäfer und der Nachbar Fuchs beschwerten sich; die Kollegen Anträge nicht.", ["Schäfer", "Fuchs"]),
    # a birth name after "geb.", not a date after it nor a party's role after "geborene"
    ("Es erschien die Zeugin Klement, geb. Burger, und Frau Anna Müller geb. Schmidt.", ["Burger,", "Schmidt."]),
    ("Sie ist geb. am 4. Mai 1990; der 1952 geborene Kläger klagt.", []),
]


@pytest.mark.parametrize("text, named", CASES)
def test_a_role_names_the_word_after_it(text, named):
    elements = split_elements(text)
    raised = role_names.with_role_names(text, elements, np.full(len(elements), 0.01), 0.15)
    assert [e.text for e, p in zip(elements, raised, strict=True) if p >= 0.15] == named


def test_public_words_and_flagged_words_stay_as_they_are():
    """Probability 0 (a rule made the word public) stays 0; one above the threshold is not lowered."""
    text = "Der Geschäftsführer Christen und der Kandidat Dorn."
    elements = split_elements(text)
    probabilities = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.9])
    assert role_names.with_role_names(text, elements, probabilities, 0.15).tolist() == probabilities.tolist()


def test_the_name_spreads_through_its_ruling():
    """Raised once, the word is a flagged name: consistency flags its other mentions too."""
    text = "Geschäftsführer sind Christen und Dorner. Das Schreiben hat der Geschäftsführer Christen unterzeichnet."
    elements = split_elements(text)
    probabilities = np.array([0.9 if e.text == "Dorner." else 0.01 for e in elements])
    assert [s.text for s in decide(text, elements, probabilities, Settings(0.15))] == [
        "Christen", "Dorner", "Christen"]


@pytest.mark.parametrize("text, named", CASES)
def test_measured_role_names_are_the_decision(text, named):
    """The rows version reads the role from the context key before, a period or a comma after it
    from the role's own row, the next word from the next row and the ruling's determiners from
    ``doc_determiner``: the same words as score's decision."""
    court = sm.extract_court([{"id": "a", "text": text, "spans": []}])
    raised = npr.with_role_names(court, np.full(len(court.words), 0.01), 0.15)
    assert [w for w, p in zip(court.words, raised, strict=True) if p >= 0.15] == [w.rstrip(",.") for w in named]


def test_score_flags_a_surname_that_is_a_noun_after_a_role(monkeypatch):
    """End to end through the bundled model: "Christen" is a common noun, which the model leaves
    below its threshold here; the role names it (without the rule: no span)."""
    text = "Das Schreiben war von deren Geschäftsführer Christen unterzeichnet."
    assert [(s.start, s.end, s.text) for s in Analyzer().analyze(text)] == [(44, 52, "Christen")]
    monkeypatch.setattr(role_names, "ROLE_NAMES", False)
    assert Analyzer().analyze(text) == []


def test_score_flags_a_surname_that_is_a_word_after_a_partys_role(monkeypatch):
    """"Wagner" after "Der Kläger" the model scores 0.13 (a party's role is no salutation to the
    features): the role names it, and its other mentions with it (without the rule: no span)."""
    text = "Der Kläger Wagner verlangt Schadensersatz. Wagner ist Landwirt."
    assert [(s.start, s.end, s.text) for s in Analyzer().analyze(text)] == [(11, 17, "Wagner"), (43, 49, "Wagner")]
    monkeypatch.setattr(role_names, "PARTY_ROLE_NAMES", False)
    assert Analyzer().analyze(text) == []


def test_a_named_word_reaches_any_threshold_from_float32_probabilities():
    """The model gives float32 probabilities; raised to a threshold whose float32 lies under it (0.16
    is 0.1599999964 in float32) the word must still reach the threshold the decision compares with."""
    from rulings_anon.analyzer.role_names import with_role_names
    from rulings_anon.document import split_elements

    text = "Das Schreiben war von deren Geschäftsführer Christen unterzeichnet."
    probabilities = np.array([0.0003, 0.0003, 0, 0, 0, 0.0003, 0.0385, 0], np.float32)
    for threshold in (0.14, 0.16, 0.001, 0.3):
        out = with_role_names(text, split_elements(text), probabilities, threshold)
        assert np.asarray(out, np.float64)[6] >= threshold and out[5] == probabilities[5]
