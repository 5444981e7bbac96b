"""A fixed phrase's capitalized words ("in Kraft", "Treu und Glauben", "in Rede", "Deutsche Mark")
and chemical formulas ("Li2O") are weighed down, in score's decision and in the measured one alike
(``rulings_anon.analyzer.fixed_phrases``; the measured one reads the ``fixed_thing`` mark kept with
the features).

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import pytest

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import thing_names
from rulings_anon.analyzer.fixed_phrases import chemical_formula, in_fixed_phrase
from tests.decision_rules import spans_at, weighed_words

CASES = [
    ("Die Regelung ist am 1. Mai in Kraft getreten und trat 2020 außer Kraft.", ["Kraft", "Kraft"]),
    ("Das folgt aus Treu und Glauben; die in Rede stehenden Waren.", ["Treu", "Glauben", "Rede"]),
    ("Der Wert wurde in Deutscher Mark ermittelt, um 500 Deutsche Mark.", ["Deutscher", "Mark", "Deutsche", "Mark"]),
    ("Die Glaskeramik enthält Li2O, SiO2 und Al2O3.", ["Li2O", "SiO2", "Al2O3"]),
    # the same words outside the phrase, a label of one letter and a number: none
    ("Herr Kraft, Frau Treu und ihr Sohn Mark hielten eine Rede; Merkmal M1 und D5a.", []),
    ("Er zog in Kraftwerk und Treu, und Glauben half nicht.", []),
]


@pytest.mark.parametrize("text, weighed", CASES)
def test_a_fixed_phrase_s_words_and_formulas_are_weighed_down(text, weighed):
    assert weighed_words(text, lambda _, elements, p: thing_names.without_fixed_things(elements, p),
                         npr.without_fixed_things, thing_names.THING_WEIGHT) == (weighed, weighed)


def test_the_default_leaves_the_phrase_and_recall_first_does_not_reach_a_low_one():
    """"Mark" at 0.3 (as the model gave it) falls to 0.03: under the default threshold, over
    recall-first's; "Kraft" at 0.005 falls under both."""
    text = "Um 500 Deutsche Mark ist die Regelung in Kraft getreten."
    assert spans_at(text, {"Mark": 0.3, "Kraft": 0.005}, 0.16) == []
    assert spans_at(text, {"Mark": 0.3, "Kraft": 0.005}, 0.001) == [(16, "Mark")]


@pytest.mark.parametrize("word, formula", [("K2O", True), ("CaCO3", True), ("CO2", True), ("M1", False),
                                           ("D5a", False), ("Koch", False), ("SiO", False), ("B12", False)])
def test_a_chemical_formula_has_two_symbols_and_a_count(word, formula):
    assert chemical_formula(word) is formula


def test_a_phrase_s_inner_words_are_matched_as_written():
    assert in_fixed_phrase("nach Treu und Glauben.".split(), 3)
    assert not in_fixed_phrase("nach Treu, und Glauben".split(), 3)
