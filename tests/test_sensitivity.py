"""The sensitivity scorer: features on exact examples, the shipped model, fold isolation."""

from __future__ import annotations

import numpy as np
import pytest

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.data import path as data_path
from rulings_anon.errors import ModelError


def _row(text: str, word: str, **kwargs) -> dict[str, float]:
    features = sf.document_features(text, sf.Tables(), **kwargs)
    for r, i in enumerate(features.candidates):
        if sf.core_word(features.elements[i].text) == word:
            return dict(zip(sf.FEATURES, features.rows[r].tolist(), strict=True))
    raise AssertionError(f"{word!r} is no candidate of {text!r}")


def _marked(text: str, column: str) -> list[str]:
    """The candidate words of ``text`` whose ``column`` is set, in order."""
    features = sf.document_features(text, sf.Tables())
    return [sf.core_word(features.elements[i].text) for r, i in enumerate(features.candidates)
            if features.rows[r, sf.COLUMN[column]]]


@pytest.mark.parametrize("element, word", [
    ("Kemper.", "Kemper"),       # a sentence period is no part of the name
    ("K.", "K."),                # an initial keeps it
    ("(Kemper),", "Kemper"),     # brackets and commas go
    ("„Meyer“", "Meyer"),        # so do quotes
    ("(Käfer-Klinik).", "Käfer-Klinik"),  # a bracket before the sentence period as well
])
def test_when_an_element_has_punctuation_then_the_core_word_drops_it(element, word):
    assert sf.core_word(element) == word


def test_when_a_name_follows_a_salutation_then_the_cue_is_set_for_every_mention():
    text = "Der Kläger trägt vor, Herr Kemper habe gezahlt. Kemper bestreitet das."
    first, second = _row(text, "Kemper"), None
    features = sf.document_features(text, sf.Tables())
    rows = [features.rows[r] for r, i in enumerate(features.candidates) if features.elements[i].text.startswith("Kemper")]
    second = dict(zip(sf.FEATURES, rows[1].tolist(), strict=True))
    assert first["salutation_before"] == 1.0
    assert second["salutation_before"] == 0.0 and second["doc_salutation"] == 1.0
    assert second["sentence_start"] == 1.0 and first["sentence_start"] == 0.0
    assert first["doc_count"] == pytest.approx(np.log1p(2))


@pytest.mark.parametrize("text, word, start", [
    ("Es erschien Frau U. Koch als Zeugin.", "Koch", 0.0),     # an initial's period ends no sentence
    ("Es erschien Frau Th. Koch als Zeugin.", "Koch", 0.0),
    ("Es erschien Dr. Koch als Zeuge.", "Koch", 0.0),          # nor a listed abbreviation's
    ("Es erschien (Dr.) Koch als Zeuge.", "Koch", 0.0),
    ("Die Zeugin kam. Koch sagte aus.", "Koch", 1.0),          # a sentence's period does
    ("Die Zeugin kam: Koch sagte aus.", "Koch", 1.0),
])
def test_when_a_period_ends_an_initial_or_an_abbreviation_then_the_next_word_starts_no_sentence(text, word, start):
    assert _row(text, word)["sentence_start"] == start


@pytest.mark.parametrize("text, word", [
    ("Der Zeuge Oberstleutnant Putz sagte aus.", "Putz"),
    ("Er meldete dem Hauptfeldwebel Anders den Vorfall.", "Anders"),
    ("Der Leitende Arzt Bolnbach untersuchte ihn.", "Bolnbach"),
    ("Die Aussage des Gefreiten Sager war glaubhaft.", "Sager"),
    ("Der Kommandeur Kapitän zur See Meister befahl es.", "Meister"),
    ("Er veranlagte mit seiner Ehefrau (Eisner) zusammen.", "Eisner"),   # relatives, too
    ("Die Lebensgefährtin Wimmer zog aus.", "Wimmer"),
])
def test_when_a_name_follows_a_rank_or_role_then_it_counts_as_after_a_salutation(text, word):
    row = _row(text, word)
    assert row["salutation_before"] == 1.0 and row["doc_salutation"] == 1.0
    assert row["judge_before"] == 0.0 and row["judge_list"] == 0.0


def test_when_names_follow_a_judge_role_then_the_whole_list_is_the_public_panel():
    text = ("Der Senat hat durch die Richterinnen Baer und Britz, Dr. Kessal-Wulf, Prof. Dr. Ott und Hermanns "
            "entschieden. Die Richterin am LSG Dr. Weber hatte die Zeugin Baer gehört.")
    in_list = _marked(text, "judge_list")
    # the list reaches past the six words of judge_before; a lower court's judge and a witness stay out
    assert in_list == ["Baer", "Britz", "Dr.", "Kessal-Wulf", "Prof", "Dr.", "Ott", "Hermanns"]
    assert _row(text, "Hermanns")["judge_before"] == 0.0


def test_when_a_name_is_in_the_judges_list_then_the_model_gives_it_no_probability():
    model = sm.load_model()
    features = sf.document_features("Es entschieden die Richter Zzyxbaum und Qwertzmann.", model.tables)
    probabilities = model.predict_rows(features.rows)
    listed = features.rows[:, sf.COLUMN["judge_list"]] > 0
    assert listed.sum() == 2 and (probabilities[listed] == 0).all()


def test_when_judges_sign_the_ruling_then_their_names_are_the_public_panel():
    text = ("Der Kläger hat die Kosten seiner Revision zu tragen. Brühler Suckow Krasshöfer\n\n"
            "Lipphaus Winzenried Lehrereingruppierung - Eingruppierungserlass\n\n"
            "Der Zeuge Hubert Kaltenbrunner und Herr Suckau Meier sagten aus.")
    listed = _marked(text, "judge_list")
    # the run of bare names after the sentence, across the paragraph break, up to the next title's
    # first word; a witness's and a party's names in a sentence stay out
    assert listed == ["Brühler", "Suckow", "Krasshöfer", "Lipphaus", "Winzenried", "Lehrereingruppierung"]


@pytest.mark.parametrize("text, word, signed", [
    ("Die Kosten trägt er (§ 97 ZPO). Schmidt Treber K. Schmidt Schwitzer Benrath Nachteilsausgleich", "Treber", 1.0),
    ("Er ist nicht verpflichtet. Schlewing Winter Roloff\n\nVolz Leitz Betriebsübergang - Verwirkung", "Leitz", 1.0),
    ("Die Kosten trägt er. Brühler Suckow Matth. Dipper M. Lücke Mitbestimmung", "Dipper", 1.0),
    ("Er ist nicht verpflichtet. Vogler Christen Schön Strohmayer GmbH klagt.", "Vogler", 0.0),  # a firm
    ("Der Zeuge kam. Hans Peter Meier sagte aus.", "Meier", 0.0),
    # a signature after a sentence ending in a word shaped like an abbreviation, and a judge's "von"
    ("Das ist hier das Oberlandesgericht Frankfurt am Main. Schäfer Appl Krehl Eschelbach\n\nZeng\n\n1. Auf", "Krehl", 1.0),
    ("Die Kosten werden bestimmt. Galke von Pentz\n\nOehler Roloff Klein Revision in Strafsachen", "Oehler", 1.0),
    ("Der Zeuge kam aus Frankfurt am Main. Meier von Stein sagte aus.", "Meier", 0.0),
])
def test_when_judges_sign_with_initials_or_common_surnames_then_it_is_still_their_signature(text, word, signed):
    assert _row(text, word)["judge_list"] == signed


