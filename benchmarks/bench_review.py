"""What a review costs: a simulated reviewer over a gold set, and the server's speed.

The reviewer works through every ruling of a gold set (``build-testset`` on the held-out BSG)
over real HTTP against ``rulings-anon review``: it accepts each suggestion that overlaps a gold
span, rejects the others and adds each gold span no suggestion touches. Reported for the default
threshold and for ``--recall-first``: actions per ruling and per 10,000 elements (one action per
span, and with "every mention" when all mentions of a text get the same verdict), extent edits a
careful reviewer would make on top (a suggestion overlapping a gold span with another extent),
and a decision's round trip (median and 95th percentile). Then a 100-page ruling (300,000
characters, rulings of the held-out court joined): the time to render its page over HTTP and,
where Chromium is found, to open it in the browser until its script is ready.

Run: ``.venv/bin/python benchmarks/bench_review.py [--limit 30] [--json OUT]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from review_server import Client, ReviewServer  # noqa: E402

from rulings_anon.document import count_elements  # noqa: E402

PAGE = 3_000  # characters of a printed page of a ruling
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]


def overlaps(a, b) -> bool:
    return a["start"] < b["end"] and b["start"] < a["end"]


def simulate(gold: list[dict], folder: Path, options: list[str]) -> dict:
    batch = folder / "batch.jsonl"
    batch.write_text("".join(json.dumps({"id": g["id"], "text": g["text"]}, ensure_ascii=False) + "\n" for g in gold),
                     encoding="utf-8")
    figures = defaultdict(int)
    trips = []
    with ReviewServer(batch, "--db", folder / f"review{'-'.join(options)}.sqlite", *options) as server:
        client = Client(server.base)
        client.get("/")
        for record in gold:
            state = client.state(record["id"])
            verdicts = defaultdict(set)
            for span in state["spans"]:
                true = any(overlaps(span, g) for g in record["spans"])
                exact = any(span["start"] == g["start"] and span["end"] == g["end"] for g in record["spans"])
                figures["true" if true else "false"] += 1
                figures["extent edits"] += true and not exact
                verdicts[record["text"][span["start"]:span["end"]]].add(true)
                began = time.perf_counter()
                status, text = client.post("/api/decide", {"ruling": record["id"], "span": span["id"],
                                                           "version": span["version"],
                                                           "decision": "accept" if true else "reject"})
                trips.append(time.perf_counter() - began)
                assert status == 200, text
                state = json.loads(text)
            missed = [g for g in record["spans"] if not any(overlaps(g, s) for s in state["spans"])]
            for g in missed:
                status, text = client.post("/api/add", {"ruling": record["id"], "version": state["version"],
                                                        "start": g["start"], "end": g["end"], "type": None})
                assert status == 200, text
                state = json.loads(text)
            figures["added"] += len(missed)
            figures["grouped"] += sum(len(v) for v in verdicts.values())  # one "every mention" per text and verdict
            figures["documents with a miss"] += bool(missed)
            figures["elements"] += count_elements(record["text"])
    rulings, elements = len(gold), figures["elements"]
    actions = figures["true"] + figures["false"] + figures["added"]
    grouped = figures["grouped"] + figures["added"]
    return {"options": " ".join(options) or "default", "rulings": rulings, "elements": elements,
            "suggestions": figures["true"] + figures["false"], "true": figures["true"], "false": figures["false"],
            "added": figures["added"], "extent_edits": figures["extent edits"],
            "rulings_with_a_miss": figures["documents with a miss"],
            "actions_per_ruling": actions / rulings, "actions_per_10k_elements": 1e4 * actions / elements,
            "grouped_actions_per_ruling": grouped / rulings,
            "grouped_actions_per_10k_elements": 1e4 * grouped / elements,
            "round_trip_ms_median": 1e3 * statistics.median(trips),
            "round_trip_ms_p95": 1e3 * statistics.quantiles(trips, n=20)[-1]}


def long_ruling(folder: Path) -> dict:
    """A 100-page ruling: open its page over HTTP and in Chromium; one decision's round trip on it."""
    with gzip.open(ROOT / "rulings_anon/data/ler/bsg.jsonl.gz", "rt", encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f]
    text = ""
    for t in texts:
        if len(text) >= 100 * PAGE:
            break
        text += t + "\n\n"
    text = text[:100 * PAGE]
    (folder / "long.txt").write_text(text, encoding="utf-8")
    figures = {"characters": len(text), "pages": len(text) // PAGE}
    began = time.perf_counter()
    with ReviewServer(folder / "long.txt", "--db", folder / "long.sqlite", timeout=600) as server:
        figures["analysis_s"] = time.perf_counter() - began
        client = Client(server.base)
        timings = []
        for _ in range(5):
            began = time.perf_counter()
            status, page = client.get("/ruling?id=long")
            timings.append(time.perf_counter() - began)
        figures["html_kb"] = len(page.encode()) // 1024
        figures["page_over_http_ms"] = 1e3 * statistics.median(timings)
        state = client.state("long")
        figures["spans"] = len(state["spans"])
        trips = []
        for span in state["spans"][:20]:
            began = time.perf_counter()
            status, _ = client.post("/api/decide", {"ruling": "long", "span": span["id"], "version": span["version"],
                                                    "decision": "accept"})
            trips.append(time.perf_counter() - began)
        figures["round_trip_ms_median"] = 1e3 * statistics.median(trips)
        figures["browser_open_ms"] = browser_open(server.base + "/ruling?id=long")
    return figures


def browser_open(url: str) -> float | None:
    """Median of 3 loads of ``url`` in Chromium until the page's script is ready (None without Chromium)."""
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        return None
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(url)  # warm: the script and style cached, as for a reviewer opening the next ruling
        timings = []
        for _ in range(3):
            began = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']")
            timings.append(time.perf_counter() - began)
        browser.close()
    return 1e3 * statistics.median(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=30, help="rulings of the held-out court (default 30)")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        gold_file = folder / "gold.jsonl"
        subprocess.run([sys.executable, "-m", "rulings_anon", "build-testset", str(ROOT / "rulings_anon/data/ler/bsg.jsonl.gz"),
                        "--out", str(gold_file), "--limit", str(args.limit)], check=True, cwd=ROOT)
        gold = [json.loads(line) for line in gold_file.read_text(encoding="utf-8").splitlines()]
        rows = [simulate(gold, folder, []), simulate(gold, folder, ["--recall-first"])]
        long = long_ruling(folder)
    print(f"\nsimulated reviewer, {rows[0]['rulings']} BSG rulings ({rows[0]['elements']:,} elements)")
    print(f"{'options':<15}{'sugg.':>7}{'true':>6}{'false':>6}{'added':>6}{'miss':>6}{'act/ruling':>11}"
          f"{'act/10k el':>11}{'grouped/r':>10}{'grouped/10k':>12}{'extent':>7}{'trip ms':>9}{'p95':>6}")
    for r in rows:
        print(f"{r['options']:<15}{r['suggestions']:>7}{r['true']:>6}{r['false']:>6}{r['added']:>6}"
              f"{r['rulings_with_a_miss']:>6}{r['actions_per_ruling']:>11.1f}{r['actions_per_10k_elements']:>11.1f}"
              f"{r['grouped_actions_per_ruling']:>10.1f}{r['grouped_actions_per_10k_elements']:>12.1f}"
              f"{r['extent_edits']:>7}{r['round_trip_ms_median']:>9.1f}{r['round_trip_ms_p95']:>6.1f}")
    browser = f"{long['browser_open_ms']:.0f} ms" if long["browser_open_ms"] is not None else "no Chromium"
    print(f"\n{long['pages']}-page ruling ({long['characters']:,} characters, {long['spans']} spans, "
          f"{long['html_kb']} KB of HTML): analysis at start {long['analysis_s']:.1f} s, page over HTTP "
          f"{long['page_over_http_ms']:.0f} ms, opened in Chromium {browser}, decision round trip "
          f"{long['round_trip_ms_median']:.1f} ms")
    if args.json:
        args.json.write_text(json.dumps({"simulation": rows, "long_ruling": long}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
