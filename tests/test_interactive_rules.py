"""The rules behind the questions: plain words, type inference, document corrections."""

from collections import Counter

import pytest

from rulings_anon.interactive.corrections import Correction, apply_corrections, find_corrections
from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.placeholders.review_units import PLAIN_WORD, document_units
from rulings_anon.replacement.type_inference import infer_type


@pytest.mark.parametrize("element, plain", [
    ("Revision", True), ("(Gründe).", True), ("Betäubungsmittel-", True), ("1.234,50", True), ("69a", True),
    ("§", True), ("„Vertrag“", True),
    ("K.", False), ("a)", False), ("...", False), ("M-GmbH", False),
])
def test_plain_words_are_skipped_by_rule(element, plain):
    assert bool(PLAIN_WORD.match(element)) is plain


def test_units_merge_multi_element_placeholders_and_keep_order():
    # detector hits are asked even where they look like words ("Kstraße", "Xxxxx")
    text = "Frau A. B. wohnt in der Kstraße 5, siehe a) oben. Sie arbeitet bei der M-GmbH & Co. KG in Xxxxx."
    _, units = document_units(text, PlaceholderDetector())
    assert [(text[u.start:u.end], u.detected) for u in units] == [
        ("A. B.", True), ("Kstraße", True), ("a", False), ("M-GmbH & Co. KG", True), ("Xxxxx", True)]


@pytest.mark.parametrize("text, placeholder, expected", [
    ("Die Klägerin Frau K. wohnt dort.", "K.", "person"),      # salutation before
    ("Frau Klement, geb. Burger, kam.", "Burger", "person"),    # a birth name after "geb."
    ("Frau K. geb. M. kam.", "K.", "person"),                  # a name before "geb."
    ("Er ist geb. am ... in Ulm.", "...", "date"),             # a birth date elided
    ("Er wurde am ... geboren.", "...", "date"),
    ("Er wohnt in M. seit Jahren.", "M.", "place"),            # "in"
    ("Er arbeitet bei der M-GmbH.", "M-GmbH", "company"),     # legal form in the placeholder
    ("Er arbeitet bei der H AG.", "H", "company"),             # legal form after it
    ("Er wohnt in der Kstraße.", "Kstraße", "street"),         # street word glued on
    ("Der Verein S e. V. klagt.", "S e. V.", "organization"),  # registered association
    ("Patentanwalt K… schrieb.", "K…", "person"),              # a role ending in -anwalt
    ("Mail an x@y.de schicken.", "x@y.de", "email/url"),
])
def test_type_is_inferred_from_form_and_context(text, placeholder, expected):
    start = text.index(placeholder)
    assert infer_type(text, start, start + len(placeholder)) == expected


def test_corrections_found_and_applied_around_spans():
    text = "Der Anw alt kam (siehe Anlage K 1 . Dann , sagte Meyer."
    vocabulary = Counter({"Anwalt": 5, "Anw": 1, "alt": 9})
    found = find_corrections(text, vocabulary, protected=[(49, 54)])
    assert [(c.before, c.after, c.reason) for c in found] == [
        ("Anw alt", "Anwalt", "split word"),
        ("(siehe Anlage K 1 .", "(siehe Anlage K 1).", "bracket not closed"),
        (" ,", ",", "space before punctuation"),
    ]
    new_text, spans = apply_corrections(text, [{"start": 49, "end": 54, "type": "person"}], found)
    assert new_text == "Der Anwalt kam (siehe Anlage K 1). Dann, sagte Meyer."
    assert new_text[spans[0]["start"]:spans[0]["end"]] == "Meyer"
    # a correction overlapping a replacement is never offered
    assert find_corrections("Herr Anw alt", vocabulary, protected=[(5, 8)]) == []
    assert isinstance(found[0], Correction)