def test_when_a_public_office_precedes_a_name_then_its_holder_is_public():
    text = ("Der Antragsteller lehnte den Vizepräsidenten Ferdinand Kirchhof ab. Ministerpräsident Dr. "
            "Müller sprach. Der Zeuge Huber und der Präsident des Vereins Maier sagten aus.")
    listed = _marked(text, "judge_list")
    # inflected offices, a first name and titles between; not a name after the office's institution
    assert listed == ["Ferdinand", "Kirchhof", "Dr.", "Müller"]
    # the Court of Justice's advocates general are public officials too
    assert _marked("Vgl. die Schlussanträge der Generalanwältin Kokott vom 26. September 2013.",
                   "judge_list") == ["Kokott"]


def test_when_an_office_is_a_compound_or_names_its_institution_then_its_holder_is_public_too():
    text = ("Die Verteidigungsministerin Ursula von der Leyen ordnete es an. Die von US-Präsident Obama "
            "unterbreiteten Vorschläge. Der Präsident des BND Bruno Kahl sagte aus. Der Generalbundesanwalt "
            "Siegfried Buback. Der Vereinspräsident Kellner und der Zeuge Huber sagten aus.")
    # not a club's president, nor a witness
    assert _marked(text, "judge_list") == ["Ursula", "Leyen", "Obama", "Bruno", "Kahl", "Siegfried", "Buback"]


COURT, AUTHORITY = sf.SEAT_OF_COURT_OR_LANDMARK, sf.SEAT_OF_AUTHORITY


@pytest.mark.parametrize("text, word, seat", [
    ("Der Beschluss des Amtsgerichts Soltau vom 8. Februar wird aufgehoben.", "Soltau", COURT),
    ("Die Staatsanwaltschaft Memmingen erhob Anklage.", "Memmingen", AUTHORITY),
    ("Das Landgericht Bad Kreuznach entschied.", "Kreuznach", COURT),
    ("Das Landratsamt Bad Kissingen erließ den Bescheid.", "Kissingen", AUTHORITY),
    ("Er saß in der Justizvollzugsanstalt Offenburg ein.", "Offenburg", COURT),
    ("Die Richterin am Amtsgericht Wimmer entschied.", "Wimmer", 0.0),   # a lower court's judge
    ("Der Kläger wohnt im Landkreis Spremberg.", "Spremberg", 0.0),      # a district is no seat
    ("Die Versetzung nach Cottbus lehnte er ab.", "Cottbus", 0.0),
    # a landmark named after its place
    ("Die Atomwaffen auf dem Fliegerhorst Büchel.", "Büchel", COURT),
    ("Die Eigentümerin des Kernkraftwerks Krümmel klagte.", "Krümmel", COURT),
    ("Er arbeitete am Flughafen Frankfurt am Main.", "Frankfurt", COURT),
    ("Die Ernst-Moritz-Arndt-Universität Greifswald stellte ihn ein.", "Greifswald", 0.0),  # left to the model
    ("Die Anteile halten die Stadtwerken Bielefeld.", "Bielefeld", COURT),  # a landmark, as a utility
    ("Er arbeitete in der Werkstatt Büchel.", "Büchel", 0.0),             # no landmark
    ("Er klagte beim Amtsgericht. Kowalczyk erklärte es.", "Kowalczyk", 0.0),  # a sentence ends between
    ("Sie klagte vor dem Sozialgericht: Kowalczyk sei zuständig.", "Kowalczyk", 0.0),
])
def test_when_a_court_or_authority_names_its_seat_then_the_seat_is_marked(text, word, seat):
    assert _row(text, word)["seat"] == seat


def test_when_a_word_is_a_seat_then_the_model_gives_it_no_probability():
    model = sm.load_model()
    text = "Das Amtsgericht Zzyxheim und die Staatsanwaltschaft Qwertzdorf. Zeuge Zzyxheim sagte aus."
    features = sf.document_features(text, model.tables)
    probabilities = model.predict_rows(features.rows)
    seats = features.rows[:, sf.COLUMN["seat"]] > 0
    assert seats.sum() == 2 and (probabilities[seats] == 0).all()
    # the same word after a witness's role is judged by the trees, and flagged
    assert probabilities[~seats].max() >= sm.stored_threshold(data_path("scorer"))


def _probability_of(model, text: str, word: str) -> list[float]:
    """The probabilities of every mention of ``word`` in ``text``, the text decided alone."""
    from rulings_anon.analyzer import recognizers as rec

    candidates, probabilities = model.predict_text(text, rec.analyze(text))
    elements = sf.document_features(text, model.tables).elements
    return [float(p) for i, p in zip(candidates, probabilities, strict=True) if sf.core_word(elements[i].text) == word]


def test_when_a_known_place_is_a_seat_once_then_it_is_public_in_every_mention_of_its_document():
    model = sm.load_model()
    text = ("Er lehnte es ab, sich in die Justizvollzugsanstalt Offenburg verlegen zu lassen. Seine Haltung "
            "gegenüber einer Verlegung nach Offenburg sei verständlich.")
    assert _probability_of(model, text, "Offenburg") == [0.0, 0.0]
    alone = "Seine Haltung gegenüber einer Verlegung nach Offenburg sei verständlich."
    assert _probability_of(model, alone, "Offenburg")[0] > 0.0
    # a seat the policy does not exempt makes no other mention public either
    model.follow_exemptions(off=("seats",))
    assert all(p > 0.0 for p in _probability_of(model, text, "Offenburg"))


def test_when_a_seat_is_no_known_place_then_its_other_mentions_stay_the_models():
    """"die Berichterstatterin des FG Pachler aufforderte": the seat rule may take a person's name."""
    model = sm.load_model()
    text = "Das Amtsgericht Zzyxheim und die Staatsanwaltschaft Qwertzdorf. Zeuge Zzyxheim sagte aus."
    first, witness = _probability_of(model, text, "Zzyxheim")
    assert first == 0.0 and witness >= sm.stored_threshold(data_path("scorer"))


