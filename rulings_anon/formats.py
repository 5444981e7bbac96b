"""The portals' file formats as :class:`~rulings_anon.document.Document` objects.

* gesetze-bayern.de XML (root ``byrecht-rspr``): the file inside ``/Content/Zip/<id>``, served
  ISO-8859-1 encoded (copies re-encoded to UTF-8 that still declare ISO-8859-1 are read too);
* rechtsprechung-im-internet.de XML (root ``dokument``);
* the portals' ZIP archives holding one such XML, also with junk appended after the archive;
* gesetze-bayern.de document pages (``/Content/Document/<id>``, HTML);
* the ``train.tar.gz`` / ``test.tar.gz`` archives that ``rulings-anon split`` writes.

Text layout: see :mod:`rulings_anon.textblocks`. Metadata keys: ``court``, ``date`` (ISO),
``file_number``, ``doc_type``, ``source``, ``url``, ``title``, ``chamber``, ``keywords``,
``norms`` and what else the format carries (``ecli``, ``jurisdiction``, ``citation``).
"""

from __future__ import annotations

import io
import json
import re
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from lxml import etree
from lxml import html as lxml_html

from rulings_anon.document import Document
from rulings_anon.errors import InputError
from rulings_anon.jsonl import RefusedJson, parse_json

from .textblocks import Block, attach_loose_margins, blocks, clean, local_name, render

BAYERN_URL = "https://www.gesetze-bayern.de"
RII_URL = "https://www.rechtsprechung-im-internet.de"

# Text sections of both portals' XML, in reading order, with the heading written for them.
SECTIONS = (
    ("leitsatz", "Leitsätze"),
    ("tenor", "Tenor"),
    ("tatbestand", "Tatbestand"),
    ("entscheidungsgruende", "Entscheidungsgründe"),
    ("gruende", "Gründe"),
    ("abwmeinung", "Abweichende Meinung"),
    ("sonstlt", "Sonstiger Langtext"),
)
# Headings that open those sections on an HTML page (lower case, without a trailing colon).
HTML_SECTION_HEADINGS = {
    "leitsatz": "Leitsätze",
    "leitsätze": "Leitsätze",
    "tenor": "Tenor",
    "tatbestand": "Tatbestand",
    "entscheidungsgründe": "Entscheidungsgründe",
    "gründe": "Gründe",
    "abweichende meinung": "Abweichende Meinung",
    "sonstiger langtext": "Sonstiger Langtext",
}
# gesetze-bayern.de abbreviates the document type in its XML.
BAYERN_DOC_TYPES = {"Urt": "Urteil", "Bes": "Beschluss"}
# Labels of the metadata table on a gesetze-bayern.de document page -> metadata key.
HTML_META_LABELS = {
    "titel": "title",
    "normenkette": "norms",
    "normenketten": "norms",
    "schlagworte": "keywords",
    "schlagwort": "keywords",
    "fundstelle": "citation",
    "gericht": "court",
    "aktenzeichen": "file_number",
    "datum": "date",
    "entscheidungsdatum": "date",
    "dokumenttyp": "doc_type",
    "entscheidungsart": "doc_type",
    "leitsätze": "leitsatz",
    "leitsatz": "leitsatz",
}
# "OLG München, Beschluss v. 21.11.2018 – 34 Wx 105/18": the heading of a bayern page.
_PAGE_HEADER = re.compile(
    r"^(?P<court>[^,]+),\s*(?P<doc_type>[^,]+?)\s+v(?:om|\.)\s*"
    r"(?P<date>\d{1,2}\.\s?\d{1,2}\.\s?\d{4})\s*[–-]\s*(?P<file_number>.+)$"
)
_DECLARED_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_PORTAL_ID_LINK = re.compile(r"/Content/(?:Document|Zip|Pdf)/([A-Za-z0-9][A-Za-z0-9_-]+)")
_EOCD = b"PK\x05\x06"  # ZIP end-of-central-directory signature; the record is 22 bytes + comment
_BOM = b"\xef\xbb\xbf"


def iso_date(text: str | None) -> str | None:
    """``2018-11-21``, ``20181121`` or ``21.11.2018`` as ``2018-11-21``; None when empty."""
    text = (text or "").strip()
    if not text:
        return None
    if m := re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", text):
        return f"{m[1]}-{m[2]}-{m[3]}"
    if m := re.fullmatch(r"(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})", text):
        return f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}"
    return text


