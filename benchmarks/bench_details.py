"""What the detail recognizers (birth dates, postcodes, land parcels, road and house numbers, an
authority's file numbers, aliases in quotes) add, counted against rulings whose placeholders are
labelled.

The labelled rulings are anonymized texts: where a court removed a detail there is a placeholder,
not the detail. So two things are counted:

* hits on text the court printed in clear, per 10,000 whitespace elements: what a detail that
  counts on its own would anonymize beyond the court's own convention (false hits by that
  convention; a federal court that prints "der am 16. 5. 1945 geborene Kläger" counts them);
* with ``--filled``, every placeholder is first replaced by a fictitious value of its type's shape
  (NUM: "123", DATE: "14.03.1978" or "14. März" before a year, ST: "Musterstadt", a STR
  placeholder without letters: "123", with letters: "Musterweg"; others "Muster") and a hit that
  overlaps a filled placeholder counts as covering it: whether the patterns fire in the context
  the courts anonymized such details in.

House numbers are looked for after the labelled STR placeholders (the streets a court anonymized).

The patterns are written from the shapes the details have, not fitted to these rulings; no
threshold is chosen on them, so there is nothing to leave out: each court is reported and the mean.

    .venv/bin/python benchmarks/bench_details.py                       # the six bundled LER courts
    .venv/bin/python benchmarks/bench_details.py --labelled FILE.jsonl --filled   # other labelled rulings
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from rulings_anon.analyzer.details import detail_spans
from rulings_anon.data import path as data_path
from rulings_anon.document import Span
from rulings_anon.entity_types import DETAIL_NAMES

_YEAR_AFTER = re.compile(r"\s+\d{4}\b")


def read(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def fill_value(text: str, start: int, end: int, kind: str | None) -> str:
    """The fictitious value of type ``kind``'s shape for the placeholder ``text[start:end]``."""
    if kind == "NUM":
        return "123"
    if kind == "DATE":
        return "14. März" if _YEAR_AFTER.match(text, end) else "14.03.1978"
    if kind == "ST":
        return "Musterstadt"
    if kind == "STR":
        return "Musterweg" if re.search(r"[^\W\d_]", text[start:end]) else "123"
    return "Muster"


def fill(text: str, spans: list[dict]) -> tuple[str, list[dict]]:
    """``text`` with each placeholder replaced by a fictitious value of its type's shape
    (:func:`fill_value`), and the spans moved onto the values."""
    pieces, moved, at, shift = [], [], 0, 0
    for span in sorted(spans, key=lambda s: s["start"]):
        if span["start"] < at:
            continue
        value = fill_value(text, span["start"], span["end"], span.get("type"))
        pieces += [text[at:span["start"]], value]
        start = span["start"] + shift
        moved.append({**span, "start": start, "end": start + len(value)})
        shift += len(value) - (span["end"] - span["start"])
        at = span["end"]
    pieces.append(text[at:])
    return "".join(pieces), moved


def count(records: list[dict], filled: bool) -> dict:
    """Per court: elements, hits per detail on text in clear, and placeholders covered per type."""
    courts: dict[str, dict] = defaultdict(lambda: {"elements": 0, "clear": Counter(), "covered": Counter(),
                                                   "gold": Counter(), "covered_by": Counter()})
    for record in records:
        text, spans = record["text"], record.get("spans", [])
        if filled:
            text, spans = fill(text, spans)
        court = courts[record.get("court", "all")]
        court["elements"] += len(text.split())
        court["gold"].update(s.get("type") for s in spans)
        streets = [Span(s["start"], s["end"], type="STR") for s in spans if s.get("type") == "STR"]
        covered = set()
        for hit in detail_spans(text, streets, DETAIL_NAMES):
            under = [i for i, s in enumerate(spans) if s["start"] < hit.end and hit.start < s["end"]]
            if under:
                covered.update(under)
                court["covered_by"][hit.source] += 1
            else:
                court["clear"][hit.source] += 1
        court["covered"].update(spans[i].get("type") for i in covered)
    return courts


def report(courts: dict, filled: bool) -> None:
    names = [*DETAIL_NAMES]
    print("hits on text in clear per 10,000 elements (count)")
    print(f"{'court':8} {'elements':>9} " + " ".join(f"{n:>14}" for n in names))
    rates = defaultdict(list)
    for court, c in sorted(courts.items()):
        cells = []
        for n in names:
            rate = 1e4 * c["clear"][n] / max(c["elements"], 1)
            rates[n].append(rate)
            cells.append(f"{rate:8.2f} ({c['clear'][n]:>3})")
        print(f"{court:8} {c['elements']:>9} " + " ".join(cells))
    print(f"{'mean':8} {'':>9} " + " ".join(f"{sum(r) / len(r):8.2f}      " for r in rates.values()))
    print("\nplaceholders covered by a hit, per type (covered / labelled)")
    for court, c in sorted(courts.items()):
        cells = ", ".join(f"{t} {c['covered'][t]}/{n}" for t, n in sorted(c["gold"].items()))
        print(f"{court:8} {cells}")
        print(f"{'':8} hits on placeholders by detail: {dict(c['covered_by'])}")
    if not filled:
        print("\n(without --filled a placeholder holds no detail: a hit on one is a pattern firing on its context)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labelled", type=Path, action="append",
                        help="JSONL(.gz) rulings with placeholder spans (default: the six bundled LER courts)")
    parser.add_argument("--filled", action="store_true",
                        help="replace each placeholder by a fictitious value of its type's shape first")
    args = parser.parse_args()
    paths = args.labelled or sorted(Path(data_path("ler")).glob("*.jsonl.gz"))
    records = [r for p in paths for r in read(p)]
    report(count(records, args.filled), args.filled)


if __name__ == "__main__":
    main()
