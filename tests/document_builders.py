"""Real court documents for the tests, built with the libraries the formats have (python-docx,
odfpy, fpdf2) and, where those have no call for a part (footnotes, tracked changes, custom
properties), with the part's XML added to the package."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

# Every name in the documents below: none may survive anonymization, anywhere in the file.
NAMES = ("Thomas Wimmer", "Erika Kemper", "Jonas Brandl", "Sabine Huber", "Petra Lindner", "Karl Sommer",
         "Anna Vogt")
RULING = [
    "Landgericht München I",
    "In dem Rechtsstreit des Thomas Wimmer, Hauptstraße 4, 86551 Aichach, Kläger,",
    "gegen Erika Kemper, Beklagte,",
    "erlässt das Gericht folgendes Endurteil: Die Klage des Herrn Wimmer wird abgewiesen.",
]
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _rewrite_zip(path: Path, changes: dict[str, bytes], edit=None) -> None:
    """Replace or add parts of a ZIP package; ``edit(name, data)`` may change the others."""
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    for name, data in list(parts.items()):
        if edit is not None:
            parts[name] = edit(name, data)
    parts.update(changes)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def build_docx(path: Path) -> Path:
    """A ruling in Word: header, body with a bold name in a run of its own and a name spanning two
    runs, a table, a footer, a footnote, a comment, a tracked insertion and deletion, an author,
    custom properties."""
    import docx

    document = docx.Document()
    properties = document.core_properties
    properties.author = "Sabine Huber"
    properties.last_modified_by = "Petra Lindner"
    properties.title = "Wimmer gegen Kemper"
    section = document.sections[0]
    section.header.paragraphs[0].text = "Az. 9 O 1234/18 – Wimmer ./. Kemper"
    section.footer.paragraphs[0].text = "Richter am Landgericht Jonas Brandl"
    document.add_paragraph(RULING[0])
    paragraph = document.add_paragraph("In dem Rechtsstreit des ")
    bold = paragraph.add_run("Thomas Wimmer")
    bold.bold = True
    paragraph.add_run(", Hauptstraße 4, 86551 Aichach, Kläger,")
    paragraph = document.add_paragraph("gegen ")
    first = paragraph.add_run("Erika Ke")
    first.italic = True
    paragraph.add_run("mper, Beklagte,")
    paragraph = document.add_paragraph(RULING[3])
    document.add_comment(paragraph.runs[0], text="Karl Sommer prüft das", author="Karl Sommer", initials="KS")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "Zeuge"
    table.cell(0, 1).text = "Anna Vogt"
    table.cell(1, 0).text = "Sachverständiger"
    table.cell(1, 1).text = "Jonas Brandl"
    document.add_paragraph("Der Kläger trägt die Kosten.")
    document.save(path)
    _add_footnote_and_changes(path)
    return path


_FOOTNOTES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes xmlns:w="{W_NS}">
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r><w:t xml:space="preserve">Vertreten durch Rechtsanwältin Petra Lindner.</w:t></w:r></w:p></w:footnote>
</w:footnotes>"""
_CUSTOM = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
 xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">
