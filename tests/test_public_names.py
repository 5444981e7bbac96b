"""Registered marks and the parties of cited European cases: named in clear, so probability 0."""

from __future__ import annotations

import pytest

from rulings_anon.analyzer import public_names as pn
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer.exemptions import case_countries
from rulings_anon.data import path as data_path
from rulings_anon.document import split_elements


def _public(text: str) -> list[str]:
    """The candidate words of ``text`` that :func:`public_names` marks, in order."""
    elements = split_elements(text)
    raw = [e.text for e in elements]
    words = [sf.core_word(t) for t in raw]
    candidates = [i for i, w in enumerate(words) if w[:1].isupper()]
    marked = pn.public_names(raw, words, candidates, case_countries())
    return [words[i] for i, m in zip(candidates, marked, strict=True) if m]


MARK_NAMES = [
    ("Die Wortmarke Becker ist am 30. März 2012 angemeldet worden.", ["Becker"]),
    ("I. Das Wortzeichen Limmer Kontor ist zur Eintragung angemeldet.", ["Limmer", "Kontor"]),
    ("Die Bezeichnung MAM Munich Asset Management ist angemeldet.", ["MAM", "Munich", "Asset", "Management"]),
    ("aus der Widerspruchsmarke „Petit Filou“ abgeleitet", ["Petit", "Filou"]),
    # a register number between counts to the five words: "Widerspruch" is the sixth
    ("gegen die Eintragung der Marke 30 2008 062 828 JOOP! Widerspruch", ["JOOP"]),
    # the run ends at a lower-case word, and more than five words away nothing is a mark's name
    ("Die Wortmarke Becker ist von Herrn Wimmer angemeldet.", ["Becker"]),
    # a vehicle's registration and a file number are no sign
    ("Das Kennzeichen M AB 123 gehört Herrn Wimmer.", []),
    ("Unter dem Aktenzeichen S 12 AS 4/15 klagte Wimmer.", []),
]


CASE_PARTIES = [
    ("EGMR, Urteil vom 12. November 2008, Demir und Baykara v. Türkei, Nr. 34503/97", ["Demir", "Baykara"]),
    ("EGMR, Urteil vom 25. Februar 2000, Nr. 29357/95, Gast und Popp. /. Deutschland, Z. 75",
     ["Gast", "Popp"]),
    # the rule marks the capitalized words before the "v.", a common noun among them as well
    ("In dem Verfahren Urcan u. a. v. Türkei entschied die Kammer", ["Verfahren", "Urcan"]),
    ("EuGH, Urteil vom 5. April 2016, Aranyosi und Căldăraru, C - 404/15 und C - 659/15",
     ["Aranyosi", "Căldăraru"]),
    ("EuGH, Urteil vom 12. November 2015, Reprobel, C-572/13, Rn. 4", ["Reprobel"]),
    # the number in two elements, as BAG writes it
    ("EuGH, Urteil vom 19. April 2016, Dansk Industri, C- 441/14, Rn. 22", ["Dansk", "Industri"]),
    # "vom", a date and the number after the name, as BFH writes it
    # (the capitalized word before the name with it, as "Verfahren" above)
    ("(EuGH-Urteil Barlis 06 vom 15. September 2016 C - 516/14, EU: C: 2016: 691)", ["EuGH-Urteil", "Barlis"]),
    ("vgl. EuGH-Urteil Pilar Planes Bresco vom 9. Juni 2016 C - 333/15",
     ["EuGH-Urteil", "Pilar", "Planes", "Bresco"]),
    # a date without a case number after it
    ("Der Kläger Wimmer vom 9. Juni 2016 zahlte.", []),
    ("wie der Gerichtshof in der Rechtssache Webb-Sämann entschied", ["Webb-Sämann"]),
    # a case name in brackets after its number, as BAG writes them
    ("(EuGH 22. November 2012 - C- 385/11 - [Elbal Moreno] Rn. 29)", ["Elbal", "Moreno"]),
    # ("C-" after the citation's dash is a file number's letter, as "III ZR" below)
    ("EuGH 6. November 2018 - C- 569/16 und C- 570/16 - [Bauer und Willmeroth] Rn. 38",
     ["C-", "Bauer", "Willmeroth"]),
    # "gegen" and "/" before a country, as the EGMR's cases are cited
    ("vom 26. Juni 2012 in der Sache Herrmann gegen Deutschland (Nr. 9300/07)", ["Sache", "Herrmann"]),
    ("EGMR, 13284/04, Bader und Kanbor / Schweden, Rn. 3", ["Bader", "Kanbor"]),
    # ... and nowhere else: no country after them
    ("Der Kläger Wimmer klagte gegen den Bescheid.", []),
    ("Herr Wimmer / Frau Ebner zahlten.", []),
    # no country after the "v.", a comma between: no cited case
    ("Der Kläger Wimmer v. Hofe zahlte.", []),
    ("Herr Wimmer, der Kläger, v. Türkei", ["Kläger"]),
    # the European Court of Human Rights' English and French case names
    ("(vgl. EGMR, Findlay v. The United Kingdom, Urteil vom 25. Februar 1997)", ["Findlay"]),
    ("EGMR, Campbell and Fell v. the United Kingdom, Nr. 7819/77", ["Campbell", "Fell"]),
    ("vgl. EGMR <GK>, Lautsi et al. v. Italy, Urteil vom 18. März 2011", ["Lautsi"]),
    ("(vgl. EGMR, Irfan Bayrak c. Turquie, Urteil vom 3. Mai 2007)", ["Irfan", "Bayrak"]),
    # a country's English name that is also a first name counts only after the "v."
    ("Frau Georgia Wimmer zahlte. Die Zeugin c. Georgia", ["Die", "Zeugin"]),
    ("Der Kläger Wimmer, c. Anlage K 3", []),
]


