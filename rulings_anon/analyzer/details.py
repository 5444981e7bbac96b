"""Details that identify a party with the rest of a ruling, counted on their own when a court's
policy says so (its ``[alone]`` table): a birth date, a postcode with its town, a land parcel, a
road's number, the house number after a street, the file number of a party's proceeding before an
authority, a person's alias or user name in quotes, the seat of an authority ("Landratsamt K.").

The contextual model judges words; these details are numbers it was never taught to judge, and
whether a court anonymizes them is a convention of the court, not a fact of the text (federal
courts print "der am 16. 5. 1945 geborene Kläger", state courts write "Fl.Nr. ..."). So the
detail recognizers do not feed the model: :func:`with_details` adds their hits to the spans the
model decided, and the engine calls it in one place, so ``score``, ``review`` and the Python API
agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from rulings_anon.document import Span
from rulings_anon.entity_types import DETAIL_NAMES

from .recognizers import hits_by_recognizer

# Details found by a recognizer of the same name; house numbers are found after street spans.
RECOGNIZED = ("birth_date", "postcode", "land_parcel", "road_number", "file_number", "alias", "authority_seat")
STREET_TYPES = frozenset({"street", "STR"})
# A birth word: the birth-date recognizer's patterns need one, and most rulings have none ("geb"
# alone, its own quick test, is in "gegeben").
_TRIGGERS = {"birth_date": re.compile(r"geb\.|geboren|Geburtsdatum|Geburtstag")}
_SPACE = r"[^\S\n]"
# "12", "3a", "3 a", "12-14", "12/14": at most three digits, so a year is no house number; not a
# date, a time or an amount ("12.03.", "12,50", "12:30"); after a comma a number is something
# else ("Kirchstraße, 12 Jahre lang"). A letter is no "u." of a list ("Kirchweg 1 u. 3").
_LETTER = rf"(?:{_SPACE}?[a-z](?!\w|\.{_SPACE}*\d))"
_NUMBER = rf"\d{{1,3}}{_LETTER}?(?:{_SPACE}?[-–/]{_SPACE}?\d{{1,3}}{_LETTER}?)?(?![\w.,:/-]\d|\w)"
HOUSE_NUMBER = re.compile(rf"{_SPACE}{_SPACE}?(?P<number>{_NUMBER})")
# A street span that holds its house number already ("Kirchweg 1" found by the street recognizer).
_ENDS_IN_NUMBER = re.compile(rf"(?<!\S){_NUMBER}$")
# The further numbers of a list after the first ("Kirchweg 1, 3 und 5", "Hauptstraße 12-14 und 16"):
# after a comma or a conjunction, a house number that is not a count, an amount or a date ("1, 12
# Jahre", "1, 300 €", "1, 12. März") nor a floor ("12, 3. OG").
_MONTHS = (r"Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|"
           r"Jan\.|Febr?\.|Apr\.|Aug\.|Sept?\.|Okt\.|Nov\.|Dez\.")
_FLOORS = "Stock|Etage|Geschoss|Obergeschoss|Untergeschoss|OG|EG|UG|DG"
_CONJUNCTION = rf"(?:(?:und|u\.|sowie|oder|bis){_SPACE}+)"
LISTED_HOUSE_NUMBER = re.compile(
    rf"(?:,{_SPACE}+{_CONJUNCTION}?|{_SPACE}+{_CONJUNCTION})(?P<number>{_NUMBER})"
    rf"(?!-|{_SPACE}*(?:[A-ZÄÖÜ€%]|(?:m²?|qm|km|ha)(?!\w))|\.{_SPACE}*(?:{_MONTHS}|{_FLOORS})(?!\w))")


def detail_spans(text: str, spans: Sequence[Span], details: Iterable[str]) -> list[Span]:
    """The hits in ``text`` of the ``details`` named (see :data:`~rulings_anon.entity_types.DETAILS`):
    the recognizers' references, and a house number right after a street among ``spans``."""
    details = set(details)
    unknown = details - set(DETAIL_NAMES)
    if unknown:
        raise ValueError(f"unknown details {sorted(unknown)}; known: {', '.join(DETAIL_NAMES)}")
    found = []
    recognized = {name for name in RECOGNIZED
                  if name in details and (name not in _TRIGGERS or _TRIGGERS[name].search(text))}
    if recognized:
        for hits in hits_by_recognizer(text, recognized).values():
            found.extend(hits)
    if "house_number" in details:
        found.extend(house_numbers(text, spans))
    return found


def house_numbers(text: str, spans: Sequence[Span]) -> list[Span]:
    """The house number right after each street span that does not hold one ("Kirchstraße" flagged,
    "12" after it), and each further number of a list after the first ("Kirchweg 1, 3 und 5": "3"
    and "5", also where the street span holds the "1"), each a span of its own."""
    found: dict[tuple[int, int], Span] = {}
    for span in spans:
        if span.type not in STREET_TYPES:
            continue
        if text[span.start:span.end][-1:].isdigit():
            if not _ENDS_IN_NUMBER.search(text[span.start:span.end]):
                continue
            at = span.end
        else:
            match = HOUSE_NUMBER.match(text, span.end)
            if not match:
                continue
            at = match.end()
            found[match.span("number")] = _house_number(text, match)
        while match := LISTED_HOUSE_NUMBER.match(text, at):
            at = match.end()
            found[match.span("number")] = _house_number(text, match)
    return list(found.values())


def _house_number(text: str, match: re.Match) -> Span:
    start, end = match.span("number")
    return Span(start, end, text[start:end], "HOUSE_NUMBER", 1.0, source="house_number")


def with_details(text: str, spans: Sequence[Span], details: Iterable[str]) -> list[Span]:
    """``spans`` with the ``details`` counted on their own, sorted by start: a hit inside a span
    adds nothing; a hit overlapping or touching spans of a street (its house number) grows them to
    cover it (only the first number of a list: "Kirchweg 1" grows, "3" and "5" are spans of their
    own), and one without a type that an alias grows is an alias ("Lola" flagged, "Lola Blau" in
    quotes after "Künstlernamen"); any other hit is a span of its own, scored 1.0."""
    details = set(details)
    if not details:
        return list(spans)
    kept = sorted(spans, key=lambda s: (s.start, s.end))
    for hit in sorted(detail_spans(text, kept, details), key=lambda s: (s.start, s.end)):
        touching = [s for s in kept if s.start < hit.end and hit.start < s.end
                    or (hit.source == "house_number" and s.type in STREET_TYPES and s.end <= hit.start
                        and not text[s.end:hit.start].strip())]
        if any(s.start <= hit.start and hit.end <= s.end for s in touching):
            continue
        if touching:
            start = min([hit.start] + [s.start for s in touching])
            end = max([hit.end] + [s.end for s in touching])
            widest = max(touching, key=len)
            grown = replace(widest, start=start, end=end, text=text[start:end] if widest.text is not None else None,
                            type=widest.type if widest.type is not None or hit.source != "alias" else hit.type)
            kept = [s for s in kept if s not in touching] + [grown]
        else:
            kept.append(replace(hit, score=1.0))
        kept.sort(key=lambda s: (s.start, s.end))
    return kept
