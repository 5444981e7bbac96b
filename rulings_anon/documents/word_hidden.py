"""A Word file's names outside its text, rewritten or dropped as its text's replacements say
(:mod:`.hidden_names`): external relationship targets (hyperlinks, linked images), field
instructions (``w:instrText`` of a complex field read as one, ``w:fldSimple w:instr``),
bookmark names and the anchors and fields that refer to them, image titles and descriptions
(``wp:docPr``, ``pic:cNvPr``), hyperlink tooltips, and any other attribute of the text parts.

A dropped target takes its relationship with it, and the hyperlink stays as text; a dropped
field instruction keeps its field's keyword (the field's shown result is text, replaced there);
the instructions of fields that show document properties (``AUTHOR``, ``USERNAME``...) always
lose their arguments, which name people the text need not mention.
"""

from __future__ import annotations

from .hidden_names import HiddenNames, renamed, with_renames

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_PEOPLE_FIELDS = {"AUTHOR", "LASTSAVEDBY", "USERNAME", "USERINITIALS", "USERADDRESS", "DOCPROPERTY", "TITLE",
                  "SUBJECT", "KEYWORDS", "COMMENTS", "FILENAME", "TEMPLATE", "INFO"}
_DESCRIPTIONS = {"descr", "title"}  # of wp:docPr and pic:cNvPr: dropped when they hold a name


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def owner_of(rels_name: str) -> str:
    """The part a relationships part belongs to: word/_rels/document.xml.rels -> word/document.xml."""
    return rels_name.replace("_rels/", "").removesuffix(".rels")


def instruction(value: str, hidden: HiddenNames, renames: dict[str, str]) -> str:
    """A field instruction without names: bookmarks renamed, replaced texts replaced, and only the
    keyword left of a property field or of an instruction that still holds a name."""
    value = with_renames(value, renames)
    keyword = (value.split() or [""])[0]
    if keyword.upper() in _PEOPLE_FIELDS:
        return f" {keyword} "
    cleaned = hidden.cleaned(value)
    return cleaned if cleaned is not None else f" {keyword} "


def _fields(root) -> list[list]:
    """The ``w:instrText`` elements of each complex field of ``root`` (nested fields apart)."""
    fields, open_fields = [], []
    for element in root.iter(W + "fldChar", W + "instrText"):
        if element.tag == W + "instrText":
            if open_fields and open_fields[-1] is not None:
                open_fields[-1].append(element)
            continue
        kind = element.get(W + "fldCharType")
        if kind == "begin":
            open_fields.append([])
            fields.append(open_fields[-1])
        elif kind == "separate" and open_fields:
            open_fields[-1] = None  # the result follows: text
        elif kind == "end" and open_fields:
            open_fields.pop()
    return fields


def _scrub_part(root, hidden: HiddenNames, renames: dict[str, str]) -> None:
    for field in _fields(root):
        old = "".join(e.text or "" for e in field)
        new = instruction(old, hidden, renames)
        if new != old and field:
            field[0].text = new
            for element in field[1:]:
                element.text = ""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for attribute, value in list(element.attrib.items()):
            local = _local(attribute)
            if attribute in (W + "name", W + "anchor") and value in renames:
                element.set(attribute, renames[value])
            elif attribute == W + "instr":
                element.set(attribute, instruction(value, hidden, renames))
            elif attribute.startswith(R) or not hidden.holds_name(value):
                continue
            elif (cleaned := hidden.cleaned(value)) is not None:
                element.set(attribute, cleaned)
            elif local in _DESCRIPTIONS or element.tag == W + "hyperlink":
                del element.attrib[attribute]
            elif local == "name" and element.get("id") is not None:
                element.set(attribute, f"Objekt {element.get('id')}")
            else:
                element.set(attribute, "")


def _unlink(root, ids: set[str]) -> None:
    """Elements that referred to dropped relationships refer to none (a hyperlink stays text)."""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for attribute, value in list(element.attrib.items()):
            if attribute.startswith(R) and value in ids:
                if _local(element.tag) in ("hlinkClick", "hlinkHover"):
                    element.set(attribute, "")  # required there; empty is no link
                else:
                    del element.attrib[attribute]


def scrub(package, roots: dict, hidden: HiddenNames) -> None:
    """Rewrite or drop the names outside the text of ``package`` (its text parts parsed in ``roots``,
    which the caller writes back) as ``hidden`` says; other changed parts are put into the package."""
    bookmarks = [e.get(W + "name", "") for root in roots.values() for e in root.iter(W + "bookmarkStart")]
    renames = renamed(bookmarks, hidden, "Textmarke")
    for root in roots.values():
        _scrub_part(root, hidden, renames)
    for name in sorted(package.names):
        if not name.endswith(".rels") or name in package.removed:
            continue
        rels = package.xml(name)
        dropped, changed = set(), False
        for relation in list(rels.iter(REL)):
            target = relation.get("Target", "")
            if relation.get("TargetMode") != "External" or not hidden.holds_name(target):
                continue
            cleaned = hidden.cleaned(target)
            if cleaned is not None:
                relation.set("Target", cleaned)
            else:
                dropped.add(relation.get("Id"))
                rels.remove(relation)
            changed = True
        if changed:
            package.put(name, rels)
        owner = owner_of(name)
        if dropped and owner in package.names and owner not in package.removed:
            if owner in roots:
                _unlink(roots[owner], dropped)
            else:
                root = package.xml(owner)
                _unlink(root, dropped)
                package.put(owner, root)