DECISION_NAMES = [
    # (the court before a journal, year and page counts as a cited article's author: public as well)
    ("vgl. BGH GRUR 2009, 949 Rn. 45 – My World; ferner", ["BGH", "My", "World"]),
    ("EuGH GRUR 2015, 1198 Rdnr. 59 f. – Nestlé / Cadbury [Kit Kat]; BGH",
     ["EuGH", "Nestlé", "Cadbury", "Kit", "Kat"]),
    ("vgl. BGH, Urteil vom 13. Februar 2014 - III ZR 311/13, juris", ["III", "ZR"]),  # a file number's letters
    # a dash after a date or in the ruling's own words is no citation's
    ("Am 3. März 2011 - Herr Wimmer war verreist - kam der Bescheid.", []),
    ("Der Kläger zahlte 2011 - Wimmer bestreitet das.", []),
]


QUOTED_TERMS = [
    ("Die Marke wird durch den Wortbestandteil „Reflex“ geprägt.", ["Reflex"]),
    ("die Warenoberbegriffe „Kochgeräte“ und „Kocher“ umfassen", ["Kochgeräte"]),
    ("Der Begriff „Lieferungen von Wasser“ umfasst das.", ["Lieferungen", "Wasser"]),
    # a cited decision's name in quotes
    ("wie der Gerichtshof in seiner Entscheidung „Eli Lilly“ ausführte", ["Eli", "Lilly"]),
    ("In den Urteilen \"Medeva\" und \"Georgetown\" betrafen die Fragen", ["Medeva"]),
    # the quote closes before the word: it is no more the term
    ("Das Wort „Hund“ Müller sagte", ["Hund"]),
    # a company's name is a party's, and quotes must open right after the noun
    ("unter der Firmenbezeichnung „Wimmer Bau“ tätig", []),
    ("Der Begriff sei, so Wimmer, „unklar“.", []),
]


GOODS_LISTS = [
    ("Klasse 20: Dekorationsgegenstände aus Holz; Figuren aus Holz, Horn, Bernstein. Herr Wimmer widersprach.",
     ["Dekorationsgegenstände", "Holz", "Figuren", "Holz", "Horn", "Bernstein"]),
    # a list in quotes ends at its closing quote; abbreviations do not end it
    ("„Waren der Klasse 11: Kochgeräte (elektr.), Toaster, Röster“ seit 2007 eingetragen für Herrn Wimmer",
     ["Kochgeräte", "Toaster", "Röster"]),
    ("Der Kläger war in Klasse 10 der Schule bei Frau Ebner.", []),
]


