"""The seat of an authority: "Landratsamt Rosenheim", "die Staatsanwaltschaft Traunstein",
"Polizeiinspektion Bad Aibling", "des Finanzamts Neumarkt am Wallersee".

A state court anonymizes the seat of an authority that would locate a party ("Landratsamt K.",
"die Staatsanwaltschaft R.", "Polizeiinspektion T."): the district office, the police station and
the prosecutor of a party's town name the town. It prints the seat of a court ("Amtsgericht
Rosenheim"), which is never matched. The authorities are those the sensitivity model's ``seat``
feature calls so (:func:`rulings_anon.analyzer.seat_words.is_seat_word`, not a court or a
landmark: "-amt", "-behörde", "-staatsanwaltschaft", "-polizei", "-präsidium", "-direktion", ...)
and police stations and job centres ("Polizeiinspektion", "Polizeirevier", "Jobcenter"); an
institution word alone ("die Kammer", "der Senat", "das Amt") is none. The seat is the capitalized
word right after it, its hyphenated parts and an initial's period kept ("Mödling-S."), with
"Bad", "St." or "Sankt" before it and "am Lech", "an der Donau", "in der Oberpfalz", "im Allgäu",
"ob der Tauber", "bei München" after it; not a word the lexicon knows as a common noun and not as a
place ("beim Landratsamt Unterlagen", "Bundespolizei Kontrollen"), an abbreviation, a state or a
country ("Landesregierung Bayern"). In the six LER courts' rulings it takes 37 words, none a
placeholder (34 seats; "Jobcenter Alg II", "Finanzbehörde Zumutbaren", "Krankenkasse
Prämienzahlungen" are none): federal courts print them, so the default policy leaves it off. Only the
seat is the span. A detail a court's policy counts on its own (``[alone] authority_seat``), as the
``state-court`` policy does; not run by default.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from rulings_anon.analyzer.seat_words import is_court_or_landmark, is_seat_word
from rulings_anon.letters import CAPITAL, SMALL

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
# a place's word: capitalized, hyphenated parts ("Garmisch-Partenkirchen", "Mödling-S."), with "Bad",
# "St." or "Sankt" before it
_WORD = rf"(?:(?:Bad|St\.|Sankt){_SPACE}+)?[{CAPITAL}][{SMALL}\w]*(?:-[{CAPITAL}\d][{SMALL}\w]*)*\.?"
# a second word joined by a preposition ("Landsberg am Lech", "Neumarkt in der Oberpfalz")
_JOINED = re.compile(rf"{_SPACE}+(?:am|an{_SPACE}+der|im|in{_SPACE}+der|ob{_SPACE}+der|bei){_SPACE}+(?P<word>{_WORD})")
_PREFIXES = ("Bad ", "St. ", "Sankt ")
# the words an authority's name ends in besides the seat feature's: police stations, job centres
_MORE_AUTHORITIES = ("inspektion", "inspektionen", "revier", "reviers", "station", "jobcenter", "jobcenters")
# an institution word alone names no authority of a place ("die Kammer Folgendes", "das Amt")
_BARE = frozenset({"amt", "amts", "amtes", "behörde", "kammer", "senat", "regierung", "verwaltung", "agentur",
                   "kasse", "polizei", "präsidium", "direktion", "ministerium", "ministeriums", "station",
                   "revier", "reviers", "inspektion", "inspektionen",
                   # "Gesamtes Verkehrsrecht" ends like an office
                   "gesamt", "gesamte", "gesamtes", "gesamten", "gesamter", "gesamtem"})
# a court's panels end like authorities: "der 1. Strafsenat", "die Strafkammer"
_PANELS = ("senat", "senats", "senates", "kammer", "kammern")
# an abbreviation: "LRA", "AdV", "BVerwG" (a capital after the first letter, not after a hyphen)
_ABBREVIATION = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]*[A-ZÄÖÜ]")


@lru_cache(maxsize=4096)
def is_authority(word: str) -> bool:
    """Whether ``word`` names an authority whose seat may follow: the sensitivity model's seat
    words that are no court or landmark, and police stations and job centres; not the bare word."""
    lowered = word.lower()
    if lowered in _BARE or lowered.endswith(_PANELS):
        return False
    if lowered.endswith(_MORE_AUTHORITIES):
        return True
    return is_seat_word(word) and not is_court_or_landmark(word)


@lru_cache(maxsize=16384)
def _no_place(word: str) -> bool:
    """A common noun the lexicon does not know as a place, an abbreviation, a state or a country
    (the government of a state is no party's authority: "Landesregierung Nordrhein-Westfalen"): no
    seat."""
    from rulings_anon.analyzer.exemptions import regions
    from rulings_anon.lexicon import COMMON_NOUN, PLACE_NAME, noun_bits

    core = word.rstrip(".")
    if _ABBREVIATION.match(core) or core in regions():
        return True
    bits = noun_bits(core.split("-")[0])
    return bool(bits & COMMON_NOUN) and not bits & PLACE_NAME


class AuthoritySeatRecognizer(Recognizer):
    name = "authority_seat"
    entity_type = "SEAT"
    PATTERNS = (
        Pattern("after_authority", rf"(?<![\w-])(?P<authority>[{CAPITAL}][\w-]*){_SPACE}+(?P<ref>{_WORD})", 0.85),
    )

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        for pattern, regex in self._compiled:
            at = 0
            while match := regex.search(text, at):
                at = match.end("authority")  # the seat may itself start an authority's name
                if not is_authority(match["authority"]) or not _a_place(match["ref"]):
                    continue
                end = _without_period(text, match.start("ref"), match.end("ref"))
                joined = _JOINED.match(text, end)
                if joined and _a_place(joined["word"]):
                    end = _without_period(text, joined.start("word"), joined.end("word"))
                yield pattern, match.start("ref"), end


def _a_place(word: str) -> bool:
    """Whether a matched word may be a place: after its prefix ("Bad Tölz": "Tölz") no common noun
    the lexicon does not know as a place, no abbreviation."""
    for prefix in _PREFIXES:
        word = word.removeprefix(prefix)
    return not _no_place(word.lstrip())


def _without_period(text: str, start: int, end: int) -> int:
    """``end`` before a sentence's period ("Rosenheim."), after an initial's ("Mödling-S.", "K.")."""
    if text[end - 1] != ".":
        return end
    last = re.split(r"[-\s]", text[start:end - 1])[-1]
    return end if len(last) == 1 else end - 1
