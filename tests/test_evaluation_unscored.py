"""References the NER's score must not decide: common words, unit letters, the deciding judges."""

import pytest

from rulings_anon.analyzer.decisions import Settings, decide
from rulings_anon.analyzer.exemptions import (
    after_court_designation,
    after_judge_role,
    countries,
    in_untitled_signature,
    unscored,
)
from rulings_anon.document import Span, split_elements

COMMON = frozenset({"Block", "Blöcke", "Chirurg", "Vertrag"})


@pytest.mark.parametrize("word, common", [
    ("Vertrag", True), ("Blöcke", True), ("Blöcken", False),  # no inflected forms: "Geldern" is a town
    ("Meyer", False),
])
def test_one_common_word(word, common):
    text = f"die {word} zahlte"
    assert unscored(text, 4, 4 + len(word), COMMON) is common


FORMULA = ("beschlossen unter Mitwirkung des Vorsitzenden Richters Dipl. - Phys. Dr. Strößner sowie der "
           "Richter Merzbach, Dr. Meiser und Schödel: Die Beschwerde der Kemper GmbH wird zurückgewiesen. "
           "Die Richterin am LSG Dr. W. hat den Zeugen Müller vernommen; der Richter hat Herrn Lange gehört.")


@pytest.mark.parametrize("name, judge", [
    ("Strößner", True), ("Merzbach", True), ("Meiser", True), ("Schödel", True),
    ("Kemper", False),  # a party after the formula's colon
    ("W.", False),  # a judge of another court: "am LSG" stops the list
    ("Müller", False), ("Lange", False),  # after a judge, but with words between
])
def test_the_deciding_judges_are_named_in_clear(name, judge):
    assert after_judge_role(FORMULA, FORMULA.index(name)) is judge


RULING = ("hat der 4. Senat des Bundesverwaltungsgerichts durch den Vorsitzenden Richter am "
          "Bundesverwaltungsgericht Prof. Dr. Rubel und die Richter am Bundesverwaltungsgericht Dr. Decker und "
          "Dr. Külpmann beschlossen: Die Richterin am LSG Dr. Wendt hat Frau Brückner gehört. Der Sachverständige "
          "Dr. Hesselmann und der Oberbürgermeister Dr. Lindner, des Ministerpräsidenten Müller Entwurf "
          "(Külpmann, in: Ernst/Zinkahn/Bielenberg, BauGB).\n\nProf. Dr. Rubel Dr. Decker Dr. Külpmann")


@pytest.mark.parametrize("name, nth, public", [
    ("Rubel", 0, True), ("Decker", 0, True), ("Külpmann", 0, True),  # a federal court after the role
    ("Wendt", 0, False),  # a lower court's judge: courts anonymize them
    ("Brückner", 0, False),
    ("Hesselmann", 0, False),  # "Der Sachverständige Dr." is a sentence, no signature
    ("Lindner", 0, True), ("Müller", 0, True),  # after a public office
    ("Külpmann", 1, True),  # a cited author
    ("Rubel", 1, True), ("Decker", 1, True), ("Külpmann", 2, True),  # the signatures
])
def test_judges_officials_and_cited_authors_are_public(name, nth, public):
    start = -1
    for _ in range(nth + 1):
        start = RULING.index(name, start + 1)
    assert unscored(RULING, start, start + len(name), frozenset()) is public


def test_a_unit_letter_after_a_degree_sign():
    text = "bei 780 ° C und 800 °C, dann Firma C zahlte"
    assert unscored(text, text.index("C und"), text.index("C und") + 1, frozenset())
    assert unscored(text, text.index("° C"), text.index("° C") + 3, frozenset())
    assert not unscored(text, text.index("C zahlte"), text.index("C zahlte") + 1, frozenset())


@pytest.mark.parametrize("name, author", [
    ("McMillan", True), ("Borom", True), ("Madsen", True),
    ("Kemper", False),  # the party, and "Etalon" is no "et al."
    ("Lange", False),
])
def test_a_name_before_et_al_is_a_cited_author(name, author):
    text = ('D15: P. W. McMillan et al. "The Structure", D3 Borom et al., "Strength"; Madsen et al, 1987. '
            "Die Kemper Etalon GmbH und Herr Lange et cetera.")
    start = text.index(name)
    assert unscored(text, start, start + len(name), frozenset()) is author


def test_unscored_references_are_not_flagged_by_the_ner_alone():
    text = "unter Mitwirkung der Richter Merzbach und Schödel: die Blöcke der Kemper GmbH bei 780 ° C."
    elements = split_elements(text)
    candidates = [Span(text.index(w), text.index(w) + len(w), w, "PER", 0.95, source="ner")
                  for w in ("Merzbach", "Schödel", "Blöcke", "Kemper", "C")]
    spans = decide(text, elements, [0.0] * len(elements), Settings(0.8, common_words=COMMON, combination="ner"),
                   candidates=candidates)
    assert [s.text for s in spans] == ["Kemper"]


