"""The build step of ``rulings_anon/data/abbreviations/spacy-de.txt`` (spaCy's German tokenizer exceptions)."""

from rulings_anon.data import path as data_path
from rulings_anon.placeholders.abbreviations_builder import abbreviations, exception_forms

SOURCE = '''
_exc = {"auf'm": [{ORTH: "auf"}, {ORTH: "'m", NORM: "dem"}]}
for exc_data in [
    {ORTH: "Abb.", NORM: "Abbildung"},
    {ORTH: "'n", NORM: "ein"},
    {ORTH: "z.B."},
]:
    _exc[exc_data[ORTH]] = [exc_data]
for orth in ["A.G.", "i.G.", "II.", "St.", "c/o", "U.S."]:
    _exc[orth] = [{ORTH: orth}]
'''


def test_every_orth_string_is_read_from_dicts_and_the_list():
    assert set(exception_forms(SOURCE)) == {"auf", "'m", "Abb.", "'n", "z.B.", "A.G.", "i.G.", "II.", "St.", "c/o",
                                            "U.S."}


def test_abbreviations_end_with_a_period_and_are_neither_roman_nor_capitals_alone():
    # "A.G.", "U.S." look like initials, "II." is a roman numeral; "c/o" has no period at its end
    assert abbreviations(SOURCE) == ["Abb.", "St.", "i.G.", "z.B."]


def test_shipped_list_is_sorted_and_holds_what_the_detector_relies_on():
    lines = data_path("abbreviations", "spacy-de.txt").read_text(encoding="utf-8").splitlines()
    assert lines == sorted(set(lines))
    assert {"i.G.", "St.", "m.E.", "Abb."} <= set(lines)
    assert not {"I.", "U.S.", "K.O."} & set(lines)