def test_when_a_cited_author_is_public_once_then_only_its_own_document_follows():
    rows = np.zeros((4, sf.N), np.float32)
    rows[0, sf.COLUMN["public_name"]] = 1  # "Schmitt in Meyer-Goßner"
    words = ["Schmitt", "Schmitt", "Pachler", "Pachler"]
    assert sm.public_in_document(rows, words).tolist() == [True, True, False, False]
    assert sm.public_in_document(rows, words, np.array([0, 1, 0, 0])).tolist() == [True, False, False, False]


@pytest.mark.parametrize(("institution", "place", "spreads"), [
    ("Amtsgericht", "Aurich", True), ("Fliegerhorst", "Aurich", True), ("Justizvollzugsanstalt", "Aurich", True),
    ("Amtsgericht", "Bad Kreuznach", True),  # the institution stands before the place's prefix
    ("Staatsanwaltschaft", "Aurich", False),  # an authority's seat may be the party's town ("Landratsamt K.")
    ("Amtsgericht", "Zzyxheim", False),       # no known place: "die Berichterstatterin des FG Pachler aufforderte"
])
def test_when_a_seat_spreads_to_the_other_mentions_of_its_word(institution, place, spreads):
    text = f"Das {institution} {place} entschied. Später zog der Kläger nach {place.split()[-1]}."
    features = sf.document_features(text, sf.Tables())  # seats and places need no learnt table
    words = [sf.core_word(features.elements[i].text) for i in features.candidates]
    public = sm.public_in_document(features.rows, words)
    last = place.split()[-1]
    assert [bool(p) for w, p in zip(words, public, strict=True) if w == last] == [spreads, spreads]
    assert not any(p for w, p in zip(words, public, strict=True) if w != last)


@pytest.mark.parametrize(("word", "label"), [
    ("D1", True), ("E1a", True), ("NiK5", True), ("HLNK8", True), ("K2", True), ("B12", True),
    ("Meier", False), ("A", False), ("D1234", False), ("Anlage2", False), ("K2-Klinik", False),
])
def test_when_a_word_is_letters_and_a_number_then_it_is_a_label(word, label):
    from rulings_anon.analyzer.common_words import label_shaped

    assert label_shaped(word) is label


def test_when_a_label_stands_alone_it_gets_no_probability_but_before_a_legal_form_the_model_judges_it():
    model = sm.load_model()
    text = "Die Druckschrift D1 und die Anlage K2 offenbaren das. Die K2 GmbH klagt gegen die D1 AG."
    assert _probability_of(model, text, "D1")[0] == 0.0 and _probability_of(model, text, "K2")[0] == 0.0
    assert _probability_of(model, text, "K2")[1] > 0.0 and _probability_of(model, text, "D1")[1] > 0.0
    model.follow_exemptions(off=("abbreviations",))  # a court that switches the exemption off
    assert _probability_of(model, text, "D1")[0] > 0.0


def test_the_placeholder_detector_shares_the_ranks_and_roles():
    from rulings_anon.placeholders.detector import Patterns

    triggers = Patterns.load().person_triggers
    assert {"oberstleutnant", "hauptfeldwebel", "korvettenkapitän", "referatsleiter", "herr"} <= triggers


def test_when_a_place_is_listed_then_its_population_is_a_feature():
    text = "Er wohnt in Berlin und arbeitet in Xyzquorf."
    assert _row(text, "Berlin")["place_pop"] > 6  # over a million inhabitants
    assert _row(text, "Xyzquorf")["place_pop"] == 0.0
    assert _row(text, "Xyzquorf")["zipf_de"] == 0.0


def test_when_words_share_a_cluster_branch_then_their_cluster_features_agree():
    text = "Der Kläger Sager wohnt in Spremberg, nicht in Berlin; Herr Kemper zahlt den Anspruch."
    sager, kemper = _row(text, "Sager"), _row(text, "Kemper")
    # surnames share their branch even where the surname is a common noun as well (Sager, Schuster)
    assert (sager["cluster4"], sager["cluster6"], sager["cluster8"]) == (8, 40, 40)
    assert (kemper["cluster6"], kemper["cluster8"]) == (40, 40)
    spremberg, berlin = _row(text, "Spremberg"), _row(text, "Berlin")
    # towns and big cities share the first six steps and part at the eighth
    assert spremberg["cluster6"] == berlin["cluster6"] == 16
    assert (spremberg["cluster8"], berlin["cluster8"]) == (16, 80)
    assert _row(text, "Anspruch")["cluster6"] not in (16, 40)
    assert _row("Xyzquorf zahlt.", "Xyzquorf")["cluster4"] == -1  # no cluster


def test_when_a_name_is_part_of_a_compound_then_the_compound_has_the_names_evidence():
    text = "Die Artner-Fonds KG und der Bürger-Fonds; Baden-Württemberg; Herr Artner zahlt."
    compound, name = _row(text, "Artner-Fonds"), _row(text, "Artner")
    for column in ("zipf_de", "cluster6", "lex_common", "lex_name", "place_pop"):
        assert compound[column] == name[column], column
    assert (compound["hyphen"], compound["length"], compound["part2_common"]) == (1.0, 12.0, 1.0)
    # a common noun before the hyphen stays a common noun; a place without a noun after it stays whole
    assert _row(text, "Bürger-Fonds")["lex_common"] == 1.0
    assert sf._evidence_word("Baden-Württemberg") == "Baden-Württemberg"
    assert sf._evidence_word("Mohaupt-R") == "Mohaupt"  # "M-R" with a surrogate surname
    # a legal form after the hyphen ("B-EWIV"); "KAG" and "BV" are also a statute and a works agreement
    assert [sf._evidence_word(w) for w in ("Buchberger-EWIV", "Stockhammer-BV", "Danninger-KAG")] == [
        "Buchberger", "Stockhammer-BV", "Danninger-KAG"]
    assert np.isnan(name["part1_zipf"]) and name["part1_cluster6"] == -1


@pytest.mark.parametrize("text, word, cited", [
    ("Vgl. Nacke in Littmann / Bitz / Pust, EStG, § 26a Rz 60.", "Nacke", 1.0),   # author in a commentary
    ("Vgl. Nacke in Littmann / Bitz / Pust, EStG, § 26a Rz 60.", "Bitz", 1.0),    # its editors
    ("So auch Graefe, DStR 2017, 2199.", "Graefe", 1.0),                         # author, journal, year
    ("Der Kläger Graefe zahlte 2017 nichts.", "Graefe", 0.0),
    ("Die Klägerin, Frau Graefe, wohnt in Köln.", "Graefe", 0.0),
])
def test_when_a_word_stands_as_a_cited_author_stands_then_it_is_marked(text, word, cited):
    assert _row(text, word)["cited_author"] == cited


