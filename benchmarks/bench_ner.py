"""Benchmark of the candidate proposer on the held-out court (BSG), pseudonymized.

The BSG rulings of the bundled corpus get realistic surrogates for their placeholders (seed 1;
the NER trained with seed 0 on the other courts), and the gold spans are the surrogates. For
the legal NER alone, the recognizers alone and both merged (``propose_candidates``) it reports

* reference recall: share of gold references that a candidate overlaps (the thesis's NER found
  80.05 %, section 6.2.2), and the share a candidate covers completely;
* candidate precision: share of candidate spans that overlap a gold reference (thesis: 30 % of
  its NER's entities were sensitive);
* element-level recall and precision (whitespace elements, thesis 5.5.3);
* recall per reference type, and elements per second.

    python benchmarks/bench_ner.py --model runs/ner      # trains runs/ner first when missing
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from rulings_anon.analyzer.candidates import propose_candidates_many
from rulings_anon.data import ler_corpus_files
from rulings_anon.defaults import HELD_OUT_COURT
from rulings_anon.document import Span, element_labels, split_elements
from rulings_anon.evaluation.commands import NAME_HALVES, NAMES_HELP
from rulings_anon.evaluation.testset import apply_checked
from rulings_anon.ner import load_ner, train_ner
from rulings_anon.ner.dataset import dev_corpus_files, pseudonymize_corpus, read_corpus
from rulings_anon.preprocessing.detector_validation import bundled_checked_labels


def candidate_metrics(records: list[dict], proposals: list[list[Span]]) -> dict:
    """Reference- and element-level recall/precision of ``proposals`` against the records' gold spans."""
    found = covered = gold_total = hits = proposed = 0
    tp = fp = fn = 0
    by_type, by_type_found = Counter(), Counter()
    for record, spans in zip(records, proposals, strict=True):
        gold = [Span(g["start"], g["end"], type=g.get("type")) for g in record["spans"]]
        for g in gold:
            gold_total += 1
            by_type[g.type] += 1
            if any(s.overlaps(g) for s in spans):
                found += 1
                by_type_found[g.type] += 1
            covered += any(s.contains(g) for s in spans)
        proposed += len(spans)
        hits += sum(any(s.overlaps(g) for g in gold) for s in spans)
        elements = split_elements(record["text"])
        truth, predicted = element_labels(elements, gold), element_labels(elements, spans)
        tp += sum(t and p for t, p in zip(truth, predicted, strict=True))
        fp += sum(p and not t for t, p in zip(truth, predicted, strict=True))
        fn += sum(t and not p for t, p in zip(truth, predicted, strict=True))
    ratio = lambda a, b: round(a / b, 4) if b else None  # noqa: E731
    return {
        "references": gold_total, "reference_recall": ratio(found, gold_total),
        "reference_covered": ratio(covered, gold_total), "candidates": proposed,
        "candidate_precision": ratio(hits, proposed),
        "element_recall": ratio(tp, tp + fn), "element_precision": ratio(tp, tp + fp),
        "recall_by_type": {t: ratio(by_type_found[t], n) for t, n in sorted(by_type.items())},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=Path("runs/ner"), help="NER model directory (default runs/ner)")
    parser.add_argument("--epochs", type=int, default=6, help="epochs when the model must be trained first")
    parser.add_argument("--max-docs", type=int, default=450, help="training documents when it must be trained")
    parser.add_argument("--seed", type=int, default=1, help="seed of the test set's surrogates (default 1)")
    parser.add_argument("--names", choices=NAME_HALVES, default="foreign", help=NAMES_HELP)
    parser.add_argument("--court", default=HELD_OUT_COURT,
                        help="court(s) to measure on, comma-separated (default: the held-out bsg); dev courts "
                             "with --unseen-by-ner to set thresholds")
    parser.add_argument("--unseen-by-ner", action="store_true",
                        help="drop the rulings the NER was trained on (the dev courts' rest)")
    parser.add_argument("--skip", type=int, default=0,
                        help="skip the court's first N documents (those a dev-court NER was trained on)")
    parser.add_argument("--threshold", type=float,
                        help="override the model's candidate_threshold (tune it on a dev court only)")
    parser.add_argument("--checked", action="store_true",
                        help="correct the courts' placeholders by their hand-checked labels (rulings_anon/data/checked/<court>.jsonl)")
    parser.add_argument("--show-misses", type=int, default=0, metavar="N",
                        help="list the first N gold references no candidate of the NER and recognizers overlaps")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    if not (args.model / "config.json").exists():
        print(f"training {args.model} (epochs {args.epochs}, {args.max_docs} documents) ...", file=sys.stderr)
        train_ner(dev_corpus_files(), args.model, epochs=args.epochs, max_docs=args.max_docs)
    tagger = load_ner(args.model)
    if args.threshold is not None:
        tagger.config.candidate_threshold = args.threshold
    corpus = read_corpus(ler_corpus_files(args.court.split(",")))[args.skip:]
    if args.checked:
        labels = bundled_checked_labels(args.court.split(","))
        corpus = [apply_checked(record, labels) for record in corpus]
    records = pseudonymize_corpus(corpus, args.seed, names=args.names)
    if args.unseen_by_ner:
        seen = {r["id"] for r in read_corpus(dev_corpus_files(), tagger.config.training.get("documents"))}
        records = [r for r in records if r["id"] not in seen]
    texts = [r["text"] for r in records]
    elements = sum(len(t.split()) for t in texts)
    tagger.predict_many(texts[:1])  # trace the model once before timing

    results = {}
    timings = {}
    for name, ner, rules in (("ner", tagger, False), ("recognizers", None, True), ("ner+recognizers", tagger, True)):
        started = time.perf_counter()
        proposals = propose_candidates_many(texts, ner=ner, recognizers=rules)
        timings[name] = elements / (time.perf_counter() - started)
        results[name] = {**candidate_metrics(records, proposals), "elements_per_second": round(timings[name])}
    report = {"court": args.court, "skipped": args.skip, "candidate_threshold": tagger.config.candidate_threshold,
              "documents": len(records), "elements": elements, "model": str(args.model),
              "model_training": tagger.config.training, "results": results}
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    print(f"court {args.court} (first {args.skip} skipped): {len(records)} documents, {elements} elements, "
          f"{results['ner']['references']} sensitive references; model {args.model}, "
          f"candidate threshold {tagger.config.candidate_threshold}")
    print(f"{'proposer':<17}{'ref-recall':>11}{'covered':>9}{'cand-prec':>10}{'el-recall':>10}{'el-prec':>9}"
          f"{'cands':>7}{'el/s':>9}")
    for name, r in results.items():
        print(f"{name:<17}{r['reference_recall']:>11}{r['reference_covered']:>9}{r['candidate_precision']:>10}"
              f"{r['element_recall']:>10}{r['element_precision']:>9}{r['candidates']:>7}{r['elements_per_second']:>9}")
    print("recall by type (ner+recognizers):",
          ", ".join(f"{t} {v}" for t, v in results["ner+recognizers"]["recall_by_type"].items()))
    if args.show_misses:
        print_misses(records, proposals, args.show_misses)
    return 0


def print_misses(records: list[dict], proposals: list[list[Span]], limit: int) -> None:
    """The gold references no candidate overlaps, in context, and their count by type."""
    by_type, shown = Counter(), 0
    for record, spans in zip(records, proposals, strict=True):
        text = record["text"]
        for g in record["spans"]:
            gold = Span(g["start"], g["end"])
            if any(s.overlaps(gold) for s in spans):
                continue
            by_type[g.get("type")] += 1
            if shown < limit:
                shown += 1
                context = text[max(0, gold.start - 70):gold.end + 50].replace("\n", " ")
                print(f"  MISS {g.get('type') or '-':<13} {record['id']}:{gold.start} {text[gold.start:gold.end]!r}  …{context}…")
    print("  misses by type:", ", ".join(f"{t} {n}" for t, n in by_type.most_common()))


if __name__ == "__main__":
    sys.exit(main())
