"""Words no dictionary calls a common noun: "Auinger", "Thaller", "Uzwil" — candidates only.

The thesis's combination was limited by a NER that proposed 80 % of the references (6.2.2):
whatever the NER does not propose, the contextual model never judges. Courts that anonymize with
a bare letter ("E hat ... erklärt", "die A") leave names that stand without a title, salutation
or legal form once pseudonymized ("Auinger lehnte ab"), and a NER that never saw such a court
scores them as ordinary words. German capitalizes every noun, so capitalization alone says
little; the German noun lexicon (``rulings_anon/data/lexicon/de-nouns.tsv.gz``) does: a capitalized word it
does not list as a common noun, nor as a compound ending in one, is an unknown word or a listed
name or place, and so a candidate. Words frequent outside the LER entities
(:func:`rulings_anon.analyzer.common_words.common_words`) are left out. A hit is never sensitive on its
own (``standalone`` false in ``rulings_anon/data/recognizers.json``): the contextual model judges it, and
``score`` looks for these words only where a contextual model judges candidates. Its hits carry
``references.UNKNOWN_TYPE`` (so they grow to a name or a place reference); the candidates made of
them carry no type, which whoever uses a span infers from its context ("in Uzwil" a place).
"""

from __future__ import annotations

from rulings_anon.analyzer.common_words import common_words
from rulings_anon.letters import CAPITAL, SMALL
from rulings_anon.lexicon import COMMON_NOUN, COMPOUND, noun_bits
from rulings_anon.references import UNKNOWN_TYPE

from .base import Pattern, Recognizer


class UnknownWordRecognizer(Recognizer):
    name = "unknown_word"
    entity_type = UNKNOWN_TYPE
    PATTERNS = (
        # A capitalized word of three letters or more of any Latin alphabet ("Ploiești"), or two such
        # joined by a hyphen; not part of a longer hyphenated word ("Berlin-Brandenburg" is one word),
        # no abbreviation ("BGH", "Tel.").
        Pattern("capitalized_word", rf"(?<![\w-])(?:[{CAPITAL}][{SMALL}]{{2}}(?![\w.-])"
                                    rf"|[{CAPITAL}][{SMALL}]{{3,}}(?:-[{CAPITAL}][{SMALL}]+)?(?![\w-]))", 0.5),
    )

    def __init__(self):
        super().__init__()
        self._verdicts: dict[str, bool] = {}

    def validate_result(self, reference: str) -> bool | None:
        """Rejects common words and the words the lexicon lists as common nouns (or compounds of
        them); keeps the score of the rest. Verdicts are cached per word."""
        verdict = self._verdicts.get(reference)
        if verdict is None:
            verdict = reference not in common_words() and not (
                noun_bits(reference.rsplit("-", 1)[-1]) & (COMMON_NOUN | COMPOUND)
            )
            if len(self._verdicts) < 500_000:
                self._verdicts[reference] = verdict
        return None if verdict else False
