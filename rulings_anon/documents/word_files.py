"""Word (.docx) rulings: their text, and the same file with replacements in its runs.

The package is read part by part with lxml (python-docx has no footnotes, and its paragraphs hide
the runs' XML): headers, the body (tables included, cell by cell), footnotes, endnotes, footers,
each paragraph's ``w:t`` text in document order. Tracked changes are accepted (insertions kept,
deletions dropped) and the alternative content Word keeps for old readers is dropped, the same
way when reading and when writing, so offsets agree. The written file also loses what names
people outside the text: comments, the people list, change authors, thumbnails, the core and
extended properties' author, title, company and hyperlinks, custom properties; link targets,
field codes, bookmark names and alt text are rewritten like the text (:mod:`.word_hidden`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from . import word_hidden
from .hidden_names import HiddenNames
from .office_zip import Package
from .segments import TextBuilder, TextMap, rewritten

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
CT_OVERRIDE = "{http://schemas.openxmlformats.org/package/2006/content-types}Override"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
KIND = "Word (.docx)"
PASSWORD_HINT = "save it without a password (File > Info > Protect Document) and try again"

# Text-bearing parts in reading order: headers, body, notes, footers.
_HEADER = re.compile(r"word/header\d*\.xml$")
_FOOTER = re.compile(r"word/footer\d*\.xml$")
# Parts that only name people or hold comments: dropped from the written file.
_PEOPLE_PARTS = re.compile(r"word/(comments\w*|people)\.xml$|docProps/thumbnail\.\w+$")
# Tracked changes: accepted. Insertions and moves-to stay (unwrapped), deletions and
# moves-from go; property changes keep the current properties.
_UNWRAP = tuple(W + t for t in ("ins", "moveTo"))
_DROP = tuple(W + t for t in ("del", "moveFrom", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange",
                              "trPrChange", "tcPrChange", "tblGridChange", "numberingChange", "moveFromRangeStart",
                              "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd", "commentRangeStart",
                              "commentRangeEnd", "customXmlInsRangeStart", "customXmlDelRangeStart",
                              "customXmlInsRangeEnd", "customXmlDelRangeEnd"))
_TEXT_TAGS = {W + "t": None, W + "tab": "\t", W + "br": "\n", W + "cr": "\n", W + "noBreakHyphen": "-"}


def _natural(name: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def text_parts(names: Iterable[str]) -> list[str]:
    """The package's text parts in reading order."""
    names = sorted(names, key=_natural)
    notes = [n for n in ("word/footnotes.xml", "word/endnotes.xml") if n in names]
    return ([n for n in names if _HEADER.match(n)] + ["word/document.xml"] + notes
            + [n for n in names if _FOOTER.match(n)])


def normalize(root) -> None:
    """Accept tracked changes, drop comment marks and Word's fallback copies (reading and writing alike)."""
    for element in list(root.iter(MC_FALLBACK, *_DROP)):
        if element.getparent() is not None:
            element.getparent().remove(element)
    for element in list(root.iter(*_UNWRAP)):
        parent = element.getparent()
        index = parent.index(element)
        for offset, child in enumerate(list(element)):
            parent.insert(index + offset, child)
        parent.remove(element)
    for reference in list(root.iter(W + "commentReference")):
        run = reference.getparent()
        run.remove(reference)
        if run.tag == W + "r" and not [c for c in run if c.tag != W + "rPr"]:
            run.getparent().remove(run)


def _add_part(builder: TextBuilder, root) -> None:
    for paragraph in root.iter(W + "p"):
        for element in paragraph.iter(*_TEXT_TAGS):
            if next(element.iterancestors(W + "p")) is not paragraph:
                continue  # a text box's paragraph: read as its own paragraph
            fixed = _TEXT_TAGS[element.tag]
            if fixed is None:
                builder.add(element.text or "", element)
            else:
                builder.add(fixed)
        builder.end_paragraph()


