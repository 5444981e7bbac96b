"""fetch --source bayern / rii against a local HTTP server that behaves like the portals.

The server (threaded, on 127.0.0.1) serves the recorded responses of tests/fixtures/portal and
rulings derived from them: a session-based search with cookies and an anti-forgery token, result
pages until an empty one, ZIPs holding ISO-8859-1 XML, a ZIP with junk appended, the federal
table of contents with absolute links to the real host. Faults are injected per path: 503, 429
with Retry-After, a dropped connection, a body cut short. Nothing reaches the internet.
"""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import threading
import time
import zipfile
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from rulings_anon.cli import main
from rulings_anon.fetcher.client import GaveUp, PoliteClient, Politeness, Unavailable
from rulings_anon.jsonl import read_jsonl

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "portal"
TOKEN = "test-token-CfDJ8MAB"
JUNK_ZIP_ID = "Y-300-Z-BECKRS-B-2022-N-15750"  # the real ZIP with trailing junk: ArbG Nürnberg
FAST = ["--delay", "0.01", "--backoff", "0.01", "--timeout", "5"]

# The Bavarian rulings the server holds besides the junk ZIP: id -> (court type, place, date, Az).
BAYERN_RULINGS = {
    "Y-300-Z-BECKRS-B-2019-N-10001": ("LG", "München I", "2019-01-15", "1 O 101/18"),
    "Y-300-Z-BECKRS-B-2019-N-10002": ("LG", "München I", "2019-02-15", "1 O 102/18"),
    "Y-300-Z-BECKRS-B-2019-N-10003": ("LG", "München I", "2019-03-15", "1 O 103/18"),
    "Y-300-Z-BECKRS-B-2019-N-10004": ("LG", "München I", "2019-04-15", "1 O 104/18"),
    "Y-300-Z-BECKRS-B-2019-N-10005": ("LG", "München I", "2019-05-15", "1 O 105/18"),
    "Y-300-Z-BECKRS-B-2019-N-10006": ("LG", "München II", "2019-03-20", "2 O 106/18"),
    "Y-300-Z-BECKRS-B-2019-N-10007": ("OLG", "München", "2019-03-25", "34 Wx 107/18"),
}


def bayern_zip(doc_id: str, court_type: str, place: str, iso: str, file_number: str) -> bytes:
    """A /Content/Zip response: the recorded XML as another ruling, ISO-8859-1 encoded."""
    xml = (FIXTURES / "bayern_ruling_Y-300-Z-BECKRS-B-2018-N-29496.xml").read_text("utf-8")
    xml = xml.replace("Y-300-Z-BECKRS-B-2018-N-29496", doc_id)
    xml = re.sub(r"<aktenzeichen ersatz=\"[^\"]*\">[^<]*", f'<aktenzeichen ersatz="X">{file_number}', xml)
    xml = re.sub(r"<entsch-datum ersatz=\"[^\"]*\">[^<]*", f'<entsch-datum ersatz="X">{iso}', xml)
    xml = xml.replace("<gertyp>OLG</gertyp>", f"<gertyp>{court_type}</gertyp>")
    xml = xml.replace("<gerort>München</gerort>", f"<gerort>{place}</gerort>")
    # An anonymized party, as in every published ruling of the thesis corpus.
    xml = xml.replace("Beschwerde des Beteiligten gegen", "Beschwerde des Beteiligten K. gegen", 1)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"bayportalrsp/{doc_id}.xml", xml.encode("iso-8859-1"))
        archive.writestr("META-INF/manifest.xml", '<?xml version="1.0" encoding="iso-8859-1"?>\n<manifest/>')
        archive.writestr("mimetype", "application/zip")
    return buffer.getvalue()


def rii_zip(doc_id: str, court: str, yyyymmdd: str, file_number: str) -> bytes:
    """A /jportal/docs/bsjrs/jb-<id>.zip response: the recorded rii XML as another ruling."""
    xml = (FIXTURES / "rii_ruling_KVRE427811801.xml").read_text("utf-8")
    xml = xml.replace("KVRE427811801", doc_id)
    xml = xml.replace("<gertyp>BVerfG</gertyp>", f"<gertyp>{court.split()[0]}</gertyp>")
    xml = xml.replace("<spruchkoerper>2. Senat</spruchkoerper>", f"<spruchkoerper>{court.split(' ', 1)[1]}</spruchkoerper>")
    xml = xml.replace("<entsch-datum>20180822</entsch-datum>", f"<entsch-datum>{yyyymmdd}</entsch-datum>")
    xml = re.sub(r"<aktenzeichen>[^<]*", f"<aktenzeichen>{file_number}", xml)
    xml = xml.replace("Die Antragsteller haben", "Die Antragsteller, Herr A. und Frau B., haben", 1)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"{doc_id}.xml", xml.encode("utf-8"))
    return buffer.getvalue()


