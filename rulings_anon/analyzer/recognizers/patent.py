"""Patent, utility model and application numbers.

"DE102006011652A1", "DE 10 2006 011 652 A1", "EP 1 234 567 B1", "WO 2005/012345 A1": an
office code, 7 to 14 digits (grouped by spaces, dots or a slash) and the kind code (A1, B1,
C2, U1, T2, ...). Without a kind code a number counts only after a word such as "Patent" or
"Gebrauchsmuster". IBANs ("DE91 1000 ...") have too many digits to match.
"""

from __future__ import annotations

from .base import Pattern, Recognizer

_OFFICE = r"(?<![\w-])(?:DE|EP|WO|US|GB|FR|JP|AT|CH|CN|EU)"
_DIGITS = r"\ ?\d(?:[\ ./]?\d){6,13}"


class PatentRecognizer(Recognizer):
    name = "patent"
    entity_type = "PATENT"
    PATTERNS = (
        # Office, digits, kind code; no further digit may follow (else it is something longer).
        Pattern("with_kind_code", rf"{_OFFICE}{_DIGITS}\ ?[ABCTU][1-9](?![\w])", 0.85),
        Pattern("number_only", rf"{_OFFICE}{_DIGITS}(?![\w]|[\ ./]?\d)", 0.5, needs_context=True),
    )
    CONTEXT = ("Patent", "Streitpatent", "Patentschrift", "Offenlegungsschrift", "Gebrauchsmuster",
               "Patentanmeldung", "Anmeldung", "Druckschrift", "Entgegenhaltung")
