"""Table-driven tests of the rule-based recognizers: each row says why it must (not) match."""

from __future__ import annotations

import pytest

from rulings_anon.analyzer.recognizers import NAMES, analyze, is_standalone, resolve_overlaps
from rulings_anon.analyzer.recognizers.iban import iban_checksum_ok
from rulings_anon.analyzer.recognizers.permit import isbn_ok
from rulings_anon.document import Span


def found(text: str, name: str) -> list[str]:
    """Texts of the spans the recognizer ``name`` reports when it runs alone."""
    spans = analyze(text, enabled={name})
    assert all(text[s.start:s.end] == s.text and s.source == name for s in spans)
    return [s.text for s in spans]


POSITIVES = [
    # IBAN grouped in fours is one span, the checksum holds.
    ("iban", "Bankverbindung: DE91 1000 0000 0123 4567 89 bei der Sparkasse.", ["DE91 1000 0000 0123 4567 89"]),
    ("iban", "auf das Konto DE91100000000123456789.", ["DE91100000000123456789"]),
    # A following "BIC" is not swallowed: the German IBAN has exactly 22 characters.
    ("iban", "IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX", ["DE89 3704 0044 0532 0130 00"]),
    ("iban", "IBAN: GB82 WEST 1234 5698 7654 32", ["GB82 WEST 1234 5698 7654 32"]),
    ("account_number", "Kontonummer 1234567890 bei der Bank", ["1234567890"]),
    ("account_number", "Konto-Nr. 123 456 789, BLZ 100 500 00", ["123 456 789", "100 500 00"]),
    ("email", "per E-Mail an max.mustermann@example.org geschrieben", ["max.mustermann@example.org"]),
    ("email", "(info@kanzlei-schulz.de)", ["info@kanzlei-schulz.de"]),
    ("url", "auf der Website www.example.org.", ["www.example.org"]),
    ("url", "unter https://www.shop-mueller.de/produkte?id=3 abrufbar", ["https://www.shop-mueller.de/produkte?id=3"]),
    ("url", "die Domain mueller-moebel.de wurde registriert", ["mueller-moebel.de"]),
    ("phone", "Tel.: 030 / 123 45 67", ["030 / 123 45 67"]),
    ("phone", "unter der Rufnummer (089) 1234-567 angerufen", ["(089) 1234-567"]),
    ("phone", "erreichbar unter +49 30 1234567.", ["+49 30 1234567"]),
    ("phone", "Fax 0049 (0)89 123 45 67", ["0049 (0)89 123 45 67"]),
    ("patent", "das Patent DE102006011652A1 betrifft", ["DE102006011652A1"]),
    ("patent", "Das Streitpatent EP 1 234 567 B1 wurde", ["EP 1 234 567 B1"]),
    ("patent", "Druckschrift DE 10 2006 011 652 A1", ["DE 10 2006 011 652 A1"]),
    ("patent", "Gebrauchsmuster DE 20 2010 012 345", ["DE 20 2010 012 345"]),
    ("trademark", "die unter der Nummer 30 2017 029 616 eingetragene Marke", ["30 2017 029 616"]),
    ("trademark", "Marke 302017029616", ["302017029616"]),
    ("trademark", "die Wortmarke 398 12 345", ["398 12 345"]),
    ("permit", "Baugenehmigung Nr. 602-1.2-2012-3304-23 vom", ["602-1.2-2012-3304-23"]),
    ("permit", "Bescheid Az. 34-2011/1234-56", ["34-2011/1234-56"]),
    ("contract_number", "Darlehensvertrag Nr. 738263528 vom", ["738263528"]),
    ("contract_number", "Vertragsnummer: VS-4711-0815 zu", ["VS-4711-0815"]),
    ("contract_number", "die Versicherungsscheinnummer 12 345", []),  # too few digits after the label
    ("vehicle_registration", "mit dem Pkw M-AB 1234 gefahren", ["M-AB 1234"]),
    ("vehicle_registration", "das Fahrzeug B-XY 123E", ["B-XY 123E"]),
    ("vehicle_registration", "Er fuhr den Wagen M-AB 1234. 2 Tage später", ["M-AB 1234"]),  # at a sentence end
    ("vehicle_registration", "amtliches Kennzeichen HH AB 123", ["HH AB 123"]),
    ("birth_date", "Thilo S., geb. am 25. September 1996, wohnhaft", ["25. September 1996"]),
    ("birth_date", "geboren 12.03.1980 in", ["12.03.1980"]),
    ("birth_date", "die am 1.2.1960 geborene Klägerin", ["1.2.1960"]),
    ("birth_date", "Geburtsdatum: 03.04.75", ["03.04.75"]),
    # the birthplace between the date and the birth word
    ("birth_date", "Der Angeklagte wurde am 4. Mai 1998 in Ingolstadt geboren.", ["4. Mai 1998"]),
    ("birth_date", "die am 1.2.1960 in Neuburg an der Donau geborene Klägerin", ["1.2.1960"]),
    ("birth_date", "Am 4. Mai 1998 wurde in Ingolstadt das Urteil verkündet; geboren ist er 1990.", []),
    ("birth_date", "nach dem 1. 1. 2000 in Deutschland geborene Kinder", []),
    # a statute's cut-off date is nobody's birthday
    ("birth_date", "für die vor dem 1. 7. 2015 geborenen Kinder und ab dem 1.1.2016 geborene", []),
    # Titles and salutations stay outside the name; a particle belongs to it.
    ("person_title", "dass Frau Dr. med. Wagenknecht den Aufruf", ["Wagenknecht"]),
    ("person_title", "§ 1 Herr: Bloch wird ab", ["Bloch"]),
    ("person_title", "Herr Thilo von Schmiedeberg und Zeugin Franke", ["Thilo von Schmiedeberg", "Franke"]),
    ("person_title", "Der Vorsitzende Richter Müller und Frau Richterin Schmitt", []),  # judges by role
    # Salutations and academic titles of rulings_anon/data/name_affixes.json; a function word is no name.
    ("person_title", "Fräulein Kemper und Prof. Dr. h.c. Schmiedeberg", ["Kemper", "Schmiedeberg"]),
    ("person_title", "Anhörung eines Sachverständigen\n\nDie Verfassungsbeschwerde", []),
    # only after "Herr"/"Frau": sensitive on its own
    ("salutation_name", "eine Erklärung von Herrn Wilmsen und Frau Dr. med. Lange", ["Wilmsen", "Lange"]),
    ("salutation_name", "Zeugin Franke, Prof. Dr. Schmiedeberg und Herr Richter Müller", []),
    # a criminal case's parties and witnesses, one or two words; not a common word after the role
    ("party_name", "Auf die Revision des Angeklagten Theophil Deutschmann wird", ["Theophil Deutschmann"]),
    ("party_name", "der Nebenklägerin Kim Thaler und des Zeugen Brandtner (vgl.", ["Kim Thaler", "Brandtner"]),
    ("party_name", "die Mitangeklagten Heim und Merlin Nowak; der Zeuge Müller Angaben", ["Heim", "Merlin Nowak", "Müller"]),
    # a list after the role, closed by "und"; a separately prosecuted person
    ("party_name", "der Angeklagten Krammer, Obermüller, Jank und Pinter sowie Lange", ["Krammer", "Obermüller", "Jank", "Pinter"]),
    ("party_name", "des gesondert Verfolgten Kral; der Zeuge Müller und die Beklagte; der von ihm verfolgten Ziele", ["Kral", "Müller"]),
    # after a given name a common word is a surname, and the list goes on after it
    ("party_name", "mit den Mitangeklagten Kevin Sommer und Dennis Hartwig eine Spielhalle", ["Kevin Sommer", "Dennis Hartwig"]),
    ("party_name", "Der Angeklagte Die Revision; der Kläger Meyer, der Beklagte Schulz, des Zeugen Polizeibeamten", []),
    # a particle before a common word is a phrase ("zu Unrecht"), not part of the name
    ("salutation_name", "die Stimme der Frau Christen zu Unrecht und Herrn Karl zu Guttenberg", ["Christen", "Karl zu Guttenberg"]),
    # after an academic title, also as printed with spaces, unless a judge's: sensitive on its own
    ("titled_name", "vom erstinstanzlich gehörten Sachverständigen Dr. Grill begutachtet", ["Grill"]),
    ("titled_name", "der Dipl. - Psych. Wurm und Prof. Dr. med. Thilo von Schmiedeberg", ["Wurm", "Thilo von Schmiedeberg"]),
    ("titled_name", "die Gutachten von Dr. Schär, Dr. Bühler und Dr. Reisinger", ["Schär", "Bühler", "Reisinger"]),
    ("titled_name", "die Richter am Bundesgerichtshof Cierniak, Bender und Dr. Feilcke", []),  # role, court, list
    ("titled_name", "des Richters Bender. Der Sachverständige Dr. Grill hat", ["Grill"]),  # a sentence ended the list
    ("titled_name", "Becker Spaniol RiBGH Dr. Tiemann befindet sich im Urlaub", []),  # abbreviated role
    ("titled_name", "durch den Vorsitzenden Richter Dipl.-Ing. Kleinschmidt und den Richter Dipl. - Geophys. "
                    "Dr. Wollny beschlossen", []),
    ("titled_name", "den Präsidenten Prof. Dr. Schlegel", []),
    ("titled_name", "der Bundesminister Dr. Schäuble und die Abgeordnete Dr. Wagenknecht", []),  # public offices
    ("titled_name", "aaO).\n\nDr. Milger Dr. Achilles Dr. Fetzer Dr. Bünger Kosziol", []),  # signatures
    ("titled_name", "aaO).\n\nMayen Harsdorf-Gebhardt Lehmann Dr. Brockmöller", []),
    ("titled_name", "mwN).\n\nMayen Dr. Karczewski Lehmann Dr. Götz", []),
    ("street", "wohnhaft Kirchstraße 12 in Halle", ["Kirchstraße 12"]),
    ("street", "Am Lindenweg 3a", ["Am Lindenweg 3a"]),
    # -straße names a street without a number; the space after the number is no part of it.
    ("street", "wohnten in der Kohlstraße in Artern", ["Kohlstraße"]),
    ("street", "Grundstück in Xanten, Yilmazstraße 101 (Grundstück)", ["Yilmazstraße 101"]),
    ("street", "Sitz: Konrad-Adenauer-Straße 12-14, Bonn", ["Konrad-Adenauer-Straße 12-14"]),
    ("street", "Theodor-Heuss-Ring 3 und Mainufer 7", ["Theodor-Heuss-Ring 3", "Mainufer 7"]),
    # Other street words need a number or a street context: before it, a postcode or "str." after it.
    ("street", "wohnhaft Lindenweg in Halle", ["Lindenweg"]),
    ("street", "Anschrift: Marktplatz in Halle", ["Marktplatz"]),
    ("street", "die Praxis in der Hövelring. Innenstadt", ["Hövelring"]),
    ("street", "Lindenweg, 12345 Halle", ["Lindenweg"]),
    ("street", "adressiert an Finkeweg str., in Mainburg", ["Finkeweg"]),
    # an adjective and a street word: with a number, a postcode or a context only
    ("street", "wohnhaft Frankfurter Straße 12 in Halle", ["Frankfurter Straße 12"]),
    ("street", "Tegernseer Landstraße 161, 81539 München", ["Tegernseer Landstraße 161"]),
    ("street", "in der Bayerischen Straße", ["Bayerischen Straße"]),
    ("street", "die Frankfurter Straße ist gesperrt", []),
    # any street before a house number, a postcode and a town: a party's address line
    ("street", "Brigitte Kaiser, Am Anger 7, 85540 Haar", ["Am Anger 7"]),
    ("street", "wohnhaft Hauptmarkt 4, 90403 Nürnberg, und Alter Markt 3 a, 50667 Köln", ["Hauptmarkt 4", "Alter Markt 3 a"]),
    ("street", "Am Anger 7 in Haar; Urteil vom 3. Mai 2012, 12345 Fälle; Rn 12, 2019 Heft", []),
    # A name after "geborene"/"verstorbene"; not a noun: a dev common word ("Kläger") or, by the
    # noun lexicon, a common noun or a compound of one ("Zwillingstochter").
    ("described_person", "Bei der 1940 geborenen Grundner besteht eine Psychose.", ["Grundner"]),
    ("described_person", "die im Mai 2009 verstorbene Levin Angerer (im Folgenden: Versicherte)", ["Levin Angerer"]),
    ("described_person", "Der 1952 geborene Kläger und die 2010 geborene Zwillingstochter Juana.", []),
    # Capitalized words the German noun lexicon does not list as common nouns, nor as compounds of
    # them: unknown words, names and places ("Berlin-Brandenburg", judged by its last part); not
    # sentence words ("Die", "Haftung"), not compounds ("Reisevorleistungen"), not abbreviations ("BGH").
    ("unknown_word", "Auinger lehnte die Haftung ab. Der Vertrag mit Thaller in Uzwil war nichtig.",
     ["Auinger", "Thaller", "Uzwil"]),
    ("unknown_word", "Die Reisevorleistungen der Aebi prüfte der BGH in Berlin-Brandenburg.",
     ["Aebi", "Berlin-Brandenburg"]),
    ("unknown_word", "Die Klägerin Meier-Stelzl und Frau Grundner", ["Meier-Stelzl", "Grundner"]),
    # names and places of any Latin alphabet, whole: not cut at the first letter German lacks
    ("unknown_word", "Sie zog von Ploiești nach Łódź zu Yıldırım und Kovačič-Öztürk.",
     ["Ploiești", "Łódź", "Yıldırım", "Kovačič-Öztürk"]),
    ("salutation_name", "Herr Kovačič und Frau Yıldırım trafen Herrn Öğlakcioğlu.",
     ["Kovačič", "Yıldırım", "Öğlakcioğlu"]),
]


