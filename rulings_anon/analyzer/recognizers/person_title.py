"""Names after a salutation, title or role: "Herr Kemper", "Frau Dr. med. Wagenknecht", "Zeugin Franke".

A capitalized word right after "Herr"/"Frau", an academic title or a party role is almost always
a surname; German nouns are capitalized too, so the word after the title must not be a
salutation or title itself ("Frau Dr." goes on to the name), a role or a function word ("Die").
The salutations, academic titles and function words are those of ``rulings_anon/data/name_affixes.json``. The titles stay outside the span
(thesis 9.2). These hits are candidates for the contextual model, not sensitive on their own:
judges ("Richter Müller") and public officials are named in clear.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from rulings_anon.analyzer.common_words import common_words as dev_common_words
from rulings_anon.analyzer.exemptions import (
    capitalized,
    cited_author,
    in_signature_run,
    public_office,
    role_before,
    title_piece,
)
from rulings_anon.data import path as data_path
from rulings_anon.document import Span
from rulings_anon.jsonl import read_json
from rulings_anon.letters import CAPITAL, SMALL
from rulings_anon.lexicon import common_noun
from rulings_anon.references import DIPLOMA

from .base import Pattern, Recognizer

_AFFIXES = read_json(data_path("name_affixes.json"))


def _words(words) -> str:
    """A regex alternation of ``words``, longest first; a space inside matches any whitespace."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(set(words), key=len, reverse=True))


# Salutations and academic titles come from rulings_anon/data/name_affixes.json ("Dipl.-" takes any degree);
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


# One capitalized name of any Latin alphabet ("Kovačič", "Yıldırım"), maybe hyphenated
# ("Harsdorf-Gebhardt"), and the particles inside a name.
_ONE_NAME = rf"(?!{_NOT_A_NAME})[{CAPITAL}][{SMALL}]+(?:-[{CAPITAL}][{SMALL}]+)?"
_PARTICLE = r"(?:von|van|de|zu|von\ der|van\ der)"
_NAME = rf"""(?P<ref>{_ONE_NAME}
                 (?:\s+{_PARTICLE}\s+[{CAPITAL}][{SMALL}]+)?)(?![\w-])"""


# A name particle and the word after it at the end of a hit ("Christen zu Unrecht").
_PARTICLE_TAIL = re.compile(rf"\s+{_PARTICLE}\s+(\S+)$")


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

    def analyze(self, text: str) -> list[Span]:
        return [_without_phrase_tail(span) for span in super().analyze(text)]


def _without_phrase_tail(span: Span) -> Span:
    """``span`` without a particle before a common word: "Frau Christen zu Unrecht" names
    "Christen", "zu Unrecht" is a phrase, while "Herrn Müller von Arnim" keeps its particle."""
    tail = _PARTICLE_TAIL.search(span.text or "")
    if tail is None or tail.group(1) not in dev_common_words():
        return span
    return replace(span, end=span.start + tail.start(), text=span.text[:tail.start()])


# An academic title, also as the rulings print it with spaces ("Dipl. - Psych.").
_ACADEMIC = rf"(?:{_words(_AFFIXES['academic_titles'])}|{DIPLOMA})"
# Before a judge's name: the judges' roles of rulings_anon/data/name_affixes.json and their abbreviations
# ("RiBGH", "VRinBSG"); public offices (presidents, who are judges too, ministers, mayors) are
# :func:`rulings_anon.analyzer.exemptions.public_office`.
_JUDGE_ROLE = re.compile(rf"^(?:{_words(_AFFIXES['judge_roles'])}|V?Rin?[A-ZÄÖÜ][A-Za-zÄÖÜäöü]+)$")
# Words that link a judge's role to the names: connectors, and the court ("Richter am BGH").
_JUDGE_LINKS = frozenset({"und", "sowie", ",", "am", "an", "beim", "des", "der", "dem"})
# How far back a judge's role may stand before the name.
_MAX_JUDGE_WALK = 40


def _after_judge_role(text: str, start: int) -> bool:
    """Whether a judge's role or public office precedes ``start`` with only titles, names,
    connectors and any court between: "die Richter am Bundesgerichtshof Cierniak, Bender und Dr.
    Feilcke", "RiBGH Dr. Tiemann", "den Richter Dipl. - Geophys. Dr. Wollny", "die Richterin am
    LSG Dr. W.". Broader than :func:`rulings_anon.analyzer.exemptions.after_judge_role`, which keeps a lower
    court's judge for the NER to judge: here such a name only stays a candidate. A sentence ends
    the search."""
    def is_role(bare: str) -> bool:
        return bool(_JUDGE_ROLE.match(bare)) or public_office(bare)

    def between(word: str, bare: str, after: str) -> bool:
        return word in _JUDGE_LINKS or bare in _JUDGE_LINKS or title_piece(word) or capitalized(bare)

    return role_before(text, start, 600, _MAX_JUDGE_WALK, is_role, between)


