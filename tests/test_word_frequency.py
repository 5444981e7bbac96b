"""The word frequencies the scorer reads are wordfreq's own, read without its start-up."""

import sys

import pytest
import wordfreq

from rulings_anon.analyzer import word_frequency
from rulings_anon.data import ler_corpus_files
from rulings_anon.document import split_elements
from rulings_anon.jsonl import read_jsonl

SHAPES = ["Vertrag", "vertrag", "VERTRAG", "Müller", "Straße", "Xuchberger", "M-GmbH", "Müller-Lüdenscheidt",
          "12.03.2019", "1/2", "2017", "§", "…", "-", "Abs.", "(Az.:", "O'Neill", "Café", "e-mail", "A1",
          "Klägerin,", "3a", "50%", "Ahornstraße,", "", "the", "court", "ab\ud800c", "X\ud800"]


def test_every_word_of_a_court_gets_wordfreqs_zipf_value():
    words = set(SHAPES)
    for record in list(read_jsonl(ler_corpus_files(["bgh"])[0]))[:15]:
        words.update(e.text for e in split_elements(record["text"]))
        words.update(e.text.strip(".,;:()") for e in split_elements(record["text"]))
    assert len(words) > 3000
    for lang in ("de", "en"):
        ours = {w: word_frequency.zipf(w, lang) for w in words}
        assert ours == {w: wordfreq.zipf_frequency(w, lang) for w in words}
    assert word_frequency.zipf("Vertrag", "de") > 4 and word_frequency.zipf("Xuchberger", "de") == 0.0
    assert word_frequency.zipf("the", "en") > 7 > word_frequency.zipf("the", "de")


def test_a_word_of_letters_needs_neither_wordfreq_nor_langcodes(monkeypatch):
    expected = wordfreq.zipf_frequency("Kläger", "de")
    for name in [m for m in sys.modules if m.split(".")[0] in ("wordfreq", "langcodes")]:
        monkeypatch.delitem(sys.modules, name)
    word_frequency.buckets.cache_clear()
    assert word_frequency.zipf("Kläger", "de") == expected > 3
    assert not [m for m in sys.modules if m.split(".")[0] in ("wordfreq", "langcodes")]


def test_a_language_without_a_list_is_refused():
    with pytest.raises(ValueError, match="no word frequencies of 'fr'; known: de, en"):
        word_frequency.zipf("Haus", "fr")