@pytest.mark.parametrize(("name", "text", "expected"), POSITIVES)
def test_when_reference_then_one_span_per_reference(name, text, expected):
    assert found(text, name) == expected


# Texts no recognizer may report anything in: citations, file numbers, statutes, other dates.
NEGATIVES = [
    "Beschluss vom 12. Februar 2009 - IX ZB 72/08, NJW 2009, 1234",  # case number and citation
    "BFH, Urteil vom 15. April 2015 V R 27/14, BFHE 249, 500, BStBl II 2016, 163",  # BFH file number
    "nach § 8 Abs. 3 UWG und § 45 SGB X",  # statute references
    "das Urteil vom 25. September 1996 ist rechtskräftig",  # a date that is not a birth date
    "vom 1.1.2010-31.12.2012 beschäftigt",  # date range, not a permit number
    "Palandt, BGB, 78. Aufl. 2019, ISBN 978-3-406-72600-2, § 242 Rn. 5",  # ISBN in a citation
    "Müller, Kommentar, 3-406-45678-2 (ISBN-10)",  # valid ISBN-10 without the label
    "BGBl. I S. 2317; NJW 2018, 1234; BT-Drucks. 17/12345",  # gazette pages look like numbers
    "Rein NZA-RR 2009, 462; Spengler in Burger TVöD / TV-L 3. Aufl.",  # journal and edition, not plates
    "1 BvR 600/92 -, NJW-RR 1993, S. 383 < 383 >; von A-F nach A-M 21 km",  # page with "S.", a distance
    "B 4 AS 12/16 R und 1 BvR 2019/09 sowie L 3 AS 0123/16",  # social and constitutional court file numbers
    "BVerwG 1 WDS-VR 9.17 und 2 WD 14.19",  # file numbers: a number before the register, ".year" after
    "Vgl. a.a.O., Rn. 12 f.; z.B. Rz. 3",  # abbreviations with dots are not domains
    "im Zeitraum 2012 bis 2015 betrug die Summe 12.345,67 EUR",  # amounts and years
    "DE91 1000 0000 0123 4567 88",  # IBAN with a wrong check digit
    "die Zahlung von 0301 234567 Euro",  # a number with a leading 0 but no phone context
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_when_no_sensitive_number_then_no_span(text):
    # unknown_word proposes every name-like word, cited authors' too: candidates for the model only
    assert analyze(text, enabled=set(NAMES) - {"unknown_word"}) == []


# Nouns ending in a street word, without a house number or a street context, are no streets.
STREET_NEGATIVES = [
    "Der Rechtsweg zu den Gerichten der Sozialgerichtsbarkeit ist eröffnet.",
    "auf dem Sozialrechtsweg; der Instanzenweg ist erschöpft",
    "ein Umweg über den Verwaltungsweg",
    "am Arbeitsplatz und auf dem Standplatz",
    "der Prüfring und der Kardanring",
    "ein Job-Sharing oder Timesharing",
    "Käufer, Verkäufer und Wiederverkäufer",  # -ufer after a vowel
    "Ströbele / Hacker / Thiering, MarkenG",  # -ring after a vowel: a surname
    "Pape Grupp Möhring\n\n1. Auf die Revision",  # a number in the next paragraph is no house number
    "auf der Bundesstraße 3 in einer Sackgasse",  # road-type nouns (rulings_anon/data/recognizers.json)
    "der Rechtsweg 2015",  # a year is no house number
]


@pytest.mark.parametrize("text", STREET_NEGATIVES)
def test_when_noun_only_ends_in_a_street_word_then_no_street(text):
    assert found(text, "street") == []


def test_when_recognizer_disabled_then_its_hits_are_gone():
    text = "Mail an a@example.org, IBAN DE91 1000 0000 0123 4567 89"
    assert {s.source for s in analyze(text)} == {"email", "iban"}
    assert {s.source for s in analyze(text, enabled={"iban"})} == {"iban"}
    with pytest.raises(ValueError, match="unknown recognizers"):
        analyze(text, enabled={"nope"})


def test_when_context_word_precedes_then_score_rises():
    with_context = analyze("Kennzeichen M-AB 1234", enabled={"vehicle_registration"})[0]
    without = analyze("M-AB 1234", enabled={"vehicle_registration"})[0]
    assert without.score == pytest.approx(0.7)
    assert with_context.score == pytest.approx(1.0)


def test_when_iban_checksum_valid_then_score_is_max_and_phone_inside_loses():
    text = "Tel. Konto DE91 1000 0000 0123 4567 89"
    spans = analyze(text)
    assert [(s.text, s.type, s.score) for s in spans] == [("DE91 1000 0000 0123 4567 89", "IBAN", 1.0)]


def test_checksums():
    assert iban_checksum_ok("DE89370400440532013000")
    assert not iban_checksum_ok("DE89370400440532013001")
    assert isbn_ok("9783406726002") and isbn_ok("3406456782")
    assert not isbn_ok("6021220123304")


def test_when_spans_overlap_then_higher_score_wins():
    a, b, c = Span(0, 10, score=0.6), Span(5, 12, score=0.9), Span(12, 14, score=0.5)
    assert resolve_overlaps([a, b, c]) == [b, c]


def test_when_domain_is_a_public_site_then_no_url_span():
    text = "vgl. www.bverfg.de und www.leo.org, aber nicht www.mueller-privat.de"
    assert found(text, "url") == ["www.mueller-privat.de"]


def test_standalone_flags_come_from_data():
    assert is_standalone("iban") and not is_standalone("patent") and not is_standalone("url")
    assert is_standalone("salutation_name") and not is_standalone("person_title")
    assert is_standalone("titled_name") and not is_standalone("birth_date")


def test_a_judge_with_a_title_stays_a_candidate_for_the_model():
    text = "durch den Vorsitzenden Richter Dr. Strößner. Das Gutachten des Dr. Grill"
    assert [(s.text, s.source) for s in analyze(text)] == [("Strößner", "person_title"), ("Grill", "titled_name")]


@pytest.mark.parametrize("text, street, address", [
    ("wohnhaft Kirchstraße 12 in Halle", "Kirchstraße 12", True),  # a house number
    ("Lindenweg, 12345 Halle", "Lindenweg", True),  # a postcode after it
    # where someone lives or works, a town after it, a placeholder of its house number
    ("wohnten in der Kohlstraße in Artern", "Kohlstraße", True),
    ("die Wohnung des Klägers in der Vogtstraße zu Recht", "Vogtstraße", True),
    ("Nebenwohnung: Ahornstraße, ...", "Ahornstraße", True),
    ("unter der Adresse Ahornstraße, …, sei", "Ahornstraße", True),
    ("Brigitte Kaiser, Am Anger 7, 85540 Haar", "Am Anger 7", True),  # a postcode and a town after it
    ("der Beschuldigte, wh Kirchstraße, wurde", "Kirchstraße", True),
    # a street alone may name a ministry, a road driven along or an office
    ("das Ministerium in der Wilhelmstraße", "Wilhelmstraße", False),
    ("befuhr er die Kohlstraße in Richtung Artern", "Kohlstraße", False),
    ("die Nordstraße, in stadtauswärtiger Richtung", "Nordstraße", False),
    ("DPMA, Dienststelle Cincinnatistraße", "Cincinnatistraße", False),
])
def test_an_address_is_sensitive_on_its_own_a_street_alone_is_a_candidate(text, street, address):
    (span,) = analyze(text, enabled={"street"})
    assert span.text == street
    assert span.score == pytest.approx(0.85 if address else 0.6)
    assert is_standalone("street", span.score) is address


# Published example IBANs (valid) and the same with one digit changed (invalid); the checksum is
# int(rearranged) % 97 == 1, so a check digit that makes the remainder 0 must fail too.
VALID_IBANS = ["DE89370400440532013000", "DE91100000000123456789", "GB82WEST12345698765432",
               "FR1420041010050500013M02606", "NL91ABNA0417164300", "AT611904300234573201",
               "CH9300762011623852957", "BE68539007547034"]


@pytest.mark.parametrize("iban", VALID_IBANS)
def test_when_an_iban_is_valid_then_its_checksum_holds_and_one_changed_digit_breaks_it(iban):
    assert iban_checksum_ok(iban)
    last = iban[-1]
    assert not iban_checksum_ok(iban[:-1] + str((int(last) + 1) % 10))
    swapped = iban[:4] + iban[5] + iban[4] + iban[6:]
    assert iban_checksum_ok(swapped) == (iban[4] == iban[5])


@pytest.mark.parametrize("iban", VALID_IBANS)
def test_when_the_check_digits_leave_remainder_0_then_the_iban_is_invalid(iban):
    def remainder(candidate):
        rearranged = candidate[4:] + candidate[:4]
        return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97

    zero = [iban[:2] + f"{d:02d}" + iban[4:] for d in range(100) if remainder(iban[:2] + f"{d:02d}" + iban[4:]) == 0]
    assert zero, "every IBAN has check digits that give remainder 0"
    assert not any(iban_checksum_ok(candidate) for candidate in zero)
    ones = [iban[:2] + f"{d:02d}" + iban[4:] for d in range(100) if remainder(iban[:2] + f"{d:02d}" + iban[4:]) == 1]
    assert ones == [iban]  # exactly one pair of check digits is valid
