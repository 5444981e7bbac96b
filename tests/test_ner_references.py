"""Multi-element references (thesis 9.3) and affix stripping (9.2): exact spans."""

from __future__ import annotations

import pytest

from rulings_anon.analyzer.merging import merge_into_references
from rulings_anon.data import path as data_path
from rulings_anon.document import Span, split_elements
from rulings_anon.jsonl import read_json
from rulings_anon.references import element_groups, group_references, strip_affixes
from rulings_anon.replacement.type_inference import infer_type


def texts(text, spans):
    return [(text[s.start:s.end], s.type) for s in spans]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Anwalt Thilo von Schmiedeberg sagte", [("Thilo von Schmiedeberg", "name")]),
        ("die Fentler + Sohn GmbH hat", [("Fentler + Sohn GmbH", "company")]),
        ("Bankkonto DE91 1000 0000 0123 4567 89 bei", [("DE91 1000 0000 0123 4567 89", "number")]),
        ("am 25. September 1996 geboren", [("25. September 1996", "date")]),
        # The article is no part of the company name; the legal form with "& Co." is.
        ("Die Müller Bau GmbH & Co. KG klagt", [("Müller Bau GmbH & Co. KG", "company")]),
        ("EP 1 234 567 B1 und 30 2017 029 616", [("EP 1 234 567 B1", "number"), ("30 2017 029 616", "number")]),
        # Citations, statutes and file numbers are not grouped.
        ("§ 8 Abs. 3 UWG, IX ZB 72/08, BGBl. I S. 2317, NJW 2018, 1234", []),
        # One element is no multi-element reference.
        ("die Isenberg-Stiftung am 1.2.2000", []),
        # Places with particles or prefixes; a weekday or month after "am" ends no place's name.
        ("in Bruck an der Leitha, in Bad Aussee und in Sankt Veit an der Glan",
         [("Bruck an der Leitha", "place"), ("Bad Aussee", "place"), ("Sankt Veit an der Glan", "place")]),
        ("Rothenburg ob der Tauber", [("Rothenburg ob der Tauber", "place")]),
        ("in Halle am Montag und am 5. Mai", [("5. Mai", "date")]),
    ],
)
def test_when_reference_spans_elements_then_one_reference(text, expected):
    assert texts(text, group_references(text)) == expected


@pytest.mark.parametrize(
    ("text", "span", "expected"),
    [
        ("Prof. Dr. Thilo von Schmiedeberg sagte", (0, 32), "Thilo von Schmiedeberg"),
        ("gegen Herrn Dipl.-Ing. Müller", (6, 29), "Müller"),
        ("die Fentler + Sohn GmbH, und", (4, 23), "Fentler + Sohn"),
        ("die Meyer GmbH & Co. KG", (4, 23), "Meyer"),
        ("der Verein Freunde e. V.", (11, 24), "Freunde"),
        ("die Herrmann AG", (4, 15), "Herrmann"),  # "Herr" inside a name is no salutation
        ("die GmbH", (4, 8), None),  # nothing but a legal form: no name left
    ],
)
def test_when_name_has_affixes_then_they_are_stripped(text, span, expected):
    stripped = strip_affixes(text, Span(*span, type="PER", score=0.9, source="ner"))
    assert (stripped.text if stripped else None) == expected
    if stripped:
        assert text[stripped.start:stripped.end] == expected and stripped.source == "ner"


def test_when_fragments_of_one_name_then_merged_into_one_span():
    text = "Anwalt Thilo von Schmiedeberg sagte"
    merged = merge_into_references(text, [Span(7, 12, type="PER", score=0.9, source="ner"),
                                          Span(17, 29, type="PER", score=0.8, source="ner")])
    assert merged == [Span(7, 29, "Thilo von Schmiedeberg", "PER", 0.9, source="ner")]


