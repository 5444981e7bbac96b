"""Benchmark of evaluation and scoring (issues 5 and 6) on a held-out court.

1. Builds a pseudonymized gold test set from the held-out court (BSG by default): every court
   placeholder replaced by a surrogate keeping its initials, the same within a document.
2. For each model directory given: ``evaluate`` with each method (random; ner when --ner is given;
   none) and ``score``, printing recall, precision, F1 and elements per second, plus a threshold
   sweep of the ``none``/``ner`` decision (the model runs once, the decision at every threshold).
3. Checks that ``evaluate --method none`` and an independent element-level count over ``score``'s
   spans agree at the same threshold (both through the command line).
4. Scores one ~5 MB document (the test texts joined) to show a large input works, and its speed.

For ``ner`` the sweep covers every combination of ``rulings_anon.analyzer.decisions.COMBINATIONS`` (how the
NER's sensitivity score and the model's probability are joined). The defaults are chosen on the
dev courts' rulings the NER did not train on (``--court bag,bfh,bgh,bpatg,bverfg --unseen-by-ner``),
then reported on BSG. Without a model directory (``--no-model``) only the NER-alone combination runs.

Run: ``.venv/bin/python benchmarks/bench_evaluation.py MODEL... [--ner NER_MODEL] [--limit N]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from rulings_anon import data
from rulings_anon.analyzer.common_words import common_words, common_words_for
from rulings_anon.analyzer.decisions import COMBINATIONS, Settings, covered_elements
from rulings_anon.analyzer.recognizers import enabled_by_default, enabled_without
from rulings_anon.defaults import HELD_OUT_COURT
from rulings_anon.document import Document, Element, Span, element_labels, split_elements
from rulings_anon.evaluation.commands import NAME_HALVES, NAMES_HELP
from rulings_anon.evaluation.evaluate import GoldDocument, gold_documents, measure, observe_gold
from rulings_anon.evaluation.metrics import Confusion
from rulings_anon.evaluation.testset import gold_records
from rulings_anon.jsonl import read_jsonl, write_jsonl
from rulings_anon.preprocessing.detector_validation import bundled_checked_labels
from rulings_anon.scoring.prediction import NerElementModel, load_element_model
from rulings_anon.scoring.score_run import DEFAULT_COMBINATION, DEFAULT_THRESHOLD, Scorer

SWEEP = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99)


def build_gold(courts: list[str], limit: int | None, seed: int, path: Path, exclude: set[str] = frozenset(),
               checked: bool = False, names: str = "foreign") -> list[Document]:
    labels = bundled_checked_labels(courts) if checked else None
    records = [r for r in gold_records(data.ler_corpus_files(courts), seed=seed, checked=labels, names=names)
               if r["id"] not in exclude]
    records = records[:limit] if limit else records
    write_jsonl(path, records)
    return [Document.from_record(r) for r in records]


def ner_training_ids(ner) -> set[str]:
    """Ids of the rulings the NER was trained on (the dev corpus read as ``train_ner`` read it)."""
    from rulings_anon.ner.dataset import dev_corpus_files, read_corpus

    return {r["id"] for r in read_corpus(dev_corpus_files(), ner.config.training.get("documents"))}


def line(name: str, metrics: dict, extra: str = "") -> str:
    return (f"  {name:<22} recall {100 * metrics['recall']:5.1f}  precision {100 * metrics['precision']:5.1f}  "
            f"F1 {100 * metrics['f1']:5.1f}  {extra}")


def bench_methods(model, golds: list[GoldDocument], methods: list[str], settings: Settings, ner, seed: int,
                  recognizers: bool | set[str] = True) -> dict:
    results = {}
    for method in methods:
        started = time.perf_counter()
        observations = observe_gold(golds, model, method, ner=ner, seed=seed, recognizers=recognizers)
        seconds = time.perf_counter() - started
        result = measure(golds, observations, method, settings)
        elements = result["elements"]
        result["elements_per_second"] = elements / seconds
        extra = f"{elements / seconds:,.0f} el/s"
        if method == "random":
            extra += f"  A.2 precision {100 * result['a2_precision']:.1f}"
        if method == "ner":
            extra += (f"  det-rec {100 * result['ner']['detected_recall']:.1f}"
                      f"  cand-rec {100 * result['ner']['candidate_recall']:.1f}")
        print(line(f"evaluate {method}", result["metrics"], extra))
        if method != "random":
            result["sweep"] = sweep(golds, observations, method, settings, model is not None)
        results[method] = result
    return results


def sweep(golds, observations, method: str, settings: Settings, with_model: bool) -> dict:
    """Metrics at every threshold of :data:`SWEEP` (for ``ner``: of every combination)."""
    names = [settings.combination] if method != "ner" else [
        name for name in COMBINATIONS if with_model or not replace(settings, combination=name).needs_model("ner")]
    swept = {}
    for name in names:
        for threshold in SWEEP:
            at = Settings(threshold, settings.consistency, settings.common_words, name)
            metrics = measure(golds, observations, method, at)["metrics"]
            swept[f"{name}@{threshold}"] = {k: metrics[k] for k in ("recall", "precision", "f1")}
            label = f"{name} at {threshold}" if method == "ner" else f"at {threshold}"
            print(line(f"    {label}", metrics))
    return swept


def bench_score(model, golds: list[GoldDocument], settings: Settings, ner, recognizers: bool | set[str] = True,
                show_errors: int = 0) -> dict:
    scorer = Scorer(model, settings, ner, recognizers=recognizers)
    documents = [Document(g.document.id, g.document.text) for g in golds]
    started = time.perf_counter()
    spans = scorer.score(documents)
    seconds = time.perf_counter() - started
    confusion = Confusion()
    for gold, found in zip(golds, spans, strict=True):
        confusion = confusion + Confusion.count(gold.gold, element_labels(gold.elements, found))
    elements = sum(len(g.elements) for g in golds)
    print(line("score", confusion.to_dict(), f"{elements / seconds:,.0f} el/s ({elements:,} elements, "
                                              f"{seconds:.1f} s)"))
    if show_errors:
        print_errors(golds, spans, show_errors)
    return {**confusion.to_dict(), "elements_per_second": elements / seconds, "seconds": seconds}


def score_errors(gold: GoldDocument, found: list[Span]) -> list[tuple[str, Element, str]]:
    """``score``'s wrong elements of one document: ("FN", element, gold type) for a missed one,
    ("FP", element, source of the span) for a false one."""
    predicted = element_labels(gold.elements, found)
    sources = {}
    for span in found:
        for i in covered_elements(gold.elements, span):
            sources.setdefault(i, span.source or "?")
    errors = []
    for i, (truth, guess) in enumerate(zip(gold.gold, predicted, strict=True)):
        if truth and not guess:
            errors.append(("FN", gold.elements[i], gold.types[i] or "?"))
        elif guess and not truth:
            errors.append(("FP", gold.elements[i], sources.get(i, "?")))
    return errors


def print_errors(golds: list[GoldDocument], spans: list[list[Span]], limit: int) -> None:
    """The first ``limit`` wrong elements in context, and counts of misses by gold type and of
    false elements by the source that flagged them: what to look at next."""
    counts: Counter = Counter()
    shown = 0
    for gold, found in zip(golds, spans, strict=True):
        text = gold.document.text
        for kind, element, label in score_errors(gold, found):
            counts[kind, label] += 1
            if shown < limit:
                shown += 1
                context = " ".join(text[max(0, element.start - 60):element.end + 40].split())
                print(f"    {kind} {label:<12} {gold.document.id}:{element.start} {element.text!r}  …{context}…")
    for kind in ("FN", "FP"):
        by = ", ".join(f"{label} {n}" for (k, label), n in counts.most_common() if k == kind)
        print(f"    {kind} elements by {'gold type' if kind == 'FN' else 'source'}: {by or 'none'}")


def cli_agreement(model_dir: str, gold_path: Path, golds: list[GoldDocument], threshold: float, work: Path,
                  options: tuple[str, ...] = ()) -> dict:
    """``evaluate --method none`` vs. an element-level count over ``score``'s spans, both via the CLI."""
    texts = work / "texts.jsonl"
    write_jsonl(texts, ({"id": g.document.id, "text": g.document.text} for g in golds))
    spans_file = work / "spans.jsonl"
    base = [sys.executable, "-m", "rulings_anon"]
    subprocess.run(base + ["score", "--model", model_dir, "--no-ner", str(texts), "--output", str(spans_file),
                           "--threshold", str(threshold), *options], check=True, capture_output=True)
    evaluated = subprocess.run(base + ["evaluate", "--model", model_dir, "--test", str(gold_path), "--method",
                                       "none", "--threshold", str(threshold), "--json", *options],
                               check=True, capture_output=True, text=True)
    metrics = json.loads(evaluated.stdout)["metrics"]
    by_id = {r["id"]: r["spans"] for r in read_jsonl(spans_file)}
    confusion = Confusion()
    for gold in golds:
        found = [Span.from_dict(s, gold.document.text) for s in by_id[gold.document.id]]
        confusion = confusion + Confusion.count(gold.gold, element_labels(gold.elements, found))
    counted = {k: getattr(confusion, k) for k in ("tp", "fp", "tn", "fn")}
    reported = {k: metrics[k] for k in ("tp", "fp", "tn", "fn")}
    agree = counted == reported
    print(f"  evaluate --method none {reported} vs. count over score's spans {counted}: "
          f"{'agree' if agree else 'DISAGREE'}")
    return {"agree": agree, "evaluate": reported, "score_count": counted}


