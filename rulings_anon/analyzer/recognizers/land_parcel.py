"""Land-parcel numbers: "Flurstück 123/4", "Flurstücke 12/3 und 12/5", "Fl.Nr. 123/4", "FlNr. 56",
"Flst. 78/2", "Fl.-Nr. 910".

A parcel number identifies a plot in the land register and so its owner. Only numbers after a
parcel word are matched ("§ 123 Abs. 4", "BGBl. I S. 123" never are); each number of a list after
one word ("Flurstücke 12/3, 12/4 und 15") is a span of its own, the word stays in clear, as the
courts write it ("Fl.Nr. ...").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
_PARCEL_WORD = (r"(?<![\w-])(?:Flurstücks?nummern?|Flurstück(?:e|s|en)?|Flurnummern?|Flurst\.|Flst\.|"
                r"Fl\.?-?\ ?Nrn?\.|FlNrn?\.|Flurnr\.|Flur-Nr\.|Grundstücks-?Nr\.)")
_NUMBER = r"\d{1,5}(?:/\d{1,4})?(?![\w/]|[.,]\d)"
_LIST = (rf"{_NUMBER}(?:{_SPACE}*(?:,|und|u\.|bis|sowie|oder){_SPACE}*(?:(?:Fl\.?\ ?Nr\.|Flst\.){_SPACE}*)?"
         rf"{_NUMBER})*")
_NUMBER_RE = re.compile(_NUMBER)


class LandParcelRecognizer(Recognizer):
    name = "land_parcel"
    entity_type = "LAND_PARCEL"
    REQUIRES = ("Fl", "Grundstücks-")
    PATTERNS = (
        Pattern("after_parcel_word",
                rf"{_PARCEL_WORD}{_SPACE}*(?:Nr\.{_SPACE}*)?:?{_SPACE}*(?P<ref>{_LIST})", 0.9),
    )

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        """Each number of a parcel list on its own."""
        for pattern, start, end in super().candidates(text):
            for number in _NUMBER_RE.finditer(text, start, end):
                yield pattern, number.start(), number.end()
