"""A compound of two German words ("Glasrohling", "Merkfehler") is weighed down in score's decision
and in the measured one alike; surnames, places and streets built like compounds ("Kollmann",
"Gamsjäger", "Regensdorf", "Vogtstraße") and a company's name before its legal form keep their
probability (``rulings_anon.analyzer.word_compounds``).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import pytest

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import word_compounds
from rulings_anon.analyzer.word_compounds import name_ending, names_ending, word_compound
from tests.decision_rules import spans_at, weighed_words


@pytest.mark.parametrize("word", ["Glasrohling", "Merkfehler", "Sachangabe", "Helmschalen", "Sollanzahl",
                                  "Nennstrom", "Rechtsbeschwerde", "Kostenschuldnerin"])
def test_a_compound_of_two_words_is_one(word):
    assert word_compound(word)


@pytest.mark.parametrize("word", [
    "Kollmann", "Neumeister", "Hochreiter", "Himmelbauer",  # a modifier that is no word, a head that ends names
    "Gamsjäger", "Obermüller",  # a head that is a surname itself
    "Staudinger", "Betschart",  # a head whose end ends many names ("-inger"), a modifier of three letters
    "Regensdorf", "Radenthein", "Eggenburg",  # a place's ending, a listed place
    "Vogtstraße", "Lindenweg", "Marktplatz",  # a street's word
    "Rechtsanwalt", "Bescheid",  # listed nouns: the model knows them already
    "Glasrohling-", "GLASROHLING", "Glas",  # no compound's shape
])
def test_names_places_streets_and_listed_words_are_none(word):
    assert not word_compound(word)


def test_a_head_that_ends_many_names_is_a_names_ending():
    assert names_ending("mann") > word_compounds.NAME_HEADS
    assert names_ending("rohling") <= word_compounds.NAME_HEADS
    assert name_ending("Dinger") and not name_ending("Rohling") and not name_ending("Fehler")


CASES = [
    ("Der Glasrohling wird abgekühlt; der Merkfehler bleibt.", ["Glasrohling", "Merkfehler"]),
    # a company's name before its legal form, a surname built like a compound
    ("Die Glasrohling GmbH klagt gegen Kollmann.", []),
    # a salutation, a title or a role before it: a person's name, whatever its parts are
    ("Herr Sachangabe kam; Dr. Glasrohling ging; der Zeuge Merkfehler blieb lange im Saal. Sachangabe war weg.",
     ["Sachangabe"]),
]


@pytest.mark.parametrize("text, weighed", CASES)
def test_a_compound_of_two_words_is_weighed_down(text, weighed):
    assert weighed_words(text, lambda _, elements, p: word_compounds.without_word_compounds(elements, p),
                         npr.without_word_compounds, word_compounds.COMPOUND_WEIGHT) == (weighed, weighed)


def test_the_default_leaves_a_compound_and_recall_first_reaches_it():
    """0.3 for "Glasrohling" falls to 0.03: under the default threshold, over recall-first's; the
    surname beside it keeps its flag."""
    text = "Der Glasrohling bricht; Kollmann klagt."
    probabilities = {"Glasrohling": 0.3, "Kollmann": 0.3}
    assert spans_at(text, probabilities, 0.16) == [(24, "Kollmann")]
    assert spans_at(text, probabilities, 0.001) == [(4, "Glasrohling"), (24, "Kollmann")]


def test_the_rule_can_be_switched_off(monkeypatch):
    monkeypatch.setattr(word_compounds, "WORD_COMPOUNDS", False)
    assert spans_at("Der Glasrohling bricht.", {"Glasrohling": 0.3}, 0.16) == [(4, "Glasrohling")]
