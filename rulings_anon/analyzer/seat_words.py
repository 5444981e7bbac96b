"""The words of courts, authorities and landmarks whose seat follows them ("Amtsgericht Rosenheim",
"Landratsamt Rosenheim", "Fliegerhorst Büchel"), defined once: the sensitivity model's ``seat``
feature reads them (courts print a court's seat in clear), and so does the ``authority_seat``
detail of a state court's policy (which anonymizes an authority's).
"""

from __future__ import annotations

from functools import lru_cache

# a public body before a place name it carries ("des Landgerichts Memmingen", "Justizvollzugsanstalt
# Offenburg", "Staatsanwaltschaft Aurich"): courts print their seats and authorities in clear; not an
# office ("Dienststelle"), which is also a soldier's or an official's workplace
INSTITUTION_ENDINGS = ("gericht", "gerichts", "gerichtshof", "gerichtshofs", "gerichten", "anstalt", "anstalten",
                       "staatsanwaltschaft", "behörde", "amt", "amts", "amtes", "kammer", "ministerium",
                       "ministeriums", "regierung", "verwaltung", "agentur", "kasse", "polizei", "präsidium",
                       "direktion", "senat", "landkreis", "kreis", "stadt", "gemeinde", "bezirk", "bezirks")
# the institutions among them whose seat is printed in clear: courts and authorities, not the
# districts and towns ("Landkreis Sch.": the five dev courts anonymized 43 of 50 places after those)
# and landmarks named after their place ("Fliegerhorst Büchel", "Kernkraftwerks Krümmel", "Flughafen
# Frankfurt", "Stadtwerken Bielefeld"): none of the 31 such words in the six LER courts' rulings is a
# placeholder. Not a university or a college: courts anonymize the name in it as in a clinic's
# ("Universität G", "Universität M…", "Hochschule H." beside 11 places in clear;
# benchmarks/count_institution_names.py)
_LANDMARK_ENDINGS = ("kraftwerk", "kraftwerks", "kraftwerkes", "fliegerhorst", "fliegerhorsts", "fliegerhorstes",
                     "flughafen", "flughafens", "stadtwerke", "stadtwerken")
_SEAT_ENDINGS = tuple(e for e in INSTITUTION_ENDINGS
                      if e not in ("landkreis", "kreis", "stadt", "gemeinde", "bezirk", "bezirks")) + _LANDMARK_ENDINGS
# the institutions of _SEAT_ENDINGS that are courts or landmarks, not authorities: a state court
# prints a court's seat and anonymizes an authority's that would locate a party ("Landratsamt K.")
_COURT_OR_LANDMARK_ENDINGS = ("gericht", "gerichts", "gerichtshof", "gerichtshofs", "gerichten", "anstalt",
                              "anstalten") + _LANDMARK_ENDINGS
# a bank whose name ends in "kasse" is a company, not an authority ("Sparkasse U" beside "Sparkasse Dieburg")
_NOT_SEAT_ENDINGS = ("sparkasse", "sparkassen")


@lru_cache(maxsize=65536)
def is_seat_word(word: str) -> bool:
    """A court or an authority whose seat follows it ("Sozialgericht", "LSG", "Staatsanwaltschaft"), or a landmark
    named after its place ("Fliegerhorst", "Kernkraftwerks"); not a savings bank ("Sparkasse")."""
    from rulings_anon.analyzer.exemptions import is_court_designation

    lowered = word.lower()
    return lowered.endswith(_SEAT_ENDINGS) and not lowered.endswith(_NOT_SEAT_ENDINGS) or is_court_designation(word)


@lru_cache(maxsize=4096)
def is_court_or_landmark(word: str) -> bool:
    """Whether ``word``, before a seat, is a court or a landmark ("Amtsgericht", "LSG",
    "Justizvollzugsanstalt", "Fliegerhorst"), not an authority ("Staatsanwaltschaft", "Landratsamt")."""
    from rulings_anon.analyzer.exemptions import is_court_designation

    return is_court_designation(word) or word.lower().endswith(_COURT_OR_LANDMARK_ENDINGS)
