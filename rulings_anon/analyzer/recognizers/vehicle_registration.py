"""German vehicle registration plates ("M-AB 1234", "B-XY 123E", "HH-A 99H").

District code (1–3 letters), one or two letters, one to four digits, and "E" (electric) or "H"
(historic). The hyphenated form is distinctive; the form with spaces only ("M AB 1234") would
also match court file numbers ("V R 27/14", "IX ZB 72/08"), so it needs a word such as
"Kennzeichen" before it. Journal citations ("NJW-RR 2009, 462", "NJW-RR 1993, S. 383", "TV-L 3.
Aufl.") and measures ("in A-M 21 km") are ruled out by what follows them: a page number, an
edition or a unit; file numbers of the form "1 WDS-VR 9.17" (a senate's number before the
register, the year after a period) by the number before them and the digits after the period.
"""

from __future__ import annotations

from .base import Pattern, Recognizer


class VehicleRegistrationRecognizer(Recognizer):
    name = "vehicle_registration"
    entity_type = "VEHICLE"
    PATTERNS = (
        Pattern("hyphenated", r"(?<![\w-])(?<!\d\ )[A-ZÄÖÜ]{1,3}-[A-Z]{1,2}\ ?[1-9]\d{0,3}[EH]?"
                              r"(?![\w/-]|\.\d|,\ ?(?:S\.\ ?)?\d|\.\ ?Aufl|\ ?(?:km|m|cm|mm|kg|%|€|EUR|Euro)\b)", 0.7),
        Pattern("spaced", r"(?<![\w-])[A-ZÄÖÜ]{1,3}\ [A-Z]{1,2}\ [1-9]\d{0,3}[EH]?(?![\w/-])", 0.5, needs_context=True),
    )
    CONTEXT = ("Kennzeichen", "amtliches Kennzeichen", "Kfz", "Fahrzeug", "Pkw", "PKW", "Lkw", "Kraftfahrzeug",
               "zugelassen", "Motorrad", "Anhänger")