def test_when_span_touches_a_number_or_date_then_it_grows_to_the_whole_reference():
    text = "Konto DE91 1000 0000 0123 4567 89, geboren am 25. September 1996."
    merged = merge_into_references(text, [Span(6, 15, type="ACCOUNT", score=0.5), Span(57, 61, type="DATE", score=0.4)])
    assert texts(text, merged) == [("DE91 1000 0000 0123 4567 89", "ACCOUNT"), ("25. September 1996", "DATE")]


def test_when_place_span_then_it_does_not_grow_into_a_name_reference():
    text = "Urteil des Landgerichts von Berlin"
    assert texts(text, merge_into_references(text, [Span(28, 34, type="ST")])) == [("Berlin", "ST")]


def test_a_place_span_grows_into_its_place_reference_but_not_into_a_common_word():
    text = "Er lebte in Bruck an der Leitha und ging in Hamburg am Landgericht ein und aus."
    bruck, hamburg = text.index("Bruck"), text.index("Hamburg")
    spans = [Span(bruck, bruck + 5, type="ST", score=0.9, source="ner"),
             Span(hamburg, hamburg + 7, type="ST", score=0.5, source="ner")]
    assert texts(text, merge_into_references(text, spans)) == [("Bruck an der Leitha", "ST"), ("Hamburg", "ST")]
    # a person's span does not grow into a place
    assert texts(text, merge_into_references(text, [Span(bruck, bruck + 5, type="PER")])) == [("Bruck", "PER")]


def test_element_groups_are_the_elements_of_each_reference():
    text = "Anwalt Thilo von Schmiedeberg, Konto DE91 1000 0000 0123 4567 89"
    spans = group_references(text)
    assert element_groups(split_elements(text), spans) == [[1, 2, 3], [5, 6, 7, 8, 9, 10]]


def test_salutations_and_titles_are_one_list_of_name_affixes():
    affixes = read_json(data_path("name_affixes.json"))
    # Each word is listed once; rulings_anon/references.py strips every one of them off a name ...
    words = affixes["salutations"] + affixes["academic_titles"] + affixes["prefixes"]
    assert len(words) == len(set(words))
    assert strip_affixes("Fräulein Dres. Kemper", Span(0, 21, type="PER", source="ner")).text == "Kemper"
    # ... and the terminal tool takes a placeholder after any of them for a person.
    text = "Fräulein K. und Hr. M. sowie Dipl.-Kfm. S."
    assert [infer_type(text, text.index(p), text.index(p) + 2) for p in ("K.", "M.", "S.")] == ["person"] * 3


@pytest.mark.parametrize("text, expected", [
    # German articles and prepositions are no name particles on their own ...
    ("Die Beschwerde der Butte GmbH wurde verworfen.", [("Butte GmbH", "company")]),
    ("Damit ist Cichorius zu Unrecht verurteilt.", []),
    ("dass der Sonderurlaub von Herrn Neumüller endete", []),  # a salutation starts no name's part
    ("Der Betrieb der Klemt ruht.", []),
    # ... only inside a longer one.
    ("Zeugin Ursula van der Meer sagte aus.", [("Ursula van der Meer", "name")]),
    ("Freiherr Karl von und zu Brenken erschien.", [("Karl von und zu Brenken", "name")]),
])
def test_articles_and_prepositions_join_no_names(text, expected):
    assert [(s.text, s.type) for s in group_references(text)] == expected


@pytest.mark.parametrize("text, expected", [
    ("Weinhage. Höland", ["Weinhage", "Höland"]),  # a sentence ends between two names
    ("Prof. Dr. Meyer", ["Prof. Dr. Meyer"]),  # abbreviated titles do not end one
    ("K. B. Meyer", ["K. B. Meyer"]),  # nor do initials
    ("Meyer Bau Co. Kemper", ["Meyer Bau Co. Kemper"]),
    ("Thilo Kemper.", ["Thilo Kemper."]),  # the period at the very end is the caller's to cut
])
def test_ner_entities_are_cut_at_sentence_ends(text, expected):
    from rulings_anon.ner.tagger import sentence_pieces
    from rulings_anon.ner.tokens import tokenize

    assert [text[s:e] for s, e in sentence_pieces(text, tokenize(text))] == expected
