"""Trade mark register numbers of the German Patent and Trade Mark Office (DPMA).

Since 2000: "30" + year + six digits, often grouped "30 2017 029 616"; before: "39" + digits,
e.g. "398 12 345". Grouped numbers with a year are distinctive enough on their own; the others
need a word such as "Marke" or "Registernummer" before them.
"""

from __future__ import annotations

from .base import Pattern, Recognizer


class TrademarkRecognizer(Recognizer):
    name = "trademark"
    entity_type = "TRADEMARK"
    PATTERNS = (
        # 30 YYYY NNN NNN with optional spaces and an optional ".N" suffix.
        Pattern("dpma_since_2000", r"(?<![\w./-])30\ ?(?:19|20)\d{2}\ ?\d{3}\ ?\d{3}(?:\.\d)?(?![\w/]|[.,]\d)", 0.75),
        # 39x NN NNN (registrations of the 1990s).
        Pattern("dpma_1990s", r"(?<![\w./-])39[5-9]\ ?\d{2}\ ?\d{3}(?:\.\d)?(?![\w/]|[.,]\d)", 0.5, needs_context=True),
    )
    CONTEXT = ("Marke", "Wortmarke", "Bildmarke", "Wort-/Bildmarke", "Registernummer", "Register-Nr",
               "Markenregister", "eingetragen", "Klassen")
