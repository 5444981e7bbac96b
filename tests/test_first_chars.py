"""A pattern with the lookahead of its first characters finds exactly what it found without."""

import re

import pytest

from rulings_anon.analyzer import recognizers as rec
from rulings_anon.data import ler_corpus_files
from rulings_anon.first_chars import compile_fast, first_class
from rulings_anon.jsonl import read_jsonl
from rulings_anon.references import rules


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"(?<![\w-])(?:genannt|[Aa]lias|Spitz(?:-?[Nn]ame)?)", "[gAaS]"),
    (r"\b(?:Dr\.|Prof\.)?\s*[A-ZÄÖÜ]\w+", None),  # may start with a blank: \s is frequent, but it is a class
    (r"(?:(?:Am|Im)\s+)?[A-Z][a-z]+straße", "[AIA-Z]"),
    (r"(?=\d)\d{5}", r"[\d]"),
    (r"x?", None),  # may match empty
    (r".abc", None),  # any character
    (r"[^a]bc", None),  # all but ...
    (r"(?i)abc", None),  # ignoring case
    (r"(?i:ab)c", None),
    (r"(a)\1", "[a]"),
])
def test_the_first_characters_of_a_pattern(pattern, expected):
    got = first_class(pattern)
    if pattern.startswith(r"\b(?:Dr"):
        assert got is not None and "\\s" in got
        return
    assert got == expected


def test_the_lookahead_is_put_only_where_re_scans_every_position_for_a_rare_start():
    assert compile_fast(r"(?<![\w-])genannt").pattern == r"(?=[g])(?:(?<![\w-])genannt)"
    assert compile_fast(r"genannt|Alias").pattern == r"genannt|Alias"  # re scans for a choice of literals
    assert compile_fast(r"[A-Z]\w+").pattern == r"[A-Z]\w+"  # starts with a class
    assert compile_fast(r"(?<!\w)[a-z0-9]+\.de").pattern == r"(?<!\w)[a-z0-9]+\.de"  # frequent letters
    assert compile_fast(r"(?x) (?<!\w) abc").pattern == r"(?x) (?<!\w) abc"  # global flags stay first
    commented = compile_fast("(?<!\\w) abc  # a comment", re.VERBOSE)
    assert commented.pattern.startswith("(?=[a])") and commented.findall("xabc abc") == ["abc"]


def test_every_shipped_pattern_finds_the_same_matches_with_the_lookahead():
    texts = [r["text"] for court in ("bag", "bpatg", "bsg") for r in list(read_jsonl(ler_corpus_files([court])[0]))[:12]]
    texts += ["Der Zeuge genannt „Toni“ wohnt Am Ring 5 in 12345 Berlin, Fl.Nr. 123/4, Kfz M-AB 123, "
              "IBAN DE89 3704 0044 0532 0130 00, Herr Dr. Xaver Huber, geb. 14.03.1978, www.example.de."]
    patterns = [(p.regex, p.flags | re.VERBOSE, fast) for name in rec.NAMES for p, fast in rec._instance(name)._compiled]
    patterns += [(fast.pattern.split(")(?:", 1)[1][:-1] if fast.pattern.startswith("(?=[") else fast.pattern, 0, fast)
                 for _, fast in rules().kinds]
    prefixed = 0
    for source, flags, fast in patterns:
        plain = re.compile(source, flags)
        prefixed += plain.pattern != fast.pattern
        for text in texts:
            assert [(m.span(), m.groupdict()) for m in fast.finditer(text)] == \
                [(m.span(), m.groupdict()) for m in plain.finditer(text)], source[:80]
    assert prefixed >= 25
