"""Build ``rulings_anon/data/abbreviations/spacy-de.txt``: the German abbreviations of spaCy's tokenizer exceptions.

spaCy (MIT licence, https://spacy.io) lists the German abbreviations its tokenizer keeps whole in
``spacy/lang/de/tokenizer_exceptions.py``. This script reads that file with :mod:`ast` (spaCy is
neither imported nor needed at run time) and writes every entry that ends with a period, one a line,
sorted. Left out, each for a reason the detector cares about:

* roman numerals ("I.", "II."): "der Angeklagte I." may be a name, the detector judges them by context;
* entries of capital letters alone ("A.G.", "U.S.", "K.O."): they look exactly like a person's
  initials, which is what the detector looks for.

    pip download spacy==3.8.7 --no-deps -d /tmp/spacy
    .venv/bin/python -m rulings_anon.placeholders.abbreviations_builder /tmp/spacy/spacy-3.8.7-*.whl

The argument is a spaCy wheel or the ``tokenizer_exceptions.py`` file itself.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path

MEMBER = "spacy/lang/de/tokenizer_exceptions.py"
_ROMAN = re.compile(r"^[IVX]+\.$")


def exception_forms(source: str) -> list[str]:
    """Every ORTH string of the German exceptions: the dict entries ``{ORTH: "Abb.", ...}`` and the
    strings of the ``for orth in [...]`` list."""
    forms = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Name) and key.id == "ORTH" and isinstance(value, ast.Constant):
                    forms.append(value.value)
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == "orth":
            forms.extend(e.value for e in getattr(node.iter, "elts", ()) if isinstance(e, ast.Constant))
    return forms


def abbreviations(source: str) -> list[str]:
    """The abbreviations the detector uses: forms ending with a period, no roman numeral, and at
    least one lower-case letter."""
    keep = {f for f in exception_forms(source)
            if f.endswith(".") and not _ROMAN.match(f) and any(c.islower() for c in f)}
    return sorted(keep)


def read_source(path: Path) -> str:
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            return wheel.read(MEMBER).decode("utf-8")
    return path.read_text(encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a spaCy wheel or its lang/de/tokenizer_exceptions.py")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "data" / "abbreviations"
                        / "spacy-de.txt")
    args = parser.parse_args(argv)
    forms = abbreviations(read_source(args.source))
    args.out.write_text("".join(f + "\n" for f in forms), encoding="utf-8")
    print(f"{len(forms)} abbreviations -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
