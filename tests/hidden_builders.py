"""Word and OpenDocument rulings that repeat their names outside the text: link targets, field
codes, bookmark names, image titles and descriptions (built with python-docx and odfpy, the parts
they have no call for added as XML)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from document_builders import _rewrite_zip

EMAIL = "thomas.wimmer@kanzlei-beispiel.de"
HYPERLINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"


def tiny_png(path: Path) -> Path:
    """A one-pixel PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\xff\xff\xff"))
                     + chunk(b"IEND", b""))
    return path


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


_BODY = (
    # an e-mail link whose text is the address, a web link whose text names no one
    f'<w:p>{_run("Schreiben an ")}<w:hyperlink r:id="rIdMail">{_run(EMAIL)}</w:hyperlink>{_run(" und ")}'
    f'<w:hyperlink r:id="rIdWeb" w:tooltip="Seite von Thomas Wimmer">{_run("seine Seite")}</w:hyperlink></w:p>'
    # a bookmark holding a name, a link and a REF field to it
    f'<w:p><w:bookmarkStart w:id="7" w:name="Zeuge_Wimmer"/>{_run("Der Zeuge Wimmer")}<w:bookmarkEnd w:id="7"/></w:p>'
    f'<w:p><w:hyperlink w:anchor="Zeuge_Wimmer">{_run("siehe oben")}</w:hyperlink>'
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> REF Zeuge_</w:instrText>'
    '</w:r><w:r><w:instrText xml:space="preserve">Wimmer \\h </w:instrText></w:r>'
    f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{_run("Seite 1")}<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
    # a complex HYPERLINK field, a merge field and an author field
    '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK '
    '"https://example.org/thomas-wimmer" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    f'{_run("Profil")}<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    f'<w:fldSimple w:instr=" MERGEFIELD Kemper_Erika ">{_run("die Beklagte")}</w:fldSimple>'
    f'<w:fldSimple w:instr=" AUTHOR &quot;Sabine Huber&quot; \\* MERGEFORMAT ">{_run("Verfasser")}</w:fldSimple></w:p>'
)


def build_linked_docx(path: Path) -> Path:
    """A Word ruling with its names in link targets, fields, a bookmark and an image's alt text."""
    import docx

    document = docx.Document()
    document.add_paragraph("In dem Rechtsstreit des Thomas Wimmer gegen Erika Kemper")
    document.add_picture(str(tiny_png(path.with_name("wimmer.png"))))
    document.save(path)

    def edit(name: str, data: bytes) -> bytes:
        if not name.endswith((".xml", ".rels")):
            return data
        text = data.decode("utf-8")
        if name == "word/document.xml":
            text = text.replace("<w:sectPr", _BODY + "<w:sectPr", 1)
            text = text.replace('descr=""', 'descr="Foto von Thomas Wimmer" title="Wimmer"')
            if 'descr="Foto' not in text:
                text = text.replace("<wp:docPr ", '<wp:docPr descr="Foto von Thomas Wimmer" title="Wimmer" ', 1)
        elif name == "word/_rels/document.xml.rels":
            text = text.replace("</Relationships>", f'<Relationship Id="rIdMail" Type="{HYPERLINK}" '
                                f'Target="mailto:{EMAIL}" TargetMode="External"/><Relationship Id="rIdWeb" '
                                f'Type="{HYPERLINK}" Target="http://www.wimmer-logistik.de/kontakt" '
                                'TargetMode="External"/></Relationships>')
        return text.encode("utf-8")

    _rewrite_zip(path, {}, edit)
    return path


def build_linked_odt(path: Path) -> Path:
    """An OpenDocument ruling with its names in link targets, bookmarks and an image's title."""
    from odf.draw import Frame, Image
    from odf.opendocument import OpenDocumentText
    from odf.svg import Desc, Title
    from odf.text import A, Bookmark, BookmarkRef, P

    document = OpenDocumentText()
    paragraph = P(text="In dem Rechtsstreit des Thomas Wimmer gegen Erika Kemper. ")
    paragraph.addElement(A(href=f"mailto:{EMAIL}", text=EMAIL))
    paragraph.addText(" und ")
    paragraph.addElement(A(href="http://www.wimmer-logistik.de/kontakt", text="seine Seite"))
    document.text.addElement(paragraph)
    paragraph = P(text="Der Zeuge Wimmer")
    paragraph.addElement(Bookmark(name="Zeuge_Wimmer"))
    document.text.addElement(paragraph)
    paragraph = P(text="siehe ")
    paragraph.addElement(BookmarkRef(refname="Zeuge_Wimmer", referenceformat="page", text="1"))
    paragraph.addElement(A(href="#Zeuge_Wimmer", text=" oben"))
    document.text.addElement(paragraph)
    picture = document.addPicture(str(tiny_png(path.with_name("kemper.png"))))
    frame = Frame(name="Foto Kemper", width="1cm", height="1cm", anchortype="paragraph")
    frame.addElement(Image(href=picture))
    frame.addElement(Title(text="Erika Kemper"))
    frame.addElement(Desc(text="Bild von Thomas Wimmer"))
    paragraph = P()
    paragraph.addElement(frame)
    document.text.addElement(paragraph)
    document.save(str(path))
    return path
