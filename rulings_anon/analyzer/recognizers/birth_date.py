"""Dates of birth: "geb. am 25. September 1996", "geboren 12.03.1980", "der am 1.2.1960 geborene",
"wurde am 4. Mai 1998 in Ingolstadt geboren".

Only dates next to a birth word are recognized; the birth word stays outside the span, which
covers the whole date as one reference. Other dates ("Urteil vom 25. September 1996") are not
personal data and never match, nor does a statute's cut-off date ("für vor dem 1. 7. 2015 geborene
Kinder"), which is nobody's birthday.

Not standalone by default (``rulings_anon/data/recognizers.json``): the courts of the bundled corpus publish
their parties' birth dates ("Der am 16. 5. 1945 geborene Kläger"); none of the 16 hits on the six
courts' rulings is anonymized.
"""

from __future__ import annotations

import re

from .base import Pattern, Recognizer

_MONTHS = "Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"
# "25. September 1996", "25.09.1996", "25. 9. 1996", "25.09.96".
DATE = rf"(?:[0-3]?\d\.\ ?(?:(?:{_MONTHS})\ |[01]?\d\.\ ?)(?:1[89]|20)?\d\d)(?!\d)"


class BirthDateRecognizer(Recognizer):
    name = "birth_date"
    entity_type = "BIRTH_DATE"
    REQUIRES = ("geb", "Geburt")
    # A cut-off date of a rule ("vor dem", "nach dem", "bis zum", "ab dem", "seit dem").
    EXCLUDE_BEFORE = r"\b(?:vor|nach|ab|seit)\s+dem\s+|\bbis\s+zum\s+"
    PATTERNS = (
        # Birth word before: "geb.", "geboren", "Geburtsdatum", "Geburtstag", optional "am".
        Pattern(
            "after_birth_word",
            rf"(?<!\w)(?:geb\.|geboren|Geburtsdatum|Geburtstag)\s*:?\s*(?:am\s+)?(?P<ref>{DATE})",
            0.95,
        ),
        # Birth word after: "am 1.2.1960 geborene", also with the birthplace between ("wurde am 4. Mai
        # 1998 in Ingolstadt geboren", "in Neuburg an der Donau geborene"); "1960 geboren" is left out
        # (a year alone).
        Pattern("before_birth_word",
                rf"(?P<ref>{DATE})(?:\s+in\s+[A-ZÄÖÜ][\w.-]*(?:\s+(?:an|am|im|bei|ob|der|[A-ZÄÖÜ][\w.-]*)){{0,3}})?"
                rf"\s+geboren(?:e|en|er|es)?\b", 0.95),
    )

    def validate_result(self, reference: str) -> bool | None:
        day = int(re.match(r"\d+", reference).group())
        return None if 1 <= day <= 31 else False
