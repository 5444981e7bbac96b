"""Reading rulings as courts keep them: Word, OpenDocument, PDF, RTF, generic HTML and text in any
common encoding, built with the formats' own libraries; bad files are one-line errors naming them."""

from __future__ import annotations

import re
import zipfile

import pytest
from document_builders import (
    RULING,
    build_docx,
    build_html,
    build_odt,
    build_pdf,
    build_rtf,
    build_scanned_pdf,
    renamed_zip,
)

from rulings_anon.errors import InputError
from rulings_anon.inputs import input_files, read_documents, read_input_documents

FIXTURE_PAGE = "tests/fixtures/portal/bayern_document_page_synthetic.html"


@pytest.mark.parametrize("build", [build_docx, build_odt, build_pdf, build_rtf, build_html])
def test_every_format_gives_the_rulings_text_with_its_header(tmp_path, build):
    suffix = {"build_docx": ".docx", "build_odt": ".odt", "build_pdf": ".pdf", "build_rtf": ".rtf",
              "build_html": ".html"}[build.__name__]
    path = build(tmp_path / f"urteil{suffix}")
    [document] = read_input_documents([path])
    assert document.id == "urteil"
    for line in RULING:
        assert " ".join(line.replace("–", "-").split()) in " ".join(document.text.replace("–", "-").split())


def test_word_parts_are_all_read_in_order(tmp_path):
    [document] = read_documents([build_docx(tmp_path / "urteil.docx")])
    text = document.text
    header, body, footnote, footer = (text.index("Az. 9 O 1234/18"), text.index("Landgericht München I"),
                                      text.index("Rechtsanwältin Petra Lindner"), text.index("Richter am Landgericht"))
    assert header < body < footnote < footer
    assert "Anna Vogt" in text and "Jonas Brandl" in text  # the table's cells
    assert "Frau Kemper auch." in text  # a tracked insertion is accepted
    assert "Thomas Wimmer nicht." not in text  # a tracked deletion is gone
    assert "Karl Sommer prüft" not in text  # a comment is not the ruling's text
    assert "Erika Kemper" in text  # a name split over two runs reads whole


def test_a_folder_takes_the_document_files(tmp_path):
    build_docx(tmp_path / "a.docx")
    build_odt(tmp_path / "b.odt")
    build_rtf(tmp_path / "c.rtf")
    assert [p.name for p in input_files(tmp_path)] == ["a.docx", "b.odt", "c.rtf"]


def test_a_generic_html_keeps_its_header_and_a_portal_page_stays_a_portal_page(tmp_path):
    [document] = read_documents([build_html(tmp_path / "urteil.html")])
    assert document.text.startswith("Landgericht München I\n\nIn dem Rechtsstreit des Thomas Wimmer")
    assert "Herr Wimmer hat keinen Anspruch." in document.text
    [portal] = read_documents([FIXTURE_PAGE])
    assert portal.meta["source"] == "gesetze-bayern.de" and portal.id == "Y-300-Z-BECKRS-B-2019-N-90001"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "latin-1", "cp1252"])
def test_text_in_any_common_encoding(tmp_path, encoding):
    text = "Der Kläger Thomas Müller wohnt in der Hauptstraße 4 in Aichach und verlangt Zahlung.\n"
    if encoding == "cp1252":
        text = "Der Kläger „Thomas Müller“ verlangt – wie Frau Öztürk – Zahlung von 500 €.\n"
    path = tmp_path / "urteil.txt"
    path.write_bytes(text.encode(encoding))
    assert [d.text for d in read_documents([path], "utf-8")] == [text]


def _encrypted_ole(path):
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    return path


def _cut(build):
    def make(path):
        build(path)
        path.write_bytes(path.read_bytes()[:300])
        return path
    return make


def _encrypted_odt(path):
    build_odt(path)
    with zipfile.ZipFile(path) as archive:
        parts = {i.filename: archive.read(i) for i in archive.infolist()}
    parts["META-INF/manifest.xml"] = parts["META-INF/manifest.xml"].replace(
        b'manifest:full-path="content.xml" manifest:media-type="text/xml"/>',
        b'manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data '
        b'manifest:checksum-type="SHA1" manifest:checksum="x"/></manifest:file-entry>')
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def _encrypted_pdf(path):
    from pypdf import PdfReader, PdfWriter

    build_pdf(path)
    writer = PdfWriter(clone_from=PdfReader(path))
    writer.encrypt("geheim", algorithm="RC4-128")
    with open(path, "wb") as handle:
        writer.write(handle)
    return path


@pytest.mark.parametrize(("name", "make", "message"), [
    ("u.docx", _encrypted_ole, "password-protected"),
    ("u.docx", _cut(build_docx), "not a readable Word (.docx) document"),
    ("u.docx", renamed_zip, "holds no word/document.xml"),
    ("u.odt", _cut(build_odt), "not a readable OpenDocument (.odt) document"),
    ("u.odt", _encrypted_odt, "password-protected OpenDocument"),
    ("u.odt", renamed_zip, "holds no content.xml"),
    ("u.pdf", _cut(build_pdf), "not a readable PDF"),
    ("u.pdf", _encrypted_pdf, "password-protected PDF"),
    ("u.pdf", build_scanned_pdf, "OCR is not supported"),
    ("u.rtf", lambda p: p.write_bytes(b"PK\x03\x04 no rtf") and p, "not an RTF document"),
    ("u.txt", lambda p: p.write_bytes(bytes(range(256)) * 4) and p, "not UTF-8 text"),
])
def test_bad_documents_are_one_line_errors_naming_the_file(tmp_path, name, make, message):
    path = make(tmp_path / name)
    with pytest.raises(InputError, match=re.escape(message)) as caught:
        list(read_input_documents([path]))
    assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)
