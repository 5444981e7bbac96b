"""IBANs, written compactly ("DE91100000000123456789") or in groups ("DE91 1000 0000 0123 4567 89").

ISO 13616: two letters for the country, two check digits, then the national account number
(BBAN) whose length the country fixes (Germany: 18 digits, 22 characters in all). The check
digits make ``int(rearranged) % 97 == 1`` (mod-97, ISO 7064), so a typo or an arbitrary number
that merely looks like an IBAN is rejected. Example (fictitious, valid checksum):
``DE91 1000 0000 0123 4567 89``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .base import Pattern, Recognizer

# Total IBAN length per country (SWIFT IBAN registry), for the countries rulings mention.
IBAN_LENGTHS = {
    "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "EE": 20,
    "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GR": 27, "HR": 21, "HU": 28, "IE": 22, "IT": 27,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MT": 31, "NL": 18, "NO": 15, "PL": 28,
    "PT": 25, "RO": 24, "SE": 24, "SI": 19, "SK": 24, "TR": 26,
}


def iban_checksum_ok(iban: str) -> bool:
    """Mod-97 check of ISO 7064 on an IBAN without spaces."""
    rearranged = iban[4:] + iban[:4]
    digits = "".join(str(int(c, 36)) for c in rearranged)
    return int(digits) % 97 == 1


class IbanRecognizer(Recognizer):
    name = "iban"
    entity_type = "IBAN"
    PATTERNS = (
        # Country code and check digits; the BBAN is taken character by character below, in
        # groups separated by single spaces, until the country's length is reached.
        Pattern("iban", r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?=\ ?[A-Z0-9])", 0.5),
    )
    CONTEXT = ("IBAN", "Konto", "Bankverbindung", "Überweisung", "überwiesen")

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        pattern, regex = self._compiled[0]
        for match in regex.finditer(text):
            length = IBAN_LENGTHS.get(match.group()[:2])
            if length is None:
                continue
            end = _take_alnum(text, match.start(), length)
            if end is not None:
                yield pattern, match.start(), end

    def validate_result(self, reference: str) -> bool:
        return iban_checksum_ok(re.sub(r"\s", "", reference))


def _take_alnum(text: str, start: int, count: int) -> int | None:
    """End offset after ``count`` letters/digits from ``start``, allowing single spaces between
    them; ``None`` when the run is shorter or goes on (then it is not this IBAN)."""
    pos, taken = start, 0
    while taken < count:
        if pos < len(text) and text[pos] == " " and taken > 0:
            pos += 1
        if pos >= len(text) or not (text[pos].isdigit() or "A" <= text[pos] <= "Z"):
            return None
        pos += 1
        taken += 1
    if pos < len(text) and text[pos].isalnum():
        return None
    return pos
