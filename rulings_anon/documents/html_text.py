"""HTML rulings that are no portal page: every paragraph of the page, the header included.

gesetze-bayern.de pages are recognized by what only they carry (links to the portal's
``/Content/Document/`` or ``/Content/Zip/`` and its name) and read as portal pages by
:mod:`rulings_anon.formats`; any other HTML (a court's own export, a saved web page) is read whole,
so that the parties' header above "Tenor" is not lost.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulings_anon.document import Document
from rulings_anon.errors import InputError

from .office_zip import read_bytes

_PORTAL_MARKERS = re.compile(rb"gesetze-bayern\.de|/Content/(?:Document|Zip|Pdf)/", re.I)


def is_portal_page(data: bytes) -> bool:
    return _PORTAL_MARKERS.search(data) is not None


def read_document(path: Path, data: bytes | None = None) -> Document:
    from rulings_anon.formats import parse_html
    from rulings_anon.textblocks import attach_loose_margins, blocks, clean, render

    data = read_bytes(path, "HTML") if data is None else data
    root = parse_html(data, path)
    body = root.find("body")
    items = attach_loose_margins(blocks(body if body is not None else root))
    title = root.find(".//title")
    heading = clean("".join(title.itertext())) if title is not None else ""
    text = render([(heading if heading and (not items or items[0].text != heading) else "", items)])
    if not text.strip():
        raise InputError("holds no text", path)
    return Document(path.stem, text, {"source": str(path)})
