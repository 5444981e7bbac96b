"""Details that identify (postcodes, land parcels, road and house numbers, birth dates, aliases): the
recognizers' exact spans on positive and negative examples, and a policy's ``[alone]`` table
deciding whether they are spans whatever the model says, through the engine and ``score --policy``."""

from __future__ import annotations

import json
import time

import pytest
from command_line import assert_one_line_error, cli

from rulings_anon.analyzer.details import house_numbers, with_details
from rulings_anon.analyzer.recognizers import analyze
from rulings_anon.document import Span
from rulings_anon.entity_types import DETAIL_NAMES
from rulings_anon.errors import InputError
from rulings_anon.replacement.policy import Policy, policy_from


def found(text: str, name: str) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.text) for s in analyze(text, enabled={name})]


def texts(text: str, name: str) -> list[str]:
    return [t for _, _, t in found(text, name)]


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("postcode", "wohnhaft Kirchstraße 12, 86150 Augsburg, Kläger", ["86150 Augsburg"]),
    ("postcode", "Anschrift: D-86150 Augsburg", ["D-86150 Augsburg"]),
    ("postcode", "zugestellt nach D-86150.", ["D-86150"]),
    ("postcode", "in 85049 Ingolstadt a. d. Donau wohnhaft", ["85049 Ingolstadt a. d. Donau"]),
    ("postcode", "93047 Regensburg-Kumpfmühl", ["93047 Regensburg-Kumpfmühl"]),
    ("postcode", "60311 Frankfurt am Main", ["60311 Frankfurt am Main"]),
    # amounts, counts, pages, file numbers and thousands are not postcodes
    ("postcode", "ein Betrag von 12345 Euro für 10000 Einwohner", []),
    ("postcode", "BGBl. I S. 12345 Berlin; Az. 12345 Bundesamt; Nr. 80539 München", []),
    ("postcode", "12.345 Augsburger und 12345,50 Mark und 00123 Augsburg", []),
    ("postcode", "die Kläger (86150) Augsburg", []),
    ("postcode", "(VGH München BeckRS 2020, 24670 Rn. 11; NJW 2019, 12345 Berlin)", []),
    ("land_parcel", "das Grundstück Flurstück 123/4 der Gemarkung Aichach", ["123/4"]),
    ("land_parcel", "die Grundstücke Fl.Nr. 123/4 und 125, Gemarkung", ["123/4", "125"]),
    ("land_parcel", "FlNr. 56 und Flst. 78/2 sowie Fl.-Nr. 910", ["56", "78/2", "910"]),
    ("land_parcel", "die Flurstücke 12/3, 12/4 und 15 der Flur 2", ["12/3", "12/4", "15"]),
    ("land_parcel", "Flurstücksnummer: 1234/12", ["1234/12"]),
    # a paragraph, a law gazette, a flur without its parcel word are no parcels
    ("land_parcel", "nach § 123 Abs. 4 BauGB (BGBl. I S. 123) in der Flur 12", []),
    ("land_parcel", "Flurstück 12.03.2019 und Flurstück Nr. 3a", []),
    # the numbers that continue a parcel word, past a district, and a list before "der Gemarkung"
    ("land_parcel", "die Fl.Nrn. 123/4, 125 und 127/2 der Gemarkung Pullach", ["123/4", "125", "127/2"]),
    ("land_parcel", "die Flurstücke Nrn. 12 und 13 der Gemarkung Aichach", ["12", "13"]),
    ("land_parcel", "Fl.Nr. 123/4 der Gemarkung Pullach und 125 der Gemarkung Baierbrunn", ["123/4", "125"]),
    ("land_parcel", "FlNr. 12 (Gemarkung Aichach) und 13", ["12", "13"]),
    ("land_parcel", "das Grundstück 123/4 der Gemarkung Pullach", ["123/4"]),
    ("land_parcel", "die Grundstücke 123/4, 125 und 127 der Gemarkung Pullach", ["123/4", "125", "127"]),
    ("land_parcel", "das Grundstück Nr. 12 der Gemarkung Pullach", ["12"]),
    ("land_parcel", "nach § 12/3 und 123/4 der Gemarkung Pullach", ["123/4"]),
    # a count or an amount ends a list; bare numbers, citations, dates, a flur or a land-register
    # sheet are no parcels, before "der Gemarkung" neither
    ("land_parcel", "Fl.Nr. 123 und 12 Jahre; Fl.Nr. 12 und 125 m² groß", ["123", "12"]),
    ("land_parcel", "§ 12/3, BGBl. I 123/4, Az. 12/345, am 12.03.2019, Nr. 12/2020, die 123/4 Gemarkungen", []),
    ("land_parcel", "nach § 12/3 der Gemarkung X, BGBl. I 123/4 der Gemarkung X, Az. 12/345 der Gemarkung X", []),
    ("land_parcel", "am 12.03.2019 der Gemarkung X, Nr. 12/2020 der Gemarkung X, im Jahr 2019 der Gemarkung X", []),
    ("land_parcel", "die Flur 2 der Gemarkung X und Blatt 1234 der Gemarkung X", []),
    # the plot word alone before a number list; not before a count, an amount, a year or a date
    ("land_parcel", "Die Grundstücke 02, 03 und 04 sind bebaut; das Grundstück 123/4", ["02", "03", "04", "123/4"]),
    ("land_parcel", "das Grundstück 500 m² groß, die Grundstücke 3 Jahre lang, des Grundstücks 2019 erworben, "
                    "Grundstücke 12.03.2019", []),
    # the sheet of the land register, in the sentence that names the register; a file's page is none
    ("land_parcel", "im Grundbuch von Pullach Blatt 1234; Grundbuch des Amtsgerichts X von A., Band 12, Blatt Nr. 345)",
     ["1234", "345"]),
    ("land_parcel", "siehe Blatt 13 der Akte; im Grundbuch eingetragen. Blatt 13 der Akte", []),
    ("road_number", "das Anwesen an der B 12 bei Aichach", ["12"]),
    ("road_number", "die St 2045 und die St. 2046 sowie zur B12", ["2045", "2046", "12"]),
    ("road_number", "an der Staatsstraße 2045 und der Kreisstraße MN 15", ["2045", "MN 15"]),
    ("road_number", "die Bundesstraße B 16 und die Landesstraße L 123", ["16", "123"]),
    # exhibits, driving-licence classes and file numbers are no roads
    ("road_number", "Anlage B 12; Klasse B und C1E; BVerwG, Beschluss vom 1.2.2019 - 4 B 12.19 -", []),
    ("road_number", "die B 12/19 und der B 12.19", []),
    # once a ruling names a road, its short forms after a conjunction, an adjective, a bracket or a
    # quote are roads too; not after a capitalized word, and not in a ruling that names no road
    ("road_number", "an der B 12 oder ST 2045, der stark befahrenen B12, „St 2046 bei X“, Bundesstraße (B 16); "
                    "Anlage B 13", ["12", "2045", "12", "2046", "16"]),
    ("road_number", "Straßen wie B 12 oder ST 2045, „St 2046 bei X“", []),
    ("file_number", "Das Landratsamt lehnte mit Bescheid vom 3. April 2019 (Az.: 34-2011/1234-56) ab.",
     ["34-2011/1234-56"]),
    ("file_number", "im Ermittlungsverfahren der Staatsanwaltschaft, Az. 12 Js 345/19, vernommen", ["12 Js 345/19"]),
    ("file_number", "Mit Bescheid vom 12.03.2019, Gz. 3-12/19, lehnte die Stadt ab.", ["3-12/19"]),
    # the ruling's own number, a cited decision's, a court's between the authority and the number
    ("file_number", "Az.: M 5 K 19.1234", []),
    ("file_number", "Der Bescheid ist rechtmäßig (vgl. BVerwG, Urteil vom 1.2.2019, Az. 4 C 12.19).", []),
    ("file_number", "Das Landratsamt verweist auf den Beschluss des Verwaltungsgerichts (Az. M 5 K 19.123).", []),
    ("file_number", "Der Bescheid ist rechtmäßig. Das Gericht hat (Az. 4 C 12.19) entschieden.", []),
    ("alias", "Der Angeklagte Thomas Wimmer, genannt „Kalle“, verkaufte", ["Kalle"]),
    ("alias", "Der Nutzer mit dem Benutzernamen „Schattenwolf88“ veröffentlichte", ["Schattenwolf88"]),
    ("alias", "unter dem Künstlernamen „Lola Blau“ aufgetreten", ["Lola Blau"]),
    ("alias", "mit dem Benutzernamen „schattenwolf88“", ["schattenwolf88"]),
    ("alias", "Der Nutzer „schlumpf_77“ antwortete dem Facebook-Nutzer „Lola Blau“ und dem User »kalle«",
     ["schlumpf_77", "Lola Blau", "kalle"]),
    ("alias", "Die Nutzerin „lb2“ schrieb vom Instagram-Account „lola.blau“ und den Accounts „x_1“ und „x_2“",
     ["lb2", "lola.blau", "x_1", "x_2"]),
    ("alias", 'alias "Der Pate", sein Spitzname lautete »Kalli« oder ‚Kalle‘', ["Der Pate", "Kalli", "Kalle"]),
    ("alias", "unter seinem Pseudonym 'LB', dem Instagram-Profilnamen: „lola_blau_1“ und „lb2“", ["LB", "lola_blau_1", "lb2"]),
    # a term "so called", one referred back to or defined, a product's name, quotes after other words,
    # more than 40 characters or a line break inside the quotes
    ("alias", "der sogenannte „Dieselskandal“, der so genannte „Abgasskandal“", []),
    ("alias", "die genannte „Vereinbarung“ und die Genannte „Vereinbarung“", []),
    ("alias", "die Nutzer sozialer Netzwerke und Nutzerinnen, der Accountname fehlt, „Kalle“", []),
    ("alias", "(nachfolgend genannt „Käuferin“) unter dem Namen „Kö-Bogen“", []),
    ("alias", "der Begriff „Kalle“, die Marke „Lola Blau“, der Name „Schattenwolf88“", []),
    ("alias", 'die Wörter "alias" und "Kalle", „genannt“ und „Kalli“', []),
    ("alias", "genannt „ein sehr langer zitierter Satz, der kein Name mehr ist“, genannt „Ka\nlle“", []),
    ("authority_seat", "Das Landratsamt Rosenheim erließ den Bescheid; die Staatsanwaltschaft Traunstein stellte ein.",
     ["Rosenheim", "Traunstein"]),
    ("authority_seat", "Die Polizeiinspektion Bad Aibling und das Jobcenter St. Ingbert teilten es dem Finanzamt "
                       "Neumarkt in der Oberpfalz mit.", ["Bad Aibling", "St. Ingbert", "Neumarkt in der Oberpfalz"]),
    # an initial keeps its period, a sentence's stays out; genitives and compounds of the authority
    ("authority_seat", "des Landratsamts Mödling-S. vom 11. August; der Generalstaatsanwaltschaft Landsberg am Lech.",
     ["Mödling-S.", "Landsberg am Lech"]),
    # a court's seat, a court's panel, a bare institution word, common nouns, abbreviations, states
    ("authority_seat", "Das Amtsgericht Rosenheim, das Landgericht Traunstein, der 1. Strafsenat Folgendes, die "
                       "Kammer Augsburg, das Amt Neuhaus", []),
    ("authority_seat", "beim Landratsamt Unterlagen eingereicht; Bundespolizei Kontrollen; Widerspruchsbehörde "
                       "BVerwG; die Landesregierung Nordrhein-Westfalen; Gesamtes Verkehrsrecht", []),
    # a common noun after "am" ends the seat
    ("authority_seat", "Die Staatsanwaltschaft Augsburg am Montag, die Staatsanwaltschaft Kempten in der Anklageschrift",
     ["Augsburg", "Kempten"]),
])
def test_detail_recognizers_find_exact_spans(name, text, expected):
    assert texts(text, name) == expected