def test_when_a_capitalized_abbreviation_has_its_period_then_it_is_marked():
    text = "Wie Abb. 5 zeigt, trägt Herr Abb die Kosten; vgl. Bd. II bei Herrn K."
    rows = sf.document_features(text, sf.Tables())
    marked = [(rows.elements[i].text, rows.rows[r, sf.COLUMN["abbreviation"]]) for r, i in enumerate(rows.candidates)]
    assert marked == [("Wie", 0.0), ("Abb.", 1.0), ("Herr", 0.0), ("Abb", 0.0), ("Kosten;", 0.0), ("Bd.", 1.0),
                      ("II", 0.0), ("Herrn", 0.0), ("K.", 0.0)]
    assert "Abb" in sf.abbreviations() and "Nr" in sf.abbreviations() and "Müller" not in sf.abbreviations()


def test_when_a_word_is_shaped_like_an_abbreviation_then_it_is_marked_and_never_flagged():
    """No vowel, or a part without one after an inner capital: an abbreviation, not a name; an acronym
    in capitals and a hyphenated company name are left to the model."""
    text = ("Nach VergGr IVb BAT und der Brfg des Klägers zahlte die BKKn, so Herr McLean von der MKS GmbH "
            "und der Meyer-GmbH.")
    rows = sf.document_features(text, sf.Tables())
    marked = [rows.elements[i].text for r, i in enumerate(rows.candidates) if rows.rows[r, sf.COLUMN["abbreviation"]]]
    assert marked == ["VergGr", "IVb", "Brfg", "BKKn,", "GmbH"]
    from rulings_anon.engine import Analyzer

    flagged = {s.text for s in Analyzer().analyze(text)}
    assert not flagged & {"VergGr", "Brfg", "BKKn"} and "McLean" in flagged


def test_when_a_parcel_word_is_abbreviated_then_it_is_marked_and_only_its_number_is_a_span():
    """State courts write "Fl.Nr. ..." and "Flst. ...": the word stays, the number goes."""
    text = "Der Kläger ist Eigentümer des Grundstücks Fl.Nr. 123/4 der Gemarkung Pullach; Flst. 78/2 grenzt an."
    rows = sf.document_features(text, sf.Tables())
    assert [rows.elements[i].text for r, i in enumerate(rows.candidates)
            if rows.rows[r, sf.COLUMN["abbreviation"]]] == ["Fl.Nr.", "Flst."]
    from rulings_anon.engine import Analyzer

    assert [(s.start, s.end, s.text) for s in Analyzer().analyze(text) if s.source == "land_parcel"] == [
        (49, 54, "123/4"), (84, 88, "78/2")]
    assert not any("Fl" in s.text for s in Analyzer().analyze(text))


def test_when_a_town_is_printed_as_a_seat_then_it_does_not_count_as_printed_in_clear():
    records = [{"text": "Das Sozialgericht Cottbus und das LSG Berlin-Brandenburg. Versetzung nach Cottbus. "
                        "Der Landkreis Spree und das Finanzamt Aurich.", "spans": []}]
    with_seats, without = sf.clear_counts(records, seats=True), sf.clear_counts(records, seats=False)
    assert (with_seats["Cottbus"], without["Cottbus"]) == (2, 1)
    assert "Berlin-Brandenburg" in with_seats and "Berlin-Brandenburg" not in without
    assert "Aurich" not in without
    assert without["Spree"] == 1  # a district's place is no seat


def test_when_a_court_names_its_seat_then_the_institution_cue_is_set():
    text = "Der Beschluss des Landgerichts Memmingen vom 3. April wird aufgehoben."
    assert _row(text, "Memmingen")["institution_before"] == 1.0
    assert _row(text, "Memmingen")["next_legal_form"] == 0.0
    assert _row("Die Meyer GmbH klagt.", "Meyer")["next_legal_form"] == 1.0


def test_when_a_batch_is_too_small_then_the_batch_feature_is_missing():
    text = "Kemper zahlt."
    assert np.isnan(_row(text, "Kemper", batch_df={"Kemper": 1}, batch_size=3)["batch_share"])
    assert _row(text, "Kemper", batch_df={"Kemper": 5}, batch_size=20)["batch_share"] == 0.25


def test_when_context_words_are_sensitive_then_they_teach_nothing():
    # "Thilo" (a surrogate first name) is hidden as the context of "Kemper"; "Herr" is kept
    features = sf.document_features("Herr Thilo Kemper zahlt.", sf.Tables(), positive=[False, True, True, False])
    by_word = {sf.core_word(features.elements[i].text): k for i, k in zip(features.candidates, features.masked_keys,
                                                                          strict=True)}
    assert by_word["Kemper"] == [None, "herr", "zahlt."]
    assert by_word["Thilo"] == ["herr", None, None]


def _records(court: str, name: str, filler: str, n: int = 12) -> list[dict]:
    records = []
    for d in range(n):
        text = f"Der Kläger {name} wohnt in {filler}. Die {filler}er Behörde schrieb an Herrn {name}."
        start = text.index(name)
        second = text.rindex(name)
        records.append({"id": f"{court}-{d}", "text": text,
                        "spans": [{"start": start, "end": start + len(name)},
                                  {"start": second, "end": second + len(name)}]})
    return records


def test_when_draws_of_a_courts_surrogates_are_joined_then_each_keeps_its_documents():
    first, second = sm.extract_court(_records("a", "Kemper", "Alpha")), sm.extract_court(_records("a", "Lindner", "Alpha"))
    joined = sm.concatenate([first, second])
    assert len(joined.labels) == len(first.labels) + len(second.labels) == len(joined.words) == len(joined.keys)
    assert (joined.n_positive, joined.n_elements) == (48, first.n_elements + second.n_elements)
    # the second draw's twelve documents are numbered 12 to 23, its words and labels after the first's
    assert sorted(set(joined.documents.tolist())) == list(range(24))
    assert joined.words[len(first.words):] == second.words and joined.labels.sum() == 48
    # per document tables see each draw's name alone: "Kemper" and "Lindner" never share a document
    kemper = {int(d) for d, w in zip(joined.documents, joined.words, strict=True) if w == "Kemper"}
    lindner = {int(d) for d, w in zip(joined.documents, joined.words, strict=True) if w == "Lindner"}
    assert kemper == set(range(12)) and lindner == set(range(12, 24))
    assert sm.concatenate([first]) is first


def test_when_a_court_is_left_out_then_nothing_of_it_reaches_the_model():
    courts = {"a": _records("a", "Kemper", "Alpha"), "b": _records("b", "Lindner", "Beta"),
              "c": _records("c", "Wolters", "Gamma")}
    features = {c: sm.extract_court(r) for c, r in courts.items()}
    clears = {c: sf.clear_counts(r) for c, r in courts.items()}
    model = sm.fit({c: features[c] for c in ("a", "b")}, {c: clears[c] for c in ("a", "b")}, rounds=5)
    assert model.config["courts"] == ["a", "b"]
    assert "Gamma" not in model.tables.clear and "Alpha" in model.tables.clear
    assert "wolters" not in model.tables.context["prev1"]
    # cross-fitting: court a's rows see the tables of b alone
    tables_b = sm.build_tables([features["b"]], [clears["b"]])
    rows = sm.with_tables(features["a"], tables_b)
    alpha = [r for r, w in enumerate(features["a"].words) if w == "Alpha"]
    assert (rows[alpha, sf.COLUMN["clear_count"]] == 0).all()
    probabilities = model.predict_court(features["c"])
    assert probabilities.shape == (len(features["c"].words),)


