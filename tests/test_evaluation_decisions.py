"""The shared span decision: thresholds, span merging, consistency, candidates, standalone hits."""

import pytest

from rulings_anon.analyzer.common_words import name_key
from rulings_anon.analyzer.decisions import COMBINATIONS, Settings, core, decide
from rulings_anon.analyzer.exemptions import without_common_edges
from rulings_anon.document import Span, element_labels, split_elements
from rulings_anon.references import NER_SOURCE


def probabilities(text, flagged: dict[str, float]):
    """Per element of ``text``: the probability given for its text (first match wins), else 0."""
    return [flagged.get(e.text, 0.0) for e in split_elements(text)]


def spans_of(text, flagged, settings=Settings(0.5), **kwargs):
    elements = split_elements(text)
    return decide(text, elements, probabilities(text, flagged), settings, **kwargs)


def texts(spans):
    return [(s.text, s.source) for s in spans]


@pytest.mark.parametrize("piece, expected", [
    ("Kemper,", "Kemper"),  # a comma belongs to the sentence
    ("(Kemper)", "Kemper"),
    ("Kemper.", "Kemper"),  # a sentence period too
    ("K.", "K."),  # an initial keeps its period
    ("„Meyer“", "Meyer"),
    ("...", "..."),  # nothing but punctuation: the whole element
    ("e.V.", "e.V."),
    # the same rule as the detector's placeholder spans (rulings_anon.document.keeps_period)
    ("KG.", "KG"),  # a legal form at the end of a sentence
    ("H.-G.", "H.-G."),
    ("Dr.", "Dr."),
    ("Co.", "Co."),
])
def test_core_cuts_sentence_punctuation(piece, expected):
    s, e = core(piece, 0, len(piece))
    assert piece[s:e] == expected


def test_neighbouring_elements_merge_into_one_span_with_exact_offsets():
    text = "Der Zeuge Thilo Kemper, wohnhaft in Kehl, sagte aus."
    spans = spans_of(text, {"Thilo": 0.9, "Kemper,": 0.8, "Kehl,": 0.7}, Settings(0.5, consistency=False))
    assert [(s.start, s.end, s.text) for s in spans] == [(10, 22, "Thilo Kemper"), (36, 40, "Kehl")]
    assert spans[0].score == pytest.approx(0.9)
    assert spans[0].source == "model"


def test_comma_separated_names_stay_two_spans():
    text = "die Zeugen Kemper, Meyer und Lange"
    spans = spans_of(text, {"Kemper,": 0.9, "Meyer": 0.9, "Lange": 0.9}, Settings(0.5, consistency=False))
    assert [s.text for s in spans] == ["Kemper", "Meyer", "Lange"]


def test_a_blank_line_separates_spans():
    text = "Kemper\n\nMeyer"
    spans = spans_of(text, {"Kemper": 0.9, "Meyer": 0.9}, Settings(0.5, consistency=False))
    assert [s.text for s in spans] == ["Kemper", "Meyer"]


def test_a_particle_between_two_flagged_words_is_part_of_their_span():
    text = "Sitz in Ybbs an der Donau. Karl von Bülow traf Meier am Montag, Lange und Roth, Weber, von Halle."
    flagged = {"Ybbs": 0.9, "Donau.": 0.6, "Karl": 0.8, "Bülow": 0.7, "Meier": 0.9, "Lange": 0.9, "Roth,": 0.9,
               "Weber,": 0.9, "Halle.": 0.9}
    spans = spans_of(text, flagged, Settings(0.5, consistency=False))
    # a place's particle and a name's join (one name, one surrogate); "am" before an unflagged word,
    # "und" (no particle) and a particle after a comma do not
    assert [(s.start, s.end, s.text) for s in spans] == [
        (8, 25, "Ybbs an der Donau"), (27, 41, "Karl von Bülow"), (47, 52, "Meier"), (64, 69, "Lange"),
        (74, 78, "Roth"), (80, 85, "Weber"), (91, 96, "Halle")]
    assert spans[0].score == pytest.approx(0.9)
    # the particle's elements are sensitive with the name's: evaluate counts the elements spans cover
    elements = split_elements(text)
    assert [e.text for e, sensitive in zip(elements, element_labels(elements, spans), strict=True) if sensitive][:7] \
        == ["Ybbs", "an", "der", "Donau.", "Karl", "von", "Bülow"]
    # spaces only across a line, not across a blank line
    assert [s.text for s in spans_of("Ybbs an\nder Donau", {"Ybbs": 0.9, "Donau": 0.9})] == ["Ybbs an\nder Donau"]
    assert [s.text for s in spans_of("Ybbs an\n\nder Donau", {"Ybbs": 0.9, "Donau": 0.9})] == ["Ybbs", "Donau"]


