"""How the bundled courts write a company's placeholder before its legal form: the counts behind
the court-style default of ``score --anonymize`` (docs/experiments.md, "Court style of companies").

Every placeholder span of ``rulings_anon/data/ler/*.jsonl.gz`` that ends with a legal form
("M-GmbH"), or that a legal form follows (after at most two more capitalized words), is counted
by its shape, per court: mentions, and rulings using the shape.

    .venv/bin/python benchmarks/count_company_forms.py
"""

from __future__ import annotations

import collections
import gzip
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "rulings_anon" / "data"
SHAPES = ("letters, no period: die W GmbH", "several letters, no period: die V B GmbH", "hyphen: die M-GmbH",
          "period: die W. GmbH", "a word kept: die W Holding GmbH", "ellipsis: die ... GmbH")


def _patterns() -> tuple[re.Pattern, re.Pattern]:
    forms = json.loads((DATA / "name_affixes.json").read_text(encoding="utf-8"))["legal_forms"]
    alternation = "|".join(re.escape(f).replace(r"\ ", r"\s*") for f in sorted(forms, key=len, reverse=True))
    after = re.compile(rf"[ \t]*(?P<words>(?:[A-ZÄÖÜ][\wäöüß&.-]*[ \t]+){{0,2}}?)(?:{alternation})(?!\w)")
    hyphen = re.compile(rf"^[A-ZÄÖÜ]{{1,3}}-(?:{alternation})$")
    return after, hyphen


def shape(placeholder: str, text: str, end: int, after: re.Pattern, hyphen: re.Pattern) -> str | None:
    if hyphen.match(placeholder):
        return SHAPES[2]
    match = after.match(text, end)
    if match is None:
        return None
    if placeholder.strip(" .") in ("", "…") or placeholder.strip() in ("...", "…"):
        return SHAPES[5]
    if match.group("words").strip():
        return SHAPES[4]
    if placeholder.endswith("."):
        return SHAPES[3]
    return SHAPES[0] if len(placeholder.replace(" ", "")) == 1 else SHAPES[1]


def main() -> None:
    after, hyphen = _patterns()
    mentions = collections.defaultdict(collections.Counter)
    rulings = collections.Counter()
    for path in sorted((DATA / "ler").glob("*.jsonl.gz")):
        court = path.name.split(".")[0].upper()
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                text = record["text"]
                found = {shape(text[s["start"]:s["end"]], text, s["end"], after, hyphen) for s in record["spans"]}
                for span in record["spans"]:
                    kind = shape(text[span["start"]:span["end"]], text, span["end"], after, hyphen)
                    if kind is not None:
                        mentions[court][kind] += 1
                rulings.update(found - {None})
    courts = sorted(mentions)
    print("| shape | " + " | ".join(courts) + " | all mentions | rulings |")
    print("|---" * (len(courts) + 3) + "|")
    for kind in SHAPES:
        row = [mentions[c][kind] for c in courts]
        print(f"| {kind} | " + " | ".join(map(str, row)) + f" | {sum(row)} | {rulings[kind]} |")


if __name__ == "__main__":
    main()
