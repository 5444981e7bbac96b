"""Surrogates keep what the placeholder shows and stay consistent within a document."""

import gzip
import json
import re

import pytest

from rulings_anon.data import path as data_path
from rulings_anon.replacement.operators import pseudonymize, pseudonymize_record, sensitive_part
from rulings_anon.replacement.surrogates import (
    LER_TYPES,
    TYPES,
    ReplacementTable,
    SurrogateGenerator,
    canonical_type,
    genitive,
)


@pytest.fixture
def table():
    return ReplacementTable(SurrogateGenerator(7).for_document("doc"))


@pytest.mark.parametrize(
    "placeholder, type, pattern",
    [
        # initials become given name(s) + surname, the title stays
        ("Dr. A. G.", "person", r"Dr\. A[a-zäöüß]+ G[a-zäöüß]+"),
        ("Herr K. B.", "person", r"Herr K[\w-]+ B\w+"),
        ("K.", "person", r"K\w+"),
        # a genitive ending stays
        ("K.s", "person", r"K\w+[s']"),
        # the legal form stays, the hyphen goes
        ("M-GmbH", "company", r"M\w+ GmbH"),
        ("H AG", "company", r"H\w+ AG"),
        # a bare legal form gets a name in front
        ("e. V.", "organization", r"\w+ e\. V\."),
        ("V-Konzern", "organization", r"V\w+-Konzern"),
        # streets keep the initial and the street word with its case ending
        ("Kstraße", "street", r"K\w+straße"),
        ("R. straße", "street", r"R\w+straße"),
        ("P-Platzes", "street", r"P\w+platzes"),
        ("L Straße ...", "street", r"L\w+straße \d+"),
        ("H-Stadt", "place", r"H[\w ]+"),
        ("Hi", "place", r"Hi[\w ]+"),
        ("...", "person", r"[A-ZÄÖÜ]\w+"),
        ("xx.xx.1980", "date", r"\d\d\.\d\d\.1980"),
        ("Nr. xxx", "number", r"Nr\. \d{3}"),
        ("...", "account", r"DE\d{20}"),
        ("...", "email/url", r"[\w.]+@[\w.-]+"),
    ],
)
def test_when_placeholder_shows_initials_then_surrogate_keeps_them(table, placeholder, type, pattern):
    value = table.replacement(placeholder, type)
    assert re.fullmatch(pattern, value), value
    assert value != placeholder


def test_same_placeholder_and_initial_give_same_name(table):
    first = table.replacement("K.", "PER", before="des ")
    assert table.replacement("K.", "person") == first
    assert table.replacement("K.s", "person") == genitive(first)
    # the same initial of another type is another name
    assert table.replacement("K.", "company") != first
    # another initial is never the same name
    assert table.replacement("Ka.", "person") != first


def test_female_context_gives_female_first_name():
    from faker.providers.person.de_DE import Provider

    for seed in range(5):
        table = ReplacementTable(SurrogateGenerator(seed))
        given = table.replacement("A. B.", "person", before="die Klägerin Frau ").split()[0]
        assert given in Provider.first_names_female


def test_regenerate_and_set(table):
    old = table.replacement("F.", "person")
    new = table.regenerate("F.", "person")
    assert new != old and new.startswith("F")
    assert table.replacement("F.", "person") == new
    table.set("F.", "person", "Fuchs")
    assert table.replacement("F.", "person") == "Fuchs"
    assert {"placeholder": "F.", "type": "person", "replacement": "Fuchs"} in table.records()


def test_generator_is_reproducible():
    a = SurrogateGenerator(3).for_document("x")
    b = SurrogateGenerator(3).for_document("x")
    assert [a.surrogate("Dr. A. G.", "person"), a.surrogate("...", "account")] == [
        b.surrogate("Dr. A. G.", "person"), b.surrogate("...", "account")]


def test_types_and_ler_mapping():
    assert len(TYPES) == 10
    assert set(LER_TYPES.values()) <= set(TYPES)
    assert canonical_type("UN") == "company" and canonical_type("E-Mail") == "email/url"
    with pytest.raises(ValueError, match="unknown reference type"):
        canonical_type("vehicle")


