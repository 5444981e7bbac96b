"""The two word lists the detector's rules read from wordfreq, shipped so that ``detect-placeholders``
never loads wordfreq's own lists (634,000 German and 321,000 English words: about 0.3 s, half of its
start-up).

* ``english``: the words English writes more than :data:`rulings_anon.word_frequency.ENGLISH_MARGIN`
  above German on wordfreq's Zipf scale ("method", "for", "is"; not "hat", "in"): a letter before
  two of them opens an English phrase (:func:`rulings_anon.placeholders.element_runs.in_english`);
* ``german``: the words German writes at :data:`RARE_ZIPF` or more ("soweit", "jedoch"): a word
  after initials that German writes less often may be a surname in clear
  (:func:`rulings_anon.placeholders.element_runs.surname_in_clear`).

Both hold words of German letters only, as wordfreq keys them (case-folded: "strasse"), and give
for such a word what :func:`rulings_anon.word_frequency.zipf` gives; a word with other letters is
still looked up there. A test rebuilds both from the installed wordfreq (pinned in ``setup.cfg``) and
compares. Derived from wordfreq's data (CC BY-SA 4.0, Robyn Speer; see ``rulings_anon/data/README.md``).

    .venv/bin/python -m rulings_anon.placeholders.word_lists [--out rulings_anon/data/detector_words.json.gz]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from functools import lru_cache
from pathlib import Path

from rulings_anon.data import path as data_path
from rulings_anon.jsonl import atomic_writer
from rulings_anon.lexicon import GERMAN_LETTERS
from rulings_anon.word_frequency import ENGLISH_MARGIN

FILE = "detector_words.json.gz"
RARE_ZIPF = 3.0  # a word German writes less often than this (wordfreq's Zipf scale) may be a surname


def build() -> dict[str, list[str]]:
    """Both lists from the installed wordfreq's data, sorted."""
    from rulings_anon.word_frequency import _bucket_zipf, buckets, zipf

    english = []
    for key in buckets("en"):
        word = key.decode("utf-8", "surrogatepass")
        if GERMAN_LETTERS.match(word) and word.islower() and zipf(word, "en") > zipf(word, "de") + ENGLISH_MARGIN:
            english.append(word)
    german = [key.decode("utf-8", "surrogatepass") for key, bucket in buckets("de").items()
              if _bucket_zipf(bucket) >= RARE_ZIPF]
    german = [word for word in german if GERMAN_LETTERS.match(word)]
    return {"english": sorted(english), "german": sorted(german)}


@lru_cache(maxsize=1)
def shipped() -> dict[str, frozenset[str]]:
    """The shipped lists, as sets."""
    data = json.loads(gzip.decompress(data_path(FILE).read_bytes()).decode("utf-8"))
    return {key: frozenset(data[key]) for key in ("english", "german")}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=data_path(FILE))
    args = parser.parse_args(argv)
    lists = build()
    body = {"_source": "wordfreq 3.1.1 large_de and large_en (CC BY-SA 4.0, Robyn Speer); rebuilt by "
                       "python -m rulings_anon.placeholders.word_lists", **lists}
    with atomic_writer(args.out, mode="wb", compress=False) as handle:
        handle.write(gzip.compress(json.dumps(body, ensure_ascii=False, indent=0).encode("utf-8"), mtime=0))
    print(f"{len(lists['english'])} English words, {len(lists['german'])} German words -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
