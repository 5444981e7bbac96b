"""Figures of the terminal tool on the bundled LER corpus: ``python -m rulings_anon.interactive.benchmark``.

* type inference (what ``--auto`` and the suggestions use) against the LER gold types of the
  placeholders, on the dev courts and on the held-out BSG;
* surrogates: share of gold placeholders whose replacement keeps the initial it shows;
* ``replace --auto`` speed on the whole corpus (documents and elements per second).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import tempfile
import time
from collections import Counter

from rulings_anon.data import ler_corpus_files
from rulings_anon.defaults import DEV_COURTS, HELD_OUT_COURTS
from rulings_anon.entity_types import LER_TYPES
from rulings_anon.replacement.operators import pseudonymize_record
from rulings_anon.replacement.surrogates import SurrogateGenerator
from rulings_anon.replacement.type_inference import infer_type

HELD_OUT = HELD_OUT_COURTS
_INITIAL = re.compile(r"^[A-ZÄÖÜ]")


def _records(courts):
    for path in ler_corpus_files(courts):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            yield from map(json.loads, handle)


def type_agreement(courts) -> dict:
    confusion: Counter = Counter()
    for record in _records(courts):
        for span in record["spans"]:
            gold = LER_TYPES[span["type"]]
            confusion[gold, infer_type(record["text"], span["start"], span["end"])] += 1
    total = sum(confusion.values())
    right = sum(n for (gold, guess), n in confusion.items() if gold == guess)
    return {"placeholders": total, "agreement": right / total if total else 0.0,
            "top_confusions": [f"{g}->{p}: {n}" for (g, p), n in confusion.most_common() if g != p][:5]}


def initials_kept(courts) -> dict:
    generator = SurrogateGenerator(0)
    kept = total = 0
    for record in _records(courts):
        out = pseudonymize_record(record, generator)
        for old, new in zip(record["spans"], out["spans"], strict=True):
            placeholder = record["text"][old["start"]:old["end"]]
            if _INITIAL.match(placeholder):
                total += 1
                kept += out["text"][new["start"]] == placeholder[0]
    return {"placeholders_with_initial": total, "initial_kept": kept / total if total else 0.0}


def auto_speed() -> dict:
    from rulings_anon.cli import main

    files = ler_corpus_files()
    documents = elements = 0
    for record in _records(None):
        documents += 1
        elements += len(record["text"].split())
    seconds = 0.0
    with tempfile.TemporaryDirectory() as out:
        for path in files:
            started = time.perf_counter()
            main(["replace", str(path), "--out", f"{out}/{path.name}", "--auto"])
            seconds += time.perf_counter() - started
    return {"documents": documents, "elements": elements, "seconds": round(seconds, 2),
            "documents_per_s": round(documents / seconds, 1), "elements_per_s": round(elements / seconds)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rulings_anon.interactive.benchmark", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-speed", action="store_true", help="only the type and initial figures")
    args = parser.parse_args(argv)
    report = {
        "type_agreement_dev": type_agreement(DEV_COURTS),
        "type_agreement_bsg_held_out": type_agreement(HELD_OUT),
        "initials_kept_all_courts": initials_kept(None),
    }
    if not args.skip_speed:
        report["auto_speed_all_courts"] = auto_speed()
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
