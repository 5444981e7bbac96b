"""Text as it arrives: how many of a clean ruling's sensitive elements each variant of it keeps.

Each ruling is scored clean; its sensitive elements (the words of its spans) are the reference.
Then it is written as a Mac or PDF tool, a word processor or a portal may hand it over, and
scored again: decomposed Unicode (NFD), CRLF line ends, and at every sensitive word an invisible
mark (U+200B, U+200E, U+200F, U+FEFF, U+2060, U+202E, NUL) inside it or on both sides of it, the
word in capitals, letter-spaced, or hyphenated across a line break. Every variant is built
character by character, so each clean element has its place in the variant; it counts as found
when one span of the variant covers it. The rulings: the fictitious ones of
``tests/test_text_as_it_arrives.py`` and any JSONL of rulings (``--rulings``, e.g. 40 BSG rulings).
Where those rulings carry gold ``spans`` (a test set of ``build-testset``), the clean text's
flags inside a gold span are also counted apart: a variant that loses one of them leaks a name,
one that loses a false flag of the clean text leaks nothing.

The speed: the same analyzer over the clean rulings with the normalization and with it switched
off (elements per second, best of ``--repeat``), and the normalization alone.

Run (a gold set with surrogate names, so that the clean text's flags hold names):

    rulings-anon build-testset rulings_anon/data/ler/bsg.jsonl.gz --names foreign --limit 40 --out bsg40-gold.jsonl
    .venv/bin/python benchmarks/bench_text_variants.py --rulings bsg40-gold.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulings_anon import normalization  # noqa: E402
from rulings_anon.document import count_elements  # noqa: E402
from rulings_anon.engine import Analyzer  # noqa: E402
from tests.test_text_as_it_arrives import MARKS, RULINGS  # noqa: E402

_LETTERS = re.compile(r"[^\W\d_]{4,}")  # a word long enough to hyphenate or mark inside


def _word_edits(text: str, spans, kind: str) -> dict[int, tuple[str, str, str]]:
    """Clean character -> (prefix, core, suffix) at the sensitive words, for a word-level ``kind``."""
    edits = {}
    for span in spans:
        for word in _LETTERS.finditer(text, span.start, span.end):
            s, e = word.start(), word.end()
            if kind == "capitals":
                if len(word.group().upper()) == e - s:
                    edits.update({i: ("", text[i].upper(), "") for i in range(s, e)})
            elif kind == "letter-spaced":
                edits.update({i: ("", text[i], " " if i < e - 1 else "") for i in range(s, e)})
            elif kind == "hyphenated":
                edits[s + 2] = ("", text[s + 2], "-\n")
            elif kind.endswith("-inside"):
                edits[s + 2] = ("", text[s + 2], MARKS[kind[:-7]])
            elif kind.endswith("-beside"):
                mark = MARKS[kind[:-7]]
                edits[s] = (mark, text[s], "")
                edits[e - 1] = (edits.get(e - 1, ("", text[e - 1], ""))[0], text[e - 1], mark)
    return edits


def variant(text: str, spans, kind: str) -> tuple[str, list[int], list[int]]:
    """The variant ``kind`` of ``text``, and each clean character's start and end in it."""
    if kind == "nfd":
        edits = {i: ("", unicodedata.normalize("NFD", c), "") for i, c in enumerate(text) if ord(c) > 127}
    elif kind == "crlf":
        edits = {i: ("", "\r\n", "") for i, c in enumerate(text) if c == "\n"}
    else:
        edits = _word_edits(text, spans, kind)
    parts, starts, ends, pos = [], [], [], 0
    for i, c in enumerate(text):
        prefix, core, suffix = edits.get(i, ("", c, ""))
        starts.append(pos + len(prefix))
        ends.append(pos + len(prefix) + len(core))
        parts.append(prefix + core + suffix)
        pos += len(prefix) + len(core) + len(suffix)
    return "".join(parts), starts, ends


KINDS = ["nfd", "crlf", "capitals", "letter-spaced", "hyphenated"] + [
    f"{m}-{where}" for m in MARKS for where in ("inside", "beside")]


