"""Data model, JSONL I/O, input formats, paragraph extraction, LER corpus and the CLI contract."""

import gzip
import json
import os
import subprocess
import sys

import pytest

from rulings_anon import data
from rulings_anon.document import Document, Span, element_labels, split_elements
from rulings_anon.errors import InputError
from rulings_anon.inputs import read_documents
from rulings_anon.jsonl import JsonlAppender, atomic_writer, read_jsonl, write_jsonl
from rulings_anon.placeholders.paragraphs import extract_paragraphs
from rulings_anon.preprocessing.detector_validation import (
    bundled_checked_labels,
    detection_metrics,
    read_checked_labels,
    validate_documents,
)
from rulings_anon.preprocessing.ler import (
    GOLD_PLACEHOLDER_TOKEN,
    build_documents,
    detokenize,
    entity_runs,
    read_conll,
)

CLI = [sys.executable, "-m", "rulings_anon"]


# -- data model -------------------------------------------------------------------------------

def test_span_rejects_reversed_or_negative_offsets():
    with pytest.raises(ValueError):
        Span(5, 3)
    with pytest.raises(ValueError):
        Span(-1, 3)
    with pytest.raises(ValueError):
        Span(0, 1, score=1.5)


def test_span_record_is_checked_against_the_text():
    assert Span.from_dict({"start": 5, "end": 7, "text": "K."}, "Herr K. kam").text == "K."
    with pytest.raises(ValueError, match=r"\[0, 4\): its 'text' differs") as error:
        Span.from_dict({"start": 0, "end": 4, "text": "Frau"}, "Herr K. kam")
    assert "Frau" not in str(error.value) and "Herr" not in str(error.value)
    with pytest.raises(ValueError, match="beyond"):
        Span.from_dict({"start": 8, "end": 40}, "Herr K. kam")


def test_elements_and_element_labels():
    text = "Herr  K. B.\nwohnt in ..."
    elements = split_elements(text)
    assert [(e.start, e.end, e.text) for e in elements] == [
        (0, 4, "Herr"), (6, 8, "K."), (9, 11, "B."), (12, 17, "wohnt"), (18, 20, "in"), (21, 24, "...")]
    labels = element_labels(elements, [Span(6, 11), Span(22, 23)])
    assert labels == [False, True, True, False, False, True]


def test_document_record_round_trip():
    record = {"id": "d1", "court": "BGH", "text": "Herr K. kam.", "spans": [{"start": 5, "end": 7, "type": "PER"}]}
    document = Document.from_record(record)
    assert document.meta == {"court": "BGH"}
    assert document.spans == [Span(5, 7, type="PER")]
    assert document.to_record() == record


# -- JSONL and atomic writes --------------------------------------------------------------------

