"""Land-parcel numbers: "Flurstück 123/4", "Flurstücke 12/3 und 12/5", "Fl.Nr. 123/4", "FlNr. 56",
"Flst. 78/2", "Fl.-Nr. 910", "123/4 der Gemarkung Pullach", "die Grundstücke 123/4 und 125"; and
the sheet of the land register a property is entered on: "Grundbuch von Pullach Blatt 1234".

A parcel number identifies a plot in the land register and so its owner; so does the sheet. Only numbers after a
parcel word, or right before "der Gemarkung" and a name, are matched ("§ 123 Abs. 4", "BGBl. I S.
123", "Nr. 12/2020" never are); each number of a list ("Flurstücke 12/3, 12/4 und 15", "Fl.Nrn.
12, 13 der Gemarkung A und 14 der Gemarkung B", "die Grundstücke 123/4 und 125 der Gemarkung
Pullach") is a span of its own, the word stays in clear, as the courts write it ("Fl.Nr. ...").
A number followed by a count or an amount ("12 Jahre", "125 m²") ends a list; before "der
Gemarkung", a first number after a citation word ("§", "Art.", "Az.", "Nr." but in "Grundstück
Nr."), a year word, a "Flur", "Blatt" or "Band" is none. After "Grundstück" itself a number is a
parcel only when no count or amount follows it ("das Grundstück 500 m² groß", "Grundstücke 3
Jahre"); "Blatt" is a sheet only after "Grundbuch" in the same sentence ("Blatt 13 der Akte" is a page).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
_PARCEL_WORD = (r"(?<![\w-])(?:Flurstücks?nummern?|Flurstück(?:e|s|en)?|Flurnummern?|Flurst\.|Flst\.|"
                r"Fl\.?-?\ ?Nrn?\.|FlNrn?\.|Flurnr\.|Flur-Nr\.|Grundstücks-?Nr\.)")
# A parcel word abbreviated with periods inside, one element of the text ("Fl.Nr.", "Flst."): no
# name, whatever its shape (the sensitivity features read it as an abbreviation)
PARCEL_ABBREVIATION = re.compile(r"^(?:Fl\.?-?Nrn?\.|FlNrn?\.|Flurst\.|Flst\.|Flurnr\.|Flur-Nr\.|Grundstücks-?Nr\.)$")
_NUMBER = r"\d{1,5}(?:/\d{1,4})?(?![\w/]|[.,]\d)"
# A district after a number ("der Gemarkung Pullach", ", Gemarkung Pullach,", "(Gmkg. Pullach)").
_DISTRICT_WORD = r"(?:Gemarkung|Gmkg\.|Gem\.)"
_DISTRICT = rf"(?:(?:{_SPACE}+der|,)?{_SPACE}*\(?{_DISTRICT_WORD}{_SPACE}+[A-ZÄÖÜ][\w-]*\.?\)?,?)"
# A further number of a list: not a count or an amount ("und 12 Jahre", "und 125 m²").
_NEXT = rf"{_NUMBER}(?!{_SPACE}*(?!{_DISTRICT_WORD})(?:[A-ZÄÖÜ€%]|(?:m²|qm|ha|km|m)(?!\w)))"
_NOT_COUNTED = rf"(?={_NEXT})"
_LIST = (rf"{_NUMBER}{_DISTRICT}?(?:{_SPACE}*(?:,|und|u\.|bis|sowie|oder){_SPACE}*"
         rf"(?:(?:Fl\.?\ ?Nrn?\.|Flst\.){_SPACE}*)?{_NEXT}{_DISTRICT}?)*")
_NUMBER_RE = re.compile(_NUMBER)
# "das Grundstück 123/4", "die Grundstücke 02, 03 und 04": the plot word alone, its first number no
# year ("des Grundstücks 2019 erworben"), count or amount either
_PLOT_WORD = r"(?<![\w-])Grundstück(?:e|s|en)?"
# "Grundbuch von Pullach Blatt 1234", "Grundbuch des Amtsgerichts München von A., Band 12, Blatt
# 345": the sheet's number after the register, in the same sentence (the period of an initial
# ends none)
_SHEET = (rf"(?<![\w-])Grundbuch(?:s|es)?(?![\w-])(?:[^\n;.]|(?<![\w.])[A-ZÄÖÜ]\.|\.(?!\s+[A-ZÄÖÜ])){{0,80}}?"
          rf"(?<![\w-])Blatt{_SPACE}*(?:Nr\.{_SPACE}*)?(?P<ref>\d{{1,6}})(?![\w/]|[.,]\d)")
# What makes the first number before "der Gemarkung" something else: a citation, a year, a "Flur",
# a sheet of the land register ("Blatt 1234 der Gemarkung"), a number ("Nr. 12") unless the plot's
# ("Grundstück Nr.").
_NOT_A_PARCEL_BEFORE = re.compile(
    rf"(?:§|Art\.|Abs\.|S\.|Rn\.|Rdnr\.|Az\.|Aktenzeichen|BGBl\.(?:{_SPACE}*I+)?|Jahr(?:e|es|en)?|Flur|Blatt|Band|Bd\.|"
    rf"(?<!Grundstück{_SPACE})(?<!Grundstücks{_SPACE})(?<!Grundstücke{_SPACE})Nrn?\.){_SPACE}*$")


# A list that ends right before "der Gemarkung" is looked for in this many characters before it:
# searched from the district backwards, not from every number forwards, which is quadratic in a
# long list of numbers without a district.
_LOOK_BACK = 200
_LIST_BEFORE = re.compile(rf"(?<![\w./,-]){_LIST}$")


class LandParcelRecognizer(Recognizer):
    name = "land_parcel"
    entity_type = "LAND_PARCEL"
    REQUIRES = ("Fl", "Grundstück", "Gemarkung", "Grundbuch")
    PATTERNS = (
        Pattern("after_parcel_word",
                rf"{_PARCEL_WORD}{_SPACE}*(?:Nrn?\.{_SPACE}*)?:?{_SPACE}*(?P<ref>{_LIST})", 0.9),
        # "die Grundstücke 123/4 und 125 der Gemarkung Pullach": the district; the list before it
        # is found in :meth:`candidates`
        Pattern("before_district", rf"{_SPACE}+der{_SPACE}+Gemarkung{_SPACE}+[A-ZÄÖÜ]", 0.85),
        Pattern("after_plot_word", rf"{_PLOT_WORD}{_SPACE}+(?P<ref>(?!(?:19|20)\d\d(?!/)){_NOT_COUNTED}{_LIST})", 0.85),
        Pattern("land_register_sheet", _SHEET, 0.85),
    )

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        """Each number of a parcel list on its own, once."""
        seen = set()
        for pattern, regex in self._compiled:
            for match in regex.finditer(text):
                if pattern.name == "before_district":
                    listed = _LIST_BEFORE.search(text, max(0, match.start() - _LOOK_BACK), match.start())
                    if not listed:
                        continue
                    start, end = listed.span()
                    numbers = list(_NUMBER_RE.finditer(text, start, end))
                    if _NOT_A_PARCEL_BEFORE.search(text, max(0, start - 30), start):
                        numbers = numbers[1:]  # "§ 12 und 123/4 der Gemarkung X": the rest may be parcels
                else:
                    numbers = _NUMBER_RE.finditer(text, *match.span("ref"))
                for number in numbers:
                    if number.span() not in seen:
                        seen.add(number.span())
                        yield pattern, number.start(), number.end()