def test_threshold_trades_recall_for_precision():
    text = "Herr Kemper und Frau Lange"
    flagged = {"Kemper": 0.8, "Lange": 0.4}
    assert [s.text for s in spans_of(text, flagged, Settings(0.5))] == ["Kemper"]
    assert [s.text for s in spans_of(text, flagged, Settings(0.3))] == ["Kemper", "Lange"]


def test_a_name_flagged_once_is_flagged_everywhere_in_the_document():
    text = "Der Kläger Thilo Kemper rief an. Später bestritt Kemper dies, Kempers Frau auch. Der Kläger blieb."
    elements = split_elements(text)
    probs = [0.01] * len(elements)  # a model's low probabilities (0 is certain: see below)
    probs[2], probs[3] = 0.9, 0.8  # "Thilo", "Kemper": only the first mention is flagged
    probs[1] = 0.7  # "Kläger": a common word, flagged here but never propagated
    settings = Settings(0.5, consistency=True, common_words=frozenset({"Kläger"}))
    spans = decide(text, elements, probs, settings)
    assert texts(spans) == [("Kläger Thilo Kemper", "model"), ("Kemper", "consistency"),
                            ("Kempers", "consistency")]
    assert spans[1].score == pytest.approx(0.8)  # the score of the flagged "Kemper"
    assert text.count("Kläger") == 2 and element_labels(elements, spans)[-2] is False
    without = decide(text, elements, probs, Settings(0.5, consistency=False))
    assert texts(without) == [("Kläger Thilo Kemper", "model")]


def test_a_flagged_name_is_not_propagated_to_a_judge_of_that_name():
    """A politician "Ministerpräsident Müller" flagged by the NER does not make the deciding
    "Richter Müller" sensitive: a judge's name after the role is public (found on BVerfG)."""
    text = ("Die Ablehnung des Richters Müller wird verworfen. Der Entwurf des Ministerpräsidenten Müller "
            "lag vor. Richter Müller, damals Minister, und Müller selbst.")
    elements = split_elements(text)
    probs = [0.01] * len(elements)
    probs[[e.text for e in elements].index("Ministerpräsidenten") + 1] = 0.9
    spans = decide(text, elements, probs, Settings(0.5, consistency=True))
    assert [(s.start, s.text, s.source) for s in spans] == [
        (text.index("Müller lag"), "Müller", "model"), (text.rindex("Müller"), "Müller", "consistency")]


def test_a_flagged_name_is_not_propagated_where_the_model_is_certain():
    """Probability exactly 0 is the sensitivity model's rule for a public name (a court's seat):
    "in Offenburg" flagged does not flag "Amtsgerichts Offenburg"."""
    text = "Er wohnt in Offenburg. Das Urteil des Amtsgerichts Offenburg. Offenburg liegt am Rhein."
    elements = split_elements(text)
    words = [e.text for e in elements]
    probs = [0.01] * len(elements)
    probs[words.index("Offenburg.")] = 0.9
    probs[words.index("Offenburg.", 5)] = 0.0  # the seat
    spans = decide(text, elements, probs, Settings(0.5, consistency=True))
    assert [(s.start, s.source) for s in spans] == [(text.index("Offenburg"), "model"),
                                                    (text.rindex("Offenburg"), "consistency")]
    # with candidates (the NER decides) a probability of 0 is no model's certainty
    start = text.index("Offenburg")
    candidates = [Span(start, start + 9, "Offenburg", "place", 0.9, source=NER_SOURCE)]
    spans = decide(text, elements, [0.0] * len(elements), Settings(0.5, combination="ner"), candidates)
    assert [s.source for s in spans] == [NER_SOURCE, "consistency", "consistency"]