def test_read_jsonl_names_the_bad_line(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": "a", "text": "x"}\n{not json}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"docs.jsonl:2: line is not valid JSON"):
        list(read_jsonl(path))


def test_torn_tail_is_skipped_and_repaired(tmp_path):
    path = tmp_path / "decisions.jsonl"
    path.write_text('{"a": 1}\n{"a": 2}\n{"a": 3, "b"', encoding="utf-8")
    assert [r["a"] for r in read_jsonl(path, allow_torn_tail=True)] == [1, 2]
    with JsonlAppender(path) as appender:
        appender.append({"a": 4})
    assert [r["a"] for r in read_jsonl(path)] == [1, 2, 4]


def test_atomic_writer_keeps_the_old_file_when_interrupted(tmp_path):
    path = tmp_path / "out.jsonl"
    write_jsonl(path, [{"n": 1}])
    with pytest.raises(RuntimeError):
        with atomic_writer(path) as handle:
            handle.write('{"n": 2}\n')
            raise RuntimeError("killed")
    assert list(read_jsonl(path)) == [{"n": 1}]
    assert sorted(os.listdir(tmp_path)) == ["out.jsonl"]


def test_compressed_jsonl_round_trip(tmp_path):
    path = tmp_path / "c.jsonl.gz"
    write_jsonl(path, [{"id": "x", "text": "ä"}])
    assert gzip.open(path, "rt", encoding="utf-8").read() == '{"id": "x", "text": "ä"}\n'
    assert [d.text for d in read_documents([path])] == ["ä"]


# -- input formats ----------------------------------------------------------------------------

def test_latin1_text_is_detected_and_decodes_with_encoding(tmp_path):
    path = tmp_path / "urteil.txt"
    path.write_bytes("Der Kläger K. verlangt Zahlung.".encode("latin-1"))
    for encoding in ("utf-8", None, "latin-1"):  # what commands with --encoding pass, none, the option
        assert [d.text for d in read_documents([path], encoding)] == ["Der Kläger K. verlangt Zahlung."]
    path.write_bytes(bytes(range(256)) * 4)  # no text in any encoding
    with pytest.raises(InputError, match=r"urteil.txt: not UTF-8 text"):
        list(read_documents([path]))


def test_missing_and_unsupported_files(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        list(read_documents([tmp_path / "nope.jsonl"]))
    (tmp_path / "x.doc").write_bytes(b"PK")
    with pytest.raises(InputError, match="unsupported file type"):
        list(read_documents([tmp_path / "x.doc"]))


def test_record_without_text_names_its_line(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": "a", "text": "x"}\n{"id": "b"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"docs.jsonl:2: .*no 'text'"):
        list(read_documents([path]))


# -- paragraph extraction --------------------------------------------------------------------

def test_paragraphs_join_lines_hyphens_and_drop_markers():
    text = ("A. Tatbestand\n\n1. Der Kläger K. begehrt die Ver-\ngütung seiner Sach- und\n"
            "Rechtslage. Die EU-\nRichtlinie gilt.\n12\na) zweiter Punkt\nV. 1. Das Urteil\n• Aufzählung")
    paragraphs = extract_paragraphs(text)
    assert [p.text for p in paragraphs] == [
        "Tatbestand",
        "Der Kläger K. begehrt die Vergütung seiner Sach- und Rechtslage. Die EU-Richtlinie gilt.",
        "zweiter Punkt", "Das Urteil", "Aufzählung"]
    # a small letter of any alphabet after the break joins the word ("Hél-" / "ène")
    (paragraph,) = extract_paragraphs("Die Zeugin Hél-\nène S. und Ğül-\nşen T. sagten aus.")
    assert paragraph.text == "Die Zeugin Hélène S. und Ğülşen T. sagten aus."


def test_paragraph_offsets_map_every_character_back():
    text = "Der Kläger K. begehrt die Ver-\ngütung seiner\nForderung von der M-GmbH."
    (paragraph,) = extract_paragraphs(text)
    for i, char in enumerate(paragraph.text):
        original = text[paragraph.to_document(i)]
        assert original == char or (char == " " and original == "\n"), (i, char, original)
    start = paragraph.text.index("Vergütung")
    a, b = paragraph.to_document_span(start, start + len("Vergütung"))
    assert text[a:b] == "Ver-\ngütung"


def test_a_capital_initial_in_running_text_is_not_taken_for_an_enumeration():
    (paragraph,) = extract_paragraphs("F. ist seit 2010 Geschäftsführer der M-GmbH und wohnt in ...")
    assert paragraph.text.startswith("F. ist")


# -- bundled LER corpus ----------------------------------------------------------------------

def test_detokenize_follows_german_typography():
    text, offsets = detokenize(["Die", "Klägerin", "(", "K.", ")", "sagte", "„", "nein", "“", ",", '"', "ja", '"', "."])
    assert text == 'Die Klägerin (K.) sagte „nein“, "ja".'
    assert [text[a:b] for a, b in offsets][3] == "K."


def test_entity_runs_and_gold_tokens():
    assert entity_runs(["O", "B-PER", "I-PER", "O", "B-UN", "B-ORG"]) == [(1, 3, "PER"), (4, 5, "UN"), (5, 6, "ORG")]
    assert all(GOLD_PLACEHOLDER_TOKEN.match(t) for t in ["K.", "St.", "N", "M-GmbH", "...", "Xxxxx", "Kstraße", "-Straße"])
    assert not any(GOLD_PLACEHOLDER_TOKEN.match(t) for t in ["Berlin", "Google", "ZDS", "Meyer"])


def built_document(tmp_path, conll_lines: str) -> tuple[dict, str]:
    """The one document ``build_documents`` makes of a small CoNLL file, and its text."""
    conll = tmp_path / "mini.conll"
    conll.write_text(conll_lines, encoding="utf-8")
    (document,) = build_documents(read_conll(conll), "mini")
    return document, document["text"]


def test_build_documents_gives_gold_spans_on_placeholders_only(tmp_path):
    document, text = built_document(
        tmp_path, "Herr O\nK. B-PER\nund O\ndie O\nV. B-UN\nFleisch I-UN\nGmbH I-UN\n& I-UN\nCo. I-UN\nKG I-UN\n"
        "in O\nBerlin B-ST\n. O\n\nRichter B-RR\nSchmidt I-RR\nurteilte O\n. O\n")
    assert text == "Herr K. und die V. Fleisch GmbH & Co. KG in Berlin. Richter Schmidt urteilte."
    assert [(text[s["start"]:s["end"]], s["type"]) for s in document["spans"]] == [("K.", "PER"), ("V.", "UN")]
    assert [e["type"] for e in document["entities"]] == ["PER", "UN", "ST", "RR"]


def test_build_documents_takes_a_numbered_initial_into_its_ellipsis(tmp_path):
    """BPatG tells two persons of one letter apart by a number ("M1…", "M2…"), tokenized apart
    from the ellipsis: the number is the placeholder's, an "A1" annex in clear is not."""
    document, text = built_document(
        tmp_path, "Herren O\nM1 B-PER\n… I-PER\nund O\nM2 B-PER\n… I-PER\n, O\nAnlage O\nA1 O\n, O\n"
        "Firma O\nS2 B-UN\nGmbH I-UN\n. O\n")
    assert text == "Herren M1… und M2…, Anlage A1, Firma S2 GmbH."
    assert [text[s["start"]:s["end"]] for s in document["spans"]] == ["M1…", "M2…"]


def test_bundled_corpus_has_six_courts_with_consistent_spans():
    files = data.ler_corpus_files()
    assert [f.name.split(".")[0] for f in files] == ["bag", "bfh", "bgh", "bpatg", "bsg", "bverfg"]
    documents = list(read_documents(files[2:3]))
    assert len(documents) > 40
    assert all(d.text[s.start:s.end].strip() == d.text[s.start:s.end] for d in documents for s in d.spans)
    assert sum(len(d.spans) for d in documents) > 300


def test_detector_on_a_dev_court_finds_most_gold_placeholders():
    documents = list(read_documents(data.ler_corpus_files(["bgh"])))
    metrics = detection_metrics(validate_documents(documents)[0])
    assert metrics["gold_placeholders"] > 400
    assert metrics["recall"] > 0.9 and metrics["precision"] > 0.5


# -- the command line ------------------------------------------------------------------------

def run_cli(*args, **kwargs):
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=120, **kwargs)


def test_detect_placeholders_command_writes_spans(tmp_path):
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "a", "text": "Herr K. wohnt in der R. straße 4."}) + "\n"
                    + json.dumps({"id": "b", "text": ""}) + "\n"
                    + json.dumps({"id": "c", "text": "Die Revision ist unbegründet."}) + "\n", encoding="utf-8")
    out = tmp_path / "spans.jsonl"
    result = run_cli("detect-placeholders", str(docs), "--output", str(out))
    assert result.returncode == 0, result.stderr
    records = list(read_jsonl(out))
    assert records == [
        {"id": "a", "spans": [
            {"start": 5, "end": 7, "text": "K.", "kind": "potential", "source": "placeholder-rules"},
            {"start": 21, "end": 32, "text": "R. straße 4", "kind": "potential", "source": "placeholder-rules"}]},
        {"id": "b", "spans": []},
        {"id": "c", "spans": []},
    ]


