"""The words a fixed phrase holds and the chemical formulas ("in Kraft", "Treu und Glauben", "Li2O")
in the six courts' anonymized rulings: the counts behind
:mod:`rulings_anon.analyzer.fixed_phrases` (docs/experiments.md, "Fixed phrases, chemical formulas
and a criminal case's victims").

Every capitalized element :func:`~rulings_anon.analyzer.fixed_phrases.thing_at` marks in
``rulings_anon/data/ler/*.jsonl.gz`` is counted per court, phrases and formulas apart, as a
placeholder (a span of the court's anonymization covers it) or as printed in clear; a placeholder
would be a word the rule weighs down wrongly, and is listed.

    .venv/bin/python benchmarks/count_fixed_phrases.py
"""

from __future__ import annotations

import argparse
import collections

from rulings_anon import data
from rulings_anon.analyzer.fixed_phrases import chemical_formula, thing_at
from rulings_anon.analyzer.sensitivity import core_word
from rulings_anon.document import split_elements
from rulings_anon.jsonl import read_jsonl

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")


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
                if not raw[i][:1].isupper() or not thing_at(raw, i):
                    continue
                word = core_word(raw[i])
                kind = "formulas" if chemical_formula(word) else "phrases"
                placeholder = any(a < element.end and element.start < b for a, b in spans)
                counts[kind, placeholder] += 1
                words[word] += 1
                if placeholder:
                    print(f"  {court} {record.get('id')}: a placeholder marked: {' '.join(raw[max(0, i - 4):i + 3])}")
        total.update(counts)
        print(f"{court}: " + "; ".join(f"{kind}: {counts[kind, False]} in clear, {counts[kind, True]} placeholders"
                                       for kind in ("phrases", "formulas"))
              + f" (most: {', '.join(f'{w} {n}' for w, n in words.most_common(6))})")
    print("all: " + "; ".join(f"{kind}: {total[kind, False]} in clear, {total[kind, True]} placeholders"
                              for kind in ("phrases", "formulas")))


if __name__ == "__main__":
    main()