@pytest.mark.parametrize("word, key", [
    ("Kemper", "Kemper"), ("McDonald", "McDonald"), ("Müller-Lüdenscheidt", "Müller-Lüdenscheidt"),
    ("Kemper.", "Kemper"), ("BSG", None), ("HzV", None), ("BVerfG", None), ("SozR", None), ("K", None),
    ("vertrag", None),
])
def test_abbreviations_are_no_names_to_propagate(word, key):
    assert name_key(word) == key


def test_a_flagged_abbreviation_stays_where_it_was_flagged():
    text = "Die HzV wird angeboten. Soweit die HzV durch Verträge geregelt ist, nimmt Kemper an der HzV teil."
    elements = split_elements(text)
    probs = probabilities(text, {"Kemper": 0.9})
    probs[1] = 0.9  # the first "HzV" only
    spans = decide(text, elements, probs, Settings(0.5, consistency=True))
    assert [(s.start, s.text) for s in spans] == [(4, "HzV"), (text.index("Kemper"), "Kemper")]


def test_initials_and_lower_case_words_are_not_propagated():
    text = "Herr K. und der vertrag. Dann K. und vertrag."
    spans = spans_of(text, {"K.": 0.0, "vertrag.": 0.9})
    # "vertrag" is flagged where the model says so, but a lower-case word is no name to propagate.
    assert [s.text for s in spans] == ["vertrag", "vertrag"]


def test_candidates_are_judged_as_whole_references():
    text = "Herr Thilo von Schmiedeberg und die Isenberg AG klagen."
    elements = split_elements(text)
    probs = [0.0, 0.2, 0.9, 0.1, 0.0, 0.0, 0.3, 0.0, 0.0]  # only "von" looks sensitive
    candidates = [Span(5, 27, "Thilo von Schmiedeberg", "PER", 0.99, source="ner"),
                  Span(36, 44, "Isenberg", "UN", 0.95, source="ner")]
    spans = decide(text, elements, probs, Settings(0.5, consistency=False), candidates=candidates)
    assert [(s.start, s.end, s.type, s.source, s.score) for s in spans] == [(5, 27, "PER", "ner+model", 0.9)]


@pytest.mark.parametrize("combination, expected", [
    ("model", [(5, 27, "ner+model", 0.9)]),  # the model alone: Isenberg's 0.3 is too low
    ("ner", [(5, 27, "ner", 0.99), (36, 44, "ner", 0.45)]),  # the NER alone, no model needed
    ("min", [(5, 27, "ner+model", 0.9)]),  # both must agree
    ("mean", [(5, 27, "ner+model", 0.945)]),  # Isenberg: (0.45 + 0.3) / 2 < 0.4
])
def test_combinations_join_the_proposers_score_and_the_models(combination, expected):
    text = "Herr Thilo von Schmiedeberg und die Isenberg AG klagen."
    elements = split_elements(text)
    probs = [0.0, 0.2, 0.9, 0.1, 0.0, 0.0, 0.3, 0.0, 0.0]
    candidates = [Span(5, 27, "Thilo von Schmiedeberg", "PER", 0.99, source="ner"),
                  Span(36, 44, "Isenberg", "UN", 0.45, source="ner")]
    spans = decide(text, elements, probs, Settings(0.4, consistency=False, combination=combination),
                   candidates=candidates)
    assert [(s.start, s.end, s.source, pytest.approx(s.score)) for s in spans] == expected


