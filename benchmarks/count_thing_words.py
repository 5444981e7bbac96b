"""The words the thing rules weigh down by what stands around them, in the six courts' anonymized
rulings: a fixed phrase's words and chemical formulas ("in Kraft", "Treu und Glauben", "Li2O":
:mod:`rulings_anon.analyzer.fixed_phrases`), the signs a ruling about marks quotes ("die Marke
„Myzin“": :mod:`rulings_anon.analyzer.quoted_signs`) and compounds of two German words
("Glasrohling": :mod:`rulings_anon.analyzer.word_compounds`); docs/experiments.md, "Fixed phrases,
chemical formulas, a criminal case's victims, a genitive set apart", "A trademark's quoted sign"
and "A compound of two German words".

Every capitalized element a rule marks in ``rulings_anon/data/ler/*.jsonl.gz`` is counted per
court and kind, as a placeholder (a span of the court's anonymization covers it) or as printed in
clear; a placeholder would be a word the rule weighs down wrongly, and is listed.

    .venv/bin/python benchmarks/count_thing_words.py
"""

from __future__ import annotations

import argparse
import collections

from rulings_anon import data
from rulings_anon.analyzer.fixed_phrases import chemical_formula, thing_at
from rulings_anon.analyzer.quoted_signs import sign_at
from rulings_anon.analyzer.sensitivity import core_word
from rulings_anon.analyzer.word_compounds import compound_at
from rulings_anon.document import split_elements
from rulings_anon.jsonl import read_jsonl

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")
KINDS = ("phrases", "formulas", "quoted signs", "word compounds")


def kind_of(text: str, raw: list[str], i: int) -> str | None:
    """Which rule weighs element ``i`` down, if any."""
    if thing_at(raw, i):
        return "formulas" if chemical_formula(core_word(raw[i])) else "phrases"
    if sign_at(text, raw, i):
        return "quoted signs"
    return "word compounds" if compound_at(raw, i) else None


def main(argv=None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    total: collections.Counter = collections.Counter()
    for court in COURTS:
        counts: collections.Counter = collections.Counter()
        words: collections.Counter = collections.Counter()
        for record in read_jsonl(data.ler_corpus_files([court])[0]):
            spans = [(s["start"], s["end"]) for s in record.get("spans") or []]
            elements = split_elements(record["text"])
            raw = [e.text for e in elements]
            for i, element in enumerate(elements):
                kind = kind_of(record["text"], raw, i) if core_word(raw[i])[:1].isupper() else None
                if kind is None:
                    continue
                placeholder = any(a < element.end and element.start < b for a, b in spans)
                counts[kind, placeholder] += 1
                words[core_word(raw[i])] += 1
                if placeholder:
                    print(f"  {court} {record.get('id')}: a placeholder marked: {' '.join(raw[max(0, i - 4):i + 3])}")
        total.update(counts)
        print(f"{court}: " + "; ".join(f"{kind}: {counts[kind, False]} in clear, {counts[kind, True]} placeholders"
                                       for kind in KINDS)
              + f" (most: {', '.join(f'{w} {n}' for w, n in words.most_common(6))})")
    print("all: " + "; ".join(f"{kind}: {total[kind, False]} in clear, {total[kind, True]} placeholders" for kind in KINDS))


if __name__ == "__main__":
    main()