def test_pseudonymize_spans_point_at_replacements():
    text = "Die Klägerin Frau F. wohnt in der Kstraße in B. Sie arbeitet bei der M-GmbH. Gegen Herrn K. Der Rest."
    spans = [{"start": m.start(), "end": m.end(), "type": t} for m, t in zip(
        re.finditer(r"F\.|Kstraße|B\.|M-GmbH|K\.", text), ["PER", "STR", "ST", "UN", "PER"], strict=True)]
    new_text, new_spans = pseudonymize(text, spans, SurrogateGenerator(0))
    values = [new_text[s["start"]:s["end"]] for s in new_spans]
    assert [s["type"] for s in new_spans] == ["person", "street", "place", "company", "person"]
    assert values[0][0] == "F" and values[1].endswith("straße")
    # the legal form stays in the text, outside the gold span: a name is the sensitive part
    assert values[3][0] == "M" and " " not in values[3] and f"der {values[3]} GmbH." in new_text
    # sentence-ending periods of "B." and "K." stay outside the spans
    assert new_text.endswith(f"Gegen Herrn {values[4]}. Der Rest.")
    assert f"in {values[2]}. Sie" in new_text
    assert "Kstraße" not in new_text and "M-GmbH" not in new_text


def test_pseudonymize_record_on_ler_moves_entities():
    with gzip.open(data_path("ler", "bag.jsonl.gz"), "rt", encoding="utf-8") as handle:
        record = next(r for r in map(json.loads, handle) if r["spans"])
    out = pseudonymize_record(record, SurrogateGenerator(0))
    assert len(out["spans"]) == len(record["spans"])
    for old, new in zip(record["spans"], out["spans"], strict=True):
        assert out["text"][new["start"]:new["end"]] != record["text"][old["start"]:old["end"]]
    for old, new in zip(record["entities"], out["entities"], strict=True):
        if not any(s["start"] < old["end"] and old["start"] < s["end"] for s in record["spans"]):
            assert out["text"][new["start"]:new["end"]] == record["text"][old["start"]:old["end"]]
    assert pseudonymize_record(record, SurrogateGenerator(0)) == out


def test_entities_next_to_a_replacement_keep_their_text():
    record = {"id": "x", "text": "Die Firma(K.) zahlt an Herrn K. Danach",
              "spans": [{"start": 10, "end": 12, "type": "UN"}, {"start": 29, "end": 31, "type": "PER"}],
              "entities": [{"start": 4, "end": 10, "type": "X"}, {"start": 10, "end": 12, "type": "UN"},
                           {"start": 12, "end": 13, "type": "Y"}, {"start": 23, "end": 31, "type": "PER"}]}
    out = pseudonymize_record(record, SurrogateGenerator(0))
    text = out["text"]
    firma, company, bracket, person = (text[e["start"]:e["end"]] for e in out["entities"])
    assert (firma, bracket) == ("Firma(", ")")  # ends where a replacement starts
    assert company == text[out["spans"][0]["start"]:out["spans"][0]["end"]] and company.startswith("K")
    assert person.startswith("Herrn K") and text.endswith(f"{person}. Danach")


def test_training_and_testing_halves_never_share_a_name_and_keep_initials():
    drawn = {}
    for half in ("training", "testing"):
        table = ReplacementTable(SurrogateGenerator(5, half).for_document("doc"))
        names = set()
        for initial in "ABCDEFGHIKLMNOPRSTUVWZ":
            for kind in ("person", "company", "place"):
                value = table.replacement(f"{initial}.", kind)
                assert value.startswith(initial), (half, initial, kind, value)
                names.update(re.findall(r"[A-ZÄÖÜ][a-zäöüß]+", value))
        drawn[half] = names
    assert len(drawn["training"]) > 40 and len(drawn["testing"]) > 40
    assert not drawn["training"] & drawn["testing"]
    # A half with no name for an initial still keeps it, from the whole list ("O." -> "Oswald").
    assert ReplacementTable(SurrogateGenerator(5, "testing")).replacement("O.", "company").startswith("O")
    # X and Y are the courts' generic letters: any name, the same again in the document.
    table = ReplacementTable(SurrogateGenerator(5, "testing").for_document("doc"))
    drawn = {table.replacement(p, "company") for p in ("X.", "X-GmbH", "Y.")}
    assert not any(value.startswith(("X", "Y")) for value in drawn), drawn
    assert table.replacement("X.", "company") == table.replacement("X.", "company")
    assert table.replacement("X.", "company") != table.replacement("Y.", "company")
    # The default draws from all names, as it always did.
    assert SurrogateGenerator(5).for_document("doc").names == "all"
    with pytest.raises(ValueError, match="unknown name half"):
        SurrogateGenerator(5, "train")