def test_an_unknown_combination_is_refused():
    with pytest.raises(ValueError, match="unknown combination 'max'"):
        Settings(0.5, combination="max")


def test_standalone_hits_are_sensitive_on_their_own():
    text = "Zahlung auf DE91 1000 0000 0123 4567 89 am Montag."
    elements = split_elements(text)
    hit = Span(12, 39, "DE91 1000 0000 0123 4567 89", "IBAN", 0.95, source="iban")
    spans = decide(text, elements, [0.0] * len(elements), Settings(0.5), candidates=[], standalone=[hit])
    assert [(s.start, s.end, s.type, s.source) for s in spans] == [(12, 39, "IBAN", "iban")]
    assert sum(element_labels(elements, spans)) == 6


NAMED = "Der Beteiligte Herr Thomas Wimmer beantragte es. Herr Wimmer meint, es sei erlangt."


@pytest.mark.parametrize("flagged", [
    {"Wimmer": 0.9},  # the recognizer's "Thomas" next to the model's "Wimmer"
    {"Thomas": 0.6, "Wimmer": 0.9},  # and overlapping the model's "Thomas"
])
def test_a_recognizers_name_and_the_models_next_to_it_are_one_reference(flagged):
    from rulings_anon.replacement.operators import pseudonymize_references

    hit = Span(20, 26, "Thomas", "person", 0.8, source="salutation_name")
    spans = spans_of(NAMED, flagged, standalone=[hit])
    assert [(s.start, s.end, s.text, s.type) for s in spans] == [
        (20, 33, "Thomas Wimmer", "person"), (54, 60, "Wimmer", None)]
    new_text, surrogates = pseudonymize_references(NAMED, spans, "doc-1", seed=3)
    full, later = [new_text[s["start"]:s["end"]] for s in surrogates]
    first, surname = full.split()
    assert first[0] == "T" and surname[0] == "W" and first != "Thomas" and surname != "Wimmer"
    assert later == surname  # one person: "Herr Wimmer" gets the surname "Thomas Wimmer" got


def test_a_recognizers_hit_of_no_name_stays_apart_from_a_flagged_word_next_to_it():
    text = "Zahlung auf DE91 1000 0000 0123 4567 89 Wimmer am Montag."
    hit = Span(12, 39, "DE91 1000 0000 0123 4567 89", "IBAN", 0.95, source="iban")
    spans = spans_of(text, {"Wimmer": 0.9}, Settings(0.5, consistency=False), standalone=[hit])
    assert [s.text for s in spans] == ["DE91 1000 0000 0123 4567 89", "Wimmer"]


def test_spans_cover_exactly_the_sensitive_elements():
    text = "(Kemper) und „Meyer“, Herrn K. sowie e.V. und ... in Kehl."
    flagged = {"(Kemper)": 0.9, "„Meyer“,": 0.6, "K.": 0.7, "...": 0.8, "Kehl.": 0.9}
    elements = split_elements(text)
    probs = probabilities(text, flagged)
    spans = decide(text, elements, probs, Settings(0.5, consistency=False))
    assert element_labels(elements, spans) == [p >= 0.5 for p in probs]
    assert [s.text for s in spans] == ["Kemper", "Meyer", "K.", "...", "Kehl"]


def test_no_elements_no_spans():
    assert decide("", [], [], Settings(0.5)) == []
    with pytest.raises(ValueError):
        decide("a b", split_elements("a b"), [0.1], Settings(0.5))


