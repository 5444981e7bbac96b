"""The placeholder detector on the conventions of state and local courts: exact spans on fictitious
sentences, placeholders they write (positives) and letters that are none (negatives); and the
check-set measurement with typed spans and unscored regions."""

from __future__ import annotations

import json

import pytest

from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.preprocessing.span_check_set import measure_check_set, read_check_set


@pytest.fixture(scope="module")
def detector():
    return PlaceholderDetector()


def spans(detector, text):
    return [(s.start, s.end, s.text) for s in detector.detect(text)]


POSITIVES = [
    # an asterisk shortens a name, a street or a place
    ("Der Zeuge B* … sah den Unfall.", [(10, 14, "B* …")]),
    ("Der Unfall geschah in der *gasse vor dem Haus.", [(26, 32, "*gasse")]),
    ("Sie wohnt in der S*straße seit 2019.", [(17, 25, "S*straße")]),
    # numbered placeholders
    ("Er wohnt in Ort 2 und arbeitet bei der Firma 1 in Ort 3.",
     [(12, 17, "Ort 2"), (39, 46, "Firma 1"), (50, 55, "Ort 3")]),
    ("Sie wohnt in der X-Straße 03 in A-Stadt.", [(17, 28, "X-Straße 03"), (32, 39, "A-Stadt")]),
    ("Die Anwesen Z-weg 01, 02 und 04 sind bebaut.", [(12, 20, "Z-weg 01"), (22, 24, "02"), (29, 31, "04")]),
    # ellipses standing for a name, a place or a number
    ("Der Kläger wohnt in … und arbeitet bei Herrn …, der ihn anstellte.", [(20, 21, "…"), (45, 46, "…")]),
    ("Der Unfall geschah in der Nähe der Straße .... Es regnete.", [(42, 46, "....")]),
    ("Die Werbeanlage auf dem Grundstück Fl.Nr. … steht dort.", [(42, 43, "…")]),
    ("Mit Verfügung vom 3. Mai 2020 (Az.: …) stellte sie ein.", [(36, 37, "…")]),
    ("Der Führerschein (Nr. …) wurde abgegeben.", [(22, 23, "…")]),
    ("Das Fahrzeug der Firma „Auto- …“ wurde abgeschleppt.", [(30, 31, "…")]),
    ("Das Grundstück Flur-Nr. xx/001 liegt am Hang.", [(24, 30, "xx/001")]),
    # letters standing for land parcels
    ("Das Grundstück Fl.Nr. X der Gemarkung Y liegt am Ortsrand.", [(22, 23, "X"), (38, 39, "Y")]),
    ("Das Grundstück FlNr. Y grenzt an den Weg.", [(21, 22, "Y")]),
    # the seats of authorities, shortened
    ("Das Landratsamt K. erließ den Bescheid.", [(16, 18, "K.")]),
    ("Die Staatsanwaltschaft R. stellte das Verfahren ein.", [(23, 25, "R.")]),
    ("Die Polizeiinspektion T. meldete den Vorfall.", [(22, 24, "T.")]),
    ("Auf Antrag des Finanzamtes N. wurde eröffnet.", [(27, 29, "N.")]),
    # a road's number left out
    ("Die Anlage steht an der B … nahe der St … bei der Einmündung.", [(26, 27, "…"), (40, 41, "…")]),
]

NEGATIVES = [
    # driving-licence classes
    "Der Antragsteller ist Inhaber der Klassen B und C1E.",
    "Ihm wurde die Fahrerlaubnis der Klasse B entzogen.",
    "Die Fahrerlaubnis der Klassen A1, B, BE, M und L wurde entzogen.",
    "Ihm ist die Fahrerlaubnis AM, B und L wieder zu erteilen.",
    "Er beantragte die Fahrerlaubnis der Klassen A und B.",
    # decisions abbreviated in citations
    "So entschied es (vgl. BVerwG, U. v. 29.3.2017 – 6 C 1.16 – BVerwGE 158, 301; B. v. 14.12.2018 – 6 B 133.18).",
    # abbreviations and references
    "Nach Art. 3 Abs. 1 Nr. 2 S. 3 BayVwVfG gilt dies.",
    "Das Grundstück Fl.Nr. 123/4 der Gemarkung Moosach ist bebaut.",
    # a case number after "Az." is no number left out
    "So entschied das BSG (Urteil vom 8.12.1999, Az. B 12 KR 18/99 R).",
    "So entschied der BGH (Beschluss v. 16.12.2004, Az. I ZB 23/04).",
    # a court's seat and an authority named by an unknown letter, as the federal gold has them
    "Das Amtsgericht P. bestellte einen Betreuer.",
    "Das Finanzamt X erließ den Bescheid.",
    # gender stars, a real house number, an omission in a quotation
    "Die Kläger*innen und Mitarbeiter*innen wohnen in der Schulstraße 4.",
    "Der Vertrag lautet: „Der Mieter … zahlt monatlich.“",
    "Er wohnt in Ort und Stelle seit 2 Jahren.",
]


@pytest.mark.parametrize(("text", "expected"), POSITIVES, ids=[t for t, _ in POSITIVES])
def test_state_court_placeholders_are_found_with_exact_spans(detector, text, expected):
    assert spans(detector, text) == expected


@pytest.mark.parametrize("text", NEGATIVES)
def test_letters_that_state_courts_use_are_no_placeholders(detector, text):
    assert spans(detector, text) == []


def test_element_labels_mark_numbered_placeholders_without_other_candidates(detector):
    elements, labels = detector.document_element_labels("Er wohnt in Ort 2 seit langem.")
    assert [e.text for e, flagged in zip(elements, labels) if flagged] == ["Ort", "2"]


def test_check_set_counts_types_and_leaves_ignored_regions_unscored(tmp_path, detector):
    text = "Das Landratsamt K. erließ den Bescheid an Herrn B. in der Z-weg 01. Die Sache X endete."
    rows = [{"id": "a", "text": text,
             "spans": [{"start": 16, "end": 18, "type": "ST"}, {"start": 48, "end": 50, "type": "PER"},
                       {"start": 58, "end": 63, "type": "STR"}, {"start": 64, "end": 66, "type": "NUM"}],
             "ignore": [{"start": text.index("X"), "end": text.index("X") + 1, "ignore": True}]}]
    path = tmp_path / "check.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    result = measure_check_set(read_check_set(path), detector)
    c = result.confusion
    assert (c.tp, c.fp, c.fn, result.ignored) == (4, 0, 0, 1)
    assert c.total == len(text.split()) - 1
    assert result.recall_by_type() == {"NUM": 1.0, "PER": 1.0, "ST": 1.0, "STR": 1.0}
    rows[0]["spans"].append({"start": 0, "end": 3, "type": "OTHER"})  # "Das": a miss of type OTHER
    path.write_text(json.dumps(rows[0], ensure_ascii=False) + "\n", encoding="utf-8")
    result = measure_check_set(read_check_set(path), detector, keep_errors=5)
    assert result.to_dict()["recall_by_type"]["OTHER"] == 0.0
    assert result.errors == [("a", 0, 3, "FN", "OTHER")]


def test_check_set_span_outside_its_text_is_a_one_line_error(tmp_path):
    from rulings_anon.errors import InputError
    path = tmp_path / "check.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "kurz", "spans": [{"start": 2, "end": 9}]}) + "\n",
                    encoding="utf-8")
    with pytest.raises(InputError, match="outside"):
        read_check_set(path)
