"""Contract, policy, customer and invoice numbers that follow their label.

"Vertragsnummer 738263528", "Darlehensvertrag Nr. 4711-0815", "Versicherungsschein-Nr.: VS
123456789", "Kundennummer K-12345". The label is required: without it such numbers cannot be
told from amounts, years or page numbers.
"""

from __future__ import annotations

from .base import Pattern, Recognizer

_LABEL = r"""(?:Vertrags|Darlehens|Kredit|Versicherungs(?:schein)?|Policen|Kunden|Mitglieds|Rechnungs
               |Auftrags|Bestell|Mandats|Vorgangs)(?:nummer|[-\ ]?Nr\.?)
           |(?:Darlehens|Kredit|Leasing|Miet|Arbeits|Versicherungs)?[Vv]ertrag(?:es|s)?\ Nr\."""


class ContractNumberRecognizer(Recognizer):
    name = "contract_number"
    entity_type = "CONTRACT"
    PATTERNS = (
        # Label, optional colon, then a token with at least three digits (letters, "-", "/", "."
        # allowed inside, e.g. "VS 123456789" or "4711-0815").
        Pattern(
            "labelled",
            rf"(?:{_LABEL})\s*:?\s*(?P<ref>(?:[A-Z]{{1,4}}[\ -]?)?\d[\dA-Z]*(?:[-/.][\dA-Z]+)*)(?![\w-])",
            0.85,
        ),
    )

    def validate_result(self, reference: str) -> bool | None:
        return None if sum(c.isdigit() for c in reference) >= 3 else False
