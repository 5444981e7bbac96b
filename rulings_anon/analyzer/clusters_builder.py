"""Build ``rulings_anon/data/scorer/clusters.tsv.gz``: the Brown clusters of capitalized German words.

From the German lexeme clusters that the ``spacy-lookups-data`` package ships
(``spacy_lookups_data/data/de_lexeme_cluster.json.gz``, MIT licence, https://github.com/explosion/spacy-lookups-data):
a word's cluster is its path in a binary tree of words that occur in similar contexts, stored as
an integer whose lowest bit is the path's first step. Surnames ("Müller", "Bauer", "Sager"), first
names, towns ("Cottbus", "Aurich") and big cities ("Berlin", "Lübeck") sit in branches of their
own, so the first steps of the path say what kind of word a capitalized word is, also for a name no
list has and for a surname that is a common noun as well. Only capitalized words with a cluster
are kept (the scorer judges those); ``score`` needs neither the package nor its 100 MB wheel.

    pip download spacy-lookups-data==1.0.5 --no-deps -d /tmp/lookups
    .venv/bin/python -m rulings_anon.analyzer.clusters_builder /tmp/lookups/spacy_lookups_data-1.0.5-*.whl

The argument is the wheel or the ``de_lexeme_cluster.json.gz`` file itself.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import zipfile
from pathlib import Path

from rulings_anon.jsonl import atomic_writer

MEMBER = "spacy_lookups_data/data/de_lexeme_cluster.json.gz"


def read_clusters(source: Path) -> dict[str, int]:
    if source.suffix == ".whl":
        with zipfile.ZipFile(source) as wheel:
            raw = wheel.read(MEMBER)
    else:
        raw = source.read_bytes()
    return json.loads(gzip.decompress(raw))


def capitalized_clusters(clusters: dict[str, int]) -> dict[str, int]:
    return {w: int(c) for w, c in clusters.items() if w[:1].isupper() and c and "\t" not in w and "\n" not in w}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="the spacy-lookups-data wheel or de_lexeme_cluster.json.gz")
    parser.add_argument("--out", type=Path, default=Path("rulings_anon/data/scorer/clusters.tsv.gz"))
    args = parser.parse_args(argv)
    try:
        table = capitalized_clusters(read_clusters(args.source))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        print(f"error: {args.source}: no German lexeme clusters ({error})", file=sys.stderr)
        return 2
    with atomic_writer(args.out) as handle:
        handle.writelines(f"{word}\t{cluster}\n" for word, cluster in sorted(table.items()))
    print(f"{args.out}: {len(table)} capitalized words", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
