"""A sign a ruling about marks quotes is weighed down, in score's decision and in the measured one
alike (``rulings_anon.analyzer.quoted_signs``; the measured one reads the ``quoted_sign`` mark kept
with the features); a quotation in any other ruling, and a quoted sentence, keep their names.

Fictitious sentences; the probabilities are set by hand, since the rule is under test.
"""

from __future__ import annotations

import pytest

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import thing_names
from rulings_anon.analyzer.quoted_signs import mark_ruling, quoted_sign
from tests.decision_rules import spans_at, weighed_words

MARKS = ("Die Marke ist eingetragen. Die Widerspruchsmarke ist älter. Beide Marken sind Wortmarken. "
         "Nach § 9 MarkenG kommt es auf die Ähnlichkeit an. ")

CASES = [
    (MARKS + "Gegen die Marke „Myzin“ richtet sich der Widerspruch aus der Marke „Panto Plus“.",
     ["Myzin", "Panto", "Plus"]),
    (MARKS + 'Der Zeichenbestandteil "Refle" ist kennzeichnungsschwach.', ["Refle"]),
    # the sign's other mentions in the ruling too
    (MARKS + "Die Marke „Myzin“ ist älter; Myzin ist ein Phantasiewort, Myzins Klang ist weich.", ["Myzin", "Myzin"]),
    # a quoted sentence: its first and last words are no sign
    (MARKS + "Der Zeuge sagte: „Müller hat mir die Ware gestern im Laden gezeigt, sagte Huber“.", []),
    # a ruling that is not about marks: its quotations keep their names
    ("Die Firma „Vogler“ und der Zeuge „Fehring“ traten auf. Die Marke ist alt.", []),
]


@pytest.mark.parametrize("text, weighed", CASES)
def test_a_sign_a_ruling_about_marks_quotes_is_weighed_down(text, weighed):
    assert weighed_words(text, thing_names.without_quoted_signs, npr.without_quoted_signs,
                         thing_names.THING_WEIGHT) == (weighed, weighed)


def test_the_default_leaves_the_sign_and_recall_first_still_reaches_it():
    """"Becker" at 0.5, a surname as a sign, falls to 0.05: under the default threshold, over
    recall-first's."""
    text = MARKS + "Die Marke „Becker“ ist älter."
    start = text.index("„Becker“")
    assert spans_at(text, {"„Becker“": 0.5}, 0.16) == []
    assert spans_at(text, {"„Becker“": 0.5}, 0.001) == [(start + 1, "Becker")]


def test_a_ruling_about_marks_writes_their_words_five_times():
    assert mark_ruling(MARKS)
    assert not mark_ruling("Die Marke und die Widerspruchsmarke, nach MarkenG, zwei Marken.")
    assert not mark_ruling("Die Markenstelle prüfte die Markierung.")  # no mark's word, only its start


@pytest.mark.parametrize("words, i, sign", [
    (["„Myzin“"], 0, True),
    (["„Monster", "Energy“", "ist"], 0, True), (["„Monster", "Energy“", "ist"], 1, True),
    (["„Wir", "sind", "hier", "alle", "gleich“"], 0, False),  # five words: a sentence
    (["„Wir", "sind", "hier", "alle", "gleich“"], 4, False),
    (["Myzin"], 0, False),
])
def test_a_sign_is_a_quotation_of_three_words_at_most(words, i, sign):
    assert quoted_sign(words, i) is sign
