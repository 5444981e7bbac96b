"""The words two decision rules weigh down, counted in the six courts' rulings with their
placeholders filled: the scholars of a commentary or a tribute cited without commas ("Osterloh /
Nußberger in Sachs GG 7. Aufl.", "Grunsky Freundesgabe für Söllner":
:func:`rulings_anon.analyzer.public_names.commentary_name`) and a judge named after the role's
abbreviation ("Becker RiBGH Dr. Tiemann befindet sich im Urlaub":
:func:`rulings_anon.analyzer.exemptions.after_judge_abbreviation`); docs/experiments.md,
"Commentaries and tributes cited without commas, a judge after the role's abbreviation".

The placeholders are filled with the test sets' names (``build-testset --names foreign``, one
draw), so that a court's initial ("in S. GG") stands as the name it replaced; a filled placeholder
the rule marks would be a word it weighs down wrongly, and is listed. Words the public rules make
public already (:func:`rulings_anon.analyzer.public_names.is_work_author`) are left out.

    .venv/bin/python benchmarks/count_cited_scholars.py [--seed 0]
"""

from __future__ import annotations

import argparse
import collections

from rulings_anon import data
from rulings_anon.analyzer.exemptions import after_judge_abbreviation
from rulings_anon.analyzer.public_names import commentary_name, is_work_author
from rulings_anon.document import split_elements
from rulings_anon.evaluation.testset import gold_records

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")
KINDS = {"commentary scholars": commentary_name, "signed judges": after_judge_abbreviation}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="the draw of the names that fill the placeholders")
    args = parser.parse_args(argv)
    total: collections.Counter = collections.Counter()
    for court in COURTS:
        counts: collections.Counter = collections.Counter()
        for record in gold_records(data.ler_corpus_files([court]), seed=args.seed, names="foreign"):
            spans = [(s["start"], s["end"]) for s in record["spans"]]
            elements = split_elements(record["text"])
            raw = [e.text for e in elements]
            for i, element in enumerate(elements):
                kind = next((k for k, test in KINDS.items() if test(raw, i)), None)
                if kind is None or is_work_author(raw, i):
                    continue
                placeholder = any(a < element.end and element.start < b for a, b in spans)
                counts[kind, placeholder] += 1
                if placeholder:
                    print(f"  {court} {record['id']}: a placeholder marked: {' '.join(raw[max(0, i - 4):i + 3])}")
        total.update(counts)
        print(f"{court}: " + "; ".join(f"{kind}: {counts[kind, False]} in clear, {counts[kind, True]} placeholders"
                                       for kind in KINDS))
    print("all: " + "; ".join(f"{kind}: {total[kind, False]} in clear, {total[kind, True]} placeholders"
                              for kind in KINDS))


if __name__ == "__main__":
    main()
