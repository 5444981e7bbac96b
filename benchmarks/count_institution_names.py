"""How the bundled courts write a name inside an institution's name ("Universität G", "Neurologische
Klinik B", "K-Klinik", "VEB Elektronik G.", "Stiftung S"), and what the sensitivity features make
of it: the counts behind the seat rule's institutions (docs/experiments.md, "Names inside
institutions").

Every element of ``rulings_anon/data/ler/*.jsonl.gz`` whose word ends in an institution noun
(:data:`KINDS`) is looked at in three places:

* **after**: the capitalized word right after it, and the next one where that is a common noun
  ("Universität Oldenburg", "VEB Elektronik G."; no sentence end, comma or bracket between);
* **before**: a placeholder right before it ("die H Klinik", "der S… Klinik");
* **compound**: the first part of a hyphenated compound ("K-Klinik", "Paul-Ehrlich-Institut").

A word counts as a placeholder when a placeholder span of the record overlaps it; a word in clear
is split into common nouns (the German nouns lexicon's, "Elektronik", "Vertragsarbeitgeber") and
the rest (names, places, adjectives). For the words after, the table also counts how many the
feature columns ``seat`` and ``public_name`` mark (probability 0 by default) and how many have
``institution_before``.

    .venv/bin/python benchmarks/count_institution_names.py [--examples 3]
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import re
from pathlib import Path

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.document import Span, element_labels, split_elements
from rulings_anon.lexicon import COMMON_NOUN, load_lexicon, lookup

ROOT = Path(__file__).resolve().parent.parent
LER = ROOT / "rulings_anon" / "data" / "ler"
# kind -> the lower-cased endings of its nouns, tried in this order ("Hochschule" before "Schule")
KINDS = {
    "Universität, Hochschule": ("universität", "universitäten", "hochschule", "hochschulen"),
    "Klinik, Klinikum, Krankenhaus": ("klinik", "kliniken", "klinikum", "klinikums", "krankenhaus", "krankenhauses",
                                      "krankenhäuser"),
    "Heim (Pflege-, Alten-, Kinder-)": ("pflegeheim", "pflegeheims", "altenheim", "altenheims", "seniorenheim",
                                        "seniorenheims", "kinderheim", "kinderheims", "wohnheim", "wohnheims"),
    "Schule, Gymnasium": ("schule", "schulen", "gymnasium", "gymnasiums"),
    "Stiftung": ("stiftung",),
    "Institut, Akademie": ("institut", "instituts", "institutes", "akademie"),
    "VEB, Kombinat": ("kombinat", "kombinats", "kombinates"),
    "Sparkasse": ("sparkasse", "sparkassen"),
}
PLACES = ("after", "before", "compound")
CLASSES = ("placeholder", "letters, no placeholder span", "clear, common noun", "clear, other")
RULE_COLUMNS = ("seat", "public_name", "institution_before")
# what ends an institution's name: a sentence's end, a comma, a closing bracket
_BREAKS = (".", "!", "?", ":", ";", ",", ")")
_PLACEHOLDER_SHAPE = re.compile(r"^(?:[A-ZÄÖÜ]{1,3}\.?|[A-ZÄÖÜ]?…|\.\.\.)$")
_ROMAN = re.compile(r"^[IVX]{2,4}\.?$")


def placeholder_shaped(word: str) -> bool:
    """Letters as the courts write a placeholder ("R", "H.", "M…", "..."), not a Roman numeral ("II")."""
    return bool(_PLACEHOLDER_SHAPE.match(word)) and not _ROMAN.match(word)


def kind_of(word: str) -> str | None:
    """The institution kind whose noun ``word`` ends in ("Fachhochschule", "Universitätsklinik",
    "K-Klinik"), None for any other word; "VEB" only as itself."""
    lowered = word.lower()
    if lowered == "veb":
        return "VEB, Kombinat"
    return next((kind for kind, endings in KINDS.items() if lowered.endswith(endings)), None)


def _class(word: str, placeholder: bool, nouns) -> str:
    if placeholder:
        return CLASSES[0]
    if placeholder_shaped(word):
        return CLASSES[1]
    return CLASSES[2] if lookup(nouns, word) & COMMON_NOUN else CLASSES[3]


class Tally:
    """(kind, place, class) -> court -> words; (kind, rule column) -> court -> words after it marks;
    (kind, rule column, court) -> placeholders among them; (kind, place, class) -> examples."""

    def __init__(self, examples: int = 0) -> None:
        self.examples = examples
        self.words = collections.defaultdict(collections.Counter)
        self.marked = collections.defaultdict(collections.Counter)
        self.blocked = collections.Counter()
        self.shown = collections.defaultdict(list)

    def add(self, court: str, kind: str, place: str, cls: str, raw: list[str], i: int) -> None:
        self.words[kind, place, cls][court] += 1
        if len(self.shown[kind, place, cls]) < self.examples:
            self.shown[kind, place, cls].append(f"{court}: " + " ".join(raw[max(0, i - 4):i]) + f" [{raw[i]}] "
                                                + " ".join(raw[i + 1:i + 3]))


def count_record(court: str, record: dict, tally: Tally, nouns) -> None:
    """Add the institution nouns of one LER record and the words around them to ``tally``."""
    text = record["text"]
    elements = split_elements(text)
    raw = [e.text for e in elements]
    words = [sf.core_word(t) for t in raw]
    kinds = [kind_of(w) if w[:1].isupper() else None for w in words]
    if not any(kinds):
        return
    gold = element_labels(elements, [Span(s["start"], s["end"]) for s in record["spans"]])
    features = sf.document_features(text, sf.Tables(), elements=elements)
    row_of = {i: k for k, i in enumerate(features.candidates)}
    for i, kind in enumerate(kinds):
        if kind is None:
            continue
        j = i
        while j + 1 < len(words) and j < i + 2 and not raw[j].endswith(_BREAKS) \
                and not raw[j + 1].startswith("(") and words[j + 1][:1].isupper() and kinds[j + 1] is None \
                and (j == i or _class(words[j], gold[j], nouns) == CLASSES[2]):
            j += 1
            tally.add(court, kind, "after", _class(words[j], gold[j], nouns), raw, j)
            for column in RULE_COLUMNS:
                if j in row_of and features.rows[row_of[j], sf.COLUMN[column]] > 0:
                    tally.marked[kind, column][court] += 1
                    tally.blocked[kind, column, court] += gold[j]
        if i > 0 and words[i - 1][:1].isupper() and not raw[i - 1].endswith(_BREAKS) and (
                gold[i - 1] or placeholder_shaped(words[i - 1])):
            tally.add(court, kind, "before", _class(words[i - 1], gold[i - 1], nouns), raw, i - 1)
        first, _, rest = words[i].partition("-")
        if first and rest:
            cls = CLASSES[0] if gold[i] else CLASSES[1] if placeholder_shaped(first) else CLASSES[3]
            tally.add(court, kind, "compound", cls, raw, i)


def count(examples: int = 0) -> Tally:
    """The counts over the six bundled courts' rulings."""
    nouns = load_lexicon("de-nouns")
    tally = Tally(examples)
    for path in sorted(LER.glob("*.jsonl.gz")):
        court = path.name.split(".")[0].upper()
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                count_record(court, json.loads(line), tally, nouns)
    return tally


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=0, metavar="N", help="print up to N examples per cell")
    args = parser.parse_args(argv)
    tally = count(args.examples)
    words_by, marked, blocked, shown = tally.words, tally.marked, tally.blocked, tally.shown
    courts = sorted(path.name.split(".")[0].upper() for path in LER.glob("*.jsonl.gz"))
    print("| institution | place | word | " + " | ".join(courts) + " | all |")
    print("|---" * (len(courts) + 4) + "|")
    for kind in KINDS:
        for place in PLACES:
            for cls in CLASSES:
                row = [words_by[kind, place, cls][c] for c in courts]
                if sum(row):
                    print(f"| {kind} | {place} | {cls} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
                for example in shown[kind, place, cls]:
                    print(f"    {example}")
        for column in RULE_COLUMNS:
            row = [marked[kind, column][c] for c in courts]
            if sum(row):
                held = sum(blocked[kind, column, c] for c in courts)
                which = f"words after with `{column}` (placeholders: {held})"
                print(f"| {kind} | after | {which} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
