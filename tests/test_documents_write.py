"""Anonymized copies in the input's format: every name in every part replaced, the replaced runs'
formatting kept, no name left in the metadata (every part of the package searched), nothing
written for bad input; and ``score --anonymize FOLDER`` writing them."""

from __future__ import annotations

import re

import pytest
from command_line import cli, leftovers
from document_builders import NAMES, build_docx, build_odt, build_pdf, build_rtf, zip_texts

from rulings_anon import documents
from rulings_anon.document import Span
from rulings_anon.errors import InputError
from rulings_anon.jsonl import read_jsonl
from rulings_anon.replacement.document_files import write_anonymized
from rulings_anon.replacement.operators import CourtPlaceholder, NumberedTag, anonymize

# Every piece of a name that could betray it, first names and surnames alike.
WORDS = sorted({w for name in NAMES for w in name.split()}, key=len, reverse=True)
_MENTION = re.compile("|".join(WORDS))


def _name_spans(text: str) -> list[Span]:
    """Every mention of a name: runs of name words ("Thomas Wimmer", "Wimmer", "Erika Kemper")."""
    spans = []
    for match in re.finditer(rf"(?:{_MENTION.pattern})(?:\s+(?:{_MENTION.pattern}))*", text):
        spans.append(Span(match.start(), match.end(), match.group(), type="person"))
    return spans


def _anonymized(source, out, operator=None):
    spans = _name_spans(documents.text_map(source).text)
    assert len(spans) >= 3
    return write_anonymized(source, spans, operator or CourtPlaceholder(), out)


def _no_name_anywhere(path):
    for part, content in zip_texts(path).items():
        found = [w for w in WORDS if w in content]
        assert not found, f"{found} in {part}"


def test_word_round_trip_replaces_every_name_keeps_formatting_and_drops_metadata(tmp_path):
    import docx

    out = _anonymized(build_docx(tmp_path / "urteil.docx"), tmp_path / "anonym.docx", NumberedTag())
    _no_name_anywhere(out)
    parts = zip_texts(out)
    assert not [p for p in parts if "comments" in p or p == "docProps/thumbnail.jpeg"]
    assert "w:author" not in parts["word/document.xml"] and "commentReference" not in parts["word/document.xml"]
    opened = docx.Document(out)  # a valid package, and its runs:
    rubrum = opened.paragraphs[1]
    assert rubrum.text == "In dem Rechtsstreit des [Person 1], Hauptstraße 4, 86551 Aichach, Kläger,"
    assert [r.bold for r in rubrum.runs if "[Person 1]" in r.text] == [True]
    against = opened.paragraphs[2]  # "Erika Ke" (italic) + "mper, ...": the replacement is in the first run
    assert [(r.text, r.italic) for r in against.runs] == [("gegen ", None), ("[Person 2]", True), (", Beklagte,", None)]
    assert opened.sections[0].header.paragraphs[0].text == "Az. 9 O 1234/18 – [Person 1] ./. [Person 2]"
    assert opened.sections[0].footer.paragraphs[0].text == "Richter am Landgericht [Person 4]"
    assert opened.tables[0].cell(0, 1).text == "[Person 3]"
    assert "Rechtsanwältin [Person 5]." in parts["word/footnotes.xml"]
    assert opened.core_properties.author == "" and opened.core_properties.title == ""
    text = documents.read_document(out).text
    assert "Frau [Person 2] auch." in text


def test_odt_round_trip(tmp_path):
    from odf.opendocument import load

    out = _anonymized(build_odt(tmp_path / "urteil.odt"), tmp_path / "anonym.odt")
    _no_name_anywhere(out)
    content = zip_texts(out)["content.xml"]
    assert re.search(r'<text:span text:style-name="Fett">[^<]*T\. W\.</text:span>', content)
    assert "office:annotation" not in content and "Rechtsanwältin P. L." in content
    assert "Sabine" not in zip_texts(out)["meta.xml"]
    load(str(out))  # odfpy opens it
    assert documents.read_document(out).text.startswith("Landgericht München I\n\nIn dem Rechtsstreit des T. W.")


@pytest.mark.parametrize("build", [build_pdf, build_rtf])
def test_pdf_and_rtf_become_word_files_of_their_paragraphs(tmp_path, build):
    source = build(tmp_path / ("urteil.pdf" if build is build_pdf else "urteil.rtf"))
    with pytest.raises(InputError, match=r"written as \.docx"):
        _anonymized(source, tmp_path / f"anonym{source.suffix}")
    out = _anonymized(source, tmp_path / "anonym.docx")
    _no_name_anywhere(out)
    assert "gegen E. K., Beklagte," in documents.read_document(out).text


def test_text_made_elsewhere_is_mapped_back_onto_the_runs(tmp_path):
    source = build_docx(tmp_path / "urteil.docx")
    text = documents.text_map(source).text
    anonymized = _MENTION.sub("X.", text)
    edits = documents.edits_between(text, anonymized)
    assert documents.segments.replaced_text(text, edits) == anonymized


def test_bad_input_writes_nothing(tmp_path):
    source = tmp_path / "urteil.docx"
    source.write_bytes(b"PK\x03\x04 kaputt")
    with pytest.raises(InputError, match="urteil.docx: not a readable Word"):
        write_anonymized(source, [Span(0, 3)], CourtPlaceholder(), tmp_path / "out" / "anonym.docx")
    assert not (tmp_path / "out").exists() and leftovers(tmp_path) == []


def test_score_writes_anonymized_documents_in_their_format(tmp_path):
    build_docx(tmp_path / "wort.docx")
    build_odt(tmp_path / "office.odt")
    done = cli("score", tmp_path / "wort.docx", tmp_path / "office.odt", "--output", tmp_path / "spans.jsonl",
               "--anonymize", tmp_path / "anonym")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "anonym").iterdir()) == ["index.jsonl", "office.odt", "wort.docx"]
    scored = {r["id"]: [Span.from_dict(s) for s in r["spans"]] for r in read_jsonl(tmp_path / "spans.jsonl")}
    for name in ("wort.docx", "office.odt"):
        original = documents.read_document(tmp_path / name).text
        text = documents.read_document(tmp_path / "anonym" / name).text
        assert scored[name.split(".")[0]] and text == anonymize(original, scored[name.split(".")[0]])
        assert "Thomas Wimmer" not in text and "Landgericht München I" in text
    assert "Wimmer" not in zip_texts(tmp_path / "anonym" / "wort.docx")["docProps/core.xml"]
