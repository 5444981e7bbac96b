"""``review --policy FILE``: the court's policy decides the suggestions (the details counted alone)
and the export's ``policy`` output (the operator of each type) exactly as ``score --policy`` does;
the review file keeps the policy, a resumed review with another one is refused in one line; the
placeholder, pseudonym and tag outputs replace the suggestions as ``score --anonymize`` and
``score --pseudonymize`` do."""

from __future__ import annotations

import json

import pytest
from command_line import assert_one_line_error, cli
from review_server import Client, ReviewServer, batch_folder

KLAGE = ("Der Kläger Thomas Wimmer, geb. am 14.03.1978, wohnt in 86150 Augsburg an der B 12. "
         "Er zahlte auf das Konto IBAN DE89 3704 0044 0532 0130 00.\n")
URTEIL = "Die Beklagte Erika Kemper, geb. am 02.05.1960, wohnt in 86551 Aichach an der B 300. IBAN DE89 3704 0044 0532 0130 00."
# The shipped policy with birth dates no longer counted alone and road numbers counted alone;
# persons as numbered tags, IBANs (a recognizer's own type) redacted, every other type court style.
POLICY = """\
[operators]
default = "placeholder"
person = "tag"
IBAN = "redact"

[alone]
birth_date = false
postcode = true
land_parcel = true
road_number = true
house_number = true
file_number = true
"""


@pytest.fixture(scope="module")
def policy_review(tmp_path_factory):
    import docx

    folder, batch = batch_folder(tmp_path_factory, "policy-review", {"klage.txt": KLAGE})
    document = docx.Document()
    document.add_paragraph(URTEIL)
    document.save(batch / "urteil.docx")
    (folder / "gericht.toml").write_text(POLICY, encoding="utf-8")
    with ReviewServer(batch, "--state", folder / "state", "--policy", folder / "gericht.toml") as server:
        yield folder, batch, server


def _suggested(client: Client, ruling: str, text: str) -> list[tuple[int, int, str]]:
    return [(s["start"], s["end"], text[s["start"]:s["end"]]) for s in client.state(ruling)["spans"]
            if s["origin"] == "suggested"]


def test_the_policy_switches_details_in_the_suggestions_exactly(policy_review, tmp_path):
    from rulings_anon.review.suggestions import create_review

    _, batch, server = policy_review
    client = Client(server.base)
    client.get("/")
    # road numbers on: "12" of "B 12"; birth dates off: no "14.03.1978"
    assert _suggested(client, "klage", KLAGE) == [
        (11, 24, "Thomas Wimmer"), (55, 69, "86150 Augsburg"), (79, 81, "12"),
        (112, 139, "DE89 3704 0044 0532 0130 00")]
    # the shipped policy: the birth date, no road number
    shipped = create_review(tmp_path / "shipped.sqlite", batch / "klage.txt", progress=False)
    assert [(s.start, s.end, KLAGE[s.start:s.end]) for s in shipped.spans("klage")] == [
        (11, 24, "Thomas Wimmer"), (34, 44, "14.03.1978"), (55, 69, "86150 Augsburg"),
        (112, 139, "DE89 3704 0044 0532 0130 00")]
    assert shipped.meta("operator") == "placeholder" and json.loads(shipped.meta("policy"))["shipped"] is True
    shipped.close()


def test_the_export_follows_the_policys_operators_as_score_does(policy_review):
    import docx

    folder, batch, server = policy_review
    client = Client(server.base)
    status, page = client.get("/export")
    assert status == 200 and '<option value="policy" selected>' in page
    status, page = client.get("/preview?id=klage")
    assert status == 200 and "Der Kläger [Person 1], geb. am 14.03.1978" in page
    status, answer = client.post("/api/export", {"operator": "policy"})
    assert status == 200, answer
    export = folder / "state" / "batch.review-export"
    anonymized = {r["id"]: r["text"] for r in map(json.loads, (export / "anonymized.jsonl").read_text().splitlines())}
    assert anonymized["klage"] == ("Der Kläger [Person 1], geb. am 14.03.1978, wohnt in ... an der B .... "
                                   "Er zahlte auf das Konto IBAN ███.\n")
    done = cli("score", batch, "--output", folder / "spans.jsonl", "--anonymize", folder / "score-out",
               "--policy", folder / "gericht.toml")
    assert done.returncode == 0, done.stderr
    for record in map(json.loads, (folder / "spans.jsonl").read_text().splitlines()):
        assert [(s["start"], s["end"]) for s in client.state(record["id"])["spans"]] == [
            (s["start"], s["end"]) for s in record["spans"]]
    index = {r["id"]: r["file"] for r in map(json.loads, (folder / "score-out" / "index.jsonl").read_text().splitlines())}
    assert anonymized["klage"] == (folder / "score-out" / index["klage"]).read_text(encoding="utf-8")
    reviewed = [p.text for p in docx.Document(export / "documents" / "urteil.docx").paragraphs]
    scored = [p.text for p in docx.Document(folder / "score-out" / index["urteil"]).paragraphs]
    assert reviewed == scored == [anonymized["urteil"]]
    assert anonymized["urteil"] == "Die Beklagte [Person 1], geb. am 02.05.1960, wohnt in ... an der B .... IBAN ███."


