"""``score`` on state-court rulings: the Bavarian set's placeholders filled with surrogates.

The only state-court rulings here are ``benchmarks/data/bavarian/anonymized.jsonl`` (12 rulings
with hand-checked placeholder spans and types). Each placeholder is replaced by a value of its
type, as ``build-testset`` builds gold sets from LER rulings: persons, organizations, places,
regions and other references by the project's surrogate generator
(:class:`~rulings_anon.replacement.operators.PlaceholderSurrogate`, names ``foreign``: Austrian and
Swiss names no model here trains on; initials and legal forms kept, the same placeholder the same
value within a ruling), numbers, dates and streets by the fictitious values of
``bench_details.py --filled`` (:func:`bench_details.fill_value`). The gold spans are the filled
values (a person's without title). The ``ignore`` regions stay as they are and their elements are
not scored, neither as positives nor as false hits.

``score``'s decision is then measured exactly as ``rulings-anon evaluate --method none --features``
measures it (:func:`rulings_anon.evaluation.evaluate.observe_gold` and ``predicted_labels``, the
same metric functions), with the default threshold and ``--recall-first``: element recall and
precision, recall per labelled type, references found whole, and the share of rulings with a
missed person or any missed element. ``--draws N`` averages N surrogate draws (seeds
``--seed`` .. ``--seed``+N-1). The file names no court per ruling; where a record has a
``court`` field, the figures are also given per court.

A development set: its placeholders were read while the placeholder detector's state-court
conventions were written, but the sensitivity model was not fitted or tuned on it.

    .venv/bin/python benchmarks/bench_state_courts.py [--draws 5] [--seed 0] [--policy FILE] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from dataclasses import replace as changed
from pathlib import Path

from bench_details import fill_value

from rulings_anon.confusion import Confusion
from rulings_anon.document import Document, Span, element_labels
from rulings_anon.evaluation.evaluate import GoldDocument, observe_gold, predicted_labels
from rulings_anon.evaluation.metrics import leak_figures, per_type_recall, reference_recall
from rulings_anon.jsonl import read_jsonl
from rulings_anon.preprocessing.span_check_set import CheckedRuling, read_check_set
from rulings_anon.replacement.operators import Operator, Piece, PlaceholderSurrogate, replace
from rulings_anon.replacement.surrogates import ReplacementTable, SurrogateGenerator

STATE_COURTS = Path(__file__).resolve().parent / "data" / "bavarian" / "anonymized.jsonl"
# The labelled types filled as the details bench fills them, and the type their gold spans get.
DETAIL_FILLED = {"NUM": "number", "DATE": "date", "STR": "street"}
RULES = ("default", "recall_first")
# Labelled types the LER corpus has no tag for: a federal gold set of build-testset holds none.
NOT_LER = frozenset({"NUM", "DATE", "OTHER"})


class StateCourtFill(Operator):
    """A labelled placeholder -> its value: a fictitious detail for NUM, DATE and STR, otherwise
    the surrogate generator's value of its type (``PlaceholderSurrogate``)."""

    name = "state_court_fill"
    strict = True

    def __init__(self, table: ReplacementTable):
        self.surrogate = PlaceholderSurrogate(table)

    def operate(self, text: str, span: Span) -> Piece:
        if span.type in DETAIL_FILLED:
            value = fill_value(text, span.start, span.end, span.type)
            return Piece(span.start, span.end, value, Span(0, len(value), type=DETAIL_FILLED[span.type]))
        return self.surrogate.operate(text, span)


@dataclass
class FilledRuling:
    """A ruling with its placeholders filled: the gold document (spans of our types), the
    labelled type of each gold span, and the ``ignore`` regions moved onto the new text."""

    document: Document
    tags: list[str]
    ignore: list[tuple[int, int]]


def fill_ruling(ruling: CheckedRuling, generator: SurrogateGenerator) -> FilledRuling:
    """``ruling`` with each placeholder replaced (see the module docstring), seeded by its id."""
    spans = sorted((Span(a, b, type=t) for a, b, t in ruling.spans), key=lambda s: (s.start, s.end))
    table = ReplacementTable(generator.for_document(ruling.id))
    try:
        replaced = replace(ruling.text, spans, StateCourtFill(table))
    except ValueError as exc:
        raise ValueError(f"ruling {ruling.id}: cannot fill its placeholders: {exc}") from None
    gold = [changed(s, source="gold") for s in replaced.spans]
    ignore = [(replaced.moved(a, False), replaced.moved(b, True)) for a, b in ruling.ignore]
    return FilledRuling(Document(ruling.id, replaced.text, spans=gold, gold=True), [s.type for s in spans], ignore)


