"""The review server over real HTTP (its own process on 127.0.0.1): the suggestions are score's
spans, ruling text is escaped, bad input is listed, state changes need the session's CSRF token
and the server's own origin, a stale write is a 409, a token guards any other address, and the
export is a gold set that evaluate reads."""

from __future__ import annotations

import gzip
import json
import urllib.request

import pytest
from command_line import ROOT, assert_one_line_error, cli
from review_server import Client, ReviewServer, batch_folder

EVIL = ("Der Kläger <script>alert(1)</script> Thomas Wimmer wohnt in Aichach.\r\nHerr Wimmer klagt."
        "\x1b[31m rot\n")


@pytest.fixture(scope="module")
def review(tmp_path_factory):
    folder, batch = batch_folder(tmp_path_factory, "review")
    with gzip.open(ROOT / "rulings_anon/data/ler/bsg.jsonl.gz", "rt", encoding="utf-8") as f:
        rulings = [json.loads(next(f)) for _ in range(2)]
    (batch / "bsg.jsonl").write_text("".join(json.dumps({"id": r["id"], "text": r["text"]}, ensure_ascii=False) + "\n"
                                             for r in rulings), encoding="utf-8")
    (batch / "evil.txt").write_bytes(EVIL.encode())
    (batch / "broken.jsonl").write_text('{"id": "x", "text": 5}\n')
    with ReviewServer(batch, "--state", folder / "state", "--reviewer", "Huber") as server:
        yield folder, batch, server


def test_the_page_shows_exactly_the_spans_of_score(review):
    folder, batch, server = review
    done = cli("score", batch / "bsg.jsonl", batch / "evil.txt", "--output", folder / "spans.jsonl")
    assert done.returncode == 0, done.stderr
    scored = {r["id"]: [(s["start"], s["end"]) for s in r["spans"]]
              for r in map(json.loads, (folder / "spans.jsonl").read_text().splitlines())}
    client = Client(server.base)
    shown = {i: [(s["start"], s["end"]) for s in client.state(i)["spans"] if s["origin"] == "suggested"]
             for i in scored}
    assert shown == scored
    assert sum(map(len, scored.values())) >= 3


def test_ruling_text_is_escaped_and_an_unreadable_ruling_is_listed_with_its_error(review):
    _, _, server = review
    client = Client(server.base)
    status, page = client.get("/")
    assert status == 200
    assert "broken.jsonl" in page and "no &#39;text&#39; string" in page
    assert "0 of 3 rulings done" in page and "1 not readable" in page
    status, page = client.get("/ruling?id=evil")
    assert status == 200
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    status, page = client.get("/preview?id=evil&operator=tag")
    assert status == 200 and "&lt;person&gt;" in page and "<script>alert" not in page
    assert client.get("/ruling?id=nothing")[0] == 404


def test_state_changes_need_the_csrf_token_and_the_servers_own_origin(review):
    _, _, server = review
    client = Client(server.base)
    client.get("/ruling?id=evil")
    span = client.state("evil")["spans"][0]
    body = {"ruling": "evil", "span": span["id"], "version": span["version"], "decision": "accept"}
    for headers in ({"X-CSRF-Token": None}, {"X-CSRF-Token": "0" * 64}, {"Origin": "http://evil.example"},
                    {"Origin": None}, {"Origin": None, "Referer": "http://evil.example/x"}):
        status, text = client.post("/api/decide", body, headers)
        assert status == 403, (headers, text)
    stranger = Client(server.base)  # a session of its own: the first one's token is not its
    stranger.get("/")
    stranger.csrf = client.csrf
    assert stranger.post("/api/decide", body)[0] == 403
    assert client.request("/", headers={"Host": "attacker.example"})[0] == 403
    assert client.state("evil")["spans"][0]["state"] == span["state"]  # nothing changed
    status, _ = client.post("/api/decide", body, {"Origin": None, "Referer": server.base + "/ruling?id=evil"})
    assert status == 200


