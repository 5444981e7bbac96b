"""Postcodes with their town: "86150 Augsburg", "D-86150 Augsburg", "93047 Regensburg-Kumpfmühl",
"85049 Ingolstadt a. d. Donau"; a postcode written "D-86150" is one without a town too.

Five digits followed by a capitalized town are what an address line ends in. Other five-digit
numbers are ruled out by what stands around them: a page, file or margin number before ("S.
12345", "Nr. 12345", "Az. 12345"), a unit or currency after ("12345 Euro", "10000 Einwohner"), or a
thousands separator or decimal digits ("12.345", "12345,50"), or a citation's year before and
margin number after ("BeckRS 2020, 24670 Rn. 11"). The span holds postcode and town,
which together locate a party; the court's own seat in a letterhead is matched too, and whether it
counts is the policy's choice (``[alone]``).
"""

from __future__ import annotations

import re

from rulings_anon.document import Span

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
# A town: capitalized words joined by hyphens, with a qualifier ("a. d. Donau", "am Main", "bei
# München", "i. OB", "(Oberpfalz)").
_WORD = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ]?[a-zäöüß]+)*"
_QUALIFIER = (rf"(?:{_SPACE}(?:a\.{_SPACE}?d\.|a\.|am|an{_SPACE}der|bei|im|in{_SPACE}der|ob{_SPACE}der|i\.)"
              rf"{_SPACE}(?:{_WORD}|[A-Z]{{2}}\b)|{_SPACE}\({_WORD}\))?")
# Words after five digits that make them an amount or a count, not a postcode.
_NOT_TOWNS = ("Euro", "EUR", "DM", "Mark", "Franken", "Dollar", "Einwohner", "Personen", "Menschen", "Fälle",
              "Stück", "Tonnen", "Liter", "Quadratmeter", "Kilometer", "Meter", "Stunden", "Tage", "Jahre",
              "Mitglieder", "Beschäftigte", "Arbeitnehmer", "Versicherte", "Haushalte", "Exemplare", "Seiten",
              "Punkte", "Kilowattstunden", "Fahrzeuge", "Wohnungen", "Anträge", "Verfahren", "Urteile",
              # margin numbers of a citation ("24670 Rn. 11")
              "Rn", "Rz", "Rdnr", "Tz")
_NOT_TOWN = "|".join(_NOT_TOWNS)
# Most rulings hold no five digits in a row: a quick look rules them out before the patterns run.
_FIVE_DIGITS = re.compile(r"\d\d\d\d\d")


class PostcodeRecognizer(Recognizer):
    name = "postcode"
    entity_type = "POSTCODE"
    # A page, file, margin or other number before the digits.
    # A page, file, margin or other number before the digits, or a year and a comma: a citation of a
    # database or journal ("BeckRS 2020, 24670 Rn. 11").
    EXCLUDE_BEFORE = (r"(?:\b(?:S|Nr|Rn|Rdnr|Az|Bl|Art|Abs|Ziff|Tz|Nrn|Gz)\.|§|Seite|Blatt|Nummer|Aktenzeichen|"
                      r"\b(?:19|20)\d\d,)\s*$")
    PATTERNS = (
        Pattern("with_town", rf"(?<![\w.,/-])(?:D-{_SPACE}?)?(?!00)\d{{5}}(?![\w.,/-])"
                             rf"{_SPACE}+(?!(?:{_NOT_TOWN})\b){_WORD}{_QUALIFIER}", 0.85),
        Pattern("country_prefix", rf"(?<![\w.,/-])D-{_SPACE}?(?!00)\d{{5}}(?![\w/-]|[.,]\d)", 0.85),
    )

    def analyze(self, text: str) -> list[Span]:
        return super().analyze(text) if _FIVE_DIGITS.search(text) else []