def scored_elements(gold: GoldDocument, ignore: list[tuple[int, int]]) -> list[bool]:
    """Per element: scored, i.e. not overlapping an ``ignore`` region."""
    return [not any(a < e.end and e.start < b for a, b in ignore) for e in gold.elements]


@dataclass
class Prepared:
    """A filled ruling split into elements: typed by our types (``gold``) and by the labelled
    types (``tags``), with the elements that are scored."""

    ruling: FilledRuling
    gold: GoldDocument
    tags: list[str | None]
    scored: list[bool]


def prepare(ruling: FilledRuling) -> Prepared:
    gold = GoldDocument.from_document(ruling.document)
    tagged = [Span(s.start, s.end, type=t) for s, t in zip(ruling.document.spans, ruling.tags, strict=True)]
    tags = GoldDocument.from_document(changed(ruling.document, spans=tagged)).types
    return Prepared(ruling, gold, tags, scored_elements(gold, ruling.ignore))


def measure_scored(prepared: list[Prepared], labels: list[list[bool]], unscored_tags=frozenset()) -> dict:
    """``evaluate``'s ``measure`` for ``none`` over the scored elements only, with the same metric
    functions, of the predicted ``labels`` of each ruling's elements (:func:`decided_labels`);
    a reference with an unscored element is left out, and so are the elements of the labelled
    types ``unscored_tags`` (neither positives nor false hits). Adds recall per labelled type, each
    ruling's counts and the missed elements."""
    confusion = Confusion()
    types, tags, predicted_all, per_document, rulings, misses = [], [], [], [], {}, []
    counts = {"references": 0, "whole": 0, "partly": 0, "missed": 0}
    unscored = 0
    for p, predicted in zip(prepared, labels, strict=True):
        scored = [s and t not in unscored_tags for s, t in zip(p.scored, p.tags, strict=True)]
        unscored += scored.count(False)
        keep = [i for i, s in enumerate(scored) if s]
        gold = [p.gold.gold[i] for i in keep]
        flagged = [predicted[i] for i in keep]
        document = Confusion.count(p.gold.gold, predicted, scored)
        confusion = confusion + document
        types += [p.gold.types[i] for i in keep]
        tags += [p.tags[i] for i in keep]
        predicted_all += flagged
        per_document.append((gold, [p.gold.types[i] for i in keep], flagged))
        references = [g for g in p.gold.references if all(scored[i] for i in g)]
        for key, value in reference_recall(references, predicted).items():
            if key != "recall":
                counts[key] += value
        rulings[p.gold.document.id] = document.to_dict()
        elements = p.gold.elements
        for i in keep:
            if p.gold.gold[i] and not predicted[i]:
                before = elements[i - 1].text if i else ""
                misses.append({"id": p.gold.document.id, "tag": p.tags[i], "type": p.gold.types[i],
                               "element": elements[i].text, "before": before})
    return {
        "documents": len(prepared),
        "elements": len(types),
        "unscored": unscored,
        "positives": confusion.positives,
        "metrics": confusion.to_dict(),
        "per_type": per_type_recall(types, predicted_all),
        "per_tag": per_type_recall(tags, predicted_all),
        "references": {**counts, "recall": counts["whole"] / counts["references"] if counts["references"] else 0.0},
        "leaks": leak_figures(per_document),
        "rulings": rulings,
        "misses": misses,
    }


def analyzers(policy: Path | None = None):
    """The analyzers of ``evaluate --method none --features``, with and without ``--recall-first``,
    built from the command line as ``evaluate`` builds them; ``policy``: a court's policy file
    instead of the shipped one (its exemptions and details), as ``score --policy`` reads it."""
    from rulings_anon.cli import build_parser
    from rulings_anon.scoring.commands import build_analyzer, recognizers_of, use_features

    out = {}
    for rule, extra in zip(RULES, ([], ["--recall-first"]), strict=True):
        args = build_parser().parse_args(["evaluate", "--test", "-", "--method", "none", "--features", *extra])
        use_features(args)
        args.policy = policy
        out[rule] = (build_analyzer(args, "none", progress=False), recognizers_of(args))
    return out