WORK_AUTHORS = [
    ("(Eichenberger, Die richterliche Unabhängigkeit als staatsrechtliches Problem, 1960, S. 43)",
     ["Eichenberger"]),
    # (a title's first word after the name is taken for an author's first name: public all the same)
    ("vgl. Häberle, Europäische Verfassungslehre, 7. Aufl. 2011, S. 5", ["Häberle", "Europäische"]),
    ("; Di Fabio, Das beamtenrechtliche Streikverbot, 2012, S. 40", ["Di", "Fabio"]),
    # without the comma, and before an edited work, as BAG cites
    ("(vgl. Schack Internationales Zivilverfahrensrecht 5. Aufl. Rn. 3)", ["Schack", "Internationales"]),
    ("(Kemper in Erfurter Kommentar 7. Aufl. Art. 9)", ["Kemper"]),
    # "in" and a place: no edited work after it
    ("Herr Wimmer in Erfurt zahlte am 7. Mai.", []),
    ("vgl. Bauer, in: Festschrift für Herbert Buchner, 2009, S. 30", ["Bauer", "Herbert", "Buchner"]),
    # an article cited without a comma after its author, as BAG does
    ("(vgl. Herzig / Bohn BB 2006, 1551; Frey BB 2005, 1044)", ["Bohn", "Frey"]),
    # a name before a comma, no citation's opening before it or no work after it
    ("Der Kläger Wimmer, Beamter, 7. Aufl.", []),
    ("vgl. Wimmer, der am 3. Mai 2010 klagte.", []),
    # a title's article after the comma opens a citation wherever it stands
    ("so a. A. wohl Däubler, Der Streik im öffentlichen Dienst, 2. Aufl. 1971, S. 3", ["Däubler"]),
    ("Geklagt hat Wimmer, Die Beklagte zahlte.", []),
    # before a comma, a journal, a year and a page, co-authors joined by "/"
    ("Plenker, DB 2009, 1430; Portner, DStR 2009, 1838; Niermann", ["Plenker", "Portner"]),
    ("(vgl. Brehm / Schifferdecker, SGb 2010, 331 ff)", ["Brehm", "Schifferdecker"]),
    # a journal all in capitals has at most five letters: a title's word is no journal
    ("Steers, Wendy Dittrich, UROLOGY 1999, 54", []),
    # the author and the editors of a commentary ("van" inside a name)
    ("Kuhn in Herrmann / Heuer / Raupach, EStG, § 49 Rz 3", ["Kuhn", "Herrmann", "Heuer", "Raupach"]),
    ("; van Lishaut in Rödder / Herlinghaus / van Lishaut, UmwStG, 2. Aufl.",
     ["Lishaut", "Rödder", "Herlinghaus", "Lishaut"]),
    ("Pung / Werner in Dötsch / Pung / Möhlenbrock, KStG", ["Pung", "Werner", "Dötsch", "Pung", "Möhlenbrock"]),
    # one editor: with an editor's mark, or with a law's abbreviation and the work's edition
    ("(vgl. Budde, in: Keidel, FamFG, 19. Aufl. 2017)", ["Budde", "Keidel"]),
    ("vgl. Büggeln, in: Hoffmann [Hrsg.], 15 Jahre Bundesverfassungsgericht", ["Büggeln", "Hoffmann"]),
    ("; Lochte in Frotscher, EStG, Freiburg 2011, Rz 214", ["Lochte", "Frotscher"]),
    ("; Claßen in Lademann, EStG, § 19 Rz 3", ["Claßen", "Lademann"]),
    ("(vgl. dazu Henckel in Jaeger InsO § 38 Rn. 12)", ["Henckel", "Jaeger"]),
    # or with a title and the work's edition after its comma
    ("; Epping, in: Ipsen, Völkerrecht, 6. Aufl. 2014, § 54 Rn. 19", ["Epping", "Ipsen"]),
    ("siehe Mock in: Uhlenbruck, Insolvenzordnung, 14. Aufl., § 19 Rn. 3", ["Mock", "Uhlenbruck"]),
    # one name after "in" without the edition, or without the mark, is a place or a party's
    ("Herr Wimmer wohnt in Halle, ZPO-Verfahren laufen dort.", []),
    ("Frau Ebner in Hoffmann (Klägerin) wohnte dort.", []),
    ("Herr Wimmer, geboren in Leipzig, DDR, 1985, zog um.", []),
    ("Herr Wimmer wohnt in Halle, Saale. Er las die 6. Aufl. des Kommentars.", []),
    # a place with "/" after "in" is no list of editors: no law, edition or "§" after it
    ("Herr Wimmer wohnt in Halle / Saale, Die Klägerin zahlte.", []),
    ("Frau Ebner in Frankfurt / Oder, vertreten durch Herrn Wimmer", []),
    # a work cited before ("aaO"), by its author or editors, however the court writes it
    ("(Fezer aaO). Ungeachtet dessen", ["Fezer"]),
    ("; Schmitt in Meyer-Goßner, aaO Rn. 2a; Senge", ["Schmitt", "Meyer-Goßner"]),
    ("(GMP / Müller-Glöge aaO Rn. 10)", ["GMP", "Müller-Glöge"]),
    ("vgl. Kirchhof, a. a. O., S. 12", ["Kirchhof"]),
    # a sentence's end before "aaO", or no "aaO" at all
    ("Der Kläger heißt Wimmer. a. a. O. steht dort.", []),
    ("Der Kläger Wimmer aus Ort", []),
]