def test_invented_names_keep_the_initial_and_are_in_no_list():
    from rulings_anon.replacement.surrogates import german_pools

    listed = set(german_pools()["surname"]) | set(german_pools()["city"])
    table = ReplacementTable(SurrogateGenerator(2, "training", invented=1.0).for_document("doc"))
    values = [table.replacement(f"{initial}.", kind) for initial in "ABDGKLMRSW" for kind in ("company", "place")]
    assert all(v.startswith(initial) for v, initial in zip(values, [i for i in "ABDGKLMRSW" for _ in "cp"]))
    assert sum(v.split()[0] not in listed for v in values) >= 15
    # The same placeholder in the same document keeps its invented name; the run is reproducible.
    assert table.replacement("K.", "company") == values[8]
    again = ReplacementTable(SurrogateGenerator(2, "training", invented=1.0).for_document("doc"))
    assert [again.replacement(f"{i}.", k) for i in "ABDGKLMRSW" for k in ("company", "place")] == values


def test_foreign_names_are_in_none_of_the_german_lists():
    from rulings_anon.replacement.surrogates import german_pools

    listed = set().union(*(german_pools()[p] for p in ("surname", "first_male", "first_female", "city")))
    table = ReplacementTable(SurrogateGenerator(4, "foreign").for_document("doc"))
    values = [table.replacement(f"Herr {i}.", "person").split()[-1] for i in "ABEGHKLMPRSTW"]
    values += [table.replacement(f"{i}.", "place") for i in "ABGKLMSW"]
    assert all(v[0] == i for v, i in zip(values, "ABEGHKLMPRSTW" + "ABGKLMSW"))
    assert not set(values) & listed


def test_eastern_names_are_in_neither_the_german_nor_the_foreign_lists_and_keep_their_letters():
    """The second test source: Turkish and Eastern European names as their countries write them,
    no country more than its share, none a model trains on or a foreign test draws."""
    from rulings_anon.replacement.surrogates import EASTERN_PER_LOCALE, _half_pools, german_pools

    eastern = _half_pools("eastern")
    listed = set().union(*(set(german_pools()[p]) | set(_half_pools("foreign")[p])
                           for p in ("surname", "first_male", "first_female", "city")))
    for pool in ("surname", "first_male", "first_female", "city"):
        assert 300 <= len(eastern[pool]) <= 9 * EASTERN_PER_LOCALE
        assert not set(eastern[pool]) & listed
    assert sum(any(c in name for c in "ıšžčćłńśźżőűășțğ") for name in eastern["surname"]) > 100
    table = ReplacementTable(SurrogateGenerator(4, "eastern").for_document("doc"))
    values = [table.replacement(f"Herr {i}.", "person").split()[-1] for i in "ABEGHKLMPRSTW"]
    values += [table.replacement(f"{i}.", "place") for i in "ABGKLMSW"]
    assert all(v[0] == i for v, i in zip(values, "ABEGHKLMPRSTW" + "ABGKLMSW"))
    # a letter no name of the pool starts with is grafted onto another name, as for any source
    assert sum(v in set(eastern["surname"]) | set(eastern["city"]) for v in values) >= 18


@pytest.mark.parametrize("value, kind, part", [
    ("Dr. Arnold Griesmann", "person", "Arnold Griesmann"),
    ("Herrn Prof. Dr. Kemper", "person", "Kemper"),
    ("Meyer GmbH & Co. KG", "company", "Meyer"),
    ("Fentler + Sohn GmbH", "company", "Fentler + Sohn"),
    ("e. V.", "organization", "e. V."),  # nothing but a legal form: the whole value
    ("Dr.-Kemper-Straße 3", "street", "Dr.-Kemper-Straße 3"),  # streets and numbers stay whole
    ("12.03.1990", "date", "12.03.1990"),
])
def test_the_gold_span_is_the_name_without_titles_and_legal_form(value, kind, part):
    start, end = sensitive_part(value, kind)
    assert value[start:end] == part
