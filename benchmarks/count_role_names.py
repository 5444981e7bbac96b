"""What stands right after the roles that name a person ("Geschäftsführer K.", "Kandidat Dorn") and
the kinds of institution that name one ("Landkreis M", "Klinik H"): the counts behind
:mod:`rulings_anon.analyzer.role_names` (docs/experiments.md, "A person named after their role",
"An institution named after its kind").

Every element of ``rulings_anon/data/ler/*.jsonl.gz`` right after one of the ``naming_roles`` or
the ``naming_institutions`` is counted per court, roles and institutions apart, as a placeholder (a span of the court's anonymization covers it) or as printed in
clear; of the words in clear, those the rule would flag (every probability taken as above 0 and
below the threshold) are counted, and listed for the courts given by ``--list``. A placeholder
("K.", "...") is no word the rule flags itself: on anonymized rulings it measures what the rule
would flag wrongly; the left-out courts' gold sets measure what it finds.

    .venv/bin/python benchmarks/count_role_names.py [--list bag,bfh,bgh,bpatg,bverfg]
"""

from __future__ import annotations

import argparse
import collections

import numpy as np

from rulings_anon import data
from rulings_anon.analyzer import role_names
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.document import split_elements
from rulings_anon.jsonl import read_jsonl

COURTS = ("bag", "bfh", "bgh", "bpatg", "bsg", "bverfg")
THRESHOLD = 0.5


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", default="", help="courts whose words in clear that the rule flags are listed")
    listed = set(filter(None, parser.parse_args(argv).list.split(",")))
    roles = role_names.naming_words()
    institutions = sf._affixes()["naming_institutions"]
    for court in COURTS:
        counts: collections.Counter = collections.Counter()
        flagged: collections.Counter = collections.Counter()
        for record in read_jsonl(data.ler_corpus_files([court])[0]):
            text, spans = record["text"], [(s["start"], s["end"]) for s in record.get("spans") or []]
            elements = split_elements(text)
            after = [i + 1 for i, e in enumerate(elements[:-1]) if e.text in roles]
            if not after:
                continue
            raised = role_names.with_role_names(text, elements, np.full(len(elements), THRESHOLD / 2), THRESHOLD)
            for i in after:
                e = elements[i]
                kind = "institutions" if elements[i - 1].text in institutions else "roles"
                placeholder = any(a < e.end and e.start < b for a, b in spans)
                counts[kind, "placeholder" if placeholder else "clear"] += 1
                if not placeholder and raised[i] >= THRESHOLD:
                    counts[kind, "clear, flagged"] += 1
                    flagged[(elements[i - 1].text, e.text)] += 1
        print(f"{court}: " + "; ".join(
            f"{kind}: {counts[kind, 'placeholder']} placeholders, {counts[kind, 'clear']} in clear, "
            f"{counts[kind, 'clear, flagged']} of them flagged by the rule" for kind in ("roles", "institutions")))
        if court in listed and flagged:
            print("   ", ", ".join(f"{role} {word} ×{n}" for (role, word), n in flagged.most_common()))


if __name__ == "__main__":
    main()