def bench_large(model, golds: list[GoldDocument], settings: Settings, ner=None, size: int = 5_000_000,
                recognizers: bool | set[str] = True) -> dict:
    parts, length = [], 0
    while length < size:
        for gold in golds:
            parts.append(gold.document.text)
            length += len(gold.document.text) + 2
            if length >= size:
                break
    document = Document("large", "\n\n".join(parts))
    elements = len(split_elements(document.text))
    started = time.perf_counter()
    spans = Scorer(model, settings, ner, recognizers=recognizers).score([document])[0]
    seconds = time.perf_counter() - started
    print(f"  score one {len(document.text.encode()) / 1e6:.1f} MB document: {elements:,} elements, "
          f"{len(spans):,} spans, {seconds:.1f} s ({elements / seconds:,.0f} el/s)")
    return {"bytes": len(document.text.encode()), "elements": elements, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", help="trained model directories")
    parser.add_argument("--court", default=HELD_OUT_COURT,
                        help="court(s) of the test set, comma-separated (default: the held-out bsg)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N rulings of the court")
    parser.add_argument("--ner", default=None, help="NER model directory (adds the ner method)")
    parser.add_argument("--checked", action="store_true",
                        help="correct the courts' placeholder spans by their hand-checked labels "
                             "(rulings_anon/data/checked/<court>.jsonl) before pseudonymizing")
    parser.add_argument("--unseen-by-ner", action="store_true",
                        help="drop the rulings the NER was trained on (to choose defaults on dev courts)")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument("--combine", default=DEFAULT_COMBINATION, choices=sorted(COMBINATIONS),
                        help=f"combination for score and the ner method (default {DEFAULT_COMBINATION})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--names", choices=NAME_HALVES, default="foreign", help=NAMES_HELP)
    parser.add_argument("--no-batch-vocabulary", action="store_true",
                        help="only the dev courts' common words, not the test set's own (as score --no-batch-vocabulary)")
    parser.add_argument("--skip-recognizers", metavar="NAMES", default="",
                        help="comma-separated recognizers not to run (as score --skip-recognizers)")
    parser.add_argument("--skip-large", action="store_true", help="skip the 5 MB document")
    parser.add_argument("--json", help="also write the results to this JSON file")
    parser.add_argument("--show-errors", type=int, default=0, metavar="N",
                        help="list score's first N wrong elements in context, and count them by type and source")
    args = parser.parse_args()

    settings = Settings(args.threshold, True, frozenset(), args.combine)
    try:
        recognizers = enabled_without(args.skip_recognizers)
    except ValueError as exc:
        parser.error(f"--skip-recognizers: {exc}")
    skipped = sorted(enabled_by_default() - recognizers) if recognizers is not True else []
    ner = None
    if args.ner:
        from rulings_anon.ner import load_ner

        ner = load_ner(args.ner)
    if not args.models and (ner is None or settings.needs_model("ner")):
        parser.error("without a model directory, give --ner and --combine ner")
    exclude = ner_training_ids(ner) if args.unseen_by_ner and ner is not None else set()
    courts = args.court.split(",")
    results = {"court": args.court, "threshold": args.threshold, "combination": args.combine,
               "batch_vocabulary": args.batch_vocabulary, "skipped_recognizers": skipped, "models": {}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        gold_path = work / "gold.jsonl"
        golds = gold_documents(build_gold(courts, args.limit, args.seed, gold_path, exclude, args.checked,
                                           args.names))
        texts = (g.document.text for g in golds)
        settings = replace(settings, common_words=common_words() if not args.batch_vocabulary else common_words_for(texts))
        print(f"test set: {args.court}, {len(golds)} documents, {sum(len(g.elements) for g in golds):,} elements, "
              f"{sum(sum(g.gold) for g in golds):,} positive; threshold {args.threshold}, "
              f"combination {args.combine}; {len(settings.common_words - common_words())} words of the test set's own "
              "vocabulary")
        for model_dir in args.models or [None]:
            print(f"model {model_dir or '(none: NER alone)'}")
            model = load_element_model(model_dir) if model_dir else None
            if model is None:
                methods = ["ner"]
            elif isinstance(model, NerElementModel):
                methods = ["none"]  # it classifies unmasked elements only
            else:
                methods = ["random"] + (["ner"] if ner is not None else []) + ["none"]
            scorer_ner = None if isinstance(model, NerElementModel) else ner  # score --no-ner
            entry = {"methods": bench_methods(model, golds, methods, settings, ner, args.seed, recognizers),
                     "score": bench_score(model, golds, settings, scorer_ner, recognizers, args.show_errors)}
            if model_dir:
                options = (("--no-batch-vocabulary",) if not args.batch_vocabulary else ()) + (
                    ("--skip-recognizers", args.skip_recognizers) if skipped else ())
                entry["agreement"] = cli_agreement(model_dir, gold_path, golds, args.threshold, work, options)
            if not args.skip_large:
                entry["large"] = bench_large(model, golds, settings, scorer_ner, recognizers=recognizers)
            results["models"][model_dir or "ner"] = entry
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
