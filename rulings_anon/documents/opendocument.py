"""OpenDocument text (.odt) rulings: their text, and the same file with replacements in place.

Read with lxml from the package's ``styles.xml`` (the master pages' headers and footers) and
``content.xml`` (the body, tables, footnotes as paragraphs of their own). ODF keeps text in
elements' text and tails, so a segment is an element and which of the two it is. Tracked changes
are accepted (the change log, which holds deleted text and its authors, is dropped) and comments
(``office:annotation``) are dropped, reading and writing alike. The written file also loses the
author, title and user-defined fields of ``meta.xml`` and the first page's thumbnail; link
targets, bookmark names and image titles are rewritten like the text (:mod:`.odf_hidden`).
"""

from __future__ import annotations

from pathlib import Path

from rulings_anon.errors import InputError

from . import odf_hidden
from .hidden_names import HiddenNames
from .office_zip import Package, remove_keeping_tail
from .segments import TextBuilder, TextMap, rewritten

TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
META = "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}"
MANIFEST = "{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}"
KIND = "OpenDocument (.odt)"
PASSWORD_HINT = "save it without a password and try again"
MIMETYPE = b"application/vnd.oasis.opendocument.text"

_PARAGRAPHS = (TEXT + "p", TEXT + "h")
# Children whose text is not the paragraph's: notes and frames hold paragraphs of their own.
_OWN_PARAGRAPHS = {TEXT + "note", "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}frame",
                   TEXT + "ruby-text"}
_DROP = (TEXT + "tracked-changes", TEXT + "change", TEXT + "change-start", TEXT + "change-end",
         OFFICE + "annotation", OFFICE + "annotation-end")
_META_KEEP = {"creation-date", "date", "editing-cycles", "editing-duration", "generator", "document-statistic"}


def normalize(root) -> None:
    for element in list(root.iter(*_DROP)):
        remove_keeping_tail(element)


def _add_children(builder: TextBuilder, element) -> None:
    builder.add(element.text or "", element, "text")
    for child in element:
        if not isinstance(child.tag, str):
            pass
        elif child.tag == TEXT + "s":
            builder.add(" " * int(child.get(TEXT + "c", "1") or 1))
        elif child.tag == TEXT + "tab":
            builder.add("\t")
        elif child.tag == TEXT + "line-break":
            builder.add("\n")
        elif child.tag not in _OWN_PARAGRAPHS and child.tag not in _PARAGRAPHS:
            _add_children(builder, child)
        builder.add(child.tail or "", child, "tail")


def _add_part(builder: TextBuilder, root) -> None:
    for paragraph in root.iter(*_PARAGRAPHS):
        _add_children(builder, paragraph)
        builder.end_paragraph()


def open_odt(path: Path) -> tuple[Package, dict, TextMap]:
    package = Package(path, KIND, PASSWORD_HINT)
    if "content.xml" not in package.names:
        raise InputError(f"not an {KIND} document: the ZIP package holds no content.xml", path)
    if "mimetype" in package.names and package.raw("mimetype").strip() != MIMETYPE:
        raise InputError(f"not an {KIND} document: its mimetype is not {MIMETYPE.decode()}", path)
    if "META-INF/manifest.xml" in package.names:
        manifest = package.xml("META-INF/manifest.xml")
        if next(manifest.iter(MANIFEST + "encryption-data"), None) is not None:
            raise InputError(f"password-protected {KIND} document: {PASSWORD_HINT}", path)
    builder, roots = TextBuilder(), {}
    if "styles.xml" in package.names:
        styles = package.xml("styles.xml")
        normalize(styles)
        roots["styles.xml"] = styles
        for page in styles.iter(STYLE + "master-page"):
            _add_part(builder, page)
    content = package.xml("content.xml")
    normalize(content)
    roots["content.xml"] = content
    _add_part(builder, content.find(f"{OFFICE}body") if content.find(f"{OFFICE}body") is not None else content)
    return package, roots, builder.build()


def read_text(path: Path) -> TextMap:
    return open_odt(path)[2]


def write(path: Path, replacements, handle) -> None:
    """The ODT file at ``path`` with ``replacements`` over its text, without people's names in its metadata."""
    package, roots, text_map = open_odt(path)
    for segment, value in rewritten(text_map, replacements):
        setattr(segment.node, segment.attr, value)
    odf_hidden.scrub(package, roots, HiddenNames(text_map.text, replacements))
    for name, root in roots.items():
        package.put(name, root)
    if "meta.xml" in package.names:
        meta = package.xml("meta.xml")
        for holder in meta.iter(OFFICE + "meta"):
            for element in list(holder):
                if element.tag.rsplit("}", 1)[-1] not in _META_KEEP:
                    holder.remove(element)
        package.put("meta.xml", meta)
    for name in package.names:
        if name.startswith("Thumbnails/"):
            package.remove(name)
    if "META-INF/manifest.xml" in package.names and package.removed:
        manifest = package.xml("META-INF/manifest.xml")
        for entry in list(manifest):
            if entry.get(MANIFEST + "full-path", "") in package.removed | {"Thumbnails/"}:
                manifest.remove(entry)
        package.put("META-INF/manifest.xml", manifest)
    package.write(handle)
