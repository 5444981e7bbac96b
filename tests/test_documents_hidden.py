"""Names outside the text of an anonymized Word or OpenDocument file: link targets, field codes,
bookmark names, alt text rewritten as the body is or dropped (every part of the package searched
for every name, in any case)."""

from __future__ import annotations

import re

from document_builders import zip_texts
from hidden_builders import EMAIL, build_linked_docx, build_linked_odt

from rulings_anon import documents
from rulings_anon.document import Span
from rulings_anon.documents.hidden_names import HiddenNames
from rulings_anon.replacement.document_files import write_anonymized
from rulings_anon.replacement.operators import CourtPlaceholder

NAMES = re.compile(r"(?:Thomas |Erika )?(?:Wimmer|Kemper)")


def _spans(text: str) -> list[Span]:
    spans = [Span(m.start(), m.end(), m.group(), type="person") for m in NAMES.finditer(text)]
    spans += [Span(m.start(), m.end(), m.group(), type="email") for m in re.finditer(re.escape(EMAIL), text)]
    return sorted(spans, key=lambda s: s.start)


def _anonymized(source, out):
    write_anonymized(source, _spans(documents.text_map(source).text), CourtPlaceholder(), out)
    return zip_texts(out)


def _no_name_in_any_part(parts: dict[str, str]) -> None:
    for part, content in parts.items():
        found = re.findall(r"(?i)wimmer|kemper|huber", content)
        assert not found, f"{found} in {part}"


def test_word_links_fields_bookmarks_and_alt_text_follow_the_body(tmp_path):
    import docx

    parts = _anonymized(build_linked_docx(tmp_path / "urteil.docx"), tmp_path / "anonym.docx")
    _no_name_in_any_part(parts)
    body, rels = parts["word/document.xml"], parts["word/_rels/document.xml.rels"]
    assert 'Target="mailto:..."' in rels  # the address as the body has it
    assert "rIdWeb" not in rels and 'r:id="rIdWeb"' not in body  # a target naming him: dropped, the link text stays
    assert "seine Seite" in body and 'w:tooltip="Seite von T. W."' in body
    assert body.count("Textmarke1") == 3  # the bookmark, the link to it and the REF field
    assert "> REF Textmarke1 \\h </w:instrText>" in body
    assert '> HYPERLINK </w:instrText>' in body
    assert 'w:instr=" MERGEFIELD "' in body and 'w:instr=" AUTHOR "' in body
    assert 'descr="Foto von T. W."' in body and 'title="W."' in body
    opened = docx.Document(tmp_path / "anonym.docx")
    assert opened.paragraphs[0].text == "In dem Rechtsstreit des T. W. gegen E. K."


def test_odt_links_bookmarks_and_image_titles_follow_the_body(tmp_path):
    from odf.opendocument import load

    parts = _anonymized(build_linked_odt(tmp_path / "urteil.odt"), tmp_path / "anonym.odt")
    _no_name_in_any_part(parts)
    content = parts["content.xml"]
    assert 'xlink:href="mailto:..."' in content and "logistik" not in content
    assert content.count("Textmarke1") == 3 and 'xlink:href="#Textmarke1"' in content
    assert "<svg:title>E. K.</svg:title>" in content and "<svg:desc>Bild von T. W.</svg:desc>" in content
    assert 'draw:name=""' in content and "Pictures/" in content  # "Foto Kemper": no replaced text matches
    load(str(tmp_path / "anonym.odt"))
    text = documents.read_document(tmp_path / "anonym.odt").text
    assert text.startswith("In dem Rechtsstreit des T. W. gegen E. K.. ... und seine Seite")


def test_hidden_values_are_rewritten_as_the_body_or_dropped():
    text = "Herr Thomas Müller und die Wimmer GmbH"
    hidden = HiddenNames(text, [(5, 18, "T. M."), (27, 38, "W-GmbH")])
    assert hidden.cleaned("Foto von Thomas Müller") == "Foto von T. M."
    assert hidden.cleaned("mailto:thomas.mueller@example.de") is None
    assert hidden.cleaned("https://muller.example") is None
    assert hidden.cleaned("https://www.gmbh-register.de") == "https://www.gmbh-register.de"  # shown anyway
    assert not HiddenNames(text, [(5, 18, "Thomas Müller")])  # kept: nothing hidden