def decided_labels(prepared: list[Prepared], analyzer, recognizers) -> tuple[list[list[bool]], float]:
    """Per ruling and element: flagged by ``evaluate --method none``'s decision (``observe_gold``,
    ``predicted_labels``: the elements ``score``'s spans cover), and the threshold."""
    scorer = analyzer.scorer([p.gold.document.text for p in prepared])
    observations = observe_gold([p.gold for p in prepared], scorer.model, "none", recognizers=recognizers)
    labels = [predicted_labels(p.gold, o, "none", scorer.settings) for p, o in zip(prepared, observations, strict=True)]
    return labels, scorer.settings.threshold


def score_labels(prepared: list[Prepared], analyzer) -> list[list[bool]]:
    """Per ruling and element: covered by the spans ``score`` writes (``Analyzer.analyze_batch``:
    also the details the shipped policy counts on its own, a birth date, a land parcel, ...)."""
    found = analyzer.analyze_batch([p.gold.document.text for p in prepared], [p.gold.document.id for p in prepared])
    return [element_labels(p.gold.elements, spans) for p, spans in zip(prepared, found, strict=True)]


def measure_draw(rulings: list[CheckedRuling], seed: int, built=None) -> dict:
    """One surrogate draw (``seed``) measured with each rule of :data:`RULES`; ``with_details``:
    the same over ``score``'s spans with the policy's details."""
    generator = SurrogateGenerator(seed, "foreign")
    prepared = [prepare(fill_ruling(r, generator)) for r in rulings]
    built = built or analyzers()
    results = {}
    for rule, (analyzer, recognizers) in built.items():
        labels, threshold = decided_labels(prepared, analyzer, recognizers)
        results[rule] = {**measure_scored(prepared, labels), "threshold": threshold,
                         "ler_types": measure_scored(prepared, labels, NOT_LER),
                         "with_details": measure_scored(prepared, score_labels(prepared, analyzer))}
    return results


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def figures(runs: list[dict]) -> dict:
    """The figures of one measurement averaged over the draws."""
    return {
        "positives": mean(r["positives"] for r in runs),
        "recall": mean(r["metrics"]["recall"] for r in runs),
        "precision": mean(r["metrics"]["precision"] for r in runs),
        "f1": mean(r["metrics"]["f1"] for r in runs),
        "references_whole": mean(r["references"]["recall"] for r in runs),
        "missed_per_10k": mean(r["leaks"]["missed_per_10k"] for r in runs),
        "share_with_missed_person": mean(r["leaks"]["share_with_missed_name"] for r in runs),
        "share_with_miss": mean(r["leaks"]["share_with_miss"] for r in runs),
        "recall_by_tag": {t: mean(r["per_tag"][t]["recall"] for r in runs if t in r["per_tag"])
                          for t in sorted({t for r in runs for t in r["per_tag"]})},
        "elements_by_tag": {t: mean(r["per_tag"].get(t, {}).get("elements", 0) for r in runs)
                            for t in sorted({t for r in runs for t in r["per_tag"]})},
    }


def summary(draws: list[dict], courts: dict[str, str | None]) -> dict:
    """Per rule: the figures averaged over the draws (all labelled types, the LER types alone,
    ``score``'s spans with the policy's details), per court, per ruling, and the misses."""
    out = {}
    for rule in RULES:
        runs = [d[rule] for d in draws]
        first = runs[0]
        row = {"threshold": first["threshold"], "documents": first["documents"], "elements": first["elements"],
               "unscored": first["unscored"], **figures(runs),
               "ler_types": figures([r["ler_types"] for r in runs]),
               "with_details": figures([r["with_details"] for r in runs])}
        by_court: dict[str, list[Confusion]] = defaultdict(list)
        for r in runs:
            totals: dict[str, Confusion] = defaultdict(Confusion)
            for doc_id, counts in r["rulings"].items():
                totals[courts.get(doc_id) or "all"] += Confusion(counts["tp"], counts["fp"], counts["tn"], counts["fn"])
            for court, confusion in totals.items():
                by_court[court].append(confusion)
        row["by_court"] = {court: {"recall": mean(c.recall for c in cs), "precision": mean(c.precision for c in cs)}
                           for court, cs in sorted(by_court.items())}
        row["rulings"] = {doc_id: {key: mean(r["rulings"][doc_id][k] for r in runs) if k else
                                   mean(r["rulings"][doc_id]["tp"] + r["rulings"][doc_id]["fn"] for r in runs)
                                   for key, k in (("positives", None), ("missed", "fn"), ("false", "fp"))}
                          for doc_id in first["rulings"]}
        draws_n = len(runs)
        row["missed_by_tag"] = {t: n / draws_n for t, n in
                                Counter(m["tag"] for r in runs for m in r["misses"]).most_common()}
        after = Counter((m["tag"], m["before"]) for r in runs for m in r["misses"])
        row["missed_after"] = [{"tag": t, "before": b, "per_draw": n / draws_n} for (t, b), n in after.most_common(15)]
        out[rule] = row
    return out


