"""Lists shipped so that score need not import their source at start are still their source's."""

import json

from rulings_anon.analyzer.exemptions import countries
from rulings_anon.analyzer.faker_lists import faker_lists, main
from rulings_anon.faker_names import shipped_lists


def test_the_shipped_faker_lists_are_the_installed_fakers(tmp_path):
    shipped = shipped_lists()
    assert {key: sorted(values) for key, values in shipped.items()} == faker_lists()
    assert {"Russische Föderation", "Österreich"} <= shipped["countries"] and {"Kevin", "Petra"} <= shipped["first_names"]
    assert {"Russland", "Österreichs", "Rumäniens"} <= countries()
    out = tmp_path / "faker_de.json"
    assert main(["--out", str(out)]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["countries"] == faker_lists()["countries"] and "faker" in written["_source"]


def test_the_detectors_word_lists_are_the_installed_wordfreqs(tmp_path):
    from rulings_anon.placeholders import word_lists

    shipped = word_lists.shipped()
    assert {key: sorted(values) for key, values in shipped.items()} == word_lists.build()
    assert {"method", "for", "is"} <= shipped["english"] and not {"hat", "in", "war"} & shipped["english"]
    assert {"soweit", "jedoch", "strasse"} <= shipped["german"] and "loehman" not in shipped["german"]
    out = tmp_path / "detector_words.json.gz"
    assert word_lists.main(["--out", str(out)]) == 0
    assert out.read_bytes() == word_lists.data_path(word_lists.FILE).read_bytes()  # rebuilt byte for byte


def test_the_detectors_word_rules_read_the_lists_as_wordfreq_would():
    """The shipped lists answer for a word of German letters what wordfreq's frequencies answer, and
    a word of other letters is still looked up in them."""
    from rulings_anon.placeholders.element_runs import english_word, surname_in_clear
    from rulings_anon.placeholders.word_lists import RARE_ZIPF
    from rulings_anon.word_frequency import ENGLISH_MARGIN, zipf

    words = ["method", "for", "is", "hat", "in", "war", "invention", "concerne", "straße", "français", "où",
             "comprising", "cellular", "wohnt"]
    assert [english_word(w) for w in words] == [zipf(w, "en") > zipf(w, "de") + ENGLISH_MARGIN for w in words]
    assert [english_word(w) for w in ("method", "hat", "Method", "e-mail")] == [True, False, False, False]
    names = ["Loehman", "Soweit", "Jedoch", "Straße", "Müller", "Saoud", "Gérard", "Unternehmensgegenstand"]
    assert [surname_in_clear(w) for w in names] == [
        True, False, False, False, False, True, zipf("gérard", "de") < RARE_ZIPF, False]