def test_detect_placeholders_bad_input_is_one_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": "x"}\n{oops\n', encoding="utf-8")
    result = run_cli("detect-placeholders", str(bad), "--output", str(tmp_path / "o.jsonl"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"rulings-anon detect-placeholders: error: {bad}:2: line is not valid JSON (Expecting property name enclosed in double quotes)"
    assert not (tmp_path / "o.jsonl").exists()
    latin = tmp_path / "u.txt"
    latin.write_bytes(bytes(range(256)) * 4)
    result = run_cli("detect-placeholders", str(latin), "--output", "-")
    assert result.returncode == 2 and "u.txt: not UTF-8" in result.stderr and "Traceback" not in result.stderr


def test_detect_placeholders_does_not_import_tensorflow():
    code = ("import sys; from rulings_anon.cli import main; "
            "main(['detect-placeholders', '--help']) if False else None; "
            "import rulings_anon.preprocessing.commands, rulings_anon.placeholders.detector; "
            "assert 'tensorflow' not in sys.modules, 'tensorflow imported'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_validate_placeholders_prints_table_6_1(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "g", "text": "Herr K. und S. 24 und Frau B. kamen.",
                                "spans": [{"start": 5, "end": 7}, {"start": 27, "end": 29}]}) + "\n", encoding="utf-8")
    result = run_cli("validate-placeholders", str(gold), "--json")
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert (metrics["tp"], metrics["fp"], metrics["fn"], metrics["elements"]) == (2, 0, 0, 9)
    assert metrics["precision"] == 1.0 and metrics["recall"] == 1.0


