"""faker's German country names and given names as shipped in ``rulings_anon/data/faker_de.json``,
read by the scorer (a country is no party; after a given name a common word is a surname) and by the
placeholder detector (an initial between a given name and a surname in clear is a middle name's).
How the file is built from faker: :mod:`rulings_anon.analyzer.faker_lists`.
"""

from __future__ import annotations

import json
from functools import lru_cache

from rulings_anon.data import path as data_path

FILE = "faker_de.json"


@lru_cache(maxsize=1)
def shipped_lists() -> dict[str, frozenset[str]]:
    """The lists of the shipped file, as sets."""
    data = json.loads(data_path(FILE).read_text(encoding="utf-8"))
    return {key: frozenset(data[key]) for key in ("countries", "first_names")}