OTHER_MENTIONS = [
    ("Die Wortmarke Becker ist angemeldet. Das Wort „Becker“ sei ein Nachname. Die Anmelderin Frau Wimmer "
     "trägt vor.", ["Becker", "Becker"]),
    ("Der Zeichenbestandteil „Mining“ ist beschreibend. Mining sei ein Fachwort, sagt Herr Wimmer.",
     ["Mining", "Mining"]),
    ("Nach der Rechtssache Zimmermann ist das so. Das Urteil Zimmermann betraf Pflegeleistungen, sagt Herr "
     "Wimmer.", ["Zimmermann", "Zimmermann"]),
]


# what each rule marks, with the cases it must leave alone
RULE_EXAMPLES = {
    "a sign's name after a mark noun": MARK_NAMES,
    "a cited European case's party": CASE_PARTIES,
    "a cited decision's name": DECISION_NAMES,
    "a quoted term under discussion": QUOTED_TERMS,
    "a list of goods": GOODS_LISTS,
    "a cited work's author": WORK_AUTHORS,
    "another mention of a mark's name, a term or a case's party": OTHER_MENTIONS,
}


@pytest.mark.parametrize("text, marked", [
    pytest.param(text, marked, id=f"{rule}: {text[:50]}")
    for rule, examples in RULE_EXAMPLES.items() for text, marked in examples])
def test_public_names_marks_exactly_the_words_its_rules_name(text, marked):
    assert _public(text) == marked


def test_the_prefilter_marks_what_the_rules_mark():
    text = ("Die Wortmarke Becker und die Bezeichnung Limmer Kontor; Gast und Popp. /. Deutschland; "
            "Aranyosi, C - 404/15; Rechtssache Jülich II; Herr Wimmer v. Türkei; GRUR 2009, 949 – My World; "
            "Frau Ebner wohnt in Graz. Der Begriff „Kocher“ (vgl. Häberle, Verfassungslehre, 7. Aufl.) "
            "Klasse 11: Toaster, Röster. Herr Plonk.")
    elements = split_elements(text)
    raw = [e.text for e in elements]
    words = [sf.core_word(t) for t in raw]
    candidates = [i for i, w in enumerate(words) if w[:1].isupper()]
    goods = pn.goods_lists(raw)
    named = {words[i] for i in candidates if pn.in_mark_name(raw, words, i) or pn.in_quoted_term(raw, i)
             or pn.is_case_party(raw, words, i, case_countries())}
    slow = [words[i] in named or pn.in_decision_name(raw, words, i) or goods[i] or pn.is_work_author(raw, i)
            for i in candidates]
    assert pn.public_names(raw, words, candidates, case_countries()) == slow
    marked = [words[i] for i, m in zip(candidates, slow, strict=True) if m]
    # "Herr" of the cited case's party run ("Herr Wimmer v. Türkei") in its other mention too
    assert marked == ["Becker", "Limmer", "Kontor", "Gast", "Popp", "Aranyosi", "Jülich", "Herr", "Wimmer",
                      "My", "World", "Kocher", "Häberle", "Verfassungslehre", "Toaster", "Röster", "Herr"]