class TitledNameRecognizer(PersonTitleRecognizer):
    """A name after an academic title, unless a judge's: "Dr. Wenzl", "Prof. Dr. Dallinger".

    Sensitive on its own. Courts name their judges in clear, and most titled names in rulings are
    judges; apart from them, titled people are doctors, experts and parties, whom courts anonymize
    (docs/experiments.md, "Deciding what `score` flags"). A judge or official is told by the role or office before the name
    (:func:`_after_judge_role`) or by the signatures' run of names
    (:func:`rulings_anon.analyzer.exemptions.in_signature_run`); a cited author ("Dr. Külpmann, in: ...") is no
    hit either. Such a name stays a candidate of :class:`PersonTitleRecognizer`, for the NER or the
    contextual model to judge.
    """

    name = "titled_name"
    PATTERNS = (
        Pattern(
            "after_academic_title",
            rf"""(?<![\w-]){_ACADEMIC}(?:\s+{_ACADEMIC})*\s+{_NAME}""",
            0.7,
        ),
    )

    def analyze(self, text: str) -> list[Span]:
        return [s for s in super().analyze(text)
                if not _after_judge_role(text, s.start) and not in_signature_run(text, s.start, s.end)
                and not cited_author(text, s.end)]


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


# The parties and witnesses of a criminal case, whose names courts anonymize (docs/experiments.md,
# "Deciding what `score` flags").
_CRIMINAL_PARTY = (r"(?:Mit)?[Aa]ngeklagte[nr]?|Nebenkläger(?:in|innen|s)?|Zeug(?:e|en|in|innen)|"
                   r"Geschädigte[nr]?|Beschuldigte[nr]?|Verurteilte[nr]?|gesondert\s+[Vv]erfolgte[nr]?")


# A name of one or two words ("Theophil Deutschmann"); a common word after it is cut off later.
_GIVEN_AND_SURNAME = rf"(?P<ref>{_ONE_NAME}(?:\s+{_ONE_NAME})?)(?![\w-])"
# The next name of a list after a plural role: "die Mitangeklagten Heim und Merlin Nowak", "der
# Angeklagten Krammer, Obermüller, Jank und Pinter".
_LIST_NEXT = re.compile(rf"(?P<link>\s*,\s*|\s+(?:und|sowie)\s+){_GIVEN_AND_SURNAME}")


class PartyNameRecognizer(PersonTitleRecognizer):
    """A name after a criminal case's party role: "des Angeklagten Theophil Deutschmann", "der
    Zeugin Grünberger", "die Mitangeklagten Heim und ...", "der Nebenklägerin Kim Thaler".

    Sensitive on its own: in the six LER courts' rulings a capitalized word after these roles that
    is no common word is a placeholder 271 times of 279 (the rest are nouns: "Osteuropäer"), while
    only one of the five dev courts (BGH) decides criminal cases, so a NER trained without it
    scores these names low (BGH left out: 173 of 217 missed elements were persons). Not the roles
    of civil cases ("Kläger", "Beklagte"), which precede nouns as often as names. A common word of
    the dev rulings after the role is no hit ("des Zeugen Polizeibeamten"), nor ends one ("der
    Zeuge Müller Angaben" -> "Müller").
    """

    name = "party_name"
    PATTERNS = (
        Pattern(
            "after_party_role",
            rf"""(?<![\w-])(?:{_CRIMINAL_PARTY})\s+{_GIVEN_AND_SURNAME}""",
            0.75,
        ),
    )

    def analyze(self, text: str) -> list[Span]:
        hits = []
        for span in super().analyze(text):
            while span is not None:
                words = span.text.split()
                if words[0] in dev_common_words():
                    break
                whole = span
                if len(words) > 1 and words[-1] in dev_common_words() and words[0] not in _first_names():
                    span = replace(span, end=span.start + len(words[0]), text=words[0])  # "Müller Angaben"
                hits.append(span)
                span = _next_in_list(text, whole)
        return hits


class DescribedPersonRecognizer(PartyNameRecognizer):
    """A name after "geborene" or "verstorbene": "die 1940 geborene Grundner", "der im Mai 2009
    verstorbene Levin Angerer". A person the court describes by birth or death is a private one.

    Sensitive on its own: on the five dev courts every such word that is no common noun is a
    placeholder (4 of 4: "geborenen R.", "verstorbenen S."); the rest are nouns ("geborene
    Kläger", "verstorbene Ehemann", "geborene Zwillingstochter"), which the dev rulings' common
    words and the German noun lexicon rule out (a common noun or a compound of one, and no name).
    """

    name = "described_person"
    PATTERNS = (
        Pattern("after_birth_or_death", rf"(?<![\w-])(?:geboren|verstorben)e[nr]?\s+{_GIVEN_AND_SURNAME}", 0.75),
    )

    def analyze(self, text: str) -> list[Span]:
        return [span for span in super().analyze(text) if not common_noun(span.text.split()[0])]


@lru_cache(maxsize=1)
def _first_names() -> frozenset[str]:
    """German given names (faker's de_DE list): after one, a common word is a surname ("Kevin
    Sommer", "Petra Winter"), not the sentence going on ("Müller Angaben")."""
    from rulings_anon.faker_names import shipped_lists

    return shipped_lists()["first_names"]


def _next_in_list(text: str, span: Span) -> Span | None:
    """The name after ``span`` in a list of names (", " or "und"/"sowie" between), None at its end:
    "und" closes a list."""
    if text[max(0, span.start - 7):span.start].rstrip().endswith((" und", " sowie")):
        return None
    match = _LIST_NEXT.match(text, span.end)
    if match is None:
        return None
    return replace(span, start=match.start("ref"), end=match.end("ref"), text=match.group("ref"))

