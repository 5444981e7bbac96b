"""Replacing scored spans: court-style placeholders, surrogates, highlighting, the gold test set."""

import json
import re

import pytest

from rulings_anon.document import Span
from rulings_anon.evaluation.testset import apply_checked, gold_records
from rulings_anon.replacement.court_style import court_placeholder
from rulings_anon.replacement.operators import anonymize
from rulings_anon.replacement.operators import pseudonymize_references as pseudonymize
from rulings_anon.scoring.highlight import highlight

TEXT = ("Herrn Thilo Kemper und die Meyer Bau GmbH sowie die Isenberg AG in Kehl, IBAN "
        "DE91 1000 0000 0123 4567 89. Herr Kemper wohnt in Kehl, Herr Kramer nicht.")


def span(word, type=None, occurrence=1):
    start = -1
    for _ in range(occurrence):
        start = TEXT.index(word, start + 1)
    return Span(start, start + len(word), word, type)


SPANS = [span("Thilo Kemper"), span("Meyer Bau GmbH", "company"), span("Isenberg", "UN"), span("Kehl"),
         span("DE91 1000 0000 0123 4567 89", "IBAN"), span("Kemper", occurrence=2), span("Kehl", occurrence=2),
         span("Kramer")]


@pytest.mark.parametrize("text, piece, type, expected", [
    ("Herrn Thilo Kemper sagte", "Thilo Kemper", "person", "T. K."),  # initials with periods
    ("Herrn Thilo von Schmiedeberg", "Thilo von Schmiedeberg", "PER", "T. v. S."),
    ("die Meyer Bau GmbH", "Meyer Bau GmbH", "company", "M B GmbH"),  # initials and legal form
    ("die Isenberg AG klagt", "Isenberg", "UN", "I AG"),  # placeholder covers the following form
    ("beim Verein Lindenhof", "Lindenhof", "organization", "L."),
    ("wohnhaft in Kehl", "Kehl", "place", "..."),
    ("am 25. September 1996", "25. September 1996", "date", "..."),
    ("Herrn Kemper", "Kemper", None, "K."),  # no type: "Herrn" says person
])
def test_court_placeholders(text, piece, type, expected):
    start = text.index(piece)
    s, e, placeholder = court_placeholder(text, Span(start, start + len(piece), piece, type))
    if type == "UN":
        assert (text[s:e], placeholder) == ("Isenberg AG", "I AG")
    else:
        assert (s, e, placeholder) == (start, start + len(piece), expected)


def test_anonymize_replaces_every_span_in_court_style():
    assert anonymize(TEXT, SPANS) == (
        "Herrn T. K. und die M B GmbH sowie die I AG in ..., IBAN .... Herr K. wohnt in ..., Herr K. nicht.")


def test_pseudonymize_is_consistent_realistic_and_keeps_initials():
    new_text, spans = pseudonymize(TEXT, SPANS, "doc-1", seed=3)
    values = [(new_text[s["start"]:s["end"]], s["type"]) for s in spans]
    full, company, isenberg, place, iban, later, place2, other = [v for v, _ in values]
    first, surname = full.split()
    assert [t for _, t in values] == ["person", "company", "company", "place", "account", "person", "place",
                                      "person"]
    assert first[0] == "T" and surname[0] == "K" and first != "Thilo" and surname != "Kemper"
    assert later == surname  # "Herr Kemper" gets the surname "Thilo Kemper" got
    assert place2 == place and place != "Kehl"
    assert company.endswith(" GmbH") and company[0] == "M" and isenberg.endswith(" AG")
    assert other[0] == "K" and other != surname  # another K-name stays another person
    assert re.fullmatch(r"DE\d{2}(?: \d{4}){4} \d{2}", iban)  # grouped as the original
    assert "Kemper" not in new_text and "Kramer" not in new_text
    # The same seed and id give the same text; another id another one.
    assert pseudonymize(TEXT, SPANS, "doc-1", seed=3)[0] == new_text
    assert pseudonymize(TEXT, SPANS, "doc-2", seed=3)[0] != new_text


