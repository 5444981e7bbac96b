"""``make demo``: the main job on the bundled corpus.

Runs ``rulings-anon pipeline`` with ``configs/demo.json`` when the pipeline is available;
until then it detects the placeholders of the bundled LER corpus, writes them to
``runs/demo/placeholders.jsonl`` and prints the corpus statistics and the detector's
validation on the held-out court.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import data
from preprocessing.placeholders import PlaceholderDetector
from preprocessing.validation import detection_metrics, format_table, validate_documents
from rulings_anon.document import spans_record
from rulings_anon.inputs import read_documents
from rulings_anon.jsonl import write_jsonl

OUT = Path("runs/demo")


def main() -> int:
    detector = PlaceholderDetector()
    start = time.perf_counter()
    documents = list(read_documents(data.ler_corpus_files()))
    elements = sum(len(d.text.split()) for d in documents)
    records = [spans_record(d.id, detector.detect(d.text)) for d in documents]
    write_jsonl(OUT / "placeholders.jsonl", records)
    placeholders = sum(len(r["spans"]) for r in records)
    print(f"Bundled corpus: {len(documents)} documents, {elements:,} elements, "
          f"{placeholders:,} placeholder references detected in {time.perf_counter() - start:.1f} s "
          f"-> {OUT / 'placeholders.jsonl'}")
    held_out = [d for d in documents if d.meta.get("court") == "BSG"]
    print()
    print(format_table(detection_metrics(validate_documents(held_out)[0]), "Held-out court BSG"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