def test_postcode_span_offsets():
    text = "Hauptstraße 4, 86150 Augsburg"
    assert found(text, "postcode") == [(15, 29, "86150 Augsburg")]


TEXT = "Der Kläger wohnt in der Kirchstraße 12 a, geb. am 14.03.1978, Fl.Nr. 123/4, an der St 2045."


def test_with_details_adds_hits_and_grows_a_flagged_street_by_its_house_number():
    street = Span(24, 35, "Kirchstraße", "street", 0.9, source="model")
    got = with_details(TEXT, [street], ("birth_date", "land_parcel", "road_number", "house_number"))
    assert [(s.start, s.end, s.text, s.type) for s in got] == [
        (24, 40, "Kirchstraße 12 a", "street"), (50, 60, "14.03.1978", "BIRTH_DATE"),
        (69, 74, "123/4", "LAND_PARCEL"), (86, 90, "2045", "ROAD")]
    assert with_details(TEXT, [street], ()) == [street]
    # a number after a comma, a year or a date after a street is no house number
    for text in ("in der Kirchstraße, 12 Jahre lang", "die Kirchstraße 1990 gebaut", "Kirchstraße 12.03.2019"):
        assert with_details(text, [Span(7, 18, "Kirchstraße", "street")], ("house_number",))[0].end == 18, text
    # a hit inside a span adds nothing
    whole = Span(0, len(TEXT), TEXT, "other", 0.9)
    assert with_details(TEXT, [whole], ("birth_date", "land_parcel")) == [whole]


