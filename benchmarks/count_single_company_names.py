"""How the bundled courts write one word between an article and a legal form ("der W GmbH"): the
counts behind ``name_parts.single_company_name`` (docs/experiments.md, "A company's one-word name, and an
editor cited with a title").

Every element of ``rulings_anon/data/ler/*.jsonl.gz`` right after an article and right before a
legal form, nothing but spaces between it and the form, is counted per court as a placeholder (a
span of the court's anonymization covers it) or as printed in clear; of the words in clear, those
the rule would flag are listed.

    .venv/bin/python benchmarks/count_single_company_names.py
"""

from __future__ import annotations

import collections

from rulings_anon import data
from rulings_anon.analyzer import name_parts as parts
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.document import joined, split_elements
from rulings_anon.jsonl import read_jsonl

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")


def main() -> None:
    forms = sf._affixes()["legal_forms"]
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    clear: collections.Counter = collections.Counter()
    for court in COURTS:
        for record in read_jsonl(data.ler_corpus_files([court])[0]):
            text, spans = record["text"], [(s["start"], s["end"]) for s in record.get("spans") or []]
            elements = split_elements(text)
            words = parts.capitalized_words(elements)
            for i in range(1, len(elements) - 1):
                previous = sf.context_key(elements[i - 1].text)
                if not words[i] or words[i + 1] not in forms or not joined(elements[i].text, elements[i + 1].text) \
                        or previous not in parts._COMPANY_ARTICLES:
                    continue
                element = elements[i]
                if any(a < element.end and element.start < b for a, b in spans):
                    counts[court]["placeholder"] += 1
                elif parts.single_company_name(words[i], previous):
                    counts[court]["in clear, flagged by the rule"] += 1
                    clear[words[i]] += 1
                else:
                    counts[court]["in clear, left to the model"] += 1
    kinds = ("placeholder", "in clear, flagged by the rule", "in clear, left to the model")
    print("| court | " + " | ".join(kinds) + " |")
    print("|---" * (len(kinds) + 1) + "|")
    for court in COURTS:
        print(f"| {court.upper()} | " + " | ".join(str(counts[court][k]) for k in kinds) + " |")
    print("| all | " + " | ".join(str(sum(counts[c][k] for c in COURTS)) for k in kinds) + " |")
    print("\nin clear and flagged by the rule: " + ", ".join(f"{w} ({n})" for w, n in clear.most_common()))


if __name__ == "__main__":
    main()