def rii_items() -> list[dict]:
    text = (FIXTURES / "rii_feed.xml").read_text("utf-8")
    return [
        dict(zip(("court", "date", "file_number", "id"), m))
        for m in re.findall(
            r"<gericht>([^<]*)</gericht>\s*<entsch-datum>(\d+)</entsch-datum>\s*<aktenzeichen>([^<]*)"
            r"</aktenzeichen>\s*<link>[^<]*/jb-([A-Z0-9]+)\.zip</link>",
            text,
        )
    ]


class FakePortal:
    """The behaviour of gesetze-bayern.de and rechtsprechung-im-internet.de, and a request log."""

    def __init__(self):
        self.page_template = (FIXTURES / "bayern_search_page.html").read_text("utf-8")
        self.bayern_zips = {i: bayern_zip(i, *fields) for i, fields in BAYERN_RULINGS.items()}
        self.bayern_zips[JUNK_ZIP_ID] = (FIXTURES / "bayern_zip_with_trailing_junk.zip").read_bytes()
        self.bayern_hits = {i: (f"{t} {p}", d, a) for i, (t, p, d, a) in BAYERN_RULINGS.items()}
        self.bayern_hits[JUNK_ZIP_ID] = ("ArbG Nürnberg", "2022-02-23", "8 BV 40/21")
        self.rii_zips = {
            item["id"]: rii_zip(item["id"], item["court"], item["date"], item["file_number"]) for item in rii_items()
        }
        self.reset()

    def reset(self):
        self.log: list[dict] = []
        self.faults: dict[str, list[str]] = defaultdict(list)
        self.robots: str | None = "User-agent: *\nAllow: /\n"
        self.sessions: dict[str, dict] = {}
        self.page_size = 2
        self.zip_delay = 0.0

    # -- gesetze-bayern.de ------------------------------------------------------------------
    def result_page(self, hits: list[str]) -> bytes:
        items = "".join(
            f"""<li class="hitlistItem"><div style="display:table-cell;">
            <p class="hltitel"><a href="/Content/Document/{i}?hl=true"><b>{self.bayern_hits[i][0]}: Stichwort</b></a></p>
            <p class="hlSubTitel">
Beschluss vom {'.'.join(reversed(self.bayern_hits[i][1].split('-')))} &#x2013; {self.bayern_hits[i][2]}            </p>
            </div></li>"""
            for i in hits
        )
        page = re.sub(
            r'(<div id="hitlist" at-target="hitlist">\s*<ul>).*?(</ul>)',
            lambda m: m.group(1) + items + m.group(2), self.page_template, flags=re.S,
        )
        return page.replace("CfDJ8MAB_YQAs_BHmb6o0gj1SiFihjOEtRNXedAeMaijDSLw6oI1jqz_EPfFWrIvTGaRt24IBMyxe1s0grKQFIHXgR_iCXak0K6IoRRyokySq0kJm_9trbDRD-ADItRJgxHeyqN5QULy1F1m8TlJv0lFs90", TOKEN).encode("utf-8")

    def matching_hits(self, session: dict) -> list[str]:
        hits = [
            i for i, (court, iso, _) in self.bayern_hits.items()
            if (not session.get("court") or court == session["court"])
            and (not session.get("from") or iso >= session["from"])
            and (not session.get("to") or iso <= session["to"])
        ]
        return sorted(hits, key=lambda i: self.bayern_hits[i][1], reverse=True)

    def bayern(self, method: str, path: str, session: dict | None, form: dict):
        """(status, headers, body) of a gesetze-bayern.de request."""
        if method == "POST" and path == "/Search/Filter/DOKTYP/rspr":
            sid = f"s{len(self.sessions) + 1}"
            self.sessions[sid] = {}
            return 200, {"Set-Cookie": f"ASP.NET_SessionId={sid}; path=/; HttpOnly"}, self.result_page([])
        if session is None:  # a visitor without a search session gets an empty result list
            return 200, {}, self.result_page([])
        if m := re.fullmatch(r"/Search/Filter/LEVEL2RSPRTREENODE/([^/]+)/([^/]+)", path):
            session["court"] = unquote(m.group(1))
            return 200, {}, self.result_page([])
        if method == "POST" and path == "/Search":
            if form.get("__RequestVerificationToken") != TOKEN:
                return 400, {}, b"bad token"
            for key, field in (("from", "SearchFields.DatumVon"), ("to", "SearchFields.DatumBis")):
                if form.get(field):
                    d, mo, y = form[field].split(".")
                    session[key] = f"{y}-{mo}-{d}"
            return 200, {}, self.result_page([])
        if m := re.fullmatch(r"/Search/Page/(\d+)", path):
            start = (int(m.group(1)) - 1) * self.page_size
            return 200, {}, self.result_page(self.matching_hits(session)[start:start + self.page_size])
        return 404, {}, b"not found"

    def respond(self, handler: BaseHTTPRequestHandler, method: str):
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        path = urlsplit(handler.path).path
        cookie = re.search(r"ASP\.NET_SessionId=(\w+)", handler.headers.get("Cookie") or "")
        self.log.append({
            "time": time.monotonic(), "method": method, "path": path,
            "cookie": cookie.group(1) if cookie else None, "agent": handler.headers.get("User-Agent"),
        })
        fault = self.faults[path].pop(0) if self.faults.get(path) else None
        if fault == "drop":
            handler.close_connection = True
            return
        if fault in ("503", "429"):
            return self.send(handler, int(fault), {"Retry-After": "1"} if fault == "429" else {}, b"busy")
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8")).items()}
        if path == "/robots.txt":
            status, headers, content = (404, {}, b"") if self.robots is None else (200, {}, self.robots.encode())
        elif m := re.fullmatch(r"/Content/Zip/([\w-]+)", path):
            time.sleep(self.zip_delay)
            content = self.bayern_zips.get(m.group(1))
            status, headers = (200, {"Content-Type": "application/zip"}) if content else (404, {})
        elif path == "/rii-toc.xml":
            status, headers, content = 200, {"Content-Type": "text/xml"}, (FIXTURES / "rii_feed.xml").read_bytes()
        elif m := re.fullmatch(r"/jportal/docs/bsjrs/jb-(\w+)\.zip", path):
            content = self.rii_zips.get(m.group(1))
            status, headers = (200, {}) if content else (404, {})
        else:
            session = self.sessions.get(cookie.group(1)) if cookie else None
            status, headers, content = self.bayern(method, path, session, form)
        if fault == "cut":  # promise the whole body, send half of it, hang up
            handler.send_response(status)
            handler.send_header("Content-Length", str(len(content)))
            handler.end_headers()
            handler.wfile.write(content[: len(content) // 2])
            handler.close_connection = True
            return
        self.send(handler, status, headers, content or b"")

    @staticmethod
    def send(handler, status: int, headers: dict, content: bytes):
        handler.send_response(status)
        for key, value in headers.items():
            handler.send_header(key, value)
        handler.send_header("Content-Length", str(len(content)))
        handler.end_headers()
        handler.wfile.write(content)

    def requests(self, prefix: str = "") -> list[str]:
        return [f"{r['method']} {r['path']}" for r in self.log if r["path"].startswith(prefix)]


@pytest.fixture(scope="module")
def server():
    portal = FakePortal()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            portal.respond(self, "GET")

        def do_POST(self):
            portal.respond(self, "POST")

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    portal.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield portal
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def portal(server):
    server.reset()
    return server


def ids(path: Path, name: str = "rulings.jsonl") -> list[str]:
    return [r["id"] for r in read_jsonl(path / name)]


def fetch(portal, out: Path, *args: str) -> int:
    return main(["fetch", "--base-url", portal.url, "--out", str(out), *FAST, *args])


# -- gesetze-bayern.de --------------------------------------------------------------------------


def test_bayern_court_and_period_filter_in_a_search_session_paged_to_the_end(portal, tmp_path, capsys):
    code = fetch(portal, tmp_path / "c", "--source", "bayern", "--court", "LG München I",
                 "--from", "2019-02-01", "--to", "30.04.2019")
    assert code == 0
    # newest first as listed; LG München II and OLG München, and dates outside, left out
    assert ids(tmp_path / "c") == [
        "Y-300-Z-BECKRS-B-2019-N-10004", "Y-300-Z-BECKRS-B-2019-N-10003", "Y-300-Z-BECKRS-B-2019-N-10002",
    ]
    court_filter = "/Search/Filter/LEVEL2RSPRTREENODE/LG%20M%C3%BCnchen%20I/Ordentliche%20Gerichtsbarkeit"
    assert portal.requests() == [
        "GET /robots.txt",
        "POST /Search/Filter/DOKTYP/rspr",
        f"GET {court_filter}",
        "POST /Search",
        "GET /Search/Page/1",
        "GET /Content/Zip/Y-300-Z-BECKRS-B-2019-N-10004",
        "GET /Content/Zip/Y-300-Z-BECKRS-B-2019-N-10003",
        "GET /Search/Page/2",
        "GET /Content/Zip/Y-300-Z-BECKRS-B-2019-N-10002",
        "GET /Search/Page/3",  # empty: the end
    ]
    session_requests = [r for r in portal.log if r["path"] != "/robots.txt"][1:]
    assert {r["cookie"] for r in session_requests} == {"s1"}
    assert all(r["agent"].startswith("rulings-anon/") for r in portal.log)

    record = next(read_jsonl(tmp_path / "c" / "rulings.jsonl"))
    assert record["court"] == "LG München I"  # decoded from ISO-8859-1
    assert record["date"] == "2019-04-15"
    assert record["file_number"] == "1 O 104/18"
    assert record["doc_type"] == "Beschluss"
    assert record["url"] == f"{portal.url}/Content/Document/Y-300-Z-BECKRS-B-2019-N-10004"
    assert record["keywords"][4] == "überholter Rechtszustand"
    assert record["placeholders"] >= 1
    assert "Tenor\n\nI. Die Beschwerde des Beteiligten K. gegen" in record["text"]
    assert "\n\n1\nGegenstand des Verfahrens" in record["text"]
    assert "II. Der Geschäftswert des Beschwerdeverfahrens wird auf 5.000 € festgesetzt." in record["text"]
    metadata = list(read_jsonl(tmp_path / "c" / "metadata.jsonl"))
    assert [m["id"] for m in metadata] == ids(tmp_path / "c")
    assert all(m["kept"] and "text" not in m for m in metadata)
    assert "3 rulings in" in capsys.readouterr().err


def test_rate_limit_is_kept_between_all_requests(portal, tmp_path):
    assert fetch(portal, tmp_path / "c", "--source", "bayern", "--court", "LG München I", "--delay", "0.1") == 0
    starts = [r["time"] for r in portal.log]
    assert len(starts) == 12  # robots, session, court filter, 3 pages + the empty one, 5 ZIPs
    # the server logs arrival, not sending: on a loaded machine one request may arrive some
    # tens of ms late, which shortens the gap after it (and, the first one, the whole span by as
    # much); a request sent without waiting would arrive within a few ms of the one before it,
    # and a shorter delay (0.09 s) would bring the mean under the bound
    assert (starts[-1] - starts[0]) / (len(starts) - 1) >= 0.095
    assert min(b - a for a, b in zip(starts, starts[1:])) >= 0.05


def test_503_dropped_connection_cut_body_and_junk_after_zip_still_give_every_ruling(portal, tmp_path, capsys):
    portal.faults["/Content/Zip/Y-300-Z-BECKRS-B-2019-N-10005"] = ["503", "503"]
    portal.faults["/Content/Zip/Y-300-Z-BECKRS-B-2019-N-10003"] = ["drop"]
    portal.faults["/Search/Page/2"] = ["cut"]
    assert fetch(portal, tmp_path / "c", "--source", "bayern") == 0
    stored = ids(tmp_path / "c")
    assert sorted(stored) == sorted(BAYERN_RULINGS)
    assert portal.requests("/Content/Zip/Y-300-Z-BECKRS-B-2019-N-10005") == ["GET /Content/Zip/Y-300-Z-BECKRS-B-2019-N-10005"] * 3
    assert len(portal.requests("/Content/Zip/Y-300-Z-BECKRS-B-2019-N-10003")) == 2
    assert len(portal.requests("/Search/Page/2")) == 2
    # the real ZIP with junk appended was read; its ruling has no placeholders: metadata only
    metadata = {m["id"]: m for m in read_jsonl(tmp_path / "c" / "metadata.jsonl")}
    assert metadata[JUNK_ZIP_ID]["kept"] is False
    assert metadata[JUNK_ZIP_ID]["placeholders"] == 0
    assert metadata[JUNK_ZIP_ID]["court"] == "ArbG Nürnberg"
    assert metadata[JUNK_ZIP_ID]["file_number"] == "8 BV 40/21"
    err = capsys.readouterr().err
    assert "HTTP 503" in err and "retrying" in err
    assert f"dropped {JUNK_ZIP_ID}: no anonymization placeholders" in err
    assert "dropped 1 rulings without anonymization placeholders" in err


def test_keep_unanonymized_keeps_the_ruling_without_placeholders(portal, tmp_path):
    assert fetch(portal, tmp_path / "c", "--source", "bayern", "--keep-unanonymized") == 0
    assert len(ids(tmp_path / "c")) == len(BAYERN_RULINGS) + 1


def test_limit_counts_the_whole_corpus_and_a_second_run_downloads_only_the_rest(portal, tmp_path):
    assert fetch(portal, tmp_path / "c", "--source", "bayern", "--limit", "3") == 0
    first = ids(tmp_path / "c")
    assert len(first) == 3
    # the newest hit is the ruling without placeholders: fetched, dropped, not counted
    assert portal.requests("/Content/Zip/") == [f"GET /Content/Zip/{i}" for i in [JUNK_ZIP_ID, *first]]
    portal.reset()
    assert fetch(portal, tmp_path / "c", "--source", "bayern", "--limit", "5") == 0
    assert ids(tmp_path / "c")[:3] == first and len(ids(tmp_path / "c")) == 5
    # neither the stored rulings nor the dropped one are downloaded again
    assert portal.requests("/Content/Zip/") == [f"GET /Content/Zip/{i}" for i in ids(tmp_path / "c")[3:]]


def test_a_run_killed_mid_way_resumes_without_refetching_or_duplicates(portal, tmp_path):
    portal.zip_delay = 0.3
    out = tmp_path / "c"
    command = [sys.executable, "-m", "rulings_anon.fetcher", "fetch", "--source", "bayern", "--keep-unanonymized",
               "--base-url", portal.url, "--out", str(out), *FAST]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rulings = out / "rulings.jsonl"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (rulings.exists() and rulings.read_bytes().count(b"\n") >= 3):
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = [r["id"] for r in read_jsonl(rulings, allow_torn_tail=True)]
    assert 3 <= len(before) < len(BAYERN_RULINGS) + 1
    with open(rulings, "ab") as handle:  # a write torn by the kill
        handle.write(b'{"id": "Y-300-Z-BECKRS-B-2019-N-1')
    downloaded_before = set(portal.requests("/Content/Zip/"))
    portal.reset()
    assert fetch(portal, out, "--source", "bayern", "--keep-unanonymized") == 0
    after = ids(out)
    assert after[: len(before)] == before
    assert sorted(after) == sorted([*BAYERN_RULINGS, JUNK_ZIP_ID])
    assert sorted(ids(out, "metadata.jsonl")) == sorted(after)
    refetched = set(portal.requests("/Content/Zip/")) & downloaded_before
    assert refetched <= {f"GET /Content/Zip/{i}" for i in after[len(before):]}  # only the one in flight
    assert not refetched & {f"GET /Content/Zip/{i}" for i in before}


def test_robots_txt_disallowing_one_ruling_skips_it_and_says_so(portal, tmp_path, capsys):
    portal.robots = "User-agent: *\nDisallow: /Content/Zip/Y-300-Z-BECKRS-B-2019-N-10002\n"
    assert fetch(portal, tmp_path / "c", "--source", "bayern", "--court", "LG München I") == 0
    assert "Y-300-Z-BECKRS-B-2019-N-10002" not in ids(tmp_path / "c")
    assert len(ids(tmp_path / "c")) == 4
    assert "GET /Content/Zip/Y-300-Z-BECKRS-B-2019-N-10002" not in portal.requests()
    err = capsys.readouterr().err
    assert "robots.txt of the site disallows this URL" in err
    assert "1 rulings could not be fetched; run again to retry them" in err


def test_robots_txt_disallowing_everything_stops_with_one_line(portal, tmp_path, capsys):
    portal.robots = "User-agent: rulings-anon\nDisallow: /\n"
    assert fetch(portal, tmp_path / "c", "--source", "bayern") == 2
    assert portal.requests() == ["GET /robots.txt"]
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"rulings-anon fetch: error: {portal.url}/Search/Filter/DOKTYP/rspr: robots.txt of the site disallows this URL"
    ]


# -- rechtsprechung-im-internet.de ---------------------------------------------------------------


def test_rii_table_of_contents_filtered_by_court_and_period(portal, tmp_path):
    code = fetch(portal, tmp_path / "c", "--source", "rii", "--court", "BGH", "--from", "2010-01-14", "--to", "2010-01-14")
    assert code == 0
    expected = [i["id"] for i in rii_items() if i["court"].startswith("BGH ") and i["date"] == "20100114"]
    assert len(expected) == 6
    assert ids(tmp_path / "c") == expected
    # links name www.rechtsprechung-im-internet.de; the ZIPs came from --base-url
    assert portal.requests("/jportal/") == [f"GET /jportal/docs/bsjrs/jb-{i}.zip" for i in expected]
    record = next(read_jsonl(tmp_path / "c" / "rulings.jsonl"))
    assert record["court"] == "BGH" and record["chamber"] == "9. Zivilsenat"
    assert record["date"] == "2010-01-14"
    assert record["modified"] == "2025-06-23T21:55:54.378Z"
    assert record["placeholders"] >= 2
    assert "\n\n1\n1. Die Antragsteller, Herr A. und Frau B., haben" in record["text"]


def test_rii_chamber_as_court(portal, tmp_path):
    assert fetch(portal, tmp_path / "c", "--source", "rii", "--court", "BGH 9. Zivilsenat") == 0
    assert ids(tmp_path / "c") == [i["id"] for i in rii_items() if i["court"] == "BGH 9. Zivilsenat"]


# -- the client on its own -----------------------------------------------------------------------


def client(portal, **policy) -> PoliteClient:
    return PoliteClient(portal.url, Politeness(**{"delay": 0.0, "backoff": 0.01, "timeout": 5, **policy}), log=lambda m: None)


def test_retry_after_of_a_429_is_waited_for(portal):
    portal.faults["/rii-toc.xml"] = ["429"]
    response = client(portal).get("/rii-toc.xml")
    assert response.status_code == 200
    first, second = [r["time"] for r in portal.log if r["path"] == "/rii-toc.xml"]
    assert second - first >= 0.95


def test_a_server_failing_every_retry_ends_in_gave_up(portal):
    portal.faults["/rii-toc.xml"] = ["503"] * 3
    with pytest.raises(GaveUp, match=r"/rii-toc.xml: no answer after 3 attempts, last: HTTP 503"):
        client(portal, retries=2).get("/rii-toc.xml")


def test_backoff_doubles(portal):
    portal.faults["/rii-toc.xml"] = ["drop", "drop", "drop"]
    client(portal, backoff=0.1).get("/rii-toc.xml")
    times = [r["time"] for r in portal.log if r["path"] == "/rii-toc.xml"]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(gaps) == 3
    assert gaps[0] >= 0.1 and gaps[1] >= 0.2 and gaps[2] >= 0.4


def test_a_missing_page_is_unavailable_without_retries(portal):
    with pytest.raises(Unavailable, match="HTTP 404"):
        client(portal).get("/Content/Zip/NO-SUCH-ID")
    assert portal.requests("/Content/Zip/") == ["GET /Content/Zip/NO-SUCH-ID"]


def test_missing_robots_txt_allows_all_and_crawl_delay_raises_the_interval(portal):
    portal.robots = None
    assert client(portal).robots().can_fetch("rulings-anon", f"{portal.url}/Search/Page/1")
    portal.reset()
    portal.robots = "User-agent: *\nCrawl-delay: 1\n"
    client(portal).get("/rii-toc.xml")
    robots, toc = [r["time"] for r in portal.log]
    # The client counts the delay from the start of its robots request, the server logs arrivals:
    # under load the robots request arrives a little late. Without the crawl delay the gap is ~0.
    assert toc - robots >= 0.9


def test_bad_base_url_is_one_line_error(tmp_path, capsys):
    assert main(["fetch", "--source", "rii", "--base-url", "ftp://example", "--out", str(tmp_path / "c")]) == 2
    assert "--base-url must be an http(s) URL" in capsys.readouterr().err


def test_metadata_lines_are_json_objects_keyed_by_id(portal, tmp_path):
    assert fetch(portal, tmp_path / "c", "--source", "rii", "--court", "BVerwG") == 0
    lines = (tmp_path / "c" / "metadata.jsonl").read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["id"] for r in records] == [i["id"] for i in rii_items() if i["court"].startswith("BVerwG")]
    assert all(r["court"] == "BVerwG" and r["kept"] for r in records)
