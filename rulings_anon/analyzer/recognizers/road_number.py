"""Numbers of roads near a party's property: "an der B 12", "die St 2045", "Staatsstraße 2045",
"Kreisstraße MN 15", "Bundesstraße 12", "der L 123" ("St" and "ST" both stand for a Bavarian
Staatsstraße).

State courts replace the number ("B ...", "St ..."): with the property's neighbourhood it locates a
party. Only the number is the span. A letter and digits alone are many things (a party's exhibit
"Anlage B 12", a driving-licence class, a file number "4 B 12.19"), so the short forms need an
article or preposition right before them ("an der", "die", "zur") and no file-number digits after
them; the long forms ("Staatsstraße", "Kreisstraße") name a road by themselves. Once a ruling has
named a road so, its other short forms count where no capitalized word stands before them (an
exhibit's "Anlage", a "Klasse"): after a conjunction or an adjective ("der B 12 oder ST 2045", "der
stark befahrenen B 12"), in brackets or quotes ("Bundesstraße (B 12)", "„ST 2045 bei ...“").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
# No more digits, no file-number tail ("12.19", "12/19"), no word character.
_END = r"(?![\w/-]|[.,]\d)"
# The patterns start with the road's letters, which the regex engine finds fast; what must stand
# before them (no word character; for a short form an article or preposition) is checked after.
_NOT_AFTER_WORD = re.compile(r"[\w-]$")
_ARTICLE_BEFORE = re.compile(
    rf"(?<![\w-])(?:der|die|zur|an{_SPACE}der|entlang{_SPACE}der|neben{_SPACE}der|über{_SPACE}die){_SPACE}+$")
# what may stand before a short form in a ruling that names roads: a lower-case word, a bracket or a
# quote (not a capitalized word: "Anlage B 12", "Klasse B 1")
_OTHER_BEFORE = re.compile(rf"(?:(?<![\w-])[a-zäöüß]+[,;]?{_SPACE}+|[(„\"“‚]{_SPACE}*)$")


class RoadNumberRecognizer(Recognizer):
    name = "road_number"
    entity_type = "ROAD"
    PATTERNS = (
        # "Staatsstraße 2045", "Kreisstraße MN 15", "Bundesstraße B 16"
        Pattern("named_road",
                rf"(?:Bundes|Staats|Landes|Kreis|Gemeindeverbindungs)straße"
                rf"{_SPACE}+(?:(?:B|St|L|K){_SPACE}?)?(?P<ref>(?:[A-ZÄÖÜ]{{1,3}}{_SPACE}?)?\d{{1,4}}[a-z]?){_END}",
                0.85),
        # "B 12", "St 2045", "St. 2045", "ST 2045", "L 123" after an article or preposition
        Pattern("short_form", rf"(?:B|St\.?|ST|L){_SPACE}?(?P<ref>\d{{1,4}}[a-z]?){_END}", 0.75),
    )

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        found, others = [], []
        for pattern, regex in self._compiled:
            for match in regex.finditer(text):
                before = text[max(0, match.start() - 30):match.start()]
                if _NOT_AFTER_WORD.search(before):
                    continue
                if pattern.name == "short_form" and not _ARTICLE_BEFORE.search(before):
                    if _OTHER_BEFORE.search(before):
                        others.append((pattern, match.start("ref"), match.end("ref")))
                    continue
                found.append((pattern, match.start("ref"), match.end("ref")))
        yield from found
        if found:  # the ruling names roads: its other short forms are roads too
            yield from others
