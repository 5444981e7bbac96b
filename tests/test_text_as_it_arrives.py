"""Text as it arrives: every variant of a ruling gives the clean text's sensitive elements at its own offsets.

Fictitious rulings (names, towns and streets made up for these tests) are scored clean and as
a Mac or PDF tool, a word processor or a portal may hand them over: decomposed Unicode, invisible
marks and NULs inside and beside a surname, CRLF line ends, the surname in capitals, letter-spaced
or hyphenated across a line break. The spans of a variant must be the clean spans, each covering
the variant's own characters (its ``text`` is the variant's slice, and normalized it reads as the
clean span).
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest

from rulings_anon.engine import Analyzer, _known_word, name_cues
from rulings_anon.name_ids import names_in_id, safe_id
from rulings_anon.normalization import normalize
from tests.command_line import cli

RULINGS = {
    "arbeit": (
        "Der Kläger Thomas Wimmer wohnt in der Lindenstraße 14 in Aichach. Er war seit 2011 bei der "
        "Beklagten als Lagerist beschäftigt.\n\n"
        "Mit Schreiben vom 3. Mai 2019 kündigte die Beklagte das Arbeitsverhältnis. Herr Wimmer erhob "
        "daraufhin Klage beim Arbeitsgericht. Die Zeugin Petra Öztürk bestätigte, dass Herr Wimmer "
        "am Vortag krank gemeldet war."
    ),
    "sozial": (
        "Die Klägerin Sabine Thalhammer begehrt höheres Elterngeld. Sie lebt mit ihrem Ehemann Jürgen "
        "Thalhammer in Schrobenhausen.\n\n"
        "Der behandelnde Arzt Dr. Kemper aus Pfaffenhofen stellte eine Arbeitsunfähigkeit fest. Frau "
        "Thalhammer legte dagegen Widerspruch ein, den die Beklagte zurückwies."
    ),
    "miete": (
        "Die Beklagte Martina Brüggemann mietete im Jahr 2015 eine Wohnung in der Gartenstraße 7 in "
        "Neuburg an der Donau.\n\n"
        "Der Vermieter Herbert Hölzl verlangt die Räumung. Frau Brüggemann trägt vor, Herr Hölzl habe "
        "die Heizung nicht repariert."
    ),
}
SURNAMES = {"arbeit": "Wimmer", "sozial": "Thalhammer", "miete": "Brüggemann"}
MARKS = {"zwsp": "\u200b", "lrm": "\u200e", "rlm": "\u200f", "bom": "\ufeff", "wj": "\u2060", "rlo": "\u202e",
         "nul": "\x00", "csi": "\x9b"}  # CSI: a C1 control, as text decoded with the wrong code page has them


def _each_surname(text: str, name: str, change) -> str:
    return re.sub(rf"(?<!\w){name}(?!\w)", lambda m: change(m.group()), text)


def variants_of(key: str) -> dict[str, str]:
    """Variant name -> the ruling written that way."""
    text, name = RULINGS[key], SURNAMES[key]
    variants = {
        "nfd": unicodedata.normalize("NFD", text),
        "crlf": text.replace("\n", "\r\n"),
        "capitals": _each_surname(text, name, str.upper),
        "letter-spaced": _each_surname(text, name, " ".join),
        "hyphenated": text.replace(f" {name} ", f" {name[:3]}-\n{name[3:]} ", 1),
    }
    for mark_name, mark in MARKS.items():
        variants[f"{mark_name}-inside"] = _each_surname(text, name, lambda w, m=mark: w[:3] + m + w[3:])
        variants[f"{mark_name}-beside"] = _each_surname(text, name, lambda w, m=mark: m + w + m)
    return variants


@pytest.fixture(scope="module")
def analyzer():
    return Analyzer()


@pytest.fixture(scope="module")
def clean_spans(analyzer):
    return {key: analyzer.analyze(text) for key, text in RULINGS.items()}


def _assert_same_elements(variant: str, spans, clean):
    assert len(spans) == len(clean), [s.text for s in spans]
    for span, expected in zip(spans, clean, strict=True):
        assert span.text == variant[span.start:span.end]
        assert normalize(span.text, _known_word, name_cues()).text == expected.text
        # whole characters: no span starts on or ends before a combining mark
        assert not unicodedata.combining(variant[span.start:span.start + 1] or "a")
        assert not unicodedata.combining(variant[span.end:span.end + 1] or "a")


@pytest.mark.parametrize("key", sorted(RULINGS))
def test_every_variant_gives_the_clean_elements_at_its_own_offsets(analyzer, clean_spans, key):
    assert {s.text for s in clean_spans[key]} >= {SURNAMES[key]}
    for name, variant in variants_of(key).items():
        assert variant != RULINGS[key], name
        _assert_same_elements(variant, analyzer.analyze(variant), clean_spans[key])


def test_clean_text_is_left_as_it_is():
    for text in RULINGS.values():
        assert not normalize(text, _known_word, name_cues()).changed
    # acronyms the vocabulary knows in capitals keep them; a hyphen before "und" stays
    kept = "Nach § 2 BEEG und der DSGVO gilt: Kranken-\nund Pflegeversicherung."
    assert normalize(kept, _known_word, name_cues()).text == kept


NAMES_IN_CAPITALS = {
    # a surname that the vocabulary knows in neither form ("Oberprieler", "OBERPRIELER")
    "unknown": ("Die Klägerin begehrt Krankengeld. Der behandelnde Arzt Dr. Kemper überwies sie an die Praxis "
                "Oberprieler in Ingolstadt. Dort stellte man eine Arbeitsunfähigkeit fest; die Beklagte lehnte "
                "die Zahlung gleichwohl ab, weil der Bericht der Praxis Oberprieler zu spät eingegangen sei.",
                "Oberprieler"),
    # a surname that it knows in both ("Schmidt", "SCHMIDT"), after a salutation or a role
    "salutation": ("Der Kläger ist seit 2011 als Lagerist beschäftigt. Mit Schreiben vom 3. Mai 2019 kündigte die "
                   "Beklagte. Herr Schmidt erhob daraufhin Klage. Die Zeugin Keller bestätigte, dass Herr Schmidt "
                   "am Vortag krank gemeldet war.", "Schmidt|Keller"),
    # a party's name after the party's noun, also a "Mit-" compound of it ("der Mitangeklagten KELLER")
    "party": ("Das Landgericht hat den Angeklagten wegen Diebstahls mit Waffen verurteilt. Die Revision der "
              "Mitangeklagten Keller hat keinen Erfolg; die Mitangeklagte Keller trägt die Kosten ihres "
              "Rechtsmittels.", "Keller"),
    # a company's name that it knows in both ("Hammer", "HAMMER"), once before its legal form, once alone
    "company": ("Der Kläger war seit 1998 bei der Hammer AG als Schlosser beschäftigt. Die Versorgungsordnung "
                "sieht ein Ruhegeld für Mitarbeiter vor, die zehn Dienstjahre bei Hammer erfüllt haben. Die "
                "Beklagte lehnte die Zahlung ab.", "Hammer"),
}


@pytest.mark.parametrize("key", sorted(NAMES_IN_CAPITALS))
def test_a_surname_in_capitals_in_a_sentence_is_found_where_the_clean_text_has_it(analyzer, key):
    text, names = NAMES_IN_CAPITALS[key]
    variant = _each_surname(text, names, str.upper)
    assert variant != text
    clean = analyzer.analyze(text)
    assert {s.text for s in clean} >= set(names.split("|"))
    spans = analyzer.analyze(variant)
    assert [(s.start, s.end) for s in spans] == [(s.start, s.end) for s in clean]
    assert [s.text for s in spans] == [variant[s.start:s.end] for s in clean]


def test_acronyms_terms_and_rows_of_capitals_keep_them():
    kept = ("Nach § 2 BEEG, § 67 SGB X und Art 6 DSGVO sowie Art 8 EMRK ist der Antrag der Dienststellen der "
            "United States Air Forces in Europe (USAFE) zu prüfen; die Wortmarke „RAPAMUNE“ bleibt, ebenso die "
            "Verbände UNICE, CEEP und EGB.")
    assert normalize(kept, _known_word, name_cues()).text == kept
    # beside a salutation, a first name or a cited author a word in capitals is a name; a line wholly in
    # capitals is no sentence, so a word unknown to the vocabulary keeps them there
    assert normalize("Frau HOFFMANN und Sabine THALHAMMER; Frehse in JANSEN, SGG; vgl. EMMERICH in Staudinger, BGB",
                     _known_word, name_cues()).text == ("Frau Hoffmann und Sabine Thalhammer; Frehse in Jansen, SGG; "
                                           "vgl. Emmerich in Staudinger, BGB")
    assert normalize("Die Klägerin legte Berichte der Praxis OBERPRIELER vor.", _known_word, name_cues()).text \
        == "Die Klägerin legte Berichte der Praxis Oberprieler vor."
    assert normalize("PRAXIS OBERPRIELER UND KOLLEGEN", _known_word, name_cues()).text.split()[1] == "OBERPRIELER"
    # before a legal form a word in capitals is a company's name, and its other mentions in sentences are
    # too; an acronym before one keeps its capitals, and so does a heading
    assert normalize("Bei der VOGEL GmbH und der BMW AG galt: VOGEL zahlte nicht.", _known_word,
                     name_cues()).text == "Bei der Vogel GmbH und der BMW AG galt: Vogel zahlte nicht."
    assert normalize("VOGEL\n\nDie VOGEL GmbH zahlte nicht, obwohl sie es zusagte.", _known_word,
                     name_cues()).text == "VOGEL\n\nDie Vogel GmbH zahlte nicht, obwohl sie es zusagte."
    # after a party's noun, or its "Mit-" compound, a word in capitals is a name
    assert normalize("Die Mitangeklagten HEIM und der Angeklagte KERN sowie die Klägerin VOGEL", _known_word,
                     name_cues()).text == "Die Mitangeklagten Heim und der Angeklagte Kern sowie die Klägerin Vogel"
    # after a preposition a word the vocabulary knows in a name's case is a place's or a person's name;
    # an acronym it knows only in capitals is none
    assert normalize("Er hat sein Büro in FREIBURG, wie BGH in GRUR 2011, 610 zeigt.", _known_word,
                     name_cues()).text == "Er hat sein Büro in Freiburg, wie BGH in GRUR 2011, 610 zeigt."
    # a line-break hyphen before a small letter of any alphabet goes, before a capital it stays
    assert normalize("von Hél-\nène Steinberger zur EU-\nRichtlinie").text == "von Hélène Steinberger zur EU-\nRichtlinie"
    # a place the vocabulary knows in a name's case, two syllables meeting in four consonants
    assert normalize("Sie unterrichtet in ALLENTSTEIG Spanisch.", _known_word, name_cues()).text \
        == "Sie unterrichtet in Allentsteig Spanisch."
    # a final L after a consonant is a syllable of a Bavarian or Austrian surname; an acronym stays
    assert normalize("Die Chats von TRINKL und seinem Cousin BRANDL nach dem HTML-Export", _known_word,
                     name_cues()).text == "Die Chats von Trinkl und seinem Cousin Brandl nach dem HTML-Export"
    # every word in capitals of one name takes a name's case, not only the neighbours of the one decided
    assert normalize("als Leiter des PKK-Gebiets SANKT VEIT an der GLAN mit den Aufgaben", _known_word,
                     name_cues()).text == "als Leiter des PKK-Gebiets Sankt Veit an der Glan mit den Aufgaben"


def test_a_span_never_ends_inside_a_letter():
    text = unicodedata.normalize("NFD", "Frau Müller")
    normalized = normalize(text)
    assert normalized.text == "Frau Müller"
    start, end = normalized.original_span(5, 11)
    assert text[start:end] == unicodedata.normalize("NFD", "Müller")
    assert normalized.original_span(5, 7) == (5, 8)  # "Mü" takes the "u" and its diaeresis


def test_names_in_an_id_are_the_words_its_document_flags():
    flagged = ["Thomas Wimmer", "Lindenstraße 14", "Petra Öztürk"]
    assert names_in_id("Wimmer_Thomas_gegen_Öztürk", flagged) == ["Wimmer", "Thomas", "Öztürk"]
    assert names_in_id("ler-bsg-0001", flagged) == []
    assert names_in_id("urteil-2019-gegen-lagerist", flagged) == []
    assert safe_id("Wimmer_Thomas_gegen_Öztürk").startswith("document-")


def test_score_finds_the_names_of_a_variant_file_and_names_no_output_after_them(tmp_path):
    """One real ``score`` run over files: a ruling in NFD with CRLF and a zero-width space, saved under
    its parties' names, and a clean one under a plain name."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    variant = variants_of("arbeit")["nfd"].replace("\n", "\r\n").replace("Öztürk", "Öz\u200btürk")
    (inputs / "Wimmer_Thomas_gegen_Öztürk.txt").write_bytes(variant.encode("utf-8"))
    (inputs / "urteil-miete.txt").write_text(RULINGS["miete"], encoding="utf-8")
    out, texts = tmp_path / "spans.jsonl", tmp_path / "anonymized"
    done = cli("score", str(inputs), "--output", str(out), "--anonymize", str(texts), "-q")
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "document-" in warnings[0]
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    renamed = safe_id("Wimmer_Thomas_gegen_Öztürk")
    assert [(r["id"], r.get("source_id")) for r in records] == [
        (renamed, "Wimmer_Thomas_gegen_Öztürk"), ("urteil-miete", None)]
    assert sorted(p.name for p in texts.iterdir()) == sorted(["index.jsonl", f"{renamed}.txt", "urteil-miete.txt"])
    assert not any("Wimmer" in p.read_text(encoding="utf-8") for p in texts.iterdir())

    spans = records[0]["spans"]
    assert all(variant[s["start"]:s["end"]] == s["text"] for s in spans)
    found = [unicodedata.normalize("NFC", s["text"]).replace("\u200b", "") for s in spans]
    assert found.count("Wimmer") == 2 and "Thomas Wimmer" in found  # the first name decided with the surname
    assert "Petra Öztürk" in found and "Aichach" in found