def found_share(analyzer: Analyzer, texts: list[str], clean: list[list], kind: str,
                gold: list[list[tuple[int, int]]] | None = None) -> tuple[int, ...]:
    """(elements found, elements, rulings with every element found) over ``texts`` for ``kind``;
    with ``gold`` spans per ruling also (found, elements) of the clean text's true flags, the
    elements inside a gold span (the clean text's false flags are no name a variant could leak)."""
    made = [variant(t, s, kind) for t, s in zip(texts, clean, strict=True)]
    scored = analyzer.analyze_batch([m[0] for m in made])
    found = total = whole = found_true = total_true = 0
    for k, (text, spans, (_, starts, ends), got) in enumerate(zip(texts, clean, made, scored, strict=True)):
        elements = [(s.start + a, s.start + b) for s in spans for a, b in
                    ((m.start(), m.end()) for m in re.finditer(r"\S+", text[s.start:s.end]))]
        hit = [any(g.start <= starts[a] and g.end >= ends[b - 1] for g in got) for a, b in elements]
        found, total, whole = found + sum(hit), total + len(elements), whole + all(hit)
        if gold is not None:
            true = [any(a < e and s < b for s, e in gold[k]) for a, b in elements]
            found_true += sum(h for h, t in zip(hit, true, strict=True) if t)
            total_true += sum(true)
    return (found, total, whole) + ((found_true, total_true) if gold is not None else ())


def speed(analyzer: Analyzer, texts: list[str], repeat: int) -> dict:
    elements = sum(count_elements(t) for t in texts)
    times = {"with normalization": [], "without": []}
    original = normalization.normalize
    functions = {"with normalization": original,
                 "without": lambda text, known=None, cues=None: normalization.Normalized(text, text)}
    for _ in range(repeat):  # alternating, so that a change of the machine's load hits both alike
        for label, function in functions.items():
            normalization.normalize = function
            try:
                started = time.perf_counter()
                analyzer.analyze_batch(texts)
                times[label].append(time.perf_counter() - started)
            finally:
                normalization.normalize = original
    best = {label: elements / min(spent) for label, spent in times.items()}
    started = time.perf_counter()
    for text in texts:
        original(text)
    best["normalization alone"] = elements / (time.perf_counter() - started)
    return {"elements": elements, "elements_per_second": best}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rulings", type=Path, help="a JSONL of rulings ({'text'} per line) to vary as well")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    analyzer = Analyzer()
    sets = {"fictitious": (list(RULINGS.values()), None)}
    if args.rulings:
        with open(args.rulings, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle if line.strip()]
        gold = [[(s["start"], s["end"]) for s in r["spans"]] for r in records] \
            if all(isinstance(r.get("spans"), list) for r in records) else None
        sets[args.rulings.stem] = ([r["text"] for r in records], gold)
    figures = {}
    for name, (texts, gold) in sets.items():
        clean = analyzer.analyze_batch(texts)
        rows = {kind: found_share(analyzer, texts, clean, kind, gold) for kind in KINDS}
        figures[name] = {"rulings": len(texts), "variants": rows, "speed": speed(analyzer, texts, args.repeat)}
        print(f"{name}: {len(texts)} rulings, {rows['nfd'][1]} sensitive elements in the clean text"
              + (f", {rows['nfd'][4]} of them inside a gold span" if gold is not None else ""))
        print(f"  {'variant':<16} {'found':>12} {'rulings whole':>14}" + ("  true flags found" if gold else ""))
        for kind, (hit, total, whole, *true) in rows.items():
            line = f"  {kind:<16} {hit:>5}/{total:<5} {100 * hit / max(total, 1):5.1f}% {whole:>5}/{len(texts)}"
            if true:
                line += f"  {true[0]:>5}/{true[1]:<5} {100 * true[0] / max(true[1], 1):5.1f}%"
            print(line)
        for label, rate in figures[name]["speed"]["elements_per_second"].items():
            print(f"  speed {label:<20} {rate:>10,.0f} elements/s")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