def _shipped_probabilities(text: str):
    """``text``'s candidate words, the shipped model's probabilities, the feature rows and the model."""
    model = sm.load_model()
    features = sf.document_features(text, model.tables)
    words = [sf.core_word(features.elements[i].text) for i in features.candidates]
    return words, model.predict_rows(features.rows), features, model


def test_when_a_word_is_a_public_name_or_an_abbreviation_then_the_model_gives_it_no_probability():
    words, probabilities, features, _ = _shipped_probabilities(
        "Die Wortmarke Zzyxberger ist angemeldet. Vgl. Qwertzinger und Plonk v. Türkei. "
        "Wie Abb. 5 zeigt, trägt Herr Plimbacher die Kosten, nicht Zzyxberger.")
    public = features.rows[:, sf.COLUMN["public_name"]] > 0
    # the mark's name in both its mentions, the cited case's parties (and the word before them)
    assert [w for w, m in zip(words, public, strict=True) if m] == ["Zzyxberger", "Vgl", "Qwertzinger", "Plonk",
                                                                    "Zzyxberger"]
    assert (probabilities[public] == 0).all()
    assert probabilities[words.index("Abb")] == 0
    # a surname after a salutation is judged by the trees, and flagged
    assert probabilities[words.index("Plimbacher")] >= sm.stored_threshold(data_path("scorer"))


def test_the_counting_script_splits_what_public_names_marks_by_rule():
    import importlib.util
    from pathlib import Path

    file = Path(__file__).resolve().parents[1] / "benchmarks" / "count_public_names.py"
    spec = importlib.util.spec_from_file_location("count_public_names", file)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    text = ("Die Wortmarke Becker ist angemeldet. „Becker“ sei ein Name. Klasse 20: Figuren aus Holz. "
            "(vgl. Häberle, Verfassungslehre, 7. Aufl.) Herr Plonk zahlte.")
    raw = [e.text for e in split_elements(text)]
    words = [sf.core_word(t) for t in raw]
    marked = {rule: sorted(words[i] for i in found) for rule, found in script.marked_by_rule(raw, words).items()}
    assert set(marked) == set(script.RULES)
    assert marked["mark name"] == ["Becker"]
    assert marked["mark name, other mentions"] == ["Becker"]
    assert marked["goods list"] == ["Figuren", "Holz"]
    assert marked["cited work's author"] == ["Häberle", "Verfassungslehre"]
    assert marked["all (the column public_name)"] == ["Becker", "Becker", "Figuren", "Holz", "Häberle",
                                                      "Verfassungslehre"]
    # the union of the rules is what the column holds
    union = sorted(w for rule, found in marked.items() if not rule.startswith("all") for w in found)
    assert sorted(set(union)) == sorted(set(marked["all (the column public_name)"]))


def _seat_marked(text: str) -> list[str]:
    """The candidate words of ``text`` whose ``seat`` column is set, in order."""
    features = sf.document_features(text, sf.Tables())
    words = [sf.core_word(features.elements[i].text) for i in features.candidates]
    return [w for w, row in zip(words, features.rows, strict=True) if row[sf.COLUMN["seat"]] > 0]


