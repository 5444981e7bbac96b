"""The replacement operators on one fixture: exact outputs, pinned before the four replacement paths
(score --anonymize / --pseudonymize, replace, the TFRecord builder, build-testset) became one."""

import pytest
from test_evaluation_redaction import TEXT as REAL  # real references, as score finds them
from test_evaluation_redaction import span as real_span

from rulings_anon.document import Span
from rulings_anon.replacement.operators import (
    OPERATORS,
    CategoryTag,
    CourtPlaceholder,
    PlaceholderSurrogate,
    ReferenceSurrogate,
    Replaced,
    anonymize,
    pseudonymize,
    pseudonymize_record,
    pseudonymize_references,
    replace,
)
from rulings_anon.replacement.surrogates import ReplacementTable, SurrogateGenerator

REAL_SPANS = [real_span("Thilo Kemper"), real_span("Meyer Bau GmbH", "company"), real_span("Isenberg", "UN"),
              real_span("Kehl"), real_span("DE91 1000 0000 0123 4567 89", "IBAN"),
              real_span("Kemper", occurrence=2), real_span("Kehl", occurrence=2), real_span("Kramer")]

# Placeholders, as the detector or a LER record marks them.
ANONYMIZED = ("Der Kläger K. wohnt in der Kstraße in B. Die M-GmbH & Co. KG zahlte an Herrn K. Das Urteil "
              "erging gegen Dr. A. G.")
PLACEHOLDERS = [Span(11, 13, type="person"), Span(27, 34, type="street"), Span(38, 40, type="place"),
                Span(45, 60, type="company"), Span(77, 79, type="PER"), Span(104, 113)]


def test_court_placeholder_operator():
    replaced = replace(REAL, REAL_SPANS, CourtPlaceholder())
    assert replaced.text == ("Herrn T. K. und die M B GmbH sowie die I AG in ..., IBAN .... Herr K. wohnt in ..., "
                             "Herr K. nicht.")
    assert anonymize(REAL, REAL_SPANS) == replaced.text
    # each span points at its placeholder; "Isenberg" took the "AG" after it in
    assert [replaced.text[s.start:s.end] for s in replaced.spans] == [
        "T. K.", "M B GmbH", "I AG", "...", "...", "K.", "...", "K."]


def test_category_tag_operator():
    replaced = replace(REAL, REAL_SPANS, CategoryTag())
    assert replaced.text == ("Herrn <person> und die <company> sowie die <company> AG in <place>, IBAN <account>. "
                             "Herr <person> wohnt in <place>, Herr <person> nicht.")
    assert [s.type for s in replaced.spans] == [
        "person", "company", "company", "place", "account", "person", "place", "person"]


def test_reference_surrogate_operator():
    replaced = replace(REAL, REAL_SPANS, ReferenceSurrogate("doc-1", seed=3))
    # the IBAN keeps its grouping and gets a valid checksum
    assert replaced.text == ("Herrn Tomas Klemt und die Misicher GmbH sowie die Imhof AG in Kötzting, IBAN "
                             "DE39 3963 9178 8646 0222 29. Herr Klemt wohnt in Kötzting, Herr Kostolzin nicht.")
    assert replaced.span_dicts() == [
        {"start": 6, "end": 17, "type": "person"}, {"start": 26, "end": 39, "type": "company"},
        {"start": 50, "end": 58, "type": "company"}, {"start": 62, "end": 70, "type": "place"},
        {"start": 77, "end": 104, "type": "account"}, {"start": 111, "end": 116, "type": "person"},
        {"start": 126, "end": 134, "type": "place"}, {"start": 141, "end": 150, "type": "person"}]
    assert pseudonymize_references(REAL, REAL_SPANS, "doc-1", seed=3) == (replaced.text, replaced.span_dicts())


def test_placeholder_surrogate_operator():
    table = ReplacementTable(SurrogateGenerator(5).for_document("doc-7"))
    replaced = replace(ANONYMIZED, PLACEHOLDERS, PlaceholderSurrogate(table))
    # initials, the legal form, the title and a sentence's period are kept
    assert replaced.text == ("Der Kläger Krebs wohnt in der Kruschwitzstraße in Biedenkopf. Die Mosemann GmbH & "
                             "Co. KG zahlte an Herrn Krebs. Das Urteil erging gegen Dr. Adler Gierschner.")
    # the spans are the names alone: without "GmbH & Co. KG", "Dr." and the sentence's period
    assert replaced.span_dicts() == [
        {"start": 11, "end": 16, "type": "person"}, {"start": 30, "end": 46, "type": "street"},
        {"start": 50, "end": 60, "type": "place"}, {"start": 66, "end": 74, "type": "company"},
        {"start": 105, "end": 110, "type": "person"}, {"start": 140, "end": 156, "type": "other"}]
    records = [s.to_dict() for s in PLACEHOLDERS]
    assert pseudonymize(ANONYMIZED, records, SurrogateGenerator(5).for_document("doc-7")) == (
        replaced.text, replaced.span_dicts())


