"""Street names, with or without a house number: "Kirchstraße 12", "Am Lindenweg 3a", "Rosenallee".

A compound ending in a street word (-straße, -weg, -allee, -platz, -gasse, -ring, -damm, -ufer)
is a street; the house number belongs to the reference. Streets are candidates for the
contextual model ("Wilhelmstraße" may name a ministry), not sensitive on their own.
"""

from __future__ import annotations

from .base import Pattern, Recognizer


class StreetRecognizer(Recognizer):
    name = "street"
    entity_type = "STR"
    PATTERNS = (
        Pattern(
            "street_name",
            r"""(?<![\w-])(?:(?:Am|An\ der|Im|In\ der|Zum|Zur|Auf\ der)\s+)?
                [A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ]?[a-zäöüß]+)*
                (?:straße|strasse|str\.|weg|allee|platz|gasse|ring|damm|ufer|chaussee|steig|pfad)
                (?:\s+\d{1,4}\s?[a-z]?(?![\w.,]\d))?(?![\w-])""",
            0.6,
        ),
    )