def test_long_texts_are_proposed_block_by_block_with_document_offsets():
    from rulings_anon.analyzer.candidates import propose_candidates
    from rulings_anon.analyzer.evidence import blocks, propose_in_blocks

    paragraph = "Zahlung auf DE91 1000 0000 0123 4567 89 an die Kasse.\n\n"
    text = paragraph * 1000
    ranges = blocks(text, size=5_000)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(text) and len(ranges) == 11
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    spans = propose_in_blocks([text], None, True)[0]
    assert [(s.start, s.end, s.source) for s in spans] == [
        (s.start + i * len(paragraph), s.end + i * len(paragraph), s.source)
        for i in range(1000) for s in propose_candidates(paragraph)]
    assert all(text[s.start:s.end] == "DE91 1000 0000 0123 4567 89" for s in spans)


def test_the_command_line_default_threshold_is_the_scorers():
    from rulings_anon.scoring import commands
    from rulings_anon.scoring import score_run as scoring

    assert commands.DEFAULT_THRESHOLD == scoring.DEFAULT_THRESHOLD
    assert commands.DEFAULT_COMBINATION == scoring.DEFAULT_COMBINATION
    assert set(commands.COMBINATION_NAMES) == set(COMBINATIONS)
    from rulings_anon.analyzer import common_words

    assert (commands.BATCH_SHARE, commands.BATCH_MIN_DOCUMENTS) == (common_words.BATCH_SHARE,
                                                                     common_words.BATCH_MIN_DOCUMENTS)
    from rulings_anon.interactive import commands as interactive_commands
    from rulings_anon.replacement.surrogates import NAME_HALVES

    assert set(interactive_commands.NAME_HALVES) == set(NAME_HALVES)


def test_common_words_at_a_references_edges_are_no_part_of_it():
    text = ("Das Jobcenter Wallisellen zahlte. Das Allgemeine Gleichbehandlungsgesetz gilt. Die Christen GmbH "
            "und die Teile des Vermögens von der Haidinger AG.")
    common = frozenset({"Jobcenter", "Allgemeine", "Gleichbehandlungsgesetz", "Christen", "Vermögens", "Teile"})
    references = ["Jobcenter Wallisellen", "Allgemeine Gleichbehandlungsgesetz", "Christen", "Vermögens von der Haidinger"]
    candidates = [Span(text.index(r), text.index(r) + len(r), r, "ORG", 0.95, source="ner") for r in references]
    elements = split_elements(text)
    spans = decide(text, elements, [0.0] * len(elements), Settings(0.8, consistency=False, common_words=common,
                                                                   combination="ner"), candidates=candidates)
    # the nouns around a name go, a law of common words goes whole, a word before a legal form stays
    assert [s.text for s in spans] == ["Wallisellen", "Christen", "Haidinger"]
    assert without_common_edges(text, 0, 3, common) == (0, 3)  # one word: unscored() decides


def test_a_ner_reference_of_one_common_word_has_no_ner_score():
    text = "Die Rampen gehören der Meyer Bau, sagt Herr Winter."
    elements = split_elements(text)
    candidates = [Span(4, 10, "Rampen", "PER", 0.98, source="ner"),
                  Span(23, 32, "Meyer Bau", "UN", 0.95, source="ner"),
                  Span(44, 50, "Winter", "PER", 0.9, source="ner")]
    common = frozenset({"Rampen", "Winter", "Bau"})
    settings = Settings(0.8, consistency=True, common_words=common, combination="ner")
    spans = decide(text, elements, [0.0] * len(elements), settings, candidates=candidates)
    # "Rampen" and "Winter" are words the dev courts use outside names; of "Meyer Bau" the name
    assert [(s.text, s.source) for s in spans] == [("Meyer", "ner")]
    # without the list (consistency off) the NER's score decides alone
    spans = decide(text, elements, [0.0] * len(elements), Settings(0.8, consistency=False, combination="ner"),
                   candidates=candidates)
    assert [s.text for s in spans] == ["Rampen", "Meyer Bau", "Winter"]
    # a contextual model may still judge a common word
    probs = [0.9 if e.text == "Rampen" else 0.0 for e in elements]
    spans = decide(text, elements, probs, Settings(0.8, common_words=common, combination="mean"), candidates=candidates)
    assert [s.text for s in spans] == ["Rampen"]
