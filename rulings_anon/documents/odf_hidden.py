"""An OpenDocument file's names outside its text, rewritten or dropped as its text's replacements
say (:mod:`.hidden_names`): link targets (``xlink:href``), bookmark and reference-mark names and
the references and ``#`` links to them, the titles and descriptions of frames and images
(``svg:title``, ``svg:desc``), and any other attribute of ``content.xml`` and ``styles.xml``
(a link's ``office:title``, a frame's ``draw:name``, a user field's value).

A link whose target is dropped stays as its text; a package-internal target (an embedded
picture) is kept.
"""

from __future__ import annotations

from .hidden_names import HiddenNames, renamed
from .office_zip import unwrap

TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
SVG = "{urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_MARKS = tuple(TEXT + t for t in ("bookmark", "bookmark-start", "bookmark-end", "reference-mark",
                                  "reference-mark-start", "reference-mark-end"))
_MARK_REFERENCES = (TEXT + "bookmark-ref", TEXT + "reference-ref")
_LINKS = (TEXT + "a", DRAW + "a")


def _href(value: str, hidden: HiddenNames, renames: dict[str, str], internal: set[str]) -> str | None:
    """The new target of a link (None: drop it)."""
    if value.startswith("#"):
        mark, bar, rest = value[1:].partition("|")
        return f"#{renames.get(mark, mark)}{bar}{rest}"
    if value.removeprefix("./").rstrip("/") in internal or not hidden.holds_name(value):
        return value
    return hidden.cleaned(value)


def scrub(package, roots: dict, hidden: HiddenNames) -> None:
    """Rewrite or drop the names outside the text of the parts in ``roots`` (the caller writes them back)."""
    marks = [e.get(TEXT + "name", "") for root in roots.values() for e in root.iter(*_MARKS)]
    renames = renamed(marks, hidden, "Textmarke")
    internal = {n.rstrip("/") for n in package.names}
    for root in roots.values():
        for element in list(root.iter(SVG + "title", SVG + "desc")):
            if element.text and hidden.holds_name(element.text):
                element.text = hidden.cleaned(element.text) or ""
        dropped_links = []
        for element in root.iter():
            if not isinstance(element.tag, str):
                continue
            for attribute, value in list(element.attrib.items()):
                if element.tag in _MARKS + _MARK_REFERENCES and attribute in (TEXT + "name", TEXT + "ref-name"):
                    element.set(attribute, renames.get(value, value))
                elif attribute == XLINK_HREF:
                    new = _href(value, hidden, renames, internal)
                    if new is not None:
                        element.set(attribute, new)
                    elif element.tag in _LINKS:
                        dropped_links.append(element)
                    else:
                        del element.attrib[attribute]
                elif hidden.holds_name(value):
                    element.set(attribute, hidden.cleaned(value) or "")
        for link in dropped_links:
            unwrap(link)
