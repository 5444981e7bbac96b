"""How often an alias cue ("genannt", "alias", "Spitzname", "Benutzername", ...) stands in labelled
rulings, and what follows it: a quoted text the alias recognizer takes (its content a court's
placeholder or printed in clear), a placeholder without quotes, or anything else.

    .venv/bin/python benchmarks/count_alias_cues.py                    # the six bundled LER courts
    .venv/bin/python benchmarks/count_alias_cues.py --labelled FILE.jsonl --show
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from rulings_anon.analyzer.recognizers import analyze
from rulings_anon.analyzer.recognizers.alias import _CUE
from rulings_anon.data import path as data_path

_CUE_WORD = re.compile(_CUE)
# A placeholder right after a cue, without quotes ("unter dem Pseudonym ...").
_GAP = re.compile(r"[^\S\n]*:?(?:[^\S\n]+(?:der|die|das|den|dem|des))?[^\S\n]*$")
_QUOTE_BEFORE_GENANNT = re.compile(r"[„\"»«‚'“‘][^„“”\"»«‚‘’'\n]{1,40}[“”\"«»‘’'][^\S\n]+genannt(?!\w)")


def read(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def count(records: list[dict], show: bool) -> dict[str, Counter]:
    courts: dict[str, Counter] = defaultdict(Counter)
    for record in records:
        text, spans = record["text"], record.get("spans", [])
        court = courts[record.get("court", "all")]
        court["cues"] += len(_CUE_WORD.findall(text))
        court["quoted before genannt"] += len(_QUOTE_BEFORE_GENANNT.findall(text))
        for hit in analyze(text, enabled={"alias"}):
            placeholder = any(s["start"] < hit.end and hit.start < s["end"] for s in spans)
            court["hits, placeholder" if placeholder else "hits, in clear"] += 1
            if show:
                print(record.get("court"), "placeholder" if placeholder else "clear",
                      repr(text[max(0, hit.start - 60):hit.end + 5]))
        for cue in _CUE_WORD.finditer(text):
            after = [s for s in spans if cue.end() <= s["start"] <= cue.end() + 8
                     and _GAP.match(text[cue.end():s["start"]])]
            if after:
                court["placeholder without quotes"] += 1
                if show:
                    print(record.get("court"), "unquoted", repr(text[max(0, cue.start() - 40):after[0]["end"] + 5]))
    return courts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labelled", type=Path, action="append",
                        help="JSONL(.gz) rulings with placeholder spans (default: the six bundled LER courts)")
    parser.add_argument("--show", action="store_true", help="print each hit and unquoted placeholder in context")
    args = parser.parse_args()
    paths = args.labelled or sorted(Path(data_path("ler")).glob("*.jsonl.gz"))
    courts = count([r for p in paths for r in read(p)], args.show)
    columns = ("cues", "hits, placeholder", "hits, in clear", "placeholder without quotes", "quoted before genannt")
    print(f"{'court':8} " + " ".join(f"{c:>27}" for c in columns))
    for court, c in sorted(courts.items()):
        print(f"{court:8} " + " ".join(f"{c[k]:>27}" for k in columns))
    print(f"{'total':8} " + " ".join(f"{sum(c[k] for c in courts.values()):>27}" for k in columns))


if __name__ == "__main__":
    main()
