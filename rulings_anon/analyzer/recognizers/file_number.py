"""File numbers of the parties' proceedings before an authority: "das Landratsamt (Az.: 34-2011/56)",
"Ermittlungsverfahren der Staatsanwaltschaft, Az. 12 Js 345/19", "Bescheid vom 3.4.2019, Gz. 2.1-1234".

A ruling's own file number and those of the decisions it cites are public; the numbers under
which an authority, a prosecutor or the police handle a party's matter are not, and state courts
replace them ("Az.: ..."). So a number after a file-number label ("Az.", "Aktenzeichen", "Gz.",
"Geschäftszeichen") is matched only where an authority or a proceeding of a party is named in the
same sentence before it ("Landratsamt", "Staatsanwaltschaft", "Bescheid", "Ermittlungsverfahren")
and no court or court decision stands between them ("Beschluss des Verwaltungsgerichts ... Az.").
The label stays outside the span.
"""

from __future__ import annotations

import re

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
# One part of a file number: digits with separators ("12/19", "34-2011", "2.1-1234") or a register's
# letters before more digits ("K", "Js", "AZR", "M").
_PART = rf"(?:\d[\d./-]*\d|\d|[A-ZÄÖÜ][A-Za-zÄÖÜäöü]{{0,3}}(?={_SPACE}?\d))"
_REFERENCE = rf"(?=[\w]*\d|[A-Za-z]+{_SPACE}?\d)(?:{_PART})(?:{_SPACE}?{_PART}){{0,5}}(?![\w/-]|\.\d)"
_LABEL = r"(?<![\w-])(?:Az\.|AZ\.?|Aktenzeichen|Gz\.|GZ\.?|Geschäftszeichen|Gesch\.-Z\.|Geschäfts-Nr\.|Vorgangs-Nr\.)"
# An authority or a proceeding of a party before the label.
_AUTHORITY = re.compile(
    r"(?<![\w-])(?:(?:General)?[Ss]taatsanwaltschaft|Landratsamt|Landratsamts|Landratsamtes|Polizei\w*|"
    r"Kriminalpolizei\w*|Finanzamt\w*|Jobcenter\w*|Ausländerbehörde|\w*behörde|Bezirksregierung|Regierung|"
    r"Agentur\ für\ Arbeit|Familienkasse|Krankenkasse|Rentenversicherung|Berufsgenossenschaft|"
    r"Versorgungsamt\w*|Stadt|Gemeinde|Bescheid\w*|Ermittlungsverfahren\w*|Strafverfahren\w*|"
    r"Bußgeldverfahren\w*|Bußgeldbescheid\w*|Anzeige|Strafanzeige)(?![\w-])")
# A court or a court decision between the authority and the label: the number is a court's.
_COURT = re.compile(r"(?:[Gg]ericht|\b(?:BVerwG|BVerfG|BGH|BFH|BSG|BAG|BPatG|OLG|OVG|VGH|LSG|LAG|LG|AG|VG|FG|SG|"
                    r"EuGH|EGMR)\b|\b(?:Urteil|Beschluss|Gerichtsbescheid)\w*)")
# How far before the label an authority is looked for; a sentence end cuts it.
_WINDOW = 150
_SENTENCE_END = re.compile(r"(?<![\d\s][.])(?<!\b[A-ZÄÖÜ][.])(?<=[.!?])\s+[A-ZÄÖÜ]|\n")
_LABEL_BEFORE = re.compile(rf"{_LABEL}{_SPACE}*:?{_SPACE}*$")


class FileNumberRecognizer(Recognizer):
    name = "file_number"
    entity_type = "FILE_NUMBER"
    REQUIRES = ("Az", "AZ", "Gz", "GZ", "zeichen", "-Z.", "-Nr.")
    PATTERNS = (
        Pattern("after_label", rf"{_LABEL}{_SPACE}*:?{_SPACE}*(?P<ref>{_REFERENCE})", 0.8, needs_context=True),
    )

    def has_context(self, text: str, start: int) -> bool:
        """An authority named before the label in the same sentence, and no court after it."""
        label = _LABEL_BEFORE.search(text, max(0, start - 40), start)
        start = label.start() if label else start
        window_start = max(0, start - _WINDOW)
        ends = list(_SENTENCE_END.finditer(text, window_start, start))
        if ends:
            window_start = ends[-1].start() + 1
        window = text[window_start:start]
        authorities = list(_AUTHORITY.finditer(window))
        return bool(authorities) and not _COURT.search(window, authorities[-1].end())