def _encoding(data: bytes) -> str:
    """UTF-8 when the bytes are UTF-8 (whatever they declare), else the declared encoding.

    The portal declares and sends ISO-8859-1; copies re-encoded to UTF-8 often keep that
    declaration. Valid UTF-8 with umlauts is practically never meant as ISO-8859-1.
    """
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    declared = _DECLARED_ENCODING.match(data[:300])
    name = declared.group(1).decode("ascii").lower() if declared else ""
    return name if name and name.replace("_", "-") not in ("utf-8", "utf8") else "iso-8859-1"


def _text(element) -> str:
    return clean("".join(element.itertext())) if element is not None else ""


def _child_text(parent, tag: str) -> str:
    return _text(parent.find(tag)) if parent is not None else ""


def _meta(**fields) -> dict:
    """Metadata without empty values, in the order given."""
    return {k: v for k, v in fields.items() if v not in (None, "", [])}


def _sections(root) -> str:
    sections = []
    for tag, heading in SECTIONS:
        items: list[Block] = []
        for element in root.iter(tag):
            items.extend(blocks(element))
        sections.append((heading, items))
    return render(sections)


def _bayern(root, where) -> Document:
    meta = root.find("metadaten")
    court = root.find("metadaten/gericht")
    doc_id = root.get("doknr") or Path(str(where)).stem
    norms = []
    for norm in root.iterfind("metadaten/norm"):
        parts = [_child_text(norm, "normabk")] + [_text(e) for e in norm.iterfind("normgliederung/enbez")]
        norms.append(" ".join(p for p in parts if p))
    fundstelle = root.find("metadaten/fundstelle")
    citation = " ".join(filter(None, (_child_text(fundstelle, "periodikum"), _child_text(fundstelle, "zitstelle"))))
    doc_type = _child_text(meta, "doktyp")
    textdaten = root.find("textdaten")
    return Document(
        doc_id,
        _sections(textdaten if textdaten is not None else root),
        _meta(
            court=" ".join(filter(None, (_child_text(court, "gertyp"), _child_text(court, "gerort")))),
            date=iso_date(_child_text(meta, "entsch-datum")),
            file_number=_child_text(meta, "aktenzeichen"),
            doc_type=BAYERN_DOC_TYPES.get(doc_type, doc_type),
            source="gesetze-bayern.de",
            url=f"{BAYERN_URL}/Content/Document/{doc_id}",
            title=_text(root.find("textdaten/titelzeile")),
            chamber=_child_text(meta, "spruchkoerper"),
            jurisdiction=_child_text(meta, "gerichtsbarkeit"),
            keywords=[_text(e) for e in root.iterfind("metadaten/schlagwort") if _text(e)],
            norms=[n for n in norms if n],
            citation=citation,
        ),
    )


def _rii(root, where) -> Document:
    doc_id = _child_text(root, "doknr") or Path(str(where)).stem
    norms = [n.strip() for n in _child_text(root, "norm").split(", ") if n.strip()]
    return Document(
        doc_id,
        _sections(root),
        _meta(
            court=" ".join(filter(None, (_child_text(root, "gertyp"), _child_text(root, "gerort")))),
            date=iso_date(_child_text(root, "entsch-datum")),
            file_number=_child_text(root, "aktenzeichen"),
            doc_type=_child_text(root, "doktyp"),
            source="rechtsprechung-im-internet.de",
            url=_child_text(root, "identifier")
            or f"{RII_URL}/jportal/?quelle=jlink&docid={doc_id}&psml=bsjrsprod.psml&max=true",
            title=_text(root.find("titelzeile")),
            chamber=_child_text(root, "spruchkoerper"),
            ecli=_child_text(root, "ecli"),
            norms=norms,
        ),
    )


XML_ROOTS = {"byrecht-rspr": _bayern, "dokument": _rii}


