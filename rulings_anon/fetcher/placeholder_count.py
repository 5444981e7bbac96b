"""Keep only rulings anonymized with placeholders (the assumptions of thesis 5.2).

Training learns from the placeholders the courts left behind; a ruling without any either was
not anonymized (nothing sensitive in it, or published in clear) or uses a style the detector
does not know. Either way it teaches the models that nothing is sensitive, so it is dropped,
and ``fetch`` says how many it dropped.
"""

from __future__ import annotations


class PlaceholderCounter:
    """Counts the placeholders of a text with the rule-based detector (loaded on first use)."""

    def __init__(self):
        self._detector = None

    def __call__(self, text: str) -> int:
        if self._detector is None:
            # Imported here: the detector compiles its patterns, which `fetch --help` never needs.
            from rulings_anon.placeholders.detector import PlaceholderDetector

            self._detector = PlaceholderDetector()
        return len(self._detector.detect(text))
