"""What a German dictionary says a capitalized word is: a common noun, a name, a place.

German capitalizes every noun, so a new court's vocabulary ("Implantation", "Jobcenter",
"Gitarre") looks to a tagger like the unknown names it must find. A general noun lexicon
separates them without any court's data: each capitalized form of the German Wiktionary's nouns
(``rulings_anon/data/lexicon/de-nouns.tsv.gz``, built from the ``german-nouns`` package, CC BY-SA 4.0) carries
bits for what its entries are. The tagger reads the bits as one more token input.

This module builds the shipped file (``python -m rulings_anon.ner.lexicon_builder NOUNS.csv --out FILE``);
``rulings_anon.lexicon`` reads it.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_writer
from rulings_anon.lexicon import COMMON_NOUN, DEFAULT, OTHER_PROPER, PERSON_NAME, PLACE_NAME, lexicon_file

_NAME_POS = {"Vorname": PERSON_NAME, "Nachname": PERSON_NAME, "Toponym": PLACE_NAME,
             "Straßenname": PLACE_NAME, "Eigenname": OTHER_PROPER}
_CASES = ("nominativ", "genitiv", "dativ", "akkusativ")


def entry_bits(pos: str) -> int:
    """Bits of one Wiktionary entry from its parts of speech ("Substantiv,Nachname" -> a name)."""
    bits = 0
    for part in pos.split(","):
        bits |= _NAME_POS.get(part.strip(), 0)
    return bits or COMMON_NOUN


def build_lexicon(nouns_csv: Path) -> dict[str, int]:
    """Every capitalized one-word form (lemma and its case forms) of ``german-nouns``' nouns.csv."""
    table: dict[str, int] = {}
    try:
        with open(nouns_csv, encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            if not reader.fieldnames or "lemma" not in reader.fieldnames or "pos" not in reader.fieldnames:
                raise InputError("not german-nouns' nouns.csv (needs 'lemma' and 'pos' columns)", nouns_csv)
            columns = [c for c in reader.fieldnames if c.startswith(_CASES)]
            for row in reader:
                bits = entry_bits(row["pos"] or "")
                for form in {row["lemma"], *(row[c] for c in columns)}:
                    form = (form or "").strip()
                    if form and form[0].isupper() and " " not in form:
                        table[form] = table.get(form, 0) | bits
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"cannot read ({exc})", nouns_csv) from exc
    return table


def write_lexicon(table: dict[str, int], out: Path) -> None:
    with atomic_writer(out) as handle:  # gzip-compressed by its name
        handle.write("".join(f"{form}\t{table[form]}\n" for form in sorted(table)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulings_anon.ner.lexicon_builder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("nouns_csv", type=Path, metavar="NOUNS.csv", help="german_nouns/nouns.csv of german-nouns")
    parser.add_argument("--out", type=Path, default=lexicon_file(DEFAULT), help="lexicon to write (default: shipped)")
    args = parser.parse_args(argv)
    try:
        table = build_lexicon(args.nouns_csv)
    except InputError as exc:
        print(f"lexicon: {exc}", file=sys.stderr)
        return 1
    write_lexicon(table, args.out)
    print(f"lexicon: {len(table):,} forms -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