def test_placeholder_surrogate_keeps_a_companys_words_and_a_lost_space():
    """The period of "T." before the rest of a company's name ends no sentence, and a word glued to
    a placeholder's period (a space the court lost) is set apart from the surrogate."""
    text = "Arbeitnehmer der T. Dienstleistungs GmbH. Herr K. Die GmbH zahlte an E.in Höhe von 5 Euro."
    spans = [Span(17, 19, type="company"), Span(47, 49, type="person"), Span(69, 71, type="person")]
    table = ReplacementTable(SurrogateGenerator(5).for_document("doc-7"))
    replaced = replace(text, spans, PlaceholderSurrogate(table))
    assert replaced.text == ("Arbeitnehmer der Trommler Dienstleistungs GmbH. Herr Kühnert. Die GmbH zahlte an "
                             "Eigenwillig in Höhe von 5 Euro.")
    assert [replaced.text[s.start:s.end] for s in replaced.spans] == ["Trommler", "Kühnert", "Eigenwillig"]


def test_placeholder_surrogate_sets_a_name_apart_from_the_word_its_ellipsis_was_glued_to():
    """"Firma…" and "Herrn…" left the name out without its space: the surrogate gets one, outside its span."""
    text = "an die Firma… Inc. und von Herrn… sowie Herrn K…"
    spans = [Span(12, 13, type="company"), Span(32, 33, type="person"), Span(46, 48, type="person")]
    replaced = replace(text, spans, PlaceholderSurrogate(ReplacementTable(SurrogateGenerator(5).for_document("d"))))
    names = [replaced.text[s.start:s.end] for s in replaced.spans]
    assert replaced.text == f"an die Firma {names[0]} Inc. und von Herrn {names[1]} sowie Herrn {names[2]}"
    assert all(n[:1].isupper() and " " not in n for n in names) and names[2].startswith("K")


def test_placeholder_surrogate_joins_a_genitive_set_apart():
    """"R. s Büro": the court kept the genitive's "s" apart from the initial; the surrogate takes it."""
    text = "Er solle R. s Büro verwanzt haben; R. bestritt es."
    spans = [Span(9, 13, type="person"), Span(35, 37, type="person")]
    replaced = replace(text, spans, PlaceholderSurrogate(ReplacementTable(SurrogateGenerator(5).for_document("d"))))
    names = [replaced.text[s.start:s.end] for s in replaced.spans]
    assert names[0] == names[1] + "s" and names[1].startswith("R") and " " not in names[0]
    assert replaced.text == f"Er solle {names[0]} Büro verwanzt haben; {names[1]} bestritt es."


def test_pseudonymize_record_moves_entities():
    record = {"id": "ler-x-1", "text": ANONYMIZED, "spans": [s.to_dict() for s in PLACEHOLDERS],
              "entities": [{"start": 4, "end": 13, "type": "PER"}, {"start": 41, "end": 60, "type": "UN"}]}
    out = pseudonymize_record(record, SurrogateGenerator(5))
    assert out["text"] == ("Der Kläger Kruschwitz wohnt in der Kaulstraße in Beeskow. Die Mende GmbH & Co. KG "
                           "zahlte an Herrn Kruschwitz. Das Urteil erging gegen Dr. Adler Geisler.")
    assert out["entities"] == [{"start": 4, "end": 21, "type": "PER"}, {"start": 58, "end": 81, "type": "UN"}]
    assert out["spans"][0] == {"start": 11, "end": 21, "type": "person"}


def test_strict_operators_refuse_overlaps_the_others_skip_them():
    table = ReplacementTable(SurrogateGenerator(0).for_document("d"))
    with pytest.raises(ValueError, match="overlapping"):
        replace(ANONYMIZED, [Span(11, 13), Span(12, 20)], PlaceholderSurrogate(table))
    with pytest.raises(ValueError, match="beyond the text"):
        replace("K.", [Span(0, 5)], PlaceholderSurrogate(table))
    replaced = replace(REAL, [real_span("Thilo Kemper"), real_span("Kemper")], CourtPlaceholder())
    assert replaced.text.startswith("Herrn T. K. und") and len(replaced.spans) == 1


def test_moved_maps_old_offsets_to_new_ones():
    replaced = Replaced("", [], [])
    assert replaced.moved(7, False) == 7
    replaced = replace("ab K. cd", [Span(3, 5, type="person")], CourtPlaceholder())
    assert (replaced.moved(0, False), replaced.moved(6, False)) == (0, 6)


def test_operators_are_listed_by_name():
    assert sorted(OPERATORS) == ["category_tag", "court_placeholder", "keep", "numbered_tag", "placeholder_surrogate",
                                 "redact", "reference_surrogate"]