def test_when_a_batch_is_small_then_it_is_padded_with_the_background_rulings(tmp_path):
    background = sm.Background({"Kläger": 90, "Senat": 60}, 100)
    df, size = background.pad({"Kemper": 1, "Kläger": 1}, 1)
    assert (df, size) == ({"Kläger": 91, "Senat": 60, "Kemper": 1}, 101)
    assert background.pad({"Kemper": 80}, sm.BACKGROUND_BELOW) == ({"Kemper": 80}, sm.BACKGROUND_BELOW)
    courts = {"a": _records("a", "Kemper", "Alpha"), "b": _records("b", "Lindner", "Beta")}
    model = sm.fit({c: sm.extract_court(r) for c, r in courts.items()},
                   {c: sf.clear_counts(r) for c, r in courts.items()}, rounds=5)
    model.background = sm.Background.of(courts["a"] + courts["b"], documents=20)
    assert model.background.documents == 20 and model.background.frequency["Kläger"] == 20
    model.save(tmp_path)
    element = sm.SensitivityElementModel(tmp_path)
    assert element.model.background == model.background
    # a ruling, alone or not, is scored as one of 21: its name once, the courts' words as often as they are
    shares = sm.alone_shares(["Thalhammer", "Kläger"], element.model.background)
    assert np.allclose(shares, [1 / 21, 21 / 21])
    assert np.isnan(sm.alone_shares(["Thalhammer"], None)).all()
    (tmp_path / "background.json.gz").unlink()
    with pytest.raises(ModelError, match="missing background.json.gz"):
        sm.load_model(tmp_path)


def test_when_a_model_has_several_boosters_then_it_averages_them_and_saves_each(tmp_path):
    courts = {"a": _records("a", "Kemper", "Alpha"), "b": _records("b", "Lindner", "Beta")}
    features = {c: sm.extract_court(r) for c, r in courts.items()}
    clears = {c: sf.clear_counts(r) for c, r in courts.items()}
    model = sm.fit(features, clears, rounds=5, boosters=3)
    assert len(model.boosters) == 3
    rows = sm.with_tables(features["a"], model.tables)
    each = [b.predict(rows) for b in model.boosters]
    assert np.allclose(model.predict_rows(rows), np.mean(each, axis=0))
    (tmp_path / "model-7.txt").write_text("stale", encoding="utf-8")
    model.save(tmp_path)
    assert sorted(f.name for f in tmp_path.glob("model*.txt")) == ["model-1.txt", "model-2.txt", "model.txt"]
    loaded = sm.load_model(tmp_path)
    assert np.allclose(loaded.predict_rows(rows), model.predict_rows(rows))
    (tmp_path / "model-2.txt").unlink()
    with pytest.raises(ModelError, match="missing model-2.txt"):
        sm.load_model(tmp_path)


def test_when_the_model_directory_is_incomplete_then_one_line_names_what_is_missing(tmp_path):
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ModelError, match="missing model.txt"):
        sm.load_model(tmp_path)


def test_when_the_model_was_fitted_on_other_features_then_one_line_names_them(tmp_path):
    import json
    import shutil

    shutil.copytree(data_path("scorer"), tmp_path / "scorer")
    config_file = tmp_path / "scorer" / "config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["features"] = [f for f in config["features"] if f != "public_name"] + ["retired_feature"]
    config_file.write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(ModelError, match=r"not in the model: public_name; not in this version: retired_feature\); "
                                         r"refit it with rulings-anon train-scorer"):
        sm.load_model(tmp_path / "scorer")
    config["format"] = 0
    config_file.write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(ModelError, match=r"format 0 cannot be read \(this version reads format 1\)"):
        sm.load_model(tmp_path / "scorer")
def test_the_shipped_model_loads_and_scores_deterministically():
    model = sm.load_model()
    text = ("Der Kläger Thalhammer wohnt in Amriswil. Das Landgericht Berlin hat Herrn Thalhammer "
            "am 3. April 2019 verurteilt.")
    first, second = model.predict_texts([text]), model.predict_texts([text])
    assert first == second
    assert all(0.0 <= p <= 1.0 for p in first[0].values())
    assert {"held_out", "thresholds"} <= set(model.config)
    element = sm.SensitivityElementModel()
    from rulings_anon.document import Document

    values = element.probabilities([Document("d", text)])[0]
    assert values.shape == (len(text.split()),)
    assert values[text.split().index("wohnt")] == 0.0  # lower case: never sensitive




def test_the_recognizers_run_once_for_the_features_and_the_proposals_with_the_same_outcome(monkeypatch):
    """``observe`` hands the sensitivity model the recognizer hits and elements it has: the same
    probabilities and standalone hits as when each part runs the recognizers itself, for a text of
    one block and one of several."""
    from rulings_anon.analyzer import evidence
    from rulings_anon.analyzer import recognizers as rec
    from rulings_anon.document import Document, split_elements

    paragraph = ("Der Kläger Herr Thalhammer wohnt in Amriswil, IBAN DE91 1000 0000 0123 4567 89. Das Landgericht "
                 "Berlin hat Herrn Thalhammer am 3. April 2019 verurteilt.\n\n")
    documents = [Document("one", paragraph.rstrip()), Document("many", paragraph * 3)]
    elements = [split_elements(d.text) for d in documents]
    model = sm.SensitivityElementModel()
    cut = evidence.blocks
    monkeypatch.setattr(evidence, "blocks", lambda text: cut(text, size=len(paragraph) - 2))
    runs = []
    counted = rec.hits_by_recognizer
    monkeypatch.setattr(rec, "hits_by_recognizer", lambda text, *a, **k: runs.append(text) or counted(text, *a, **k))
    shared = evidence.observe(documents, elements, model, "none")
    # The features' runs on each whole text; a text of one block proposes from them, the blocks of
    # the other run their own, as before.
    block = paragraph.rstrip()
    assert runs == [block, paragraph * 3, block, "\n\n" + block, "\n\n" + block, "\n\n"]
    monkeypatch.setattr(sm.SensitivityElementModel, "reads_recognizer_hits", False)
    alone = evidence.observe(documents, elements, model, "none")
    for a, b in zip(shared, alone, strict=True):
        assert a.probabilities.tolist() == b.probabilities.tolist()
        assert a.standalone == b.standalone
    assert [s.source for s in shared[1].standalone] == ["salutation_name", "iban", "salutation_name"] * 3
    assert [s.source for s in shared[0].standalone] == ["salutation_name", "iban", "salutation_name"]


