"""Capitalized words that are words, not names: the ones consistency never propagates.

German capitalizes nouns, so "Vertrag" looks like a name to a shape test. The bundled LER rulings
of the dev courts (BSG is held out) tell them apart: their ``entities`` mark every name, court,
law and citation, so a capitalized word seen often *outside* all entities is a common word.

A new court has words of its own that the dev courts never use ("Jobcenter", "Alg", "KÄV"): the
documents scored together tell those apart, since a word of the court's vocabulary recurs in many
of its rulings while the names of parties stay in their own ruling (:func:`batch_common_words`).

Listed abbreviations ("Abb.", "Nr.") are words too, whatever their shape (:func:`abbreviations`),
and so is a word of an abbreviation's shape, with no vowel or with a part of no vowel after an
inner capital ("Brfg", "VergGr", "BKKn"; :func:`abbreviation_shaped`), and a label of letters
and a number ("D1", "E1a", "K2"; :func:`label_shaped`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from rulings_anon.data import ler_corpus_files, resource_lines
from rulings_anon.defaults import BATCH_MIN_DOCUMENTS, BATCH_SHARE, DEV_COURTS
from rulings_anon.document import WORD_PUNCTUATION
from rulings_anon.jsonl import read_jsonl

# Seen this often outside every entity, a capitalized word is a common word.
MIN_COUNT = 3
_WORD = re.compile(r"[A-ZÄÖÜ][\w'’-]*\w")

_NAME_WORD = re.compile(r"^[A-ZÄÖÜ][\w'’.-]*$")


def name_key(word: str) -> str | None:
    """The key a name word is propagated by: capitalized, two letters or more, no abbreviation
    (all capitals, or two capitals or more making half its letters: "BSG", "HzV", "BVerfG"; not
    "McDonald"); None otherwise."""
    word = word.rstrip(".")
    if len(word) < 2 or not _NAME_WORD.match(word) or word.isupper():
        return None
    capitals = sum(c.isupper() for c in word)
    if capitals >= 2 and 2 * capitals >= sum(c.isalpha() for c in word):
        return None
    return word


def count_outside_entities(records) -> Counter:
    """Counts of capitalized words outside the ``entities`` and ``spans`` of LER records."""
    counts: Counter = Counter()
    for record in records:
        text = record["text"]
        taken = sorted((e["start"], e["end"]) for e in (record.get("entities") or []) + (record.get("spans") or []))
        pos = 0
        for start, end in taken + [(len(text), len(text))]:
            if start > pos:
                counts.update(_WORD.findall(text, pos, start))
            pos = max(pos, end)
    return counts


# The list :func:`count_common_words` counts, shipped so that no start reads the corpus (half a
# second of every ``score``); rebuilt by ``python -m rulings_anon.analyzer.common_words``, and a test
# checks it against the corpus.
COMMON_WORDS_FILE = ("ler", "common-words.txt")


def count_common_words() -> frozenset[str]:
    """The capitalized words seen at least :data:`MIN_COUNT` times outside every entity of the dev
    courts' rulings."""
    counts: Counter = Counter()
    for path in ler_corpus_files(DEV_COURTS):
        counts += count_outside_entities(read_jsonl(path))
    return frozenset(word for word, n in counts.items() if n >= MIN_COUNT)


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """The common capitalized words of the dev courts' rulings (the shipped list)."""
    return frozenset(resource_lines(*COMMON_WORDS_FILE))


def batch_common_words(texts: Iterable[str], share: float = BATCH_SHARE,
                       min_documents: int = BATCH_MIN_DOCUMENTS) -> frozenset[str]:
    """The capitalized words in at least ``share`` of ``texts`` and in at least ``min_documents``
    of them (none for fewer documents than that)."""
    counts: Counter = Counter()
    documents = 0
    for text in texts:
        documents += 1
        counts.update(document_words(text))
    least = least_documents(documents, share, min_documents)
    return frozenset(word for word, n in counts.items() if n >= least)


def document_words(text: str) -> set[str]:
    """The capitalized words of one text, each once (what :func:`batch_common_words` counts)."""
    return set(_WORD.findall(text))


def least_documents(documents: int, share: float = BATCH_SHARE, min_documents: int = BATCH_MIN_DOCUMENTS) -> float:
    """In how many of ``documents`` texts a word must occur to be the batch's vocabulary."""
    return max(min_documents, share * documents)


def common_words_for(texts: Iterable[str]) -> frozenset[str]:
    """The common words deciding on the documents ``texts``: the dev courts' and the batch's own."""
    return common_words() | batch_common_words(texts)