def _line(name: str, f: dict) -> str:
    return (f"  {name:<34} recall {100 * f['recall']:5.1f}  precision {100 * f['precision']:5.1f}  "
            f"F1 {100 * f['f1']:5.1f}  missed person {100 * f['share_with_missed_person']:3.0f} %  "
            f"any miss {100 * f['share_with_miss']:3.0f} %  ({f['positives']:.0f} positive)")


def report(results: dict, draws: int, seconds: float) -> None:
    for rule, r in results.items():
        flag = "" if rule == "default" else " --recall-first"
        print(f"score{flag} (threshold {r['threshold']:.3f}): {r['documents']} rulings, {r['elements']:,} elements "
              f"scored ({r['unscored']} unscored); mean of {draws} draw(s); rulings with a missed person / any miss")
        print(_line("all labelled types", r))
        print(_line("LER types (NUM, DATE, OTHER unscored)", r["ler_types"]))
        print(_line("score's spans, policy details too", r["with_details"]))
        print(f"  references found whole {100 * r['references_whole']:.1f} %, {r['missed_per_10k']:.2f} missed "
              "per 10,000 elements")
        for name, f in (("", r), (" (score's spans)", r["with_details"])):
            print(f"  recall per labelled type{name}: " + ", ".join(
                f"{t} {100 * v:.0f} ({f['elements_by_tag'][t]:.0f})" for t, v in f["recall_by_tag"].items()))
        if set(r["by_court"]) != {"all"}:
            print("  per court: " + ", ".join(f"{c} recall {100 * v['recall']:.1f} precision {100 * v['precision']:.1f}"
                                             for c, v in r["by_court"].items()))
        print("  per ruling (positives / missed / false): " + "; ".join(
            f"{doc_id.rsplit('-', 3)[-3]}-{doc_id.rsplit('-', 1)[-1]} {v['positives']:.1f}/{v['missed']:.1f}/"
            f"{v['false']:.1f}" for doc_id, v in r["rulings"].items()))
        print("  missed elements per draw by labelled type: " + ", ".join(
            f"{t} {n:.1f}" for t, n in r["missed_by_tag"].items()))
        print("  most missed, by type and the word before: " + ", ".join(
            f"{m['tag']} after {m['before']!r} ({m['per_draw']:.1f})" for m in r["missed_after"]))
    print(f"({seconds:.0f} s)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labelled", type=Path, default=STATE_COURTS,
                        help="rulings with hand-checked placeholder spans and ignore regions "
                             "(default benchmarks/data/bavarian/anonymized.jsonl)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first surrogate draw (default 0)")
    parser.add_argument("--draws", type=int, default=5, help="surrogate draws averaged (default 5)")
    parser.add_argument("--policy", type=Path, metavar="POLICY.toml",
                        help="a court's policy instead of the shipped one, as score --policy reads it (e.g. one "
                             "whose [exemptions] say seats = false); evaluate itself takes none")
    parser.add_argument("--json", type=Path, metavar="OUT.json", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.draws < 1:
        parser.error("--draws must be at least 1")
    from rulings_anon.errors import InputError, ModelError

    try:
        rulings = read_check_set(args.labelled)
        courts = {str(r.get("id")): r.get("court") for r in read_jsonl(args.labelled)}
    except (InputError, OSError) as exc:
        print(f"bench_state_courts: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        built = analyzers(args.policy)
    except (InputError, ModelError) as exc:
        print(f"bench_state_courts: {exc}", file=sys.stderr)
        return 2
    try:
        draws = [measure_draw(rulings, args.seed + n, built) for n in range(args.draws)]
    except ValueError as exc:  # a placeholder the generator cannot fill, overlapping spans
        print(f"bench_state_courts: {args.labelled}: {exc}", file=sys.stderr)
        return 2
    results = summary(draws, courts)
    report(results, args.draws, time.perf_counter() - started)
    if args.json:
        args.json.write_text(json.dumps({"draws": args.draws, "seed": args.seed, "results": results},
                                        ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
