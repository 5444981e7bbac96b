"""Domestic account numbers and bank codes that follow their label.

German account numbers (up to 10 digits) carry bank-specific check digit methods that cannot be
validated without the Bundesbank's method table, so only numbers after an explicit label count:
"Kontonummer 1234567890", "Konto-Nr. 123 456 789", "Kto.-Nr.: 4711", "BLZ 100 500 00".
"""

from __future__ import annotations

from .base import Pattern, Recognizer


class AccountNumberRecognizer(Recognizer):
    name = "account_number"
    entity_type = "ACCOUNT"
    REQUIRES = ("Konto", "Kto", "Bankleitzahl", "BLZ")
    PATTERNS = (
        # The label ("Kontonummer", "Konto-Nr.", "Kto.-Nr.", "Bankleitzahl", "BLZ"), then the
        # number, digits possibly grouped by single spaces.
        Pattern(
            "labelled",
            r"""(?:Konto(?:nummer|[-\ ]?Nr\.?)|Kto\.?[-\ ]?(?:Nr\.?)?|Bankleitzahl|BLZ)
                \s*:?\s*(?P<ref>\d(?:\ ?\d){3,11})(?![\d/])""",
            0.85,
        ),
    )
