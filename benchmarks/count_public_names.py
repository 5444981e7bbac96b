"""Count what each rule of the public names marks in the LER courts' rulings, and how many of those
words the courts anonymized.

A rule of :mod:`rulings_anon.analyzer.public_names` gives its words probability 0, so it must
mark no word a court anonymizes. This counts, per court and rule, the capitalized candidate words
the rule marks and how many of them are placeholders (the weak labels: the rulings pseudonymized
by the project's generator, ``names="all"``, as the scorer's benchmark trains on them). The
figures in the module's docstring come from here.

    .venv/bin/python benchmarks/count_public_names.py [--courts bag,bfh,...] [--examples 5]

``--examples N`` prints up to N marked placeholders per rule and court (never for the held-out
court, BSG, whose errors nobody reads).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict

from tqdm import tqdm

from rulings_anon import data
from rulings_anon.analyzer import public_names as pn
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.exemptions import case_countries
from rulings_anon.analyzer.substance_names import substance_name
from rulings_anon.defaults import HELD_OUT_COURT
from rulings_anon.document import Span, element_labels, split_elements
from rulings_anon.evaluation.testset import gold_records

COURTS = ("bag", "bfh", "bgh", "bpatg", "bverfg", "bsg")
RULES = ("mark name", "mark name, other mentions", "quoted term", "quoted term, other mentions", "goods list",
         "cited case's party", "cited case's party, other mentions", "cited decision's name", "cited work's author",
         "all (the column public_name)", "active substance (a rule after the trees)")


def marked_by_rule(raw: list[str], words: list[str]) -> dict[str, set[int]]:
    """Rule -> the candidate indices it marks in one text."""
    candidates = [i for i, w in enumerate(words) if sf.is_candidate(w)]
    in_countries = case_countries()
    mark = {i for i in candidates if pn.in_mark_name(raw, words, i)}
    term = {i for i in candidates if pn.in_quoted_term(raw, i)}
    case = {i for i in candidates if pn.is_case_party(raw, words, i, in_countries)}
    goods = pn.goods_lists(raw)

    def mentions(marked: set[int]) -> set[int]:
        named = {words[i] for i in marked}
        return {i for i in candidates if words[i] in named and i not in marked}

    everything = pn.public_names(raw, words, candidates, in_countries)
    return {
        "mark name": mark,
        "mark name, other mentions": mentions(mark),
        "quoted term": term,
        "quoted term, other mentions": mentions(term),
        "goods list": {i for i in candidates if goods[i]},
        "cited case's party": case,
        "cited case's party, other mentions": mentions(case),
        "cited decision's name": {i for i in candidates if pn.in_decision_name(raw, words, i)},
        "cited work's author": {i for i in candidates if pn.is_work_author(raw, i)},
        "all (the column public_name)": {i for i, m in zip(candidates, everything, strict=True) if m},
        "active substance (a rule after the trees)": {i for i in candidates if substance_name(words[i])},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--courts", default=",".join(COURTS), help="comma-separated LER courts (default: all six)")
    parser.add_argument("--examples", type=int, default=0, metavar="N",
                        help="print up to N marked placeholders per rule and court (none for the held-out court)")
    args = parser.parse_args(argv)
    courts = [c.strip() for c in args.courts.split(",") if c.strip()]
    unknown = sorted(set(courts) - set(COURTS))
    if unknown:
        parser.error(f"unknown court(s): {', '.join(unknown)} (known: {', '.join(COURTS)})")
    words_marked: dict[str, Counter] = defaultdict(Counter)
    placeholders: dict[str, Counter] = defaultdict(Counter)
    examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    for court in courts:
        records = gold_records(data.ler_corpus_files([court]), seed=0, names="all")
        for record in tqdm(records, desc=court, unit="ruling", file=sys.stderr):
            elements = split_elements(record["text"])
            gold = element_labels(elements, [Span(s["start"], s["end"]) for s in record.get("spans") or []])
            raw = [e.text for e in elements]
            words = [sf.core_word(t) for t in raw]
            for rule, marked in marked_by_rule(raw, words).items():
                words_marked[rule][court] += len(marked)
                hits = sorted(i for i in marked if gold[i])
                placeholders[rule][court] += len(hits)
                if court != HELD_OUT_COURT:
                    for i in hits[:max(0, args.examples - len(examples[rule, court]))]:
                        examples[rule, court].append(" ".join(raw[max(0, i - 6):i]) + f" [{raw[i]}] "
                                                     + " ".join(raw[i + 1:i + 4]))
    print(f"{'rule':38} " + " ".join(f"{c:>12}" for c in courts) + f" {'all':>13}")
    for rule in RULES:
        cells = " ".join(f"{words_marked[rule][c]:>7} / {placeholders[rule][c]:<2}" for c in courts)
        total = sum(words_marked[rule].values())
        print(f"{rule:38} {cells} {total:>8} / {sum(placeholders[rule].values())}")
        for court in courts:
            for example in examples[rule, court]:
                print(f"    placeholder, {court}: {example}")
    print("(capitalized words marked / of them placeholders, per court)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
