"""Benchmark of the placeholder detector (its targets: precision and recall on the held-out court, speed).

1. Quality on the held-out court (BSG by default): element-level accuracy, precision, recall,
   specificity and F1 against the LER gold (Table 6.1 layout), against the LER gold corrected by
   the hand-checked labels ``rulings_anon/data/checked/bsg.jsonl`` where they exist, and on the dev courts
   for comparison (also hand-checked where ``rulings_anon/data/checked/<court>.jsonl`` exists: BAG, BGH, BVerfG).
2. Speed: ``rulings-anon detect-placeholders`` on a ~2 MB documents JSONL, start-up included,
   in elements per second (best of three runs), with the rules alone and with the learned judge
   (``--judge learned``).
3. State courts: the 12 Bavarian rulings of ``benchmarks/data/bavarian/`` (hand-checked spans with
   types, unscored regions left out), rules alone and learned judge, precision, recall and recall
   per type. A development set: its rulings were read while the conventions of state courts were
   written (``--state-courts-only`` measures this part alone, in seconds).

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_placeholders.py [--json OUT] [--state-courts-only]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulings_anon import data
from rulings_anon.confusion import Confusion
from rulings_anon.defaults import DEV_COURTS, HELD_OUT_COURTS
from rulings_anon.inputs import read_documents
from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.preprocessing.detector_validation import (
    detection_metrics,
    format_table,
    read_checked_labels,
    validate_documents,
)

HELD_OUT = list(HELD_OUT_COURTS)
DEV = list(DEV_COURTS)
STATE_COURTS = Path(__file__).resolve().parent / "data" / "bavarian" / "anonymized.jsonl"


def state_courts(path: Path = STATE_COURTS) -> dict:
    """The rules and the learned judge on a check set of state-court rulings, printed and returned."""
    from rulings_anon.placeholders.judge import load_model
    from rulings_anon.preprocessing.span_check_set import measure_check_set, read_check_set

    rulings = read_check_set(path)
    out = {}
    for key, judge in (("rules", None), ("learned", load_model())):
        out[key] = measure_check_set(rulings, PlaceholderDetector(judge=judge)).to_dict()
    r = out["rules"]
    print(f"State courts, {path.parent.name} ({len(rulings)} rulings, {r['elements']:,} elements scored, "
          f"{r['ignored_elements']} unscored, {r['gold_placeholders']} gold placeholder elements; a development set)")
    print(f"{'':<10}{'precision':>10}{'recall':>8}  recall per type")
    for key, m in out.items():
        types = ", ".join(f"{t} {100 * v:.0f} ({m['gold_by_type'][t]})" for t, v in m["recall_by_type"].items())
        print(f"{key:<10}{100 * m['precision']:>10.1f}{100 * m['recall']:>8.1f}  {types}")
    return out


class DetectOnce:
    """The detector's element labels of each text, computed once: a court is measured against its
    LER gold and again against its hand-checked labels."""

    def __init__(self):
        self.detector = PlaceholderDetector()
        self.labels = {}

    def document_element_labels(self, text: str):
        if text not in self.labels:
            self.labels[text] = self.detector.document_element_labels(text)
        return self.labels[text]


def court_quality(court: str) -> tuple[Confusion, Confusion | None]:
    """``court``'s counts against the LER gold and, where ``rulings_anon/data/checked/<court>.jsonl`` exists,
    against the gold corrected by those hand-checked labels (else None)."""
    documents = list(read_documents(data.ler_corpus_files([court])))
    detector = DetectOnce()
    ler = validate_documents(documents, detector)[0]
    checked_file = data.checked_labels_file(court)
    if checked_file is None:
        return ler, None
    return ler, validate_documents(documents, detector, checked=read_checked_labels(checked_file))[0]


def speed(size_bytes: int = 2_000_000, runs: int = 3, judge: str = "rules") -> dict:
    """Time the CLI on a documents JSONL of about ``size_bytes`` (start-up included)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "docs.jsonl"
        written = elements = 0
        with open(path, "w", encoding="utf-8") as handle:
            for document in read_documents(data.ler_corpus_files(DEV + HELD_OUT)):
                line = json.dumps({"id": document.id, "text": document.text}, ensure_ascii=False) + "\n"
                handle.write(line)
                written += len(line.encode("utf-8"))
                elements += len(document.text.split())
                if written >= size_bytes:
                    break
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "rulings_anon", "detect-placeholders", str(path),
                            "--output", str(Path(tmp) / "spans.jsonl"), "--judge", judge],
                           check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    best = min(times)
    return {"bytes": written, "elements": elements, "seconds": round(best, 3),
            "elements_per_second": round(elements / best)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", help="also write the results to this JSON file")
    parser.add_argument("--state-courts-only", action="store_true", help="measure the state-court check set alone")
    args = parser.parse_args()
    if args.state_courts_only:
        results = {"state_courts": state_courts()}
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        return
    counts = {court: court_quality(court) for court in HELD_OUT + DEV}
    (court,) = HELD_OUT
    ler, checked = counts[court]
    results = {"held_out": detection_metrics(ler),
               "dev": detection_metrics(sum((counts[c][0] for c in DEV), Confusion())), "speed": speed(),
               "speed_learned": speed(judge="learned")}
    print(format_table(results["held_out"], f"Held-out court {court.upper()}, LER gold"))
    print()
    if checked is not None:
        results["held_out_checked"] = detection_metrics(checked)
        print(format_table(results["held_out_checked"], f"Held-out court {court.upper()}, hand-checked ({court}.jsonl)"))
        print()
    print(format_table(results["dev"], "Dev courts " + ", ".join(c.upper() for c in DEV)))
    for court in DEV:
        if counts[court][1] is not None:
            results[f"dev_checked_{court}"] = detection_metrics(counts[court][1])
            print()
            print(format_table(results[f"dev_checked_{court}"],
                               f"Dev court {court.upper()}, hand-checked ({court}.jsonl; its errors were read)"))
    print()
    results["state_courts"] = state_courts()
    for key, judge in (("speed", "rules alone"), ("speed_learned", "learned judge")):
        s = results[key]
        print(f"\nSpeed, {judge}: {s['elements']:,} elements ({s['bytes'] / 1e6:.1f} MB) in {s['seconds']} s "
              f"= {s['elements_per_second']:,} elements/s (start-up included)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