def test_the_batch_vocabulary_is_the_capitalized_words_of_many_documents():
    from rulings_anon.analyzer.common_words import batch_common_words

    court = [f"Das Jobcenter bewilligte Herrn Achleitner{i} Alg II; die KK zahlte." for i in range(9)]
    court += ["Das Jobcenter lehnte ab; Alg und Jobcenter.", "Der Kläger bezieht Alg.", "jobcenter ohne Alg"]
    # "Jobcenter" in 10 of 12, "Alg" in 11, "Das" in 10, "KK" in 9 (fewer than 10), each name in one
    assert batch_common_words(court) == {"Jobcenter", "Alg", "Das"}
    assert batch_common_words(court, min_documents=9) == {"Jobcenter", "Alg", "Das", "KK", "Herrn", "II"}
    # in a large batch the share counts: 5 % of 200 documents is 10, of 220 is 11, of 320 is 16
    filler = ["nichts davon."]
    assert batch_common_words(court + filler * 188) == {"Jobcenter", "Alg", "Das"}
    assert batch_common_words(court + filler * 208) == {"Alg"}
    assert batch_common_words(court + filler * 308) == frozenset()
    # fewer documents than min_documents: none, also for a word in each of them
    assert batch_common_words(["Jobcenter Kemper"] * 9) == frozenset()
    assert batch_common_words([]) == frozenset()


def test_the_shipped_common_words_are_those_the_dev_courts_rulings_give(tmp_path):
    """The list score reads at start is the corpus' count: a corpus changed without rebuilding it
    fails here, and the rebuild command writes exactly the list."""
    from rulings_anon.analyzer.common_words import common_words, count_common_words, main

    counted = count_common_words()
    assert common_words() == counted
    assert {"Anspruch", "Vertrag", "Klägerin"} <= counted and not {"Achleitner", "Kemper"} & counted
    out = tmp_path / "common-words.txt"
    assert main(["--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == sorted(counted) and len(lines) == len(counted)


PLACES = ("Die 1948 in Russland geborene Klägerin zog nach Delmenhorst; das Urteil des Landessozialgerichts "
          "Berlin-Brandenburg und des LSG Hamburg, Wohnsitz in der Russischen Föderation, Rentenrecht Russlands.")


@pytest.mark.parametrize("place, public", [
    ("Russland", True), ("Russlands", True),  # a short country name, its genitive
    ("Delmenhorst", False),  # a town: the NER's score decides
    ("Berlin-Brandenburg", True), ("Hamburg", True),  # the place of a lower court's name
])
def test_countries_and_courts_places_are_public(place, public):
    start = PLACES.index(place)
    assert unscored(PLACES, start, start + len(place), frozenset()) is public
    assert after_court_designation(PLACES, start) is (place in ("Berlin-Brandenburg", "Hamburg"))


def test_faker_and_the_short_forms_make_the_country_list():
    assert {"Russland", "Russische Föderation", "Österreich", "Schweiz", "USA", "Frankreichs"} <= countries()
    assert not {"Delmenhorst", "Berlin", "Wien"} & countries()


SIGNED = ("Die Maßregel wurde mit vertretbarer Begründung abgelehnt. Sost-Scheible Roggenbuck Cierniak Bender\n\n"
          "Feilcke Die Revision des Angeklagten wird verworfen. Es kandidierten Bucher Resch Meier Lange und andere. "
          "Er sprach mit Kemper Meyer Lange Schulz. Enzinger Knapp, Springer Artner und Reichel. "
          "Kläger: Hans Peter Josef Müller")


@pytest.mark.parametrize("name, signature", [
    ("Sost-Scheible", True), ("Cierniak", True), ("Feilcke", True),  # five bare names after a sentence end
    ("Bucher", False), ("Lange", False),  # a run after a word of its sentence
    ("Kemper", False),
    ("Enzinger", False), ("Artner", False),  # commas and "und": a list, no signature
    ("Josef", False),  # a colon starts no signature
])
def test_bare_names_sign_only_as_a_run_of_four_starting_a_sentence(name, signature):
    start = SIGNED.index(name)
    assert in_untitled_signature(SIGNED, start, start + len(name)) is signature
    assert unscored(SIGNED, start, start + len(name), frozenset()) is signature


def test_a_sentence_ends_the_list_of_judges():
    text = "unter Mitwirkung des Richters Bender. Der Kläger Meyer hat geklagt; den Richter Dipl. - Geophys. Dr. Wollny"
    assert not after_judge_role(text, text.index("Meyer"))  # "Bender." and "Der": a new sentence
    assert after_judge_role(text, text.index("Wollny"))  # "Geophys." is a title's piece
