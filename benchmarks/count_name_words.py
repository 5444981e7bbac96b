"""What the bundled courts wrote where two decision rules flag a word whatever the model says of it:
the counts behind ``name_parts.WORD_SURNAMES`` and ``name_parts.TOWN_DISTRICTS``
(docs/experiments.md, "A first name before a surname that is a word, a town's district").

* a first name written out before a surname that is also a common noun ("Thomas Sommer",
  :func:`~rulings_anon.analyzer.name_parts.first_then_surname`), where neither rule of a name's
  parts took the pair before;
* a town and its district joined by a hyphen after a word that introduces a place ("in
  Grünwald-Geiselgasteig", :func:`~rulings_anon.analyzer.name_parts.town_district`).

Every such element of ``rulings_anon/data/ler/*.jsonl.gz`` is counted per court as a placeholder (a
span of the court's anonymization covers it) or as printed in clear; the words in clear are listed.

    .venv/bin/python benchmarks/count_name_words.py
"""

from __future__ import annotations

import collections

from rulings_anon import data
from rulings_anon.analyzer import name_parts as parts
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.document import split_elements
from rulings_anon.jsonl import read_jsonl

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")
RULES = ("word surname", "town district")


def matches(text, elements, words) -> dict[str, list[int]]:
    """Per rule, the indices of ``elements`` it flags (the surname of a pair): the pairs of a name's
    parts (:func:`~rulings_anon.analyzer.name_parts.adjacent_pairs`) only the word surnames make."""
    surnames = [b for a, b in parts.adjacent_pairs(text, elements, words)
                if not parts.name_part(words[b]) and parts.first_then_surname(words[a], words[b])]
    districts = parts.town_districts(words, lambda i: sf.context_key(elements[i - 1].text) if i else None)
    return {"word surname": surnames, "town district": districts.tolist()}


def main() -> None:
    counts: dict[tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
    clear: dict[str, collections.Counter] = {rule: collections.Counter() for rule in RULES}
    for court in COURTS:
        for record in read_jsonl(data.ler_corpus_files([court])[0]):
            text, spans = record["text"], [(s["start"], s["end"]) for s in record.get("spans") or []]
            elements = split_elements(text)
            words = parts.capitalized_words(elements)
            for rule, found in matches(text, elements, words).items():
                for i in found:
                    element = elements[i]
                    if any(a < element.end and element.start < b for a, b in spans):
                        counts[(rule, court)]["placeholder"] += 1
                    else:
                        counts[(rule, court)]["in clear"] += 1
                        clear[rule][f"{words[i - 1]} {words[i]}" if rule == "word surname" else words[i]] += 1
    print("| rule | " + " | ".join(c.upper() for c in COURTS) + " |")
    print("|---" * (len(COURTS) + 1) + "|")
    for rule in RULES:
        cells = [f"{counts[(rule, c)]['placeholder']} / {counts[(rule, c)]['in clear']}" for c in COURTS]
        print(f"| {rule} (placeholder / in clear) | " + " | ".join(cells) + " |")
    for rule in RULES:
        print(f"\n{rule}, in clear: " + (", ".join(f"{w} ({n})" for w, n in clear[rule].most_common()) or "none"))


if __name__ == "__main__":
    main()
