"""The capital and small letters of the Latin alphabets, as bodies of regular-expression classes.

The patterns that read a name ("Herr Kovačič", "Frau Yıldırım", an unknown word "Ploiești") take
the letters of every Latin alphabet, not only the German ones: a pattern written with "[A-ZÄÖÜ]"
and "[a-zäöüß]" ended a Croatian, Turkish or Romanian surname at its first letter German lacks, and
the name lost the hit. ``re`` has no Unicode letter categories, so the classes list the letters of
Latin-1 and Latin Extended-A and B one by one (the small ones include "ß" and the dotless "ı").

    re.compile(rf"[{CAPITAL}][{SMALL}]+")
"""

from __future__ import annotations

_LATIN = range(0xC0, 0x250)  # Latin-1 Supplement's letters, Latin Extended-A and B
CAPITAL = "A-Z" + "".join(chr(c) for c in _LATIN if chr(c).isupper())
SMALL = "a-z" + "".join(chr(c) for c in _LATIN if chr(c).islower())