def test_a_stale_write_is_a_409_with_a_clear_message(review):
    _, _, server = review
    huber, other_tab = Client(server.base), Client(server.base)
    huber.get("/")
    other_tab.get("/")
    span = huber.state("evil")["spans"][1]
    body = {"ruling": "evil", "span": span["id"], "version": span["version"]}
    assert huber.post("/api/decide", {**body, "decision": "reject"})[0] == 200
    status, text = other_tab.post("/api/decide", {**body, "decision": "accept"})
    assert status == 409
    assert "changed by Huber" in json.loads(text)["error"] and "reload" in json.loads(text)["error"]
    assert huber.state("evil")["spans"][1]["state"] == "rejected"
    assert huber.post("/api/decide", {**body, "version": "1", "decision": "accept"})[0] == 400
    assert huber.post("/api/decide", {**body, "decision": "maybe"})[0] == 400
    status, text = huber.post("/api/decide", {"ruling": "evil", "decision": "accept"})
    assert status == 400 and "lacks 'span'" in text


def test_the_export_is_a_gold_set_evaluate_reads_and_holds_the_audit_trail(review):
    folder, _, server = review
    client = Client(server.base)
    client.get("/export")
    state = client.state("evil")
    # the suggestion is the name whole ("Thomas Wimmer"): the reviewer rejects it and selects it anew
    name = [s for s in state["spans"] if s["start"] <= 37 < s["end"]]
    assert [(s["start"], s["end"], s["origin"]) for s in name] == [(37, 50, "suggested")]
    status, text = client.post("/api/add", {"ruling": "evil", "version": state["version"], "start": 37, "end": 50,
                                            "type": "person"})
    assert status == 400 and "overlaps a span that is not rejected" in text
    status, text = client.post("/api/decide", {"ruling": "evil", "span": name[0]["id"],
                                               "version": name[0]["version"], "decision": "reject"})
    assert status == 200, text
    status, text = client.post("/api/add", {"ruling": "evil", "version": json.loads(text)["version"], "start": 37,
                                            "end": 50, "type": "person"})
    assert status == 200, text
    assert client.post("/api/done", {"ruling": "evil", "version": json.loads(text)["version"]})[0] == 200
    status, text = client.post("/api/export", {"operator": "tag"})
    assert status == 200, text
    export = folder / "state" / "batch.review-export"
    assert json.loads(text)["folder"] == str(export)
    gold = [json.loads(line) for line in (export / "gold.jsonl").read_text().splitlines()]
    assert [g["id"] for g in gold] == ["evil"] and gold[0]["text"] == EVIL
    # the added span alone, not the rejected suggestion beneath it
    assert [s for s in gold[0]["spans"] if s["start"] < 50 and s["end"] > 37] == [
        {"start": 37, "end": 50, "type": "person"}]
    anonymized = {r["id"]: r["text"] for r in map(json.loads, (export / "anonymized.jsonl").read_text().splitlines())}
    assert anonymized["evil"].startswith("Der Kläger <script>alert(1)</script> <person> wohnt")
    log = [json.loads(line) for line in (export / "decisions.jsonl").read_text().splitlines()]
    assert {d["reviewer"] for d in log} == {"Huber"} and {"reject", "add", "done"} <= {d["action"] for d in log}
    done = cli("evaluate", "--test", export / "gold.jsonl", "--method", "none", "--features", "--json")
    assert done.returncode == 0, done.stderr


def test_another_address_needs_a_token_and_a_resumed_review_keeps_its_options(review):
    folder, _, _ = review
    db = folder / "state" / "batch.review.sqlite"
    assert_one_line_error(cli("review", db, "--host", "127.0.0.2"), "--token")
    assert_one_line_error(cli("review", db, "--recall-first"), "started with threshold")
    token = "s3cret-token-for-tests"
    with ReviewServer(db, "--host", "127.0.0.2", "--token", token) as server:
        assert server.address.endswith(f"?token={token}")
        said = server.process.stderr.readline() + server.process.stderr.readline()  # resuming, then the warning
        assert "review: warning: listening on 127.0.0.2" in said
        client = Client(server.base)
        assert client.get("/")[0] == 403
        assert client.get(f"/?token={token}")[0] == 200
        assert client.get("/ruling?id=evil")[0] == 200  # the token kept in a cookie
        assert Client(server.base).get("/?token=wrong-token-wrong")[0] == 403
        assert urllib.request.quote(token) == token
