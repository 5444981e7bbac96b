"""The state-court bench (benchmarks/bench_state_courts.py) on two Bavarian rulings: the filled
gold holds one span per labelled placeholder, ignored regions stay unscored, and the counts are
those of ``rulings-anon evaluate --method none --features`` on the same gold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulings_anon.cli import main
from rulings_anon.jsonl import write_jsonl

ROOT = Path(__file__).resolve().parent.parent
ADMINISTRATIVE = "Y-300-Z-BECKRS-B-2020-N-24670"  # 10 placeholders, nothing ignored
CRIMINAL = "Y-300-Z-BECKRS-B-2024-N-5368"  # 25 placeholders, one ignored "..."


@pytest.fixture(scope="module")
def bench():
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_state_courts
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return bench_state_courts


@pytest.fixture(scope="module")
def rulings(bench):
    by_id = {r.id: r for r in bench.read_check_set(bench.STATE_COURTS)}
    generator = bench.SurrogateGenerator(0, "foreign")
    return {i: (by_id[i], bench.prepare(bench.fill_ruling(by_id[i], generator))) for i in (ADMINISTRATIVE, CRIMINAL)}


def test_each_labelled_placeholder_becomes_one_gold_span_of_its_kind(rulings):
    ruling, prepared = rulings[ADMINISTRATIVE]
    document = prepared.ruling.document
    assert len(ruling.spans) == len(document.spans) == 10
    assert prepared.ruling.tags == [t for _, _, t in sorted(ruling.spans)]
    values = [document.text[s.start:s.end] for s in document.spans]
    # initials kept: "Landratsamt O." -> a place on O, "MVZ Labor K" -> an organization on K
    assert [v[0] for v in values] == [ruling.text[a] for a, _, _ in sorted(ruling.spans)]
    assert {s.type for s in document.spans} == {"place", "organization"}
    # every placeholder one element, each surrogate one element: as many gold elements as labelled ones
    assert sum(prepared.gold.gold) == 10 and prepared.scored.count(False) == 0

    ruling, prepared = rulings[CRIMINAL]
    document = prepared.ruling.document
    assert len(document.spans) == 25
    by_tag = {}
    for span, tag in zip(document.spans, prepared.ruling.tags, strict=True):
        by_tag.setdefault(tag, set()).add(document.text[span.start:span.end])
    assert by_tag["NUM"] == {"123"} and by_tag["DATE"] == {"14.03.1978"}  # as bench_details --filled fills them


def test_an_ignored_region_stays_as_it_is_and_is_not_scored(bench, rulings):
    _, prepared = rulings[CRIMINAL]
    (start, end), = prepared.ruling.ignore
    assert prepared.ruling.document.text[start:end] == "..."
    unscored = [e.text for e, s in zip(prepared.gold.elements, prepared.scored, strict=True) if not s]
    assert unscored == ["..."]
    everything = [[True] * len(prepared.gold.elements)]
    result = bench.measure_scored([prepared], everything)
    n, positives = len(prepared.gold.elements), sum(prepared.gold.gold)
    assert result["elements"] == n - 1 and result["unscored"] == 1
    assert result["metrics"]["fp"] == n - 1 - positives and result["metrics"]["tp"] == positives
    # the LER types alone: the elements of its 9 dates and 2 numbers are not scored either
    ler = bench.measure_scored([prepared], everything, bench.NOT_LER)
    not_ler = sum(g and t in bench.NOT_LER for g, t in zip(prepared.gold.gold, prepared.tags, strict=True))
    assert not_ler == 11 and ler["positives"] == positives - not_ler and ler["unscored"] == 1 + not_ler


def test_the_counts_are_those_of_evaluate_on_the_same_gold(bench, rulings, tmp_path, capsys):
    _, prepared = rulings[ADMINISTRATIVE]
    analyzer, recognizers = bench.analyzers()["default"]
    labels, threshold = bench.decided_labels([prepared], analyzer, recognizers)
    ours = bench.measure_scored([prepared], labels)
    gold = tmp_path / "gold.jsonl"
    write_jsonl(gold, [prepared.ruling.document.to_record()])
    assert main(["evaluate", "--test", str(gold), "--method", "none", "--features", "--json"]) == 0
    theirs = json.loads(capsys.readouterr().out)
    assert theirs["threshold"] == threshold
    assert ours["metrics"] == theirs["metrics"] and ours["per_type"] == theirs["per_type"]
    assert ours["leaks"] == theirs["leaks"] and ours["references"] == theirs["references"]
    assert ours["positives"] == theirs["positives"] == 10