def test_a_resumed_review_keeps_its_policy_and_refuses_another(policy_review):
    folder, _, _ = policy_review
    db = folder / "state" / "batch.review.sqlite"
    other = folder / "other.toml"
    other.write_text(POLICY.replace('IBAN = "redact"', 'IBAN = "keep"'), encoding="utf-8")
    assert_one_line_error(cli("review", db, "--policy", other), str(other), "started with the policy",
                          "gericht.toml")
    assert_one_line_error(cli("review", db, "--policy", folder / "missing.toml"), "missing.toml",
                          "cannot read the policy")
    broken = folder / "broken.toml"
    broken.write_text("[operators\n", encoding="utf-8")
    assert_one_line_error(cli("review", db, "--policy", broken), "broken.toml", "not a policy file")
    # the review file holds the policy itself: moved away, the export still follows it
    (folder / "gericht.toml").rename(folder / "moved.toml")
    try:
        done = cli("review", db, "--export", folder / "again", "--quiet")
        assert done.returncode == 0, done.stderr
        record = json.loads((folder / "again" / "anonymized.jsonl").read_text().splitlines()[0])
        assert record["text"].endswith("IBAN ███.\n")
        assert json.loads((folder / "again" / "summary.json").read_text())["operator"] == "policy"
        done = cli("review", db, "--policy", folder / "moved.toml", "--export", folder / "again", "--quiet",
                   "--operator", "tag")
        assert done.returncode == 0, done.stderr
    finally:
        (folder / "moved.toml").rename(folder / "gericht.toml")


# A ruling with spans whose engine type (BIRTH_DATE, ALIAS, IBAN, EMAIL) is not the type the review
# shows (date, person, account, email/url), and a company named before its legal form.
ENGINE_TYPES = ("Der Kläger Thomas Wimmer, geb. am 14.03.1978, trat im Forum unter dem Benutzernamen "
                "„schattenwolf88“ auf. Er ist Geschäftsführer der Meyer Bau GmbH und zahlte auf das Konto "
                "IBAN DE89 3704 0044 0532 0130 00. Herr Wimmer schrieb an kalle@example.de.\n")


@pytest.fixture(scope="module")
def shipped_review(tmp_path_factory):
    folder, batch = batch_folder(tmp_path_factory, "shipped-review", {"klage.txt": ENGINE_TYPES})
    with ReviewServer(batch, "--state", folder / "state") as server:
        yield folder, batch, server


def test_every_export_output_replaces_the_suggestions_as_score_does(shipped_review):
    """Accepted as suggested, the placeholder and pseudonym outputs are ``score --anonymize`` and
    ``score --pseudonymize`` of the same spans, and the tag output their category tags."""
    from rulings_anon.document import Span
    from rulings_anon.engine import apply_operator

    folder, batch, server = shipped_review
    client = Client(server.base)
    assert client.get("/ruling?id=klage")[0] == 200
    for span in client.state("klage")["spans"]:
        status, answer = client.post("/api/decide", {"ruling": "klage", "span": span["id"],
                                                     "version": span["version"], "decision": "accept"})
        assert status == 200, answer
    exported = {}
    for operator in ("placeholder", "pseudonym", "tag"):
        status, answer = client.post("/api/export", {"operator": operator})
        assert status == 200, answer
        export = folder / "state" / "batch.review-export" / "anonymized.jsonl"
        exported[operator] = json.loads(export.read_text(encoding="utf-8").splitlines()[0])["text"]
    done = cli("score", batch, "--output", folder / "spans.jsonl", "--anonymize", folder / "anonymized.jsonl",
               "--pseudonymize", folder / "pseudonymized.jsonl")
    assert done.returncode == 0, done.stderr
    scored = json.loads((folder / "spans.jsonl").read_text(encoding="utf-8").splitlines()[0])["spans"]
    shown = {(s["start"], s["end"]): s["type"] for s in client.state("klage")["spans"]}
    engine = {(s["start"], s["end"]): s.get("type") for s in scored}
    assert set(shown) == set(engine)
    assert {ENGINE_TYPES[a:b]: (engine[a, b], shown[a, b]) for a, b in engine if engine[a, b] != shown[a, b]} == {
        "14.03.1978": ("BIRTH_DATE", "date"), "schattenwolf88": ("ALIAS", "person"),
        "DE89 3704 0044 0532 0130 00": ("IBAN", "account"), "kalle@example.de": ("EMAIL", "email/url"),
        "Meyer": (None, "person")}
    anonymized = json.loads((folder / "anonymized.jsonl").read_text(encoding="utf-8"))["text"]
    pseudonymized = json.loads((folder / "pseudonymized.jsonl").read_text(encoding="utf-8"))["text"]
    assert exported["placeholder"] == anonymized == (
        "Der Kläger T. W., geb. am ..., trat im Forum unter dem Benutzernamen „s.“ auf. Er ist Geschäftsführer "
        "der M B GmbH und zahlte auf das Konto IBAN .... Herr W. schrieb an ....\n")
    assert exported["pseudonym"] == pseudonymized
    spans = [Span(s["start"], s["end"], type=s.get("type")) for s in scored]
    assert exported["tag"] == apply_operator(ENGINE_TYPES, spans, "tag")


def test_the_single_operator_outputs_replace_an_engine_type_as_the_type_shown_for_it():
    """Every recognizer type (BIRTH_DATE, ALIAS, IBAN, ...) and the type the review shows for it
    give the same placeholder, pseudonym and tag: these outputs need no engine type, the policy output does."""
    from rulings_anon.document import Span
    from rulings_anon.engine import apply_operator
    from rulings_anon.entity_types import RECOGNIZER_TYPES
    from rulings_anon.replacement.court_style import surrogate_type

    text = "Er schrieb als „Kalle Meyer“ an die Kasse, geb. am 14.03.1978."
    for value in ("Kalle Meyer", "14.03.1978"):
        start, end = text.index(value), text.index(value) + len(value)
        for kind in RECOGNIZER_TYPES:
            for operator in ("placeholder", "pseudonym", "tag"):
                assert apply_operator(text, [Span(start, end, type=kind)], operator, "klage") == apply_operator(
                    text, [Span(start, end, type=surrogate_type(kind))], operator, "klage"), (value, kind, operator)