def test_checked_labels_override_the_gold_of_the_elements_they_name(tmp_path):
    # gold misses "P." (an anonymized public utility) and wrongly has "I." (an author's initial)
    text = "Die Stadtwerke P. zitiert Goldstein, I., und Herrn K."
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "g", "text": text, "spans": [{"start": 37, "end": 39},
                                                                   {"start": 51, "end": 53}]}) + "\n",
                    encoding="utf-8")
    result = run_cli("validate-placeholders", str(gold), "--json")
    plain = json.loads(result.stdout)
    assert (plain["tp"], plain["fp"], plain["fn"]) == (1, 1, 1)  # "K." found, "P." FP, "I.," FN
    checked = tmp_path / "checked.jsonl"
    checked.write_text(json.dumps({"id": "g", "start": 15, "end": 17, "placeholder": True}) + "\n"
                       + json.dumps({"id": "g", "start": 37, "end": 40, "placeholder": False}) + "\n",
                       encoding="utf-8")
    result = run_cli("validate-placeholders", str(gold), "--checked", str(checked), "--json")
    assert result.returncode == 0, result.stderr
    fixed = json.loads(result.stdout)
    assert (fixed["tp"], fixed["fp"], fixed["fn"], fixed["elements"]) == (2, 0, 0, 9)
    # labels of other documents only leave a warning
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"id": "h", "start": 0, "end": 3, "placeholder": True}) + "\n", encoding="utf-8")
    result = run_cli("validate-placeholders", str(gold), "--checked", str(other), "--json")
    assert result.returncode == 0 and json.loads(result.stdout) == plain
    assert "none of its 1 labels names a validated document" in result.stderr
    # a label that names no element (made on another text) is a clear error
    checked.write_text(json.dumps({"id": "g", "start": 16, "end": 17, "placeholder": True}) + "\n", encoding="utf-8")
    result = run_cli("validate-placeholders", str(gold), "--checked", str(checked))
    assert result.returncode == 2 and "checked label g:16-17 names no element" in result.stderr
    assert "Traceback" not in result.stderr



@pytest.mark.parametrize("court, least", [("bag", 120), ("bfh", 100), ("bgh", 40), ("bpatg", 270), ("bverfg", 25)])
def test_dev_courts_checked_labels_line_up_with_the_bundled_corpus(court, least):
    checked = read_checked_labels(data.checked_labels_file(court))
    assert len(checked) >= least and any(checked.values()) and not all(checked.values())
    # every label names an element of the bundled texts (validation raises otherwise)
    confusion, _ = validate_documents(read_documents(data.ler_corpus_files([court])), checked=checked)
    assert confusion.positives > 100


def test_bundled_checked_labels_line_up_with_the_bundled_corpus():
    checked_file = data.checked_labels_file("bsg")
    assert checked_file is not None
    checked = read_checked_labels(checked_file)
    assert bundled_checked_labels(["bsg"]) == checked
    with pytest.raises(InputError, match="no hand-checked labels for court 'bverwg'"):
        bundled_checked_labels(["bverwg"])
    assert len(checked) > 400 and any(checked.values()) and not all(checked.values())
    confusion, _ = validate_documents(read_documents(data.ler_corpus_files(["bsg"])), checked=checked)
    assert confusion.positives > 300
