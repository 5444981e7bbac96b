"""Telephone and fax numbers.

International numbers ("+49 30 1234567", "0049 (0)89 123 45 67") are recognised on their own.
National numbers with an area code ("030 / 123 45 67", "(089) 1234-567") look too much like
other numbers in rulings, so they need a context word ("Tel.", "Fax", "Rufnummer") before them.
Citations ("BGBl. I S. 2317", "NJW 2018, 1234") never match: they lack the leading 0 or +.
"""

from __future__ import annotations

from .base import Pattern, Recognizer


class PhoneRecognizer(Recognizer):
    name = "phone"
    entity_type = "PHONE"
    PATTERNS = (
        # +49 or 0049, optional "(0)", area code, subscriber number in up to three groups.
        Pattern(
            "international",
            r"(?<![\w+])(?:\+|00)[1-9]\d{1,2}[\ -]?(?:\(0\)[\ ]?)?\d{2,5}(?:[\ /-]{1,3}\d{2,8}){1,3}(?![\w/])",
            0.75,
        ),
        # Area code starting with 0 (optionally in brackets), separator, subscriber number.
        Pattern(
            "national",
            r"(?<![\w/.,-])(?:\(0\d{2,5}\)|0\d{2,5})(?:[\ /-]{1,3}\d{2,8}){1,3}(?![\w/.])",
            0.5,
            needs_context=True,
        ),
    )
    CONTEXT = ("Tel", "Telefon", "Telefonnummer", "Rufnummer", "Fax", "Telefax", "Mobil",
               "Mobilfunknummer", "Handy", "Handynummer", "Anschluss", "erreichbar", "angerufen")
