"""Names after a salutation, title or role: "Herr Kemper", "Frau Dr. med. Wagenknecht", "Zeugin Franke".

A capitalized word right after "Herr"/"Frau", an academic title or a party role is almost always
a surname; German nouns are capitalized too, so the word after the title must not be a
salutation or title itself ("Frau Dr." goes on to the name), a role or a function word ("Die").
The salutations, academic titles and function words are those of ``data/name_affixes.json``. The titles stay outside the span
(thesis 9.2). These hits are candidates for the contextual model, not sensitive on their own:
judges ("Richter Müller") and public officials are named in clear.
"""

from __future__ import annotations

import re

from data import path as data_path
from rulings_anon.jsonl import read_json

from .base import Pattern, Recognizer

_AFFIXES = read_json(data_path("name_affixes.json"))


def _words(words) -> str:
    """A regex alternation of ``words``, longest first; a space inside matches any whitespace."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(set(words), key=len, reverse=True))


# Salutations and academic titles come from data/name_affixes.json ("Dipl.-" takes any degree);
# the party roles and relatives are this recognizer's own.
_TITLE = (rf"(?:{_words(_AFFIXES['salutations'] + _AFFIXES['academic_titles'])}|Dipl\.-\w+\.|"
          r"Zeugin|Zeuge|Zeugen|Sachverständigen?|"
          r"Sachverständiger|Geschäftsführer(?:in|s)?|Rechtsanwalt|Rechtsanwältin|Rechtsanwalts|"
          r"Betriebsärztin|Betriebsarzt|Ehefrau|Ehemann|Tochter|Sohn|Mutter|Vater|Bruder|Schwester)")
# Capitalized words that are no name: a title's first word ("Dr" of "Dr."), a judge's or party's
# role, a function word ("Die").
_TITLE_WORDS = {re.split(r"[.\s-]", w)[0] for w in _AFFIXES["salutations"] + _AFFIXES["academic_titles"]}
_NOT_A_NAME = (rf"(?:{_words(_TITLE_WORDS | set(_AFFIXES['not_name_words']))}|Vorsitzende[rn]?|Richter(?:in)?|"
               r"Rechtsanwalt|Rechtsanwältin|Kläger(?:in)?|Beklagte[rn]?|Zeugin|Zeuge)(?!\w)")


_NAME = rf"""(?P<ref>(?!{_NOT_A_NAME})[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?
                 (?:\s+(?:von|van|de|zu|von\ der|van\ der)\s+[A-ZÄÖÜ][a-zäöüß]+)?)(?![\w-])"""


class PersonTitleRecognizer(Recognizer):
    name = "person_title"
    entity_type = "PER"
    PATTERNS = (
        # One or more titles, then a capitalized name (hyphenated or with a particle allowed).
        Pattern(
            "after_title",
            rf"""(?<![\w-]){_TITLE}(?:\s+{_TITLE})*:?\s+{_NAME}""",
            0.6,
        ),
    )


class SalutationNameRecognizer(PersonTitleRecognizer):
    """A name after "Herr"/"Frau" (and any titles): "Herrn Wilmsen", "Frau Dr. Lange".

    Sensitive on its own: on the dev rulings the NER did not train on every such name was one the
    court had anonymized (44 of 44), and 31 of 32 on a court the NER never saw (BPatG). It scores
    above :class:`PersonTitleRecognizer`, so the overlapping hit of both is this one.
    """

    name = "salutation_name"
    PATTERNS = (
        Pattern(
            "after_salutation",
            rf"""(?<![\w-])(?:{_words(_AFFIXES['salutations'])})(?:\s+{_TITLE})*\s+{_NAME}""",
            0.8,
        ),
    )
