"""Names after a salutation, title or role: "Herr Kemper", "Frau Dr. med. Wagenknecht", "Zeugin Franke".

A capitalized word right after "Herr"/"Frau", an academic title or a party role is almost always
a surname; German nouns are capitalized too, so the word after the title must not be a
salutation or title itself ("Frau Dr." goes on to the name). The titles stay outside the span
(thesis 9.2). These hits are candidates for the contextual model, not sensitive on their own:
judges ("Richter Müller") and public officials are named in clear.
"""

from __future__ import annotations

from .base import Pattern, Recognizer

_TITLE = (r"(?:Herrn?|Frau|Dr\.|Prof\.|med\.|jur\.|Dipl\.-\w+\.|Zeugin|Zeuge|Zeugen|Sachverständigen?|"
          r"Sachverständiger|Geschäftsführer(?:in|s)?|Rechtsanwalt|Rechtsanwältin|Rechtsanwalts|"
          r"Betriebsärztin|Betriebsarzt|Ehefrau|Ehemann|Tochter|Sohn|Mutter|Vater|Bruder|Schwester)")
_NOT_A_NAME = (r"(?:Dr|Prof|med|jur|Dipl|Vorsitzende[rn]?|Richter(?:in)?|Rechtsanwalt|Rechtsanwältin|"
               r"Kläger(?:in)?|Beklagte[rn]?|Zeugin|Zeuge)\b")


class PersonTitleRecognizer(Recognizer):
    name = "person_title"
    entity_type = "PER"
    PATTERNS = (
        # One or more titles, then a capitalized name (hyphenated or with a particle allowed).
        Pattern(
            "after_title",
            rf"""(?<![\w-]){_TITLE}(?:\s+{_TITLE})*:?\s+
                 (?P<ref>(?!{_NOT_A_NAME})[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?
                 (?:\s+(?:von|van|de|zu|von\ der|van\ der)\s+[A-ZÄÖÜ][a-zäöüß]+)?)(?![\w-])""",
            0.6,
        ),
    )