def open_word(path: Path) -> tuple[Package, dict, TextMap]:
    """The package, its normalized text parts (name -> root) and its text map."""
    package = Package(path, KIND, PASSWORD_HINT)
    if "word/document.xml" not in package.names:
        from rulings_anon.errors import InputError

        raise InputError(f"not a {KIND} document: the ZIP package holds no word/document.xml", path)
    builder, roots = TextBuilder(), {}
    for name in text_parts(package.names):
        root = package.xml(name)
        normalize(root)
        roots[name] = root
        _add_part(builder, root)
    return package, roots, builder.build()


def read_text(path: Path) -> TextMap:
    return open_word(path)[2]


def write(path: Path, replacements, handle) -> None:
    """The Word file at ``path`` with ``replacements`` over its text, scrubbed of people's names, to ``handle``."""
    package, roots, text_map = open_word(path)
    for segment, value in rewritten(text_map, replacements):
        segment.node.text = value
        segment.node.set(XML_SPACE, "preserve")
    word_hidden.scrub(package, roots, HiddenNames(text_map.text, replacements))
    for name, root in roots.items():
        _scrub_authors(root)
        package.put(name, root)
    for name in package.names:
        if _PEOPLE_PARTS.match(name):
            package.remove(name)
        elif name.endswith(".rels"):
            _drop_relations(package, name)
    _scrub_properties(package)
    if "[Content_Types].xml" in package.names:
        types = package.xml("[Content_Types].xml")
        for override in list(types.iter(CT_OVERRIDE)):
            if override.get("PartName", "").lstrip("/") in package.removed:
                types.remove(override)
        package.put("[Content_Types].xml", types)
    package.write(handle)


def _scrub_authors(root) -> None:
    for element in root.iter():
        for attribute in list(element.attrib):
            if attribute.rsplit("}", 1)[-1] in ("author", "initials"):
                del element.attrib[attribute]


def _drop_relations(package: Package, name: str) -> None:
    """Relations to removed parts go, as do attached templates (a path with the user's name)."""
    rels = package.xml(name)
    base = name.replace("_rels/", "").removesuffix(".rels")
    folder = base.rpartition("/")[0]
    changed = False
    for relation in list(rels.iter(REL)):
        target = relation.get("Target", "")
        resolved = target.lstrip("/") if target.startswith("/") else f"{folder}/{target}".lstrip("/")
        if resolved in package.removed or _PEOPLE_PARTS.match(resolved) \
                or relation.get("Type", "").endswith("/attachedTemplate"):
            rels.remove(relation)
            changed = True
    if changed:
        package.put(name, rels)


_CORE_KEEP = {"created", "modified", "revision"}
_APP_CLEAR = {"Company", "Manager", "HyperlinkBase", "Template", "HLinks"}


def _scrub_properties(package: Package) -> None:
    """Core properties without author, title and the like; extended ones without company and
    manager; no custom properties."""
    if "docProps/core.xml" in package.names:
        core = package.xml("docProps/core.xml")
        for element in list(core):
            if element.tag.rsplit("}", 1)[-1] not in _CORE_KEEP:
                core.remove(element)
        package.put("docProps/core.xml", core)
    if "docProps/app.xml" in package.names:
        app = package.xml("docProps/app.xml")
        for element in list(app):
            local = element.tag.rsplit("}", 1)[-1]
            if local in _APP_CLEAR or local in ("TitlesOfParts", "HeadingPairs"):
                app.remove(element)
        package.put("docProps/app.xml", app)
    if "docProps/custom.xml" in package.names:
        custom = package.xml("docProps/custom.xml")
        for element in list(custom):
            custom.remove(element)
        package.put("docProps/custom.xml", custom)
    if "word/settings.xml" in package.names:
        settings = package.xml("word/settings.xml")
        for element in list(settings):
            if element.tag in (W + "attachedTemplate", W + "docVars"):
                settings.remove(element)
        package.put("word/settings.xml", settings)