<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Bearbeiter"><vt:lpwstr>Sabine Huber</vt:lpwstr></property>
</Properties>"""


def _add_footnote_and_changes(path: Path) -> None:
    def edit(name: str, data: bytes) -> bytes:
        if not name.endswith((".xml", ".rels")):
            return data
        text = data.decode("utf-8")
        if name == "word/document.xml":
            marker = "Der Kläger trägt die Kosten.</w:t></w:r>"
            text = text.replace(marker, marker + '<w:r><w:footnoteReference w:id="1"/></w:r>'
                                '<w:ins w:id="91" w:author="Karl Sommer" w:date="2019-01-01T00:00:00Z">'
                                '<w:r><w:t xml:space="preserve"> Frau Kemper auch.</w:t></w:r></w:ins>'
                                '<w:del w:id="92" w:author="Anna Vogt" w:date="2019-01-01T00:00:00Z">'
                                '<w:r><w:delText>Thomas Wimmer nicht.</w:delText></w:r></w:del>', 1)
        elif name == "word/_rels/document.xml.rels":
            text = text.replace("</Relationships>", '<Relationship Id="rIdFn1" Type="http://schemas.'
                                'openxmlformats.org/officeDocument/2006/relationships/footnotes" '
                                'Target="footnotes.xml"/></Relationships>')
        elif name == "_rels/.rels":
            text = text.replace("</Relationships>", '<Relationship Id="rIdCustom" Type="http://schemas.'
                                'openxmlformats.org/officeDocument/2006/relationships/custom-properties" '
                                'Target="docProps/custom.xml"/></Relationships>')
        elif name == "[Content_Types].xml":
            text = text.replace("</Types>", '<Override PartName="/word/footnotes.xml" ContentType="application/'
                                'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>'
                                '<Override PartName="/docProps/custom.xml" ContentType="application/'
                                'vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>')
        return text.encode("utf-8")

    _rewrite_zip(path, {"word/footnotes.xml": _FOOTNOTES.encode(), "docProps/custom.xml": _CUSTOM.encode()}, edit)


def build_odt(path: Path) -> Path:
    """A ruling in OpenDocument: a bold name in a span, a table, a footnote, a comment, an author."""
    from odf.dc import Creator
    from odf.office import Annotation
    from odf.opendocument import OpenDocumentText
    from odf.style import Style, TextProperties
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import Note, NoteBody, NoteCitation, P, Span

    document = OpenDocumentText()
    bold = Style(name="Fett", family="text")
    bold.addElement(TextProperties(fontweight="bold"))
    document.automaticstyles.addElement(bold)
    document.meta.addElement(Creator(text="Sabine Huber"))
    document.text.addElement(P(text=RULING[0]))
    paragraph = P(text="In dem Rechtsstreit des ")
    paragraph.addElement(Span(stylename=bold, text="Thomas Wimmer"))
    paragraph.addText(", Hauptstraße 4, 86551 Aichach, Kläger,")
    document.text.addElement(paragraph)
    paragraph = P(text="gegen Erika Kemper, Beklagte,")
    note = Note(id="ftn1", noteclass="footnote")
    note.addElement(NoteCitation(text="1"))
    body = NoteBody()
    body.addElement(P(text="Vertreten durch Rechtsanwältin Petra Lindner."))
    note.addElement(body)
    paragraph.addElement(note)
    document.text.addElement(paragraph)
    paragraph = P(text=RULING[3])
    annotation = Annotation()
    annotation.addElement(Creator(text="Karl Sommer"))
    annotation.addElement(P(text="Karl Sommer prüft das"))
    paragraph.addElement(annotation)
    document.text.addElement(paragraph)
    table = Table(name="Zeugen")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    for label, name in (("Zeuge", "Anna Vogt"), ("Sachverständiger", "Jonas Brandl")):
        row = TableRow()
        for value in (label, name):
            cell = TableCell()
            cell.addElement(P(text=value))
            row.addElement(cell)
        table.addElement(row)
    document.text.addElement(table)
    document.save(str(path))
    return path


def build_pdf(path: Path) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_creator("Sabine Huber")
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    for line in RULING:
        pdf.multi_cell(0, 6, line.replace("–", "-"), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
    pdf.output(str(path))
    return path


def build_scanned_pdf(path: Path) -> Path:
    """A PDF of a drawing and no text, as a scanner makes (the page is an image, not text)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 50, style="F")
    pdf.output(str(path))
    return path


def build_rtf(path: Path) -> Path:
    def escaped(text: str) -> str:
        return "".join(c if ord(c) < 128 else f"\\'{ord(c):02x}" for c in text)

    body = "".join(rf"{{\pard {escaped(line)}\par}}" + "\n" for line in RULING)
    path.write_bytes((r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Arial;}}" + "\n" + body + "}").encode("ascii"))
    return path


def build_html(path: Path) -> Path:
    paragraphs = "".join(f"<p>{line}</p>\n" for line in RULING[1:])
    path.write_text(f"<html><head><title>{RULING[0]}</title></head><body>\n<div class='rubrum'>{paragraphs}</div>"
                    "<h2>Tenor</h2><p>Die Klage wird abgewiesen.</p><h2>Gründe</h2><p>Herr Wimmer hat keinen "
                    "Anspruch.</p></body></html>", encoding="utf-8")
    return path


def zip_texts(path: Path) -> dict[str, str]:
    """Every part of a ZIP package as text (binary parts decoded leniently)."""
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info).decode("utf-8", "replace") for info in archive.infolist()}


def renamed_zip(path: Path) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("fotos/bild.txt", "kein Word")
    path.write_bytes(buffer.getvalue())
    return path
