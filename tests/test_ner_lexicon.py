"""The German noun lexicon the NER reads: building it from german-nouns' CSV, the shipped file,
its ids per token, and a tagger trained without it."""

from __future__ import annotations

import csv

import pytest

from rulings_anon.errors import InputError
from rulings_anon.lexicon import (
    COMMON_NOUN,
    COMPOUND,
    DEFAULT,
    OTHER_PROPER,
    PERSON_NAME,
    PLACE_NAME,
    SortedLexicon,
    load_lexicon,
    lookup,
    sorted_lexicon,
)
from rulings_anon.ner import load_ner, train_ner
from rulings_anon.ner.dataset import dev_corpus_files
from rulings_anon.ner.lexicon_builder import build_lexicon, main, write_lexicon
from rulings_anon.ner.tokens import Vocabulary

COLUMNS = ["lemma", "pos", "genus", "nominativ singular", "nominativ plural", "genitiv singular", "dativ plural"]
ROWS = [
    ["Gitarre", "Substantiv", "f", "Gitarre", "Gitarren", "Gitarre", "Gitarren"],
    ["Müller", "Substantiv", "m", "Müller", "Müller", "Müllers", "Müllern"],
    ["Müller", "Substantiv,Nachname", "m", "Müller", "Müllers", "Müllers", ""],
    ["Delmenhorst", "Substantiv,Toponym", "n", "Delmenhorst", "", "Delmenhorsts", ""],
    ["Bundestag", "Substantiv,Eigenname", "m", "Bundestag", "", "Bundestages", ""],
    ["Rotes Kreuz", "Substantiv,Wortverbindung", "n", "Rotes Kreuz", "", "", ""],
    ["-algie", "Gebundenes Lexem,Substantiv", "f", "-algie", "-algien", "", ""],
]


def _write_csv(path, rows, columns=COLUMNS):
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(rows)
    return path


def test_every_capitalized_form_gets_the_bits_of_all_its_entries(tmp_path):
    table = build_lexicon(_write_csv(tmp_path / "nouns.csv", ROWS))
    assert table == {
        "Gitarre": COMMON_NOUN, "Gitarren": COMMON_NOUN,
        "Müller": COMMON_NOUN | PERSON_NAME, "Müllers": COMMON_NOUN | PERSON_NAME, "Müllern": COMMON_NOUN,
        "Delmenhorst": PLACE_NAME, "Delmenhorsts": PLACE_NAME,
        "Bundestag": OTHER_PROPER, "Bundestages": OTHER_PROPER,
    }  # no multi-word form, no lower-case affix


def test_written_lexicon_reads_back_and_the_command_writes_it(tmp_path, capsys):
    table = build_lexicon(_write_csv(tmp_path / "nouns.csv", ROWS))
    write_lexicon(table, tmp_path / "a.tsv.gz")
    assert main([str(tmp_path / "nouns.csv"), "--out", str(tmp_path / "b.tsv.gz")]) == 0
    assert "9 forms" in capsys.readouterr().out
    assert (tmp_path / "a.tsv.gz").read_bytes() == (tmp_path / "b.tsv.gz").read_bytes()


def test_a_csv_without_lemma_and_pos_is_refused_naming_the_file(tmp_path, capsys):
    bad = _write_csv(tmp_path / "other.csv", [["x", "y"]], columns=["word", "count"])
    with pytest.raises(InputError, match=r"other\.csv: not german-nouns' nouns\.csv"):
        build_lexicon(bad)
    assert main([str(bad), "--out", str(tmp_path / "x.tsv.gz")]) == 1
    assert "other.csv" in capsys.readouterr().err and not (tmp_path / "x.tsv.gz").exists()


def test_shipped_lexicon_knows_nouns_names_places_and_their_case_forms():
    table = load_lexicon(DEFAULT)
    assert len(table) > 200_000
    assert table["Gitarre"] == COMMON_NOUN and table["Schülern"] == COMMON_NOUN
    assert table["Müller"] == COMMON_NOUN | PERSON_NAME
    assert table["Delmenhorst"] & PLACE_NAME
    assert "gitarre" not in table and "Taferner" not in table


def test_the_sorted_lexicon_finds_by_bisection_what_the_dict_holds():
    table, searched = load_lexicon(DEFAULT), sorted_lexicon(DEFAULT)
    forms = sorted(table)
    for form in forms[::97] + [forms[0], forms[-1]]:
        assert searched.get(form) == table[form], form
    for absent in ("", "gitarre", "Taferner", "Aaaaa", "\u00ff\u00ff", "Zzzzzzzz", forms[0][:-1], forms[-1] + "x"):
        assert searched.get(absent, -1) == -1 == table.get(absent, -1), absent
    for word in ("Honorarbescheid", "Gitarre", "Müller", "Taferner", "EP1441735Bescheid"):
        assert lookup(searched, word) == lookup(table, word)
    tiny = SortedLexicon(b"Ab\t1\nAbc\t2\nB\t4\n\xc3\x84rger\t1\n")  # "Ärger": UTF-8 bytes sort last
    assert [tiny.get(f) for f in ("Ab", "Abc", "B", "Ärger", "A", "Abcd", "C")] == [1, 2, 4, 1, None, None, None]


def test_an_unlisted_capitalized_word_ending_in_a_listed_noun_is_a_compound():
    table = {"Bescheid": COMMON_NOUN, "Berg": COMMON_NOUN | PLACE_NAME, "Mann": PERSON_NAME, "Rente": COMMON_NOUN}
    assert lookup(table, "Honorarbescheid") == COMPOUND
    assert lookup(table, "Schmiedeberg") == COMPOUND  # surnames can look like compounds too
    assert lookup(table, "Teilrente") == COMPOUND
    assert lookup(table, "Hofmann") == 0  # "Mann" listed only as a name here
    assert lookup(table, "Altrente") == COMPOUND and lookup(table, "Derente") == 0  # a modifier of three letters at least
    assert lookup(table, "honorarbescheid") == 0 and lookup(table, "Bescheid") == COMMON_NOUN
    assert lookup(table, "EP1441735Bescheid") == 0  # letters only


def test_vocabulary_encodes_the_lexicon_id_of_each_token_case_kept():
    vocab = Vocabulary(["der", "gitarre"], list("abc"), 6, load_lexicon(DEFAULT))
    words, chars, lexicon = vocab.encode(["Der", "Gitarre", "gitarre", "Taferner", "Müller", "Gerichtsgitarre"])
    assert words.tolist()[:3] == [2, 3, 3] and chars.shape == (6, 6)
    assert lexicon.tolist() == [0, COMMON_NOUN, 0, 0, COMMON_NOUN | PERSON_NAME, COMPOUND]
    assert Vocabulary(["die"], list("abc"), 6).encode(["Gitarre"])[2].tolist() == [0]


def test_a_tagger_trained_without_lexicon_has_no_lexicon_input(tmp_path):
    overrides = {"word_dim": 8, "char_dim": 4, "char_filters": 8, "hidden": 8, "window": 16, "lexicon": None}
    train_ner(dev_corpus_files()[:1], tmp_path, epochs=1, max_docs=1, batch_size=4, steps_per_epoch=2,
              overrides=overrides, progress=False)
    tagger = load_ner(tmp_path)
    assert tagger.config.lexicon is None and set(tagger.model.input) == {"words", "chars"}
    text = "Herr Müller spielt Gitarre in Delmenhorst."
    assert all(text[s.start:s.end] == s.text for s in tagger.predict(text))