def test_highlight_marks_spans_with_guillemets_or_ansi():
    spans = [Span(6, 18, "Thilo Kemper", score=0.9)]
    assert highlight(TEXT, spans, ansi=False).startswith("Herrn «Thilo Kemper» und")
    coloured = highlight(TEXT, spans, ansi=True)
    assert "\x1b[1;7mThilo Kemper\x1b[0m" in coloured and "[0.90]" in coloured


def test_gold_test_set_from_ler_records(tmp_path):
    import gzip
    import json

    record = {"id": "ler-x-1", "court": "bsg", "text": "Der Kläger K. wohnt in B. Herr K. klagt.",
              "spans": [{"start": 11, "end": 13, "type": "PER"}, {"start": 23, "end": 25, "type": "ST"},
                        {"start": 31, "end": 33, "type": "PER"}], "entities": []}
    path = tmp_path / "x.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    (gold,) = list(gold_records([path], seed=0))
    assert set(gold) == {"id", "court", "text", "spans"}
    names = [gold["text"][s["start"]:s["end"]] for s in gold["spans"]]
    assert [s["type"] for s in gold["spans"]] == ["person", "place", "person"]
    assert names[0] == names[2] and names[0][0] == "K" and names[1][0] == "B" and len(names[0]) > 2
    assert gold["text"].startswith(f"Der Kläger {names[0]} wohnt in {names[1]}")
    # The names are foreign to the German lists the models train on; --names all draws from those.
    from rulings_anon.replacement.surrogates import german_pools

    listed = set().union(*german_pools().values())
    assert not set(names) & listed
    (german,) = list(gold_records([path], seed=0, names="all"))
    assert {german["text"][s["start"]:s["end"]] for s in german["spans"]} <= listed


@pytest.mark.parametrize("text, piece, expected", [
    ("bei der Firma Seidel e. K. beschäftigt", "Seidel", "S e. K."),
    ("die Meyer Bau GmbH & Co. KG zahlte", "Meyer Bau GmbH & Co. KG", "M B GmbH & Co. KG"),
])
def test_legal_forms_in_court_style(text, piece, expected):
    start = text.index(piece)
    _, end, placeholder = court_placeholder(text, Span(start, start + len(piece), piece, "company"))
    assert placeholder == expected and text[end - 2:end] in ("K.", "KG")


def test_checked_labels_correct_the_gold_before_pseudonymizing(tmp_path):
    text = "Die Richterin Dr. W. und die Firma S e. K. sowie Goldstein, I., zahlten."
    record = {"id": "r1", "text": text,
              "spans": [{"start": 35, "end": 42, "type": "UN"}, {"start": 60, "end": 62, "type": "PER"}]}
    checked = {("r1", 18, 20): True,    # an anonymized judge the LER gold missed
               ("r1", 37, 39): False,   # "e. K." is the legal form, not the placeholder
               ("r1", 40, 42): False,
               ("r1", 60, 63): False,   # an author's initial in clear
               ("other", 0, 3): True}   # labels of other documents are ignored
    fixed = apply_checked(record, checked)
    assert [(text[s["start"]:s["end"]], s.get("type")) for s in fixed["spans"]] == [("W.", None), ("S", "UN")]
    assert apply_checked(record, {}) is record
    path = tmp_path / "ler.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (gold,) = list(gold_records([path], seed=0, checked=checked))
    # the two corrected placeholders are replaced by surrogates; "Goldstein, I.," stays as it was
    assert len(gold["spans"]) == 2 and "Goldstein, I., zahlten." in gold["text"]
    assert gold["text"].endswith("Goldstein, I., zahlten.") and "Dr. W. " not in gold["text"]
    assert all(gold["text"][s["start"]:s["end"]].strip() for s in gold["spans"])