@lru_cache(maxsize=1)
def abbreviations() -> frozenset[str]:
    """Capitalized one-word abbreviations without their period ("Abb", "Bd", "Nr"; a candidate is
    one when it has the period, "Abb. 5", not the surname "Abb"): spaCy's German
    tokenizer exceptions (``rulings_anon/data/abbreviations/spacy-de.txt``), which the placeholder detector reads
    too. A figure reference "Abb. 5" is no name, whatever a court's own texts taught."""
    return frozenset(a[:-1] for a in resource_lines("abbreviations", "spacy-de.txt")
                     if a[:1].isupper() and a.endswith(".") and "." not in a[:-1])


_VOWELS = frozenset("aeiouyäöüAEIOUYÄÖÜàáâéèêíìîóòôúùû")
_LETTERS_ONLY = re.compile(r"[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]*\.?")
_CAPITAL_PARTS = re.compile(r"[A-ZÄÖÜ][a-zäöüß]*")


def abbreviation_shaped(word: str) -> bool:
    """Whether ``word`` (a core word) is shaped like an abbreviation, not a name: letters without
    a vowel ("Brfg", "BKKn", "Rn."), or a capital inside it that starts a part without one
    ("VergGr", "SozR", "InWIS"; not "McLean"). Only a word of small and capital letters, no
    acronym in capitals, no hyphen ("Meyer-GmbH" is a company's name), digit or quote. Names have
    vowels: of the 28,434 candidates of this shape in the six LER courts' rulings with surrogate
    names, none is sensitive (but a "Dr." inside a gold span)."""
    if len(word) < 2 or not _LETTERS_ONLY.fullmatch(word) or word.rstrip(".").isupper():
        return False  # an acronym in capitals may be a party's ("die MKS GmbH"): the model judges it
    letters = [c for c in word if c.isalpha()]
    if len(letters) < 2:
        return False
    if not any(c in _VOWELS for c in letters):
        return True
    parts = _CAPITAL_PARTS.findall(word)
    return (len(parts) > 1 and not word.startswith("Mc")
            and any(not any(c in _VOWELS for c in part) for part in parts[1:]))


# Capitals (small letters inside, "NiK5") and a number of up to three digits, a small letter after
# it: the label of a document, an annex or a road.
_LABEL = re.compile(r"[A-ZÄÖÜ][A-Za-zÄÖÜ]{0,4}\d{1,3}[a-z]?")


def label_shaped(word: str) -> bool:
    """Whether ``word`` (a core word) is a label of letters and a number, not a name: the
    documents cited in patent proceedings ("D1", "E1a", "NiK5", "HLNK8"), an annex ("K2"), a
    road ("B12"). Of the 2,470 candidates of this shape in the six LER courts' rulings with
    surrogate names (2,385 of them the patent court's), none is sensitive. A company may carry one
    ("die K2 GmbH"): the caller leaves a label before a legal form to the model."""
    return bool(_LABEL.fullmatch(word))


# the words after a compound's part whose head is left out ("Sonn- und Feiertage", "Haupt- als Hilfsantrag")
AFTER_ELIDED = frozenset({"und", "oder", "bzw.", "sowie", "bis", "u.", "als", "noch", "wie", "/"})


def elided_part(raw: str, next_raw: str | None) -> bool:
    """Whether an element (its text ``raw``, the next element's ``next_raw``) is a compound's part
    whose head is left out, no name: a word ending in a hyphen before "und", "oder", ... or a comma
    ("Sonn- und Feiertagsarbeit", "Sonn-, Feiertags- und Nachtzuschläge"), or in brackets
    ("(Gesamt-) Betriebsvereinbarung"). Not before a word in small letters: a line break's hyphen
    ("Wim- mer") is part of the word. Of the 2,809 such elements of the five development courts'
    anonymized rulings none is a placeholder."""
    word = raw.strip(WORD_PUNCTUATION)
    if len(word) < 3 or not word.endswith("-") or not word[:1].isupper():
        return False
    return raw.endswith(("-,", "-)")) or next_raw in AFTER_ELIDED


def main(argv=None) -> int:
    """Write :data:`COMMON_WORDS_FILE` from the bundled corpus, one word a line, sorted."""
    import argparse

    from rulings_anon.data import path as data_path
    from rulings_anon.jsonl import atomic_writer

    parser = argparse.ArgumentParser(description="Count the dev courts' common capitalized words into the "
                                                 "shipped list that score and the detector read.")
    parser.add_argument("--out", default=str(data_path(*COMMON_WORDS_FILE)), help="default: %(default)s")
    args = parser.parse_args(argv)
    words = sorted(count_common_words())
    with atomic_writer(args.out) as handle:
        handle.writelines(f"{word}\n" for word in words)
    print(f"{len(words)} common words -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