def test_parcel_numbers_before_a_district_have_exact_offsets():
    text = "Die Grundstücke 123/4 und 125 der Gemarkung Pullach"
    assert found(text, "land_parcel") == [(16, 21, "123/4"), (26, 29, "125")]


def test_a_long_list_without_a_district_is_read_in_linear_time():
    text = "der Gemarkung X " + "1, " * 20000 + "Ende"
    began = time.perf_counter()
    assert found(text, "land_parcel") == []
    assert time.perf_counter() - began < 2


@pytest.mark.parametrize(("text", "street", "expected"), [
    ("wohnhaft Kirchweg 1, 3 und 5 in Augsburg", "Kirchweg", [(18, 19, "1"), (21, 22, "3"), (27, 28, "5")]),
    ("die Anwesen Am Weiher 01, 02, 03.", "Am Weiher", [(22, 24, "01"), (26, 28, "02"), (30, 32, "03")]),
    ("an der Hauptstraße 12-14 und 16 gelegen", "Hauptstraße", [(19, 24, "12-14"), (29, 31, "16")]),
    ("Kirchweg 1 u. 3 a sowie 5b.", "Kirchweg", [(9, 10, "1"), (14, 17, "3 a"), (24, 26, "5b")]),
    # a list stops at what is no house number of it: a count, a year, a date, an amount, a floor, a word
    ("Kirchweg 1, 12 Jahre lang", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg 1 und 3 seit 1990 und 2019", "Kirchweg", [(9, 10, "1"), (15, 16, "3")]),
    ("Kirchweg 1, 12.03.2019", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg 1, 12. März 2019", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg 1, 300 € und 5", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg 1, 12,50 EUR", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg 1, 3. OG", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg 1 und Hauptstraße 3", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg 1, 86150 Augsburg", "Kirchweg", [(9, 10, "1")]),
    ("Kirchweg, 12 und 14 Jahre", "Kirchweg", []),
])
def test_each_house_number_of_a_list_after_a_street(text, street, expected):
    at = text.index(street)
    spans = [Span(at, at + len(street), street, "street", 0.9)]
    assert [(s.start, s.end, s.text) for s in house_numbers(text, spans)] == expected


def test_a_list_of_house_numbers_after_a_street_with_its_number():
    text = "wohnhaft Kirchweg 1, 3 und 5 in Augsburg"
    streets = analyze(text, enabled={"street"})
    assert [(s.start, s.end, s.text) for s in streets] == [(9, 19, "Kirchweg 1")]
    got = with_details(text, streets, ("house_number",))
    # the street keeps its own number; each further number is a span of its own
    assert [(s.start, s.end, s.text, s.type) for s in got] == [
        (9, 19, "Kirchweg 1", "STR"), (21, 22, "3", "HOUSE_NUMBER"), (27, 28, "5", "HOUSE_NUMBER")]
    flagged = with_details(text, [Span(9, 17, "Kirchweg", "street", 0.9, source="model")], ("house_number",))
    assert [(s.start, s.end, s.text) for s in flagged] == [(9, 19, "Kirchweg 1"), (21, 22, "3"), (27, 28, "5")]


def test_a_policy_names_its_alone_details_and_refuses_unknown_ones():
    assert policy_from({"alone": {"postcode": True, "birth_date": False, "land_parcel": True}}).alone == (
        "postcode", "land_parcel")
    assert policy_from({}).alone == ()
    with pytest.raises(InputError, match="unknown detail 'zip'"):
        policy_from({"alone": {"zip": True}})
    with pytest.raises(InputError, match="true or false"):
        policy_from({"alone": {"postcode": "yes"}})


RULING = """Verwaltungsgericht Augsburg

Urteil

In der Verwaltungsstreitsache des Herrn Thomas Wimmer, geb. am 14.03.1978, Kirchstraße 12, 86150 Augsburg,
Kläger, gegen den Freistaat Bayern, Beklagter, wegen Baugenehmigung für das Grundstück Fl.Nr. 123/4 der
Gemarkung Aichach an der St 2045 erkennt die Kammer: Die Klage wird abgewiesen. Die Staatsanwaltschaft hatte
das Ermittlungsverfahren gegen den Kläger (Az. 12 Js 345/19) eingestellt.
"""
DETAILS = [("14.03.1978", "BIRTH_DATE"), ("86150 Augsburg", "POSTCODE"), ("123/4", "LAND_PARCEL"), ("2045", "ROAD"),
           ("12 Js 345/19", "FILE_NUMBER")]


@pytest.fixture(scope="module")
def analyzer_spans():
    from rulings_anon.data import path as data_path
    from rulings_anon.engine import Analyzer, load_sensitivity_model

    model = load_sensitivity_model()  # loaded once, both analyzers use it
    plain = Analyzer(data_path("scorer"), element_model=model, policy=Policy()).analyze(RULING)
    alone = Analyzer(data_path("scorer"), element_model=model, policy=policy_from(
        {"alone": {d: True for d in DETAIL_NAMES}}))
    return plain, alone.analyze(RULING)


def test_the_analyzer_counts_the_policys_details_on_their_own(analyzer_spans):
    plain, alone = analyzer_spans
    assert not {text for text, _ in DETAILS} & {s.text for s in plain}
    details = [(s.text, s.type) for s in alone if s.source in DETAIL_NAMES]
    assert details == DETAILS
    for s in alone:
        assert RULING[s.start:s.end] == s.text
    # every span the model decides stays
    assert {(s.start, s.end) for s in plain} <= {(s.start, s.end) for s in alone}


def test_score_policy_counts_the_details_as_the_analyzer_does(tmp_path, analyzer_spans):
    ruling = tmp_path / "urteil.txt"
    ruling.write_text(RULING, encoding="utf-8")
    policy = tmp_path / "gericht.toml"
    policy.write_text("[alone]\n" + "".join(f"{d} = true\n" for d in DETAIL_NAMES), encoding="utf-8")
    out = tmp_path / "spans.jsonl"
    done = cli("score", ruling, "--output", out, "--policy", policy, "--anonymize", tmp_path / "anon.jsonl")
    assert done.returncode == 0, done.stderr
    spans = [(s["start"], s["end"], s["text"]) for s in json.loads(out.read_text(encoding="utf-8"))["spans"]]
    assert spans == [(s.start, s.end, s.text) for s in analyzer_spans[1]]
    anonymized = json.loads((tmp_path / "anon.jsonl").read_text(encoding="utf-8"))["text"]
    assert "geb. am ..., " in anonymized and "an der St ... erkennt" in anonymized
    for text, _ in DETAILS:
        assert text not in anonymized
    # the policy's detail table is checked before anything is read or written
    policy.write_text("[alone]\nzip = true\n", encoding="utf-8")
    assert_one_line_error(cli("score", ruling, "--output", tmp_path / "x.jsonl", "--policy", policy),
                          "unknown detail 'zip'")
    assert not (tmp_path / "x.jsonl").exists()


ALIASES = ("Der Angeklagte Thomas Wimmer, genannt „Kalle“, verkaufte das Rauschgift. Der Nutzer mit dem "
           "Benutzernamen „Schattenwolf88“ veröffentlichte die Bilder. Die Zeugin trat unter dem Künstlernamen "
           "„Lola Blau“ auf. Ein weiterer Nutzer schrieb unter dem Benutzernamen „schattenwolf88“.\n"
           "Der sogenannte „Dieselskandal“ und die genannte „Vereinbarung“ betreffen die Firma, die unter dem "
           "Namen „Kö-Bogen“ auftrat; der Begriff „Kalle“ bleibt.\n")


def test_the_shipped_policy_counts_aliases_in_quotes_whole_as_a_persons_name():
    from rulings_anon.data import path as data_path
    from rulings_anon.engine import Analyzer, apply_policy, load_sensitivity_model

    model = load_sensitivity_model()
    plain = Analyzer(data_path("scorer"), element_model=model, policy=Policy()).analyze(ALIASES)
    shipped = Analyzer(data_path("scorer"), element_model=model).analyze(ALIASES)  # rulings_anon/data/policies
    quoted = [(s.start, s.end, s.text) for s in shipped if ALIASES[s.start - 1] == "„"]
    assert quoted == [(39, 44, "Kalle"), (107, 121, "Schattenwolf88"), (192, 201, "Lola Blau"),
                      (261, 275, "schattenwolf88")]
    # without the detail the model finds none of them whole
    assert not {"Kalle", "Schattenwolf88", "schattenwolf88", "Lola Blau"} & {s.text for s in plain}
    # court style places an alias as a person's name, initials; the negatives stay in clear
    assert apply_policy(ALIASES, shipped).split("\n")[0] == (
        "Der Angeklagte T. W., genannt „K.“, verkaufte das Rauschgift. Der Nutzer mit dem Benutzernamen „S.“ "
        "veröffentlichte die Bilder. Die Zeugin trat unter dem Künstlernamen „L. B.“ auf. Ein weiterer Nutzer "
        "schrieb unter dem Benutzernamen „s.“.")
    assert ALIASES.split("\n")[1] in apply_policy(ALIASES, shipped)


def test_an_alias_grows_a_flagged_part_and_gives_it_its_type_where_it_had_none():
    text = "unter dem Künstlernamen „Lola Blau“ auf"
    for kind, grown in ((None, "ALIAS"), ("person", "person")):
        got = with_details(text, [Span(25, 29, "Lola", kind, 0.44, source="model")], ("alias",))
        assert [(s.start, s.end, s.text, s.type, s.score) for s in got] == [(25, 34, "Lola Blau", grown, 0.44)]


def test_an_authoritys_seat_counts_on_its_own_where_the_policy_says_so_a_courts_never():
    from rulings_anon.engine import Analyzer
    from rulings_anon.replacement.policy import load_policy, policy_path

    text = ("Der Kläger wendet sich gegen den Bescheid des Landratsamts Günzburg vom 3. Mai 2019. "
            "Die Staatsanwaltschaft Memmingen erhob Anklage. Das Amtsgericht Memmingen verurteilte ihn.")
    spans = {name: [(s.start, s.end, s.text) for s in Analyzer(policy=load_policy(policy_path(name))).analyze(text)]
             for name in ("default", "state-court")}
    # federal courts print an authority's seat: the default policy follows the exemption
    assert spans["default"] == []
    # the state-court policy counts both authorities' seats, not the court's seat of the same town
    assert spans["state-court"] == [(59, 67, "Günzburg"), (108, 117, "Memmingen")]
    assert policy_from({"alone": {"authority_seat": True}}).alone == ("authority_seat",)
