"""Names a ruling prints in clear because a public register or a published case carries them.

Conventions of German rulings that the training courts teach the sensitivity model poorly, since
only one or two of them write such names at all:

* **Registered marks.** A trademark court discusses the sign, not a person: "die Wortmarke
  Becker", "das Wortzeichen Limmer Kontor", "die Bezeichnung MAM Munich Asset Management". The
  name after a mark noun is what the register prints. Of the 699 capitalized words that stand
  in a sign's name after a mark noun in the six LER courts' rulings (649 of them BPatG's), none is
  a placeholder.
* **Parties of cited European cases.** The case names of the European courts are published with
  the parties' names: "Demir und Baykara v. Türkei", "Gast und Popp ./. Deutschland", "Aranyosi
  und Căldăraru, C-404/15", "- C- 544/11 - [Petersen und Petersen]", "in der Rechtssache
  Webb-Sämann". Of the 362 such words in the six courts' rulings, none is a placeholder.
* **Names of cited decisions.** German courts cite a decision with its catchword after the
  citation's dash: "BGH GRUR 2009, 949 Rn. 45 – My World", "EuGH GRUR 2015, 1198 – Nestlé /
  Cadbury [Kit Kat]" (the same place holds a file number's letters: "BGH 13. Februar 2014 - III
  ZR 311/13"). Of the 7,898 capitalized words there in the six courts' rulings, none is a
  placeholder.

A mark's name is public in all its mentions in the ruling ("„Becker“ ist unterscheidungskräftig"):
of the 1,848 other mentions of words that are a mark's name somewhere in their ruling, none is a
placeholder.

All work on a text's elements (``raw``: the element texts; ``words``: their core words,
:func:`rulings_anon.analyzer.sensitivity.core_word`) and answer per candidate index.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Nouns that name a sign: any word ending in "marke(n)" ("Wortmarke", "Widerspruchsmarke",
# "Unionsmarke") and these. Not "Kennzeichen" (a vehicle's, which courts anonymize), nor
# "Aktenzeichen" or "Merkzeichen".
_MARK_ENDINGS = ("marke", "marken")
_MARK_NOUNS = frozenset({"zeichen", "zeichens", "wortzeichen", "wortzeichens", "bildzeichen", "bezeichnung",
                         "wortkombination", "wortfolge", "slogan", "werktitel"})
# how many capitalized words, digits or quotes a mark's name may run to after its noun
MARK_LENGTH = 5
_QUOTE_OR_DASH = frozenset({"„", "\"", "“", "»", "-", "–", "&", "+"})

# "Demir und Baykara v. Türkei", "Gast und Popp ./. Deutschland"
_VERSUS = frozenset({"v.", "vs.", "./.", "/.", "gg."})
# a case number of the EU's Court of Justice or General Court ("C-404/15", "C - 404/15", "T-1/99")
_EU_NUMBER = re.compile(r"^[CT]-\d+/\d+[,;.)]?$")
_NUMBER = re.compile(r"^\d+/\d+[,;.)]?$")
_PARTY_LINKS = frozenset({"und", "u.", "a.", "&", "sowie"})
# how far a party's name may stand before the "v." or the case number
CASE_REACH = 6

_DASHES = frozenset({"-", "–", "—"})
# what ends a citation before its dash: a page, a margin number, "f."/"ff.", a senate's numeral
_CITATION_END = re.compile(r"^(?:\d[\d.,;]*|f\.|ff\.|[IVX]+,?)$")
# what marks the words before the dash as a citation: a journal's or court's capitals ("GRUR",
# "NJW-RR", "BGH"), a margin number's word, "juris"
_CITATION_WORD = re.compile(r"^(?:[A-ZÄÖÜ][A-Za-zÄÖÜäöü-]{0,7}[A-ZÄÖÜ][A-Za-z-]{0,4}|Rn\.|Rdnr\.|Rdn\.|Tz\.|juris|Nr\.)[,;]?$")
# how far a decision's name may run after the dash, and how far back its citation may start
DECISION_LENGTH = 6
CITATION_REACH = 8
_INITIAL = re.compile(r"^[A-ZÄÖÜ]\.$")


def is_mark_noun(element: str) -> bool:
    """A capitalized noun that names a sign ("Wortmarke", "Zeichen", "Bezeichnung")."""
    word = element.strip("„“\"»«(),:;").lower()
    return element[:1].isupper() and (word.endswith(_MARK_ENDINGS) or word in _MARK_NOUNS)


def in_mark_name(raw: Sequence[str], words: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in a sign's name right after a mark noun: up to
    :data:`MARK_LENGTH` capitalized words, digits or quotes between."""
    for j in range(i - 1, max(-1, i - 1 - MARK_LENGTH), -1):
        if is_mark_noun(raw[j]):
            return True
        if not (words[j][:1].isupper() or words[j][:1].isdigit() or raw[j] in _QUOTE_OR_DASH):
            return False
    return False