def test_score_by_default_runs_the_sensitivity_model_and_recall_first_finds_more(tmp_path, capsys):
    from rulings_anon.cli import main
    from rulings_anon.jsonl import read_jsonl, write_jsonl

    text = ("Der Kläger Thalhammer wohnt in Amriswil. Das Landgericht Berlin hat Herrn Thalhammer am 3. April "
            "2019 verurteilt. Die Beklagte, die Brandtner Bau GmbH, bestreitet das.")
    texts = tmp_path / "texts.jsonl"
    write_jsonl(texts, [{"id": "t", "text": text}, {"id": "empty", "text": ""}])
    found = {}
    for option in ([], ["--recall-first"]):
        out = tmp_path / f"spans{len(option)}.jsonl"
        assert main(["score", str(texts), "--output", str(out), *option]) == 0
        records = {r["id"]: r["spans"] for r in read_jsonl(out)}
        assert records["empty"] == []
        found[bool(option)] = {(s["start"], s["end"]) for s in records["t"]}
    assert "Thalhammer" in {text[s:e] for s, e in found[False]}
    covered = {i for s, e in found[True] for i in range(s, e)}
    assert all(i in covered for s, e in found[False] for i in range(s, e))  # a lower threshold only adds
    assert main(["score", str(texts), "--output", str(tmp_path / "x.jsonl"), "--combine", "ner", "--recall-first"]) == 2
    assert "--recall-first needs the sensitivity model" in capsys.readouterr().err


def test_trees_stopped_early_move_no_probability_across_a_stored_threshold(monkeypatch):
    from rulings_anon import data
    from rulings_anon.analyzer import recognizers as rec
    from rulings_anon.evaluation.testset import gold_records

    model = sm.load_model()
    texts = [r["text"] for r in gold_records(data.ler_corpus_files(["bgh"]), seed=0, names="foreign", limit=5)]
    df = sf.batch_document_frequency(texts)
    rows = np.concatenate([sf.document_features(t, model.tables, rec.analyze(t), df, len(texts)).rows for t in texts])
    early = model.predict_rows(rows)  # what score predicts with
    monkeypatch.setattr(sm, "EARLY_STOP", {})
    full = model.predict_rows(rows)  # every tree
    assert len(rows) > 1000
    assert (early != full).mean() > 0.5  # most candidates are settled early
    assert np.abs(early - full).max() < 0.001
    for threshold in set(model.config["thresholds"].values()) - {0.0001, 0.0002, 0.0005}:
        assert ((early >= threshold) == (full >= threshold)).all(), threshold


def _benchmark():
    """The decision's figures and the threshold rules that train-scorer and its benchmark share."""
    import types

    from rulings_anon.analyzer import decision_metrics, threshold_rules

    return types.SimpleNamespace(**{**vars(decision_metrics), **vars(threshold_rules)})


def test_average_precision_ranks_without_a_threshold_and_counts_what_no_candidate_holds():
    bench = _benchmark()
    court = sm.CourtFeatures(np.zeros((4, sf.N), np.float32), _no_keys(4), _no_keys(4), ["A", "B", "C", "D"],
                             np.array([True, False, True, False]), np.zeros(4, np.int32), np.arange(4, dtype=np.int32),
                             n_elements=10, n_positive=3)  # a third sensitive element is no candidate
    probabilities = np.array([0.9, 0.8, 0.7, 0.1])
    # found at ranks 1 and 3: (1/1 + 2/3) / 3
    assert bench.average_precision(court, probabilities) == pytest.approx((1 + 2 / 3) / 3)
    assert bench.average_precision(court, probabilities / 4) == pytest.approx((1 + 2 / 3) / 3)  # calibration
    assert bench.average_precision(court, probabilities[::-1].copy()) == pytest.approx((1 / 2 + 2 / 4) / 3)


def test_precision_at_recall_is_read_at_the_first_rank_that_reaches_it():
    bench = _benchmark()
    court = sm.CourtFeatures(np.zeros((5, sf.N), np.float32), _no_keys(5), _no_keys(5), ["A", "B", "C", "D", "E"],
                             np.array([True, False, True, True, False]), np.zeros(5, np.int32),
                             np.arange(5, dtype=np.int32), n_elements=10, n_positive=4)  # one is no candidate
    probabilities = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    assert bench.precision_at_recall(court, probabilities, 0.5) == pytest.approx(2 / 3)  # 2 of 4 at rank 3
    assert bench.precision_at_recall(court, probabilities, 0.75) == pytest.approx(3 / 4)
    assert bench.precision_at_recall(court, probabilities, 0.8) == 0.0  # the fourth is never found
    assert bench.precision_at_recall(court, probabilities / 4, 0.5) == pytest.approx(2 / 3)  # calibration


def test_the_recall_rules_take_the_highest_threshold_that_keeps_the_inner_folds_mean_recall():
    bench = _benchmark()
    labels = np.array([True] * 100 + [False] * 100)
    court = sm.CourtFeatures(np.zeros((200, sf.N), np.float32), _no_keys(200), _no_keys(200), ["W"] * 200, labels,
                             np.zeros(200, np.int32), np.arange(200, dtype=np.int32), n_elements=200, n_positive=100)
    # the sensitive elements' probabilities spread from 0.00015 to 0.99, the others all 0.00005
    probabilities = np.concatenate([np.geomspace(0.00015, 0.99, 100)[::-1], np.full(100, 0.00005)])
    validation = {"a": (court, probabilities)}
    for rule, floor in (("recall95", 0.95), ("recall97", 0.97), ("recall98", 0.98)):
        threshold = bench.choose(validation, rule)
        assert bench.metrics_at(court, probabilities, threshold)["recall"] >= floor
        higher = [t for t in bench.GRID if t > threshold]
        assert bench.metrics_at(court, probabilities, higher[0])["recall"] < floor
    assert bench.choose(validation, "recall97") <= bench.choose(validation, "recall95")


