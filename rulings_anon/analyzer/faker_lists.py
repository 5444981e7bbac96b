"""faker's German country names and given names, shipped in ``rulings_anon/data/faker_de.json``
(read by :mod:`rulings_anon.faker_names`), and how that file is built.

The scorer reads both for every ruling (a country is no party; after a given name a common word is
a surname), and importing faker to get them costs ``score`` a fifth of a second before its first
ruling. faker stays the source (MIT licence, https://github.com/joke2k/faker, the version pinned in
``setup.cfg``); a test checks the file against the installed package.

    .venv/bin/python -m rulings_anon.analyzer.faker_lists [--out rulings_anon/data/faker_de.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rulings_anon.data import path as data_path
from rulings_anon.faker_names import FILE
from rulings_anon.jsonl import atomic_writer


def faker_lists() -> dict[str, list[str]]:
    """The lists as the installed faker has them, sorted."""
    from faker.providers.address.de_DE import Provider as Address
    from faker.providers.person.de_DE import Provider as Person

    return {"countries": sorted(set(Address.countries)), "first_names": sorted(set(Person.first_names))}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=data_path(FILE))
    args = parser.parse_args(argv)
    lists = faker_lists()
    from faker import VERSION

    body = {"_source": f"faker {VERSION} (MIT licence): de_DE address countries, de_DE person first_names; "
                       "rebuilt by python -m rulings_anon.analyzer.faker_lists", **lists}
    with atomic_writer(args.out) as handle:
        json.dump(body, handle, ensure_ascii=False, indent=0)
        handle.write("\n")
    print(f"{len(lists['countries'])} countries, {len(lists['first_names'])} given names -> {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