@pytest.mark.parametrize("text, marked", [
    # courts, authorities and landmarks print their place in clear
    ("Das Amtsgericht Zzyxheim und das Finanzamt Qwertzdorf entschieden.", ["Zzyxheim", "Qwertzdorf"]),
    ("Der Betrag ging an die Bundeskasse Halle.", ["Halle"]),
    ("Die Atomwaffen auf dem Fliegerhorst Büchel und am Flughafen Frankfurt.", ["Büchel", "Frankfurt"]),
    # courts anonymize the name inside a university, a college or a savings bank ("Universität G",
    # "Hochschule H.", "Sparkasse U"): the model judges it
    ("Die Universität Zzyxheim betreute die Dissertation.", []),
    ("Prof. Dr. Plonk (Hochschule Qwertzdorf) behandelt ihn.", []),
    ("Er studierte an der Fachhochschule Zzyxheim und der Technischen Universität München.", []),
    ("Sie erhielt von der Sparkasse Qwertzdorf 3.927,71 Euro.", []),
    # no rule ever marked a clinic's, a foundation's or a state-owned firm's name
    ("Sie arbeitete an der Neurologischen Klinik Zzyxheim und beim VEB Elektronik Qwertzdorf.", []),
])
def test_when_a_place_follows_an_institution_then_only_a_court_an_authority_or_a_landmark_makes_it_a_seat(
        text, marked):
    assert _seat_marked(text) == marked


def test_when_a_name_follows_a_university_then_the_model_judges_it_and_a_court_seat_stays_at_zero():
    words, probabilities, features, model = _shipped_probabilities(
        "Das Amtsgericht Zzyxheim verwies auf die Universität Qwertzdorf und die Sparkasse Plonkhausen. "
        "Die Universität Qwertzdorf stellte die Klägerin ein.")
    by_word: dict[str, list[float]] = {}
    for word, probability in zip(words, probabilities, strict=True):
        by_word.setdefault(word, []).append(float(probability))
    assert by_word["Zzyxheim"] == [0.0]
    assert len(by_word["Qwertzdorf"]) == 2 and min(by_word["Qwertzdorf"]) > 0
    assert by_word["Plonkhausen"][0] > 0
    # under --recall-first the court's seat is lowered, not zeroed
    model.follow_exemptions(recall_first=True)
    lowered = model.predict_rows(features.rows)
    assert 0 < lowered[words.index("Zzyxheim")] < 0.1 + 1e-9


def test_the_institution_count_sorts_institution_nouns_and_placeholder_shapes():
    import importlib.util
    from pathlib import Path

    file = Path(__file__).resolve().parents[1] / "benchmarks" / "count_institution_names.py"
    spec = importlib.util.spec_from_file_location("count_institution_names", file)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    kinds = {w: script.kind_of(w) for w in ("Fachhochschule", "Universitätsklinik", "K-Klinik", "VEB", "Schule",
                                           "Krankenpflegeheim", "Sparkasse", "Amtsgericht", "Mannheim")}
    assert kinds == {"Fachhochschule": "Universität, Hochschule", "Universitätsklinik": "Klinik, Klinikum, Krankenhaus",
                     "K-Klinik": "Klinik, Klinikum, Krankenhaus", "VEB": "VEB, Kombinat",
                     "Schule": "Schule, Gymnasium", "Krankenpflegeheim": "Heim (Pflege-, Alten-, Kinder-)",
                     "Sparkasse": "Sparkasse", "Amtsgericht": None, "Mannheim": None}
    assert [w for w in ("R", "H.", "M…", "...", "II", "Oldenburg") if script.placeholder_shaped(w)] == \
        ["R", "H.", "M…", "..."]
    text = "Sie war an der Neurologischen Klinik B, im Kreiskrankenhaus R und an der Universität Oldenburg tätig."
    start = text.index("Klinik B") + len("Klinik ")
    tally = script.Tally()
    script.count_record("BAG", {"text": text, "spans": [{"start": start, "end": start + 1}]}, tally,
                        script.load_lexicon("de-nouns"))
    counted = {key: dict(courts) for key, courts in tally.words.items()}
    assert counted == {("Klinik, Klinikum, Krankenhaus", "after", "placeholder"): {"BAG": 1},
                       ("Klinik, Klinikum, Krankenhaus", "after", "letters, no placeholder span"): {"BAG": 1},
                       ("Universität, Hochschule", "after", "clear, other"): {"BAG": 1}}
    assert not tally.marked  # no seat after a university