def test_the_f_rules_take_the_threshold_of_the_best_mean_f_measure_and_weigh_recall_in_order():
    bench = _benchmark()
    assert bench.f_beta(0.8, 0.6, 1.0) == pytest.approx(2 * 0.8 * 0.6 / 1.4)
    assert bench.f_beta(0.8, 0.6, 2.0) == pytest.approx(5 * 0.8 * 0.6 / (4 * 0.6 + 0.8))
    assert bench.f_beta(0.0, 0.0, 1.5) == 0.0
    rng = np.random.default_rng(3)
    validation = {}
    for name in ("a", "b"):
        labels = rng.random(400) < 0.3
        probabilities = np.clip(np.where(labels, rng.beta(4, 2, 400), rng.beta(1, 5, 400)), 0, 1)
        court = sm.CourtFeatures(np.zeros((400, sf.N), np.float32), _no_keys(400), _no_keys(400), ["W"] * 400, labels,
                                 np.zeros(400, np.int32), np.arange(400, dtype=np.int32), n_elements=400,
                                 n_positive=int(labels.sum()))
        validation[name] = (court, probabilities)

    def mean_f(t, beta):  # counted here, not with the bench's metrics
        scores = []
        for court, probabilities in validation.values():
            tp = int(((probabilities >= t) & court.labels).sum())
            flagged = int((probabilities >= t).sum())
            r, p = tp / court.n_positive, (tp / flagged if flagged else 0.0)
            scores.append((1 + beta ** 2) * r * p / (beta ** 2 * p + r) if r + p else 0.0)
        return np.mean(scores)

    chosen = {}
    for rule, beta in (("f1", 1.0), ("f15", 1.5), ("f2", 2.0)):
        chosen[rule] = bench.choose(validation, rule)
        assert mean_f(chosen[rule], beta) == pytest.approx(max(mean_f(t, beta) for t in bench.GRID))
    # recall weighted more: a lower threshold
    assert chosen["f2"] <= chosen["f15"] <= chosen["f1"] and chosen["f2"] < chosen["f1"]
    # the plateau's ends: the lowest and the highest threshold within PLATEAU of the best mean F2
    best = max(mean_f(t, 2.0) for t in bench.GRID)
    near = [t for t in bench.GRID if mean_f(t, 2.0) >= best - bench.PLATEAU - 1e-12]
    low, high = bench.choose(validation, "f2recall"), bench.choose(validation, "f2plateau")
    assert (low, high) == (min(near), max(near)) and low <= chosen["f2"] <= high and low < high
    # the precision rules: the lowest threshold whose mean precision reaches the floor
    def mean_precision(t):
        return np.mean([((probabilities >= t) & court.labels).sum() / max(1, (probabilities >= t).sum())
                        for court, probabilities in validation.values()])

    for rule, floor in (("precision65", 0.65), ("precision70", 0.70), ("precision80", 0.80)):
        assert bench.choose(validation, rule) == min(t for t in bench.GRID if mean_precision(t) >= floor - 1e-12)
    assert bench.choose(validation, "precision65") <= bench.choose(validation, "precision80")


def test_thresholds_are_chosen_for_the_decision_score_makes_a_flagged_name_spread_through_its_document():
    bench = _benchmark()
    # document 0: "Kemper" three times (sensitive, scored once high), "Meyer" once (public, 0.3);
    # document 1: "Kemper" once (public there), "Bauer" at 0 (a rule made it public)
    words = ["Kemper", "Kemper", "Meyer", "Kemper", "Kemper", "Bauer"]
    labels = np.array([True, True, False, True, False, False])
    court = sm.CourtFeatures(np.zeros((6, sf.N), np.float32), _no_keys(6), _no_keys(6), words, labels,
                             np.array([0, 0, 0, 0, 1, 1], np.int32), np.arange(6, dtype=np.int32),
                             n_elements=20, n_positive=3)
    probabilities = np.array([0.9, 0.25, 0.3, 0.25, 0.2, 0.0])
    spread = bench.consistent(court, probabilities, 0.5)
    assert spread.tolist() == [0.9, 0.5, 0.3, 0.5, 0.2, 0.0]  # not into document 1, not below 0.5 otherwise
    with_consistency = bench.decided(court, probabilities, 0.5, True)
    alone = bench.decided(court, probabilities, 0.5, False)
    assert (with_consistency["tp"], with_consistency["fp"]) == (3, 0) and (alone["tp"], alone["fp"]) == (1, 0)
    validation = {"a": (court, probabilities)}
    # for the decision: the lowest threshold above Meyer's 0.3 flags all of Kemper through consistency
    assert bench.choose(validation, "f1", with_consistency=True) == 0.31
    # for the model alone: Kemper's low mentions need a threshold under 0.25, which flags Meyer too
    assert bench.choose(validation, "f1") <= 0.25


def test_the_benchmarks_consistency_spreads_no_common_word_as_score_does_not():
    bench = _benchmark()
    # "Vertrag" flagged once is a common word of the dev courts; "Jobcenter" is in every one of the
    # court's twelve documents, but score takes no batch vocabulary by default, so it spreads in its
    # document like "Kemper", a name in one
    words = ["Vertrag", "Vertrag"] + ["Jobcenter"] * 12 + ["Jobcenter", "Kemper", "Kemper"]
    documents = np.array([0, 0] + list(range(12)) + [0, 0, 0], np.int32)
    n = len(words)
    court = sm.CourtFeatures(np.zeros((n, sf.N), np.float32), _no_keys(n), _no_keys(n), words, np.zeros(n, bool), documents,
                             np.arange(n, dtype=np.int32), n_elements=n, n_positive=0)
    probabilities = np.full(n, 0.1)
    probabilities[[0, 2, 15]] = 0.9  # one "Vertrag", the first "Jobcenter", the first "Kemper"
    spread = bench.consistent(court, probabilities, 0.5)
    assert [w for w, p, q in zip(words, probabilities, spread, strict=True) if q > p] == ["Jobcenter", "Kemper"]


def test_the_benchmark_counts_the_particles_score_joins_between_two_flagged_words():
    bench = _benchmark()
    first = "Er wohnt in Ybbs an der Donau bei Karl von Bülow."
    second = "Sie studierte an der Carl von Ossietzky Universität."
    records = [{"text": first, "spans": [{"start": first.index(n), "end": first.index(n) + len(n)}
                                         for n in ("Ybbs an der Donau", "Karl von Bülow")]},
               {"text": second, "spans": []}]
    court = sm.extract_court(records)
    words = court.words
    gaps = bench.name_gaps(records, court)
    # rows of the words around each particle, its elements, the sensitive ones: not "bei", no common word
    assert [(words[a], words[b], n, k) for a, b, n, k in gaps.tolist()] == [
        ("Ybbs", "Donau", 2, 2), ("Karl", "Bülow", 1, 1), ("Carl", "Ossietzky", 1, 0)]
    assert court.n_positive == 7
    bench._GAPS[id(court)] = (court, gaps)
    probabilities = np.array([0.9 if w in ("Ybbs", "Donau", "Karl", "Carl", "Ossietzky") else 0.1 for w in words])
    decision = bench.decided(court, probabilities, 0.5, True)
    # "an der" joined (both sides flagged), "von" before the unflagged "Bülow" not; "von" in the
    # university's name a false element; the model alone counts the candidates only
    assert (decision["tp"], decision["fp"]) == (3 + 2, 2 + 1)
    alone = bench.decided(court, probabilities, 0.5, False)
    assert (alone["tp"], alone["fp"]) == (3, 2)


