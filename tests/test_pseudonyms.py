"""Pseudonyms a reader does not notice: one surrogate per entity in every inflection, first names of
the same gender, plates, phone numbers, e-mail addresses and IBANs of the same format, never the
original; a mapping keeps them across the rulings of one case."""

import os
import re

from faker.providers.person.de_DE import Provider as Person

from rulings_anon.document import Span
from rulings_anon.replacement.formatted_values import iban_valid, kind_of
from rulings_anon.replacement.operators import pseudonymize_references
from rulings_anon.replacement.surrogate_mapping import SurrogateMapping, read_mapping, write_mapping
from rulings_anon.replacement.surrogates import plain_name


def marked(text, *marks):
    """Spans of ``(word, type, occurrence)`` in ``text``."""
    spans = []
    for word, kind, n in marks:
        start = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text)][n]
        spans.append(Span(start, start + len(word), word, type=kind))
    return spans


def pseudonymized(text, *marks, doc_id="d", mapping=None):
    return pseudonymize_references(text, marks and marked(text, *marks), doc_id, 0, mapping)[0]


def test_every_inflection_of_a_name_gets_one_surrogate_with_its_case_ending():
    text = ("Die Klägerin Erika Schulze wohnt in Aichach. Frau Schulzes Antrag vom Mai stellte Schulze in "
            "Aichach, der Zeuge Thomas Fuchs unterschrieb. Fuchs' Aussage.")
    new = pseudonymized(text, ("Erika Schulze", "person", 0), ("Aichach", "place", 0), ("Schulzes", "person", 0),
                        ("Schulze", "person", 1), ("Aichach", "other", 1), ("Thomas Fuchs", "person", 0),
                        ("Fuchs'", "person", 0))
    # "Schulzes" -> "Seips", "Fuchs'" -> "Fechners"; the town has one surrogate whatever type a mention got;
    # "Thomas" does not become a near copy such as "Tom"
    assert new == ("Die Klägerin Eleonore Seip wohnt in Augsburg. Frau Seips Antrag vom Mai stellte Seip in "
                   "Augsburg, der Zeuge Timm Fechner unterschrieb. Fechners Aussage.")


def test_a_genitive_before_a_noun_keeps_its_ending_when_the_name_is_met_only_so():
    new = pseudonymized("Frau Schulzes Antrag wurde abgelehnt.", ("Schulzes", "person", 0))
    assert new == "Frau Steinbergs Antrag wurde abgelehnt."


def test_first_names_keep_their_gender_and_surnames_stay_surnames():
    text = "Erika kam mit Thomas. Die Klägerin Özge Yılmaz und Herr Emre Yılmaz."
    new = pseudonymized(text, ("Erika", "person", 0), ("Thomas", "person", 0), ("Özge Yılmaz", "person", 0),
                        ("Emre Yılmaz", "person", 0))
    assert new == "Eleonore kam mit Tony. Die Klägerin Özlem Yabus und Herr Ehrenfried Yabus."
    # a listed woman's name alone, and an unlisted one after "Klägerin", get a woman's name
    assert {"Eleonore", "Özlem"} <= set(Person.first_names_female) | {"Özlem"}
    assert "Eleonore" not in Person.last_names and {"Tony", "Ehrenfried"} <= set(Person.first_names_male)


def test_the_original_is_never_its_own_surrogate_not_even_without_its_diacritics():
    for name in ("Yılmaz", "YILMAZ", "Öztürk", "Ährlich", "Xander"):
        new = pseudonymized(f"Der Kläger {name} klagt.", (name, "person", 0))
        surrogate = new.split()[2]
        assert plain_name(surrogate) != plain_name(name) and surrogate[0].upper() == name[0].upper()


def test_plates_phone_numbers_e_mail_addresses_and_ibans_keep_their_format():
    text = ("Kennzeichen M-AB 1234, Telefon 089 / 123 456 78 oder +49 171 2345678, E-Mail erika.schulze@web.de "
            "und info@schulze-bau.de, IBAN DE89 3704 0044 0532 0130 00 oder DE89370400440532013000.")
    values = ["M-AB 1234", "089 / 123 456 78", "+49 171 2345678", "erika.schulze@web.de", "info@schulze-bau.de",
              "DE89 3704 0044 0532 0130 00", "DE89370400440532013000"]
    types = ["VEHICLE", "PHONE", "PHONE", "EMAIL", "EMAIL", "IBAN", "IBAN"]
    new = pseudonymized(text, *((v, t, 0) for v, t in zip(values, types, strict=True)))
    assert new == ("Kennzeichen D-RX 9541, Telefon 080 / 051 468 92 oder +49 189 3973690, E-Mail "
                   "walfried.paertzelt@web.de und info@doering.de, IBAN DE26 0835 2949 8962 3843 47 oder "
                   "DE09200112583572478203.")
    assert [kind_of(v) for v in ("D-RX 9541", "080 / 051 468 92", "walfried.paertzelt@web.de",
                                 "DE26 0835 2949 8962 3843 47")] == ["plate", "phone", "email", "iban"]
    assert iban_valid("DE26 0835 2949 8962 3843 47") and iban_valid("DE09200112583572478203")
    assert not iban_valid("DE27 0835 2949 8962 3843 47")  # the checksum is checked, not only the shape
    assert not any(value in new for value in values)


def test_a_mapping_gives_one_person_the_same_surrogate_in_two_rulings(tmp_path):
    first, second = "Die Klägerin Erika Schulze klagt.", "Frau Schulzes Berufung gegen Erika Schulze."
    alone = [pseudonymized(second, ("Schulzes", "person", 0), ("Erika Schulze", "person", 0), doc_id=d)
             for d in ("urteil", "beschluss")]
    assert alone[0] != alone[1]  # without a mapping each ruling draws its own
    mapping = SurrogateMapping()
    one = pseudonymized(first, ("Erika Schulze", "person", 0), doc_id="urteil", mapping=mapping)
    path = tmp_path / "fall.mapping.jsonl"
    write_mapping(path, mapping)
    assert os.stat(path).st_mode & 0o777 == 0o600
    two = pseudonymized(second, ("Schulzes", "person", 0), ("Erika Schulze", "person", 0), doc_id="beschluss",
                        mapping=read_mapping(path))
    name = one.split()[2:4]
    assert two == f"Frau {name[1]}s Berufung gegen {name[0]} {name[1]}."


def test_a_name_in_small_letters_gets_a_surrogate_too():
    """A user name written in small letters ("schattenwolf88", an alias) was kept as it stood."""
    text = "Er schrieb als „schattenwolf88“ und als „Schattenwolf88“ an Frau Keller."
    spans = [Span(text.index(w), text.index(w) + len(w), w, t)
             for w, t in (("schattenwolf88", "ALIAS"), ("Schattenwolf88", "ALIAS"), ("Keller", "person"))]
    out, _ = pseudonymize_references(text, spans, "doc")
    assert "schattenwolf" not in out.lower() and "Keller" not in out
    small, capital = re.findall(r"„([^“]+)“", out)
    assert small.islower() and small.isalpha() and small == capital.lower()  # one person, one surrogate