def _is_eu_number(raw: Sequence[str], j: int) -> bool:
    return bool(_EU_NUMBER.match(raw[j])) or (
        raw[j] in ("C", "T") and j + 2 < len(raw) and raw[j + 1] == "-" and bool(_NUMBER.match(raw[j + 2])))


def _after_eu_number(raw: Sequence[str], words: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in the bracketed case name after an EU case number ("- C-
    544/11 - [Petersen und Petersen]")."""
    j = i
    while j >= 0 and j > i - CASE_REACH and not raw[j].startswith(("[", "(")):
        if j < i and raw[j].endswith(("]", ")")) or not (
                words[j][:1].isupper() or raw[j] in _PARTY_LINKS or raw[j] == "/"):
            return False
        j -= 1
    if j < 0 or not raw[j].startswith(("[", "(")) or (j < i and raw[j].endswith(("]", ")"))):
        return False
    k = j - 1
    if k >= 0 and raw[k] in _DASHES:
        k -= 1
    return k >= 0 and (_is_eu_number(raw, k) or (k >= 2 and _is_eu_number(raw, k - 2))
                       or (k >= 1 and raw[k - 1] in ("C-", "T-") and bool(_NUMBER.match(raw[k]))))


def is_case_party(raw: Sequence[str], words: Sequence[str], i: int, countries: frozenset[str]) -> bool:
    """Whether element ``i`` names a party of a cited European case: before "v." or "./." and a
    country, or before an EU case number (other parties, "und", "u. a." between), in brackets
    after one, or right after "Rechtssache"."""
    if i > 0 and raw[i - 1] in ("Rechtssache", "Rechtssachen"):
        return True
    if _after_eu_number(raw, words, i):
        return True
    n = len(raw)
    for j in range(i + 1, min(n, i + 1 + CASE_REACH)):
        if raw[j] in _VERSUS:
            return j + 1 < n and words[j + 1] in countries
        if _is_eu_number(raw, j):
            return True
        if raw[j - 1].endswith((",", ";", ":")):
            # a comma ends the parties' names, unless the case number follows it
            return False
        if not (raw[j] in _PARTY_LINKS or words[j][:1].isupper()):
            return False
    return False


def _citation_dash(raw: Sequence[str], j: int) -> bool:
    """Whether element ``j`` is the dash after a citation ("GRUR 2009, 949 Rn. 45 –")."""
    return (raw[j] in _DASHES and j > 0 and bool(_CITATION_END.match(raw[j - 1]))
            and any(_CITATION_WORD.match(raw[k]) for k in range(max(0, j - CITATION_REACH), j)))


def in_decision_name(raw: Sequence[str], words: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in a cited decision's name after its citation's dash: up to
    :data:`DECISION_LENGTH` capitalized words, numbers, slashes, brackets or quotes between, no
    sentence end."""
    for j in range(i - 1, max(-1, i - 1 - DECISION_LENGTH), -1):
        if raw[j] in _DASHES:
            return _citation_dash(raw, j)
        if not (words[j][:1].isupper() or words[j][:1].isdigit() or raw[j] in ("/", "[", "„", "\"")):
            return False
        if raw[j].endswith((";", ".")) and not _INITIAL.match(raw[j]):
            return False
    return False


def public_names(raw: Sequence[str], words: Sequence[str], candidates: Sequence[int],
                 countries: frozenset[str]) -> list[bool]:
    """Per candidate: whether it stands in a registered mark's name (or is another mention of a
    word that does), names a cited case's party or stands in a cited decision's name. Only
    candidates with a mark noun or a citation's dash shortly before, or a "v.", a case number or
    "Rechtssache" near them are looked at (a ruling has few)."""
    marks = [j for j, element in enumerate(raw) if element[:1].isupper() and is_mark_noun(element)]
    cues = [j for j, element in enumerate(raw)
            if element in _VERSUS or element[:1] in "CT" and (element in ("C", "T", "C-", "T-") or _EU_NUMBER.match(element))
            or element.startswith("Rechtssache")]
    dashes = [j for j, element in enumerate(raw) if element in _DASHES and _citation_dash(raw, j)]
    near_mark, near_case, near_dash = set(), set(), set()
    for j in marks:
        near_mark.update(range(j + 1, j + 1 + MARK_LENGTH))
    for j in cues:
        near_case.update(range(j - CASE_REACH, j + 4 + CASE_REACH))
    for j in dashes:
        near_dash.update(range(j + 1, j + 1 + DECISION_LENGTH))
    in_mark = {i for i in candidates if i in near_mark and in_mark_name(raw, words, i)}
    mark_words = {words[i] for i in in_mark}
    return [i in in_mark or words[i] in mark_words
            or (i in near_case and is_case_party(raw, words, i, countries))
            or (i in near_dash and in_decision_name(raw, words, i))
            for i in candidates]
