"""Court style where it went wrong: an initial of a ruling in decomposed Unicode (NFD) keeps its
diaeresis, and a company's whole name is reduced to initials before its legal form, in the form
the bundled courts use most ("die W L GmbH")."""

from __future__ import annotations

import re
import unicodedata

import pytest

from rulings_anon.document import Span
from rulings_anon.jsonl import read_jsonl
from rulings_anon.replacement.court_style import court_placeholder
from rulings_anon.replacement.operators import anonymize

RULING = "Der Kläger, Herr Öztürk, wohnt in Aichach. Die Beklagte ist die Ürün Logistik GmbH."
NFD = unicodedata.normalize("NFD", RULING)


@pytest.mark.parametrize("text, flagged, expected", [
    ("die Wimmer Logistik GmbH zahlt", "Wimmer", "die W L GmbH zahlt"),  # no descriptive word is left
    ("die Wimmer GmbH zahlt", "Wimmer", "die W GmbH zahlt"),
    ("mit der Wimmer & Söhne KG geschlossen", "Wimmer", "mit der W & S KG geschlossen"),
    ("die Meyer Bau GmbH & Co. KG zahlte", "Meyer Bau GmbH & Co. KG", "die M B GmbH & Co. KG zahlte"),
    ("bei der Firma Seidel e. K. beschäftigt", "Seidel", "bei der Firma S e. K. beschäftigt"),
    ("Herr Wimmer ist Geschäftsführer der Kemper GmbH", "Wimmer", "Herr W. ist Geschäftsführer der Kemper GmbH"),
    # a legal form after a hyphen, also one that alone stands for other things; "KAG" holds no "AG"
    ("die Buchberger-EWIV zahlte", "Buchberger-EWIV", "die B EWIV zahlte"),
    ("die Danninger-KAG verwaltete", "Danninger-KAG", "die D KAG verwaltete"),
    ("die Stockhammer-BV verwaltete", "Stockhammer-BV", "die S BV verwaltete"),
])
@pytest.mark.parametrize("kind", [None, "person", "company", "UN"])
def test_a_flagged_company_name_is_reduced_whole_before_its_legal_form(text, flagged, expected, kind):
    start = text.index(flagged)
    assert anonymize(text, [Span(start, start + len(flagged), flagged, kind)]) == expected


def test_an_initial_is_a_whole_letter_of_decomposed_text():
    start = NFD.index("O")
    end = start + len(unicodedata.normalize("NFD", "Öztürk"))
    assert court_placeholder(NFD, Span(start, end, type="person"))[2] == "Ö."
    company = NFD.index("U")
    end = company + len(unicodedata.normalize("NFD", "Ürün"))
    assert court_placeholder(NFD, Span(company, end, type="company"))[2] == "Ü L GmbH"


@pytest.fixture(scope="module")
def anonymizer():
    from rulings_anon import Anonymizer

    return Anonymizer()


def test_the_engine_keeps_the_diaeresis_of_an_nfd_ruling(anonymizer):
    result = anonymizer.anonymize(NFD)
    assert "Öztürk" in [unicodedata.normalize("NFC", s.text or NFD[s.start:s.end]) for s in result.spans]
    assert "Herr Ö.," in result.text  # not "Herr O.,": the initial is the whole letter


def test_score_anonymize_keeps_the_diaeresis_of_an_nfd_ruling(tmp_path, anonymizer):
    from rulings_anon.cli import main

    (tmp_path / "urteil.txt").write_text(NFD + "\n", encoding="utf-8")
    assert main(["score", str(tmp_path / "urteil.txt"), "--output", str(tmp_path / "spans.jsonl"),
                 "--anonymize", str(tmp_path / "anonym.jsonl")]) == 0
    (record,) = read_jsonl(tmp_path / "anonym.jsonl")
    assert "Herr Ö.," in record["text"] and "Öztürk" not in unicodedata.normalize("NFC", record["text"])



def test_a_name_s_mentions_take_the_placeholder_its_cue_gives_one_of_them():
    """Only the first mention has a cue ("Geschäftsführer"); the bare ones take its type, so one
    name gets one placeholder, and a word no mention gives a type stays "..."."""
    text = "Geschäftsführer Christen unterschrieb. Danach hat Christen nichts getan, Taucher auch nicht."
    spans = [Span(m.start(), m.end()) for word in ("Christen", "Taucher") for m in re.finditer(word, text)]
    assert anonymize(text, spans) == "Geschäftsführer C. unterschrieb. Danach hat C. nichts getan, ... auch nicht."