def parse_xml(data: bytes, where) -> Document:
    """A ruling from portal XML bytes; ``where`` (file or URL) names it in errors."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    parser = etree.XMLParser(
        encoding=_encoding(data), resolve_entities=False, no_network=True, load_dtd=False,
        remove_comments=True, remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise InputError(f"malformed XML ({exc})", where) from None
    if root is None:
        raise InputError("empty XML document", where)
    reader = XML_ROOTS.get(local_name(root))
    if reader is None:
        raise InputError(
            f"not a court ruling: root element <{local_name(root)}>, expected <byrecht-rspr> "
            "(gesetze-bayern.de) or <dokument> (rechtsprechung-im-internet.de)",
            where,
        )
    document = reader(root, where)
    if not document.text.strip():
        raise InputError("the ruling XML holds no text sections (tenor, gruende ...)", where)
    return document


def open_zip(data: bytes, where) -> zipfile.ZipFile:
    """Open ZIP bytes; bytes appended after the archive (the portal sends some) are cut off.

    ``zipfile`` looks for the *last* end-of-central-directory record, which fails when the
    junk contains one too; so each candidate record is tried, last first, with the bytes
    after it removed.
    """
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        pass
    position = data.rfind(_EOCD)
    while position >= 0:
        comment_length = int.from_bytes(data[position + 20:position + 22], "little")
        try:
            return zipfile.ZipFile(io.BytesIO(data[:position + 22 + comment_length]))
        except zipfile.BadZipFile:
            position = data.rfind(_EOCD, 0, position)
    raise InputError("not a readable ZIP archive", where)


# Bounds on what an archive may inflate to: a ruling's XML is well below a few MB (the largest
# portal rulings about 2 MB) and text compresses about 5 to 10 times. A ZIP bomb (a small file
# declaring or inflating to gigabytes) stops at these bounds, before its bytes are held in memory.
MAX_ENTRY_BYTES = 64 << 20  # one inflated archive entry
MAX_ARCHIVE_BYTES = 512 << 20  # all entries of one archive together
MAX_RATIO = 200  # inflated / compressed size, checked once an entry passed RATIO_FLOOR bytes
RATIO_FLOOR = 1 << 20
MAX_ENTRIES = 10_000


def _bounded_read(stream, name: str, compressed: int, where, budget: int) -> bytes:
    """Read an archive entry in blocks, stopping with an :class:`InputError` as soon as it passes
    :data:`MAX_ENTRY_BYTES`, the ``budget`` left for the archive, or :data:`MAX_RATIO` times its
    compressed size."""
    limit = min(MAX_ENTRY_BYTES, budget)
    blocks, total = [], 0
    while block := stream.read(1 << 20):
        total += len(block)
        if total > limit:
            raise InputError(f"{name} inflates to more than {limit >> 20} MB: refused as a ZIP bomb", where)
        if total > RATIO_FLOOR and total > MAX_RATIO * max(compressed, 1):
            raise InputError(f"{name} inflates more than {MAX_RATIO} times its compressed size "
                             f"({compressed:,} bytes): refused as a ZIP bomb", where)
        blocks.append(block)
    return b"".join(blocks)


def parse_zip(data: bytes, where) -> list[Document]:
    """The rulings of a portal ZIP archive (one XML file, besides ``META-INF``).

    Entry sizes are bounded (declared and actually inflated, see :data:`MAX_ENTRY_BYTES`,
    :data:`MAX_RATIO`): a ZIP bomb ends in a one-line error before it fills the memory."""
    archive = open_zip(data, where)
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise InputError(f"the ZIP archive holds {len(infos):,} entries (at most {MAX_ENTRIES:,} are read)", where)
    entries = [
        i for i in infos
        if i.filename.lower().endswith(".xml") and not i.filename.upper().startswith("META-INF/")
    ]
    if not entries:
        raise InputError("the ZIP archive holds no ruling XML file", where)
    declared = sum(i.file_size for i in entries)
    for info in entries:
        if info.file_size > MAX_ENTRY_BYTES or declared > MAX_ARCHIVE_BYTES:
            raise InputError(f"{info.filename} declares {info.file_size:,} bytes inflated (at most "
                             f"{MAX_ENTRY_BYTES >> 20} MB per entry): refused as a ZIP bomb", where)
    documents, budget = [], MAX_ARCHIVE_BYTES
    for info in entries:
        try:
            with archive.open(info) as stream:
                content = _bounded_read(stream, info.filename, info.compress_size, where, budget)
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, zlib.error) as exc:
            raise InputError(f"cannot unpack {info.filename} ({exc})", where) from None
        budget -= len(content)
        documents.append(parse_xml(content, f"{where}:{info.filename}"))
    return documents


def listed_as(documents: list[Document], doc_id: str) -> Document:
    """The document of a portal ZIP under the id the portal's listing gave it.

    Resuming compares listed ids with stored ones, so the stored id must be the listed one;
    an XML ``doknr`` that differs is kept as ``doknr``.
    """
    document = next((d for d in documents if d.id == doc_id), documents[0])
    if document.id != doc_id:
        document.meta["doknr"] = document.id
        document.id = doc_id
    return document


def _section_heading(element) -> str | None:
    if local_name(element) not in ("h1", "h2", "h3", "h4", "h5", "h6", "p", "div"):
        return None
    return HTML_SECTION_HEADINGS.get(_text(element).rstrip(":").strip().lower())


def _html_metadata(root) -> tuple[dict, list[Block]]:
    """Label/value rows of the page's metadata table; Leitsätze come back as blocks.

    The rows read are removed from the page, so that their labels ("Leitsätze:") are not
    taken for section headings of the text.
    """
    meta: dict = {}
    leitsatz: list[Block] = []
    for row in list(root.iter("tr")):
        cells = [c for c in row if local_name(c) in ("td", "th")]
        if len(cells) != 2:
            continue
        label = _text(cells[0]).rstrip(":").strip().lower()
        key = HTML_META_LABELS.get(label)
        if key == "leitsatz":
            leitsatz = attach_loose_margins(blocks(cells[1]))
        elif key in ("norms", "keywords"):
            lines = [b.text for b in blocks(cells[1])]
            values = [v for line in lines for v in line.split("\n")]
            if key == "keywords":
                values = [v for value in values for v in value.split(",")]
            meta[key] = [v.strip() for v in values if v.strip()]
        elif key:
            meta[key] = _text(cells[1])
        if key:
            row.drop_tree()
    return meta, leitsatz


def _common_ancestor(elements):
    ancestors = list(elements[0].iterancestors())
    for candidate in ancestors:
        if all(candidate in e.iterancestors() for e in elements[1:]):
            return candidate
    return ancestors[-1] if ancestors else elements[0]


def parse_html(data: bytes, where):
    """The root element of an HTML page (UTF-8 unless the bytes are not UTF-8)."""
    try:
        parser = lxml_html.HTMLParser(encoding=_encoding(data), remove_comments=True)
        return lxml_html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        raise InputError(f"malformed HTML ({exc})", where) from None


def parse_bayern_html(data: bytes, where, fallback_id: str) -> Document:
    """A ruling from a gesetze-bayern.de document page (``/Content/Document/<id>``)."""
    root = parse_html(data, where)
    meta, leitsatz = _html_metadata(root)
    headings = [e for e in root.iter() if _section_heading(e)]
    if not headings:
        raise InputError(
            "no ruling text on this HTML page (no heading Tenor, Gründe, Tatbestand ...)", where
        )
    sections: list[tuple[str, list[Block]]] = []
    for block in attach_loose_margins(blocks(_common_ancestor(headings))):
        heading = HTML_SECTION_HEADINGS.get(block.text.rstrip(":").strip().lower())
        if heading and block.margin is None:
            sections.append((heading, []))
        elif sections:  # what precedes the first heading is the page's title and metadata
            sections[-1][1].append(block)
    if leitsatz and "Leitsätze" not in {heading for heading, _ in sections}:
        sections.insert(0, ("Leitsätze", leitsatz))
    header = root.find(".//h1")
    parsed = _PAGE_HEADER.match(_text(header)) if header is not None else None
    fields = parsed.groupdict() if parsed else {}
    links = [m.group(1) for a in root.iter("a", "link") for m in [_PORTAL_ID_LINK.search(a.get("href") or "")] if m]
    doc_id = links[0] if links else fallback_id
    return Document(
        doc_id,
        render(sections),
        _meta(
            court=meta.get("court") or fields.get("court"),
            date=iso_date(meta.get("date") or fields.get("date")),
            file_number=meta.get("file_number") or fields.get("file_number"),
            doc_type=meta.get("doc_type") or fields.get("doc_type"),
            source="gesetze-bayern.de",
            url=f"{BAYERN_URL}/Content/Document/{doc_id}",
            title=meta.get("title"),
            keywords=meta.get("keywords"),
            norms=meta.get("norms"),
            citation=meta.get("citation"),
        ),
    )


# The archives ``rulings-anon split`` writes (``train.tar.gz``), and any ``.tgz`` of texts.
SPLIT_ARCHIVE_SUFFIXES = (".tar.gz", ".tgz")


def is_split_archive(path) -> bool:
    return str(path).lower().endswith(SPLIT_ARCHIVE_SUFFIXES)


def _archived_document(line: str, where: str, line_no: int, read) -> Document:
    """The ruling of one line of a split archive's ``metadata.jsonl``: its fields and the text of the
    member its ``file`` names (``read(name)``); a wrong line is one :class:`InputError`."""
    try:
        record = parse_json(line)
    except (json.JSONDecodeError, RecursionError):
        raise InputError("not a JSON object with 'file'", where, line_no) from None
    except RefusedJson as exc:
        raise InputError(str(exc), where, line_no) from None
    if not isinstance(record, dict) or not isinstance(record.get("file"), str):
        raise InputError("not a JSON object with 'file' naming a member of the archive", where, line_no)
    name = record.pop("file")
    try:
        return Document.from_record({**record, "text": read(name)}, where=Path(name).stem)
    except ValueError as exc:
        raise InputError(str(exc), where, line_no) from None


def read_split_archive(path) -> Iterator[Document]:
    """The rulings of a ``split`` archive: ``metadata.jsonl`` plus one ``.txt`` per ruling.

    A ``.tar.gz`` of plain ``.txt`` files without ``metadata.jsonl`` is read too (ids are the
    file names).
    """
    try:
        with tarfile.open(path, "r:*") as archive:
            members = {m.name: m for m in archive.getmembers() if m.isfile()}
            too_large = [m for m in members.values() if m.size > MAX_ENTRY_BYTES]
            if too_large or sum(m.size for m in members.values()) > 4 * MAX_ARCHIVE_BYTES:
                name = too_large[0].name if too_large else "its members"
                raise InputError(f"{name} is larger than a ruling can be (at most {MAX_ENTRY_BYTES >> 20} MB "
                                 "per member): refused", path)

            def read(name: str) -> str:
                try:
                    return archive.extractfile(members[name]).read().decode("utf-8")
                except KeyError:
                    raise InputError(f"metadata.jsonl names {name}, which the archive lacks", path) from None
                except UnicodeDecodeError:
                    raise InputError(f"{name} is not UTF-8 text", path) from None

            if "metadata.jsonl" in members:
                lines = read("metadata.jsonl").splitlines()
                for line_no, line in enumerate(lines, 1):
                    if line.strip():
                        yield _archived_document(line, f"{path}:metadata.jsonl", line_no, read)
                return
            for name in sorted(members):
                if name.endswith(".txt"):
                    yield Document(Path(name).stem, read(name), {"source": f"{path}:{name}"})
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise InputError(f"not a readable tar archive ({exc})", path) from None


def read_portal_file(path) -> Iterator[Document]:
    """The rulings of one portal file: ``.xml``, ``.zip``, ``.html``/``.htm``, ``.tar.gz``/``.tgz``."""
    path = Path(path)
    name = path.name.lower()
    if is_split_archive(path):
        yield from read_split_archive(path)
        return
    try:
        if path.stat().st_size > MAX_ENTRY_BYTES:
            raise InputError(f"larger than a ruling can be ({path.stat().st_size:,} bytes, at most "
                             f"{MAX_ENTRY_BYTES >> 20} MB)", path)
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror})", path) from None
    if not data.strip():
        raise InputError("the file is empty", path)
    if name.endswith(".xml"):
        yield parse_xml(data, path)
    elif name.endswith(".zip"):
        yield from parse_zip(data, path)
    elif name.endswith((".html", ".htm")):
        yield parse_bayern_html(data, path, path.stem)
    else:
        raise InputError("not a portal file (expected .xml, .zip, .html or .tar.gz)", path)