def test_the_benchmark_counts_a_leak_per_document_by_the_person_spans_candidates_or_not():
    bench = _benchmark()
    texts = ["Er wohnt in Ybbs an der Donau bei Karl von Bülow.",  # a person's particle joined, its surname not
             "Herr Kovačič klagte gegen die Firma Xyzzy.",  # a company missed, the person found
             "Der Senat entscheidet ohne mündliche Verhandlung."]  # nothing sensitive
    types = [[("Ybbs an der Donau", "place"), ("Karl von Bülow", "person")],
             [("Kovačič", "person"), ("Xyzzy", "company")], []]
    records = [{"text": t, "spans": [{"start": t.index(n), "end": t.index(n) + len(n), "type": k} for n, k in spans]}
               for t, spans in zip(texts, types, strict=True)]
    court = sm.extract_court(records)
    bench.register_gaps(court, bench.name_gaps(records, court))
    positives = bench.Positives.of(records)
    assert len(positives.elements) == court.n_positive == 9 and positives.n_documents == 3
    assert positives.persons.sum() == 4  # Karl, von, Bülow, Kovačič
    bench.register_positives(court, positives)
    flagged = ("Ybbs", "Donau", "Karl", "Kovačič")
    probabilities = np.array([0.9 if w in flagged else 0.0 for w in court.words])
    # the first document keeps "von Bülow" (a person's) in clear, the second "Xyzzy" (no person's)
    assert bench.missed_documents(court, probabilities, 0.5) == {"documents_missed": 2 / 3,
                                                                 "documents_missed_person": 1 / 3}
    probabilities[court.words.index("Bülow")] = 0.9  # now "von" is joined between two flagged parts
    assert bench.missed_documents(court, probabilities, 0.5)["documents_missed_person"] == 0
    # two draws of the same rulings: the second draw's documents numbered on
    both = bench.concatenated([court, court])
    assert bench.missed_documents(both, np.concatenate([probabilities, probabilities * 0]), 0.5) == {
        "documents_missed": 3 / 6, "documents_missed_person": 2 / 6}


def test_countries_and_states_are_public_words_but_a_town_of_the_same_text_is_judged():
    model = sm.load_model()
    text = ("Der Beschwerdeführer Plimbacher sollte nach Tunesien abgeschoben werden. Nach der Verfassung des "
            "Freistaats Thüringen und dem Recht Thüringens sowie Tirols wohnte er in Xürstenfeld.")
    features = sf.document_features(text, model.tables)
    words = [sf.core_word(features.elements[i].text) for i in features.candidates]
    country = features.rows[:, sf.COLUMN["country"]] > 0
    assert [w for w, c in zip(words, country, strict=True) if c] == ["Tunesien", "Thüringen", "Thüringens", "Tirols"]
    probabilities = model.predict_rows(features.rows)
    assert (probabilities[country] == 0).all()
    assert probabilities[words.index("Xürstenfeld")] > 0  # a town is no state: the trees judge it
    # a city that is a state as well is no "state" here: Berlin, Hamburg, Bremen are towns courts may name
    assert not sf._word_features("Berlin")[sf._WORD_COLUMNS.index("country")]


def _no_keys(n: int) -> list:
    """Context keys of ``n`` candidates with no word around them."""
    return [[None, None, None]] * n


def _backwards_court(seed: int, n: int = 600) -> sm.CourtFeatures:
    """A court whose sensitive words are exactly its frequent German words: the opposite of what
    courts share, and the only thing its rows tell."""
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.4
    rows = np.zeros((n, sf.N), np.float32)
    rows[:, [sf.COLUMN[c] for c in sf.CATEGORICAL]] = -1
    rows[:, sf.COLUMN["zipf_de"]] = np.where(labels, 5.5, 1.5) + rng.normal(0, 0.3, n)
    return sm.CourtFeatures(rows=rows, keys=[[None, None, None]] * n, lookup_keys=[[None, None, None]] * n,
                            words=[f"w{i}" for i in range(n)], labels=labels, documents=np.arange(n) // 10,
                            elements=np.arange(n) % 10, n_elements=n, n_positive=int(labels.sum()))


def test_every_monotone_entry_names_a_feature():
    # a renamed feature would otherwise lose its constraint without a word (MONOTONE.get(f, 0))
    assert set(sm.MONOTONE) <= set(sf.FEATURES)


@pytest.mark.parametrize("constrained", [True, False])
def test_when_a_court_teaches_a_feature_backwards_then_the_model_keeps_the_direction_every_court_shares(
        constrained, monkeypatch):
    if not constrained:
        monkeypatch.setattr(sm, "MONOTONE", {})
    courts = {"a": _backwards_court(0), "b": _backwards_court(1)}
    model = sm.fit(courts, {"a": {}, "b": {}}, rounds=20, boosters=1)
    rows = sm.with_tables(courts["a"], model.tables)
    rare, frequent = rows.copy(), rows.copy()
    rare[:, sf.COLUMN["zipf_de"]], frequent[:, sf.COLUMN["zipf_de"]] = 1.5, 5.5
    gap = model.predict_rows(frequent) - model.predict_rows(rare)
    if constrained:
        # a frequent word is never more sensitive than the same word rare, whatever the court taught
        assert sm.MONOTONE["zipf_de"] == -1 and (gap <= 1e-9).all()
    else:
        # without the constraint the trees learn the court's habit: the test above can fail
        assert (gap > 0.1).all()


def test_a_determiner_before_a_common_noun_and_none_said_of_a_name():
    """"der Keller" is the noun, "Mitangeklagten Keller" the surname; adjectives and a number may
    stand between the determiner and its noun, a legal form may not follow it ("die Engel GmbH");
    a word the lexicon knows as no noun gets neither."""
    text = ("Der Mitangeklagte Keller ging in den Keller. Die Frau hat der 1940 geborenen Kaufmann "
            "geholfen, an Kaufmann vorbei. Öztürk kam im Sommer. Die Engel GmbH zahlte.")
    features = sf.document_features(text, sf.Tables())
    got = {}
    for row, i in enumerate(features.candidates):
        got.setdefault(features.elements[i].text.strip(".,"), []).append(
            float(features.rows[row, sf.COLUMN["determiner_before"]]))
    assert got["Keller"] == [0.0, 1.0] and got["Kaufmann"] == [1.0, 0.0] and got["Sommer"] == [1.0]
    assert got["Engel"] == [0.0]  # the article before a company's name is the legal form's
    assert np.isnan(got["Öztürk"][0])
    kaufmann = [row for row, i in enumerate(features.candidates) if features.elements[i].text.startswith("Kaufmann")]
    assert features.rows[kaufmann, sf.COLUMN["doc_determiner"]].tolist() == [0.5, 0.5]
