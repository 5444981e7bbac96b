"""gesetze-bayern.de (BAYERN.RECHT) as a source of rulings.

The case-law search is session based (ASP.NET, cookies): a POST to
``/Search/Filter/DOKTYP/rspr`` opens a search over court decisions, a court filter is a GET of
``/Search/Filter/LEVEL2RSPRTREENODE/<court>/<jurisdiction>``, a period is a POST of the search
form to ``/Search`` (``SearchFields.DatumVon``/``DatumBis`` as DD.MM.YYYY plus the form's
``__RequestVerificationToken``). Result pages ``/Search/Page/<n>`` list ``li.hitlistItem``
entries until a page lists none; each ruling is a ZIP at ``/Content/Zip/<id>`` holding one
ISO-8859-1 XML. The hit list's title ("LG München I: keywords") and subtitle ("Urteil vom
21.05.2026 – 1 O 123/25") are checked against court and period too, so a filter the portal
ignored still gives the rulings asked for.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import partial
from urllib.parse import quote

from rulings_anon.document import Document
from rulings_anon.errors import InputError
from rulings_anon.formats import iso_date, listed_as, parse_html, parse_zip
from rulings_anon.textblocks import clean

from .client import PoliteClient
from .collect import Candidate, court_matches, in_period

BASE_URL = "https://www.gesetze-bayern.de"
SEARCH_SESSION = "/Search/Filter/DOKTYP/rspr"
COURT_FILTER = "/Search/Filter/LEVEL2RSPRTREENODE/{court}/{jurisdiction}"
SEARCH_FORM = "/Search"
RESULT_PAGE = "/Search/Page/{page}"
RULING_ZIP = "/Content/Zip/{id}"
RULING_PAGE = "/Content/Document/{id}"
# Court type (first word of the court's name) -> the branch of the portal's court tree.
JURISDICTIONS = {
    "AG": "Ordentliche Gerichtsbarkeit",
    "LG": "Ordentliche Gerichtsbarkeit",
    "OLG": "Ordentliche Gerichtsbarkeit",
    "BayObLG": "Ordentliche Gerichtsbarkeit",
    "VG": "Verwaltungsgerichtsbarkeit",
    "VGH": "Verwaltungsgerichtsbarkeit",
    "ArbG": "Arbeitsgerichtsbarkeit",
    "LArbG": "Arbeitsgerichtsbarkeit",
    "LAG": "Arbeitsgerichtsbarkeit",
    "SG": "Sozialgerichtsbarkeit",
    "LSG": "Sozialgerichtsbarkeit",
    "FG": "Finanzgerichtsbarkeit",
    "VerfGH": "Verfassungsgerichtsbarkeit",
}
_DOCUMENT_LINK = re.compile(r"/Content/Document/([A-Za-z0-9][A-Za-z0-9_-]*)")
_SUBTITLE = re.compile(r"^(?P<doc_type>.+?)\s+vom\s+(?P<date>\d{1,2}\.\d{1,2}\.\d{4})\s*[–-]\s*(?P<file_number>.*)$")


@dataclass(frozen=True)
class Hit:
    """One entry of a result page."""

    id: str
    court: str | None = None
    date: str | None = None
    doc_type: str | None = None
    file_number: str | None = None


def parse_hits(data: bytes, where) -> list[Hit]:
    """The hits of a result page, in page order."""
    hits = []
    for item in parse_html(data, where).find_class("hitlistItem"):
        link = next((a for a in item.iter("a") if _DOCUMENT_LINK.search(a.get("href") or "")), None)
        if link is None:
            continue
        title = clean(link.text_content())
        subtitle = next(iter(item.find_class("hlSubTitel")), None)
        parsed = _SUBTITLE.match(clean(subtitle.text_content())) if subtitle is not None else None
        hits.append(
            Hit(
                id=_DOCUMENT_LINK.search(link.get("href")).group(1),
                court=title.split(":", 1)[0].strip() if ":" in title else None,
                date=iso_date(parsed["date"]) if parsed else None,
                doc_type=parsed["doc_type"] if parsed else None,
                file_number=parsed["file_number"].strip() if parsed else None,
            )
        )
    return hits


def verification_token(data: bytes, where) -> str | None:
    """The ASP.NET anti-forgery token of a page's search form, if it has one."""
    for field in parse_html(data, where).iter("input"):
        if field.get("name") == "__RequestVerificationToken":
            return field.get("value")
    return None


def german_date(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%d.%m.%Y")


class BayernPortal:
    """Rulings of gesetze-bayern.de, filtered by court and period, newest first as listed."""

    def __init__(
        self,
        client: PoliteClient,
        court: str | None = None,
        jurisdiction: str | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
    ):
        self.client = client
        self.court = court
        self.jurisdiction = jurisdiction or (JURISDICTIONS.get(court.split()[0]) if court else None)
        if court and not self.jurisdiction:
            raise InputError(
                f"cannot tell the jurisdiction of court {court!r}; pass --jurisdiction "
                f"(one of: {', '.join(sorted(set(JURISDICTIONS.values())))})"
            )
        self.date_from = date_from
        self.date_to = date_to

    def _open_search(self) -> None:
        response = self.client.post(SEARCH_SESSION)
        if self.court:
            path = COURT_FILTER.format(court=quote(self.court, safe=""), jurisdiction=quote(self.jurisdiction, safe=""))
            response = self.client.get(path)
        if self.date_from or self.date_to:
            form = {
                "SearchFields.DatumVon": german_date(self.date_from) if self.date_from else "",
                "SearchFields.DatumBis": german_date(self.date_to) if self.date_to else "",
            }
            token = verification_token(response.content, response.url)
            if token:
                form["__RequestVerificationToken"] = token
            self.client.post(SEARCH_FORM, data=form)

    def hits(self) -> Iterator[Hit]:
        """Every hit of the search, page by page, until a page brings no new one."""
        self._open_search()
        seen: set[str] = set()
        for page in itertools.count(1):
            path = RESULT_PAGE.format(page=page)
            hits = [h for h in parse_hits(self.client.get(path).content, self.client.url(path)) if h.id not in seen]
            if not hits:
                return
            seen.update(h.id for h in hits)
            yield from hits

    def candidates(self) -> Iterator[Candidate]:
        for hit in self.hits():
            if court_matches(hit.court, self.court) and in_period(hit.date, self.date_from, self.date_to):
                yield Candidate(hit.id, partial(self.download, hit.id))

    def download(self, doc_id: str) -> Document:
        """The ruling ``doc_id`` from its ZIP."""
        path = RULING_ZIP.format(id=quote(doc_id))
        documents = parse_zip(self.client.get(path).content, self.client.url(path))
        document = listed_as(documents, doc_id)
        document.meta["url"] = self.client.url(RULING_PAGE.format(id=quote(document.id)))
        return document
