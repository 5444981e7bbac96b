"""Candidate references: which proposed texts are repeated at their other occurrences (exact spans)."""

from __future__ import annotations

from rulings_anon.analyzer.candidates import (
    _with_repetitions,
    _with_unknown_words,
    propose_candidates,
    without_affixes,
)
from rulings_anon.document import Span


def at(text: str, word: str, nth: int = 0, **fields) -> Span:
    """The span of the ``nth`` occurrence of ``word`` in ``text``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    return Span(start, start + len(word), word, **fields)


def test_when_name_proposed_then_its_other_occurrences_are_repeated():
    text = "Thilo von Schmiedeberg und Kemper. Später Thilo von Schmiedeberg; Kemper ging."
    spans = [at(text, "Thilo von Schmiedeberg", type="PER", score=0.9, source="ner"),
             at(text, "Kemper", type="PER", score=0.6, source="person_title")]
    assert [(s.start, s.end, s.text, s.kind, s.source) for s in _with_repetitions(text, spans, frozenset())] == [
        (0, 22, "Thilo von Schmiedeberg", None, "ner"), (27, 33, "Kemper", None, "person_title"),
        (42, 64, "Thilo von Schmiedeberg", "repeated", "ner"), (66, 72, "Kemper", "repeated", "person_title")]


def test_when_proposed_text_is_no_name_then_it_is_not_repeated():
    # Lower-case particles, a common word, all capitals and a too short word are no name keys.
    text = "van der Anspruch US 1 183 062 Xu. Dann van der Anspruch, US 1 183 062 und Xu."
    spans = [at(text, "van", type="PER", source="ner"), at(text, "der", type="PER", source="ner"),
             at(text, "Anspruch", type="PER", source="person_title"),
             at(text, "US 1 183 062", type="PAT", source="patent"), at(text, "Xu", type="PER", source="ner")]
    assert _with_repetitions(text, spans, frozenset({"Anspruch"})) == spans


def test_when_one_word_of_a_name_is_a_name_then_the_whole_text_is_repeated():
    text = "die Kanzlei Meyer, später Kanzlei Meyer"
    spans = [at(text, "Kanzlei Meyer", type="ORG", score=0.8, source="ner")]
    assert [(s.start, s.end, s.kind) for s in _with_repetitions(text, spans, frozenset({"Kanzlei"}))] == [
        (4, 17, None), (26, 39, "repeated")]


def test_when_common_word_follows_a_role_then_it_is_proposed_once_but_not_repeated():
    # "Anspruch" is a common word of the bundled dev rulings (rulings_anon/analyzer/common_words.py).
    text = "ob der Vater Anspruch auf Zulage hat. Der Anspruch besteht, sagte Herr Kemper. Kemper ging."
    assert [(s.start, s.end, s.text, s.kind) for s in propose_candidates(text)] == [
        (13, 21, "Anspruch", None), (71, 77, "Kemper", None), (79, 85, "Kemper", "repeated")]


def test_a_name_is_not_repeated_at_the_end_of_a_hyphenated_word():
    text = "in Brandenburg wohnhaft, vom LSG Berlin-Brandenburg und der Brandenburg-Klinik, wieder Brandenburg."
    spans = [Span(3, 14, "Brandenburg", "ST", 0.9, source="ner")]
    assert [(s.start, s.end) for s in _with_repetitions(text, spans, frozenset())] == [(3, 14), (60, 71), (87, 98)]


def test_a_merged_persons_span_loses_its_titles_and_other_hits_keep_theirs():
    text = "Patentanwalt Dipl. - Phys. Kaiser und die Meyer GmbH, Tel. 030 1234567"
    spans = [at(text, "Dipl. - Phys. Kaiser", type="PER", score=0.7, source="titled_name"),
             at(text, "Meyer GmbH", type="UN", score=0.9, source="ner"),
             at(text, "030 1234567", type="PHONE", score=0.9, source="phone")]
    assert [s.text for s in without_affixes(text, spans)] == ["Kaiser", "Meyer", "030 1234567"]


def test_unknown_words_are_candidates_where_no_other_finder_proposed_them():
    # "Kemper" after a salutation is salutation_name's, and so is its repetition; the words the noun
    # lexicon does not know are unknown_word candidates, grown to their name or place reference
    # (with its sentence period, which the decision cuts off).
    text = "Herr Kemper verklagte Auinger und Thilo von Schmiedeberg. Kemper und Auinger gingen nach Neusiedl am See."
    assert [(s.text, s.kind, s.source) for s in propose_candidates(text)] == [
        ("Kemper", None, "salutation_name"), ("Auinger", None, "unknown_word"),
        ("Thilo von Schmiedeberg.", None, "unknown_word"), ("Kemper", "repeated", "salutation_name"),
        ("Auinger", None, "unknown_word"), ("Neusiedl am See.", None, "unknown_word")]


def test_an_unknown_word_never_grows_or_doubles_a_ner_candidate():
    text = "Die Thaller GmbH und Auinger."
    ner = Span(4, 11, "Thaller", "UN", 0.9, source="ner")
    proposed = _with_unknown_words(text, [ner], [Span(4, 11, "Thaller", "UNKNOWN", 0.5, source="unknown_word"),
                                                 Span(21, 28, "Auinger", "UNKNOWN", 0.5, source="unknown_word")])
    assert [(s.start, s.end, s.type, s.source) for s in proposed] == [(4, 11, "UN", "ner"), (21, 28, None, "unknown_word")]


def test_unknown_words_are_only_looked_for_where_a_contextual_model_judges_candidates():
    from rulings_anon.analyzer.evidence import _without_unknown_words
    from rulings_anon.analyzer.recognizers import enabled_by_default

    assert "unknown_word" in enabled_by_default()
    assert _without_unknown_words(True) == enabled_by_default() - {"unknown_word"}
    assert _without_unknown_words({"iban", "unknown_word"}) == {"iban"}
    assert _without_unknown_words(False) is False
