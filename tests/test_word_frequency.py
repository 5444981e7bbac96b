"""The word frequencies the scorer reads are wordfreq's own, read without its start-up."""

import sys

import pytest
import wordfreq
import wordfreq.tokens

from rulings_anon import word_frequency
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


# Shapes wordfreq's tokenizer treats apart: French particles, "@s", curly and straight quotes, scripts
# without spaces, emoji, decomposed accents, final sigma, dotted I, digits of other scripts, a lone
# surrogate, spaces that are no spaces.
TOKENIZER_SHAPES = ["l'arc", "qu'un", "d'heure", "@s", "amig@s", "„Glück“", "O’Neill", "‚x‘", "'quoted'",
                    "rock'n'roll", "東京都", "ひらがなカタカナ", "ภาษาไทย", "😀👍", "e\u0301te\u0301", "ΣΑΣ",
                    "İstanbul", "a\u00a0b", "x\u200by", "٣٤٥", "2019,5", "A-1.234,56", "Li2O", "½", "₂O",
                    "1.000.000", "09/2017", "3050", "ab\ud800c"]


def test_the_tokens_are_wordfreqs():
    words = set(SHAPES + TOKENIZER_SHAPES)
    for record in list(read_jsonl(ler_corpus_files(["bfh"])[0]))[:10]:
        words.update(e.text for e in split_elements(record["text"]))
    for lang in ("de", "en"):
        assert {w: word_frequency.lossy_tokenize(w) for w in words} == \
            {w: wordfreq.tokens.lossy_tokenize(w, lang) for w in words}
    assert word_frequency.lossy_tokenize("„M-GmbH“") == ["m", "gmbh"]
    assert word_frequency.lossy_tokenize("l'arc") == ["l", "arc"]
    assert word_frequency.smash_numbers("Li2O 2017") == "Li2O 0000"


def test_no_word_needs_wordfreq_langcodes_or_ftfy(monkeypatch):
    expected = {w: wordfreq.zipf_frequency(w, "de") for w in ("Kläger", "M-GmbH", "12.03.2019", "l'arc")}
    for name in [m for m in sys.modules if m.split(".")[0] in ("wordfreq", "langcodes", "ftfy")]:
        monkeypatch.delitem(sys.modules, name)
    word_frequency.buckets.cache_clear()
    assert {w: word_frequency.zipf(w, "de") for w in expected} == expected
    assert expected["Kläger"] > 3 and expected["M-GmbH"] > 0
    assert not [m for m in sys.modules if m.split(".")[0] in ("wordfreq", "langcodes", "ftfy")]


def test_a_language_without_a_list_is_refused():
    with pytest.raises(ValueError, match="no word frequencies of 'fr'; known: de, en"):
        word_frequency.zipf("Haus", "fr")
