"""Operators per type as a court's policy file says: numbered tags per entity, redaction, keep,
allow and deny lists; the shipped default policy loads."""

from __future__ import annotations

import json

import pytest

from rulings_anon.document import Span
from rulings_anon.engine import apply_policy
from rulings_anon.errors import InputError
from rulings_anon.replacement.operators import REDACTED, Keep, NumberedTag, Redact, replace
from rulings_anon.replacement.policy import load_policy

TEXT = ("Der Kläger Thomas Wimmer, Hauptstraße 4, verklagt Frau Erika Kemper. Herrn Wimmers Antrag vom "
        "12.03.2019 ist unbegründet. Herr Wimmer trägt die Kosten. Richter Jonas Brandl; Zeuge Karl Sommer.")


def spans(*pieces: tuple[str, str, int]) -> list[Span]:
    found = []
    for piece, kind, nth in pieces:
        start = -1
        for _ in range(nth):
            start = TEXT.index(piece, start + 1)
        found.append(Span(start, start + len(piece), piece, type=kind))
    return found


NAMES = spans(("Thomas Wimmer", "person", 1), ("Hauptstraße 4", "street", 1), ("Erika Kemper", "person", 1),
              ("Wimmers", "person", 1), ("12.03.2019", "date", 1), ("Wimmer", "person", 3),
              ("Jonas Brandl", "person", 1))


def test_numbered_tags_are_one_per_entity_across_mentions_and_genitive():
    text = replace(TEXT, NAMES, NumberedTag()).text
    assert text.startswith("Der Kläger [Person 1], [Straße 1], verklagt Frau [Person 2]. Herrn [Person 1] Antrag "
                           "vom [Datum 1] ist unbegründet. Herr [Person 1] trägt")
    assert "Richter [Person 3];" in text


def test_redact_and_keep():
    assert replace(TEXT, NAMES[:1], Redact()).text.startswith(f"Der Kläger {REDACTED}, Hauptstraße")
    assert replace(TEXT, NAMES, Keep()).text == TEXT


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_policy_file_chooses_operators_per_type_with_allow_and_deny_lists(tmp_path, suffix):
    policy = {"operators": {"person": "tag", "street": "redact", "date": "keep"},
              "allow": ["Jonas Brandl"], "deny": ["Karl Sommer"]}
    path = tmp_path / f"gericht{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps(policy), encoding="utf-8")
    else:
        path.write_text('allow = ["Jonas Brandl"]\ndeny = ["Karl Sommer"]\n[operators]\nperson = "tag"\n'
                        'street = "redact"\ndate = "keep"\n', encoding="utf-8")
    text = apply_policy(TEXT, NAMES, path)
    assert text == ("Der Kläger [Person 1], ███, verklagt Frau [Person 2]. Herrn [Person 1] Antrag vom 12.03.2019 "
                    "ist unbegründet. Herr [Person 1] trägt die Kosten. Richter Jonas Brandl; Zeuge [Person 3].")


def test_the_shipped_policy_is_court_style():
    text = apply_policy(TEXT, NAMES)
    assert "Der Kläger T. W., " in text and "Jonas Brandl" not in text and "Karl Sommer" in text
    assert load_policy().operators["account"] == "placeholder"


@pytest.mark.parametrize(("content", "message"), [
    ('[operators]\nperson = "schwärzen"\n', "operator 'schwärzen' for 'person' is unknown"),
    ('allow = "Brandl"\n', "'allow' is a list of names"),
    ('farbe = 1\n', "unknown policy key 'farbe'"),
    ('[operators\n', "not a policy file"),
])
def test_a_wrong_policy_is_one_line_naming_the_file(tmp_path, content, message):
    path = tmp_path / "gericht.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        load_policy(path)
    assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)
