"""rechtsprechung-im-internet.de (the seven federal courts) as a source of rulings.

The table of contents ``/rii-toc.xml`` lists every published decision as an ``item`` with
``gericht`` ("BGH 9. Zivilsenat"), ``entsch-datum`` (YYYYMMDD), ``aktenzeichen``, ``link`` (the
ruling's ZIP, ``/jportal/docs/bsjrs/jb-<doc id>.zip``) and ``modified``. Items are filtered
by court and period, then each ZIP is downloaded from the client's site (so ``--base-url``
also redirects the links, which name the portal's own host).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from lxml import etree

from rulings_anon.document import Document
from rulings_anon.errors import InputError
from rulings_anon.formats import iso_date, listed_as, parse_zip
from rulings_anon.textblocks import clean

from .client import PoliteClient
from .collect import Candidate, court_matches, in_period

BASE_URL = "https://www.rechtsprechung-im-internet.de"
TABLE_OF_CONTENTS = "/rii-toc.xml"


@dataclass(frozen=True)
class TocItem:
    """One decision listed in the table of contents."""

    id: str
    path: str
    court: str | None
    date: str | None
    file_number: str | None
    modified: str | None


def _field(item, tag: str) -> str | None:
    element = item.find(tag)
    if element is None:
        return None
    return clean(element.text or "") or None


def parse_toc(data: bytes, where) -> list[TocItem]:
    """The items of a table of contents, in listed order (items without a link are skipped)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise InputError(f"malformed table of contents ({exc})", where) from None
    items = []
    for item in root.iter("item"):
        link = _field(item, "link")
        if not link:
            continue
        parts = urlsplit(link)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        stem = PurePosixPath(parts.path).stem
        items.append(
            TocItem(
                id=stem.removeprefix("jb-"),
                path=path,
                court=_field(item, "gericht"),
                date=iso_date(_field(item, "entsch-datum")),
                file_number=_field(item, "aktenzeichen"),
                modified=_field(item, "modified"),
            )
        )
    return items


class RiiPortal:
    """Rulings of rechtsprechung-im-internet.de, filtered by court and period, in listed order."""

    def __init__(self, client: PoliteClient, court: str | None = None, date_from: str | None = None,
                 date_to: str | None = None):
        self.client = client
        self.court = court
        self.date_from = date_from
        self.date_to = date_to

    def items(self) -> list[TocItem]:
        response = self.client.get(TABLE_OF_CONTENTS)
        return parse_toc(response.content, self.client.url(TABLE_OF_CONTENTS))

    def candidates(self) -> Iterator[Candidate]:
        for item in self.items():
            if court_matches(item.court, self.court) and in_period(item.date, self.date_from, self.date_to):
                yield Candidate(item.id, partial(self.download, item))

    def download(self, item: TocItem) -> Document:
        """The ruling of a table-of-contents item, from its ZIP."""
        documents = parse_zip(self.client.get(item.path).content, self.client.url(item.path))
        document = listed_as(documents, item.id)
        if item.modified:
            document.meta["modified"] = item.modified
        return document
