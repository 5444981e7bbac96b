"""Licence, permit and authority file numbers ("Baugenehmigung Nr. 602-1.2-2012-3304-23").

Authorities number their files as runs of digit groups joined by hyphens, dots and slashes.
At least three groups, eight digits and one hyphen are required; dates and date ranges
("1.1.2010-31.12.2012") and ISBNs ("978-3-406-12345-6", valid check digit or "ISBN" before) are
rejected. Court file numbers ("IX ZB 72/08") contain letters and never match.
"""

from __future__ import annotations

import re

from .base import Pattern, Recognizer

_DATE = re.compile(r"\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})(?!\d)")


def isbn_ok(digits: str) -> bool:
    """Whether ``digits`` (no separators) is a valid ISBN-10 or ISBN-13."""
    if len(digits) == 13 and digits[:3] in ("978", "979"):
        return sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10 == 0
    if len(digits) == 10 and digits[:9].isdigit():
        total = sum((10 - i) * int(d) for i, d in enumerate(digits[:9]))
        check = 10 if digits[9] in "Xx" else int(digits[9]) if digits[9].isdigit() else -1
        return (total + check) % 11 == 0
    return False


class PermitRecognizer(Recognizer):
    name = "permit"
    entity_type = "PERMIT"
    PATTERNS = (
        # Digit groups separated by "-", "." or "/" (no spaces); three groups at least.
        Pattern("grouped_digits", r"(?<![\w./-])\d{1,6}(?:[-./]\d{1,6}){2,}(?![\w]|[-./]\d)", 0.55),
    )
    CONTEXT = ("Genehmigung", "Baugenehmigung", "Erlaubnis", "Lizenz", "Zulassung", "Bewilligung",
               "Konzession", "Bescheid", "Az.", "Aktenzeichen", "Geschäftszeichen", "Nr.", "Nummer")
    EXCLUDE_BEFORE = r"ISBN[\s:]*"

    def validate_result(self, reference: str) -> bool | None:
        digits = re.sub(r"\D", "", reference)
        if "-" not in reference or len(digits) < 8 or _DATE.search(reference):
            return False
        if isbn_ok(digits):
            return False
        return None
