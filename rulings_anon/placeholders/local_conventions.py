"""How state and local courts write placeholders, and what looks like one there but is not.

Federal courts shorten names; courts below them also shorten the seats of authorities that would
locate a party ("Landratsamt K."), leave out the numbers of land parcels, files and roads ("Fl.Nr.
…", "Az.: …", "an der B …"), and number their placeholders ("in Ort 2", "X-Straße 03"). Their
rulings also hold letters that are no names: driving-licence classes ("Fahrerlaubnis der Klassen
A1, B und C1E") and decisions abbreviated in citations ("BVerwG, U. v. 29.3.2017"). Each question
here reads the element texts around a candidate; the word lists are data, each with a reason
(``rulings_anon/data/local_conventions.json``). The context rules ask :func:`placeholder_slot` and
:func:`no_placeholder` before their own rules; the detector adds :func:`numbered_placeholders`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rulings_anon.data import path as data_path
from rulings_anon.jsonl import read_json

from .forms import Forms


@dataclass(frozen=True)
class Conventions:
    """The compiled contents of ``local_conventions.json``."""

    authority_endings: tuple[str, ...]
    number_words: frozenset[str]
    number_abbreviations: frozenset[str]
    number_endings: tuple[str, ...]
    road_leads: frozenset[str]
    road_nouns: tuple[str, ...]
    road_classes: frozenset[str]
    licence_heads: frozenset[str]
    licence_classes: frozenset[str]
    list_joiners: frozenset[str]
    decision_letters: frozenset[str]
    numbered_nouns: frozenset[str]
    numbered_lead_words: frozenset[str]
    padded_number: re.Pattern


@lru_cache(maxsize=1)
def conventions() -> Conventions:
    raw = read_json(data_path("local_conventions.json"))
    return Conventions(
        authority_endings=tuple(raw["authority_endings"]),
        number_words=frozenset(raw["number_words"]),
        number_abbreviations=frozenset(raw["number_abbreviations"]),
        number_endings=tuple(raw["number_endings"]),
        road_leads=frozenset(raw["road_leads"]),
        road_nouns=tuple(raw["road_nouns"]),
        road_classes=frozenset(raw["road_classes"]),
        licence_heads=frozenset(raw["licence_heads"]),
        licence_classes=frozenset(raw["licence_classes"]),
        list_joiners=frozenset(raw["list_joiners"]),
        decision_letters=frozenset(raw["decision_letters"]),
        numbered_nouns=frozenset(raw["numbered_nouns"]),
        numbered_lead_words=frozenset(raw["numbered_lead_words"]),
        padded_number=re.compile(raw["padded_number"]),
    )


_INITIAL_WITH_PERIOD = re.compile(r"^[A-ZÄÖÜ][a-zäöü]?\.$")
_SMALL_NUMBER = re.compile(r"^\d{1,2}$")
_STREET_ENDINGS = ("straße", "str.", "weg", "platz", "gasse", "allee", "ring", "damm", "ufer")


def is_ellipsis(core: str) -> bool:
    """Whether an element's core is an ellipsis ("...", "…", "…." at a sentence end)."""
    return bool(core) and set(core) <= {".", "…"} and ("…" in core or core.count(".") >= 3)


def number_slot(forms: Forms, pred: str | None, letter: bool = False) -> bool:
    """Whether the element before an ellipsis (or, with ``letter``, a capital letter) names a
    number that the court left out ("Fl.Nr. …", "Az.: …", "Nr. …"; "Fl.Nr. X")."""
    if pred is None:
        return False
    word = forms.norm(pred)
    c = conventions()
    if word in c.number_words:
        return True
    return not letter and (word in c.number_abbreviations or word.endswith(c.number_endings))


def sentence_end_ellipsis(raw: str, pred: str | None) -> bool:
    """Whether an ellipsis closes its sentence right after a word ("zur Straße ....", "in … ."
    written "in …."): the fourth dot is the sentence's period, the ellipsis what was left out."""
    return raw in ("....", "….") and pred is not None and pred[-1:].isalnum()


def quoted_name(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether element ``i`` lies in a short quotation (up to four elements) right after a person,
    company or number word, which names what the quotation holds: its ellipses stand for a name or
    number left out ("die Firma „Auto- … …“", "Kennzeichen „… …“"), not for words omitted from a
    quotation."""
    p = forms.p
    quotes = p.open_quotes + '"'
    for k in range(i, max(-1, i - 4), -1):
        if texts[k][:1] in quotes:
            break
    else:
        return False
    if k == 0 or not any(texts[j].rstrip(".,;:!?)")[-1:] in p.close_quotes + '"' for j in range(max(k, i), min(len(texts), k + 4))):
        return False
    word = forms.norm(texts[k - 1])
    return word in p.person_triggers or word in conventions().number_words


def placeholder_slot(forms: Forms, texts: list[str], i: int, core: str) -> bool:
    """Whether a letter is a placeholder because of the word before it: an authority's seat
    shortened ("Landratsamt K.") or a number left out ("Fl.Nr. X")."""
    if i == 0:
        return False
    pred = texts[i - 1]
    succ = texts[i + 1] if i + 1 < len(texts) else ""
    succ_core = forms.core(succ)
    if number_slot(forms, pred, letter=True) and forms.is_initial(core) and not succ[:1].isdigit() \
            and succ_core not in forms.p.dashes and succ_core not in forms.p.court_codes \
            and not forms.p.shape["court_code"].match(succ_core):
        return True  # "Fl.Nr. X"; not a case number "Az. B 12 KR 18/99 R", "Az. I ZB 23/04", "Az. C - 380/16"
    if not _INITIAL_WITH_PERIOD.match(core):
        return False
    word = pred.lstrip(forms.p.strip_leading).lower()
    return word.endswith(conventions().authority_endings)


def no_placeholder(forms: Forms, texts: list[str], i: int, core: str) -> bool:
    """Whether a letter that looks like a placeholder is a licence class, a decision abbreviated
    in a citation, or the class of a road whose number was left out."""
    c = conventions()
    succ = texts[i + 1] if i + 1 < len(texts) else ""
    if core in c.decision_letters and succ == "v." and i + 2 < len(texts) and texts[i + 2][:1].isdigit():
        return True  # "U. v. 29.3.2017"
    if core in c.road_classes and succ and is_ellipsis(forms.core(succ)) and succ[0] in ".…" and i:
        pred = forms.norm(texts[i - 1])
        after = forms.core(texts[i + 2]) if i + 2 < len(texts) else ""
        if (pred in c.road_leads or pred.endswith(c.road_nouns)) and after not in forms.p.legal_forms:
            return True  # "an der B … bei": the ellipsis is the road's number; "in B …" is a town
    return licence_class(forms, texts, i)


def licence_class(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether element ``i`` is in a run of driving-licence classes after a licence word
    ("Fahrerlaubnis der Klassen A1, B, BE und L", "Fahrerlaubnis AM, B und L")."""
    c = conventions()
    if forms.core(texts[i]).rstrip(".") not in c.licence_classes:
        return False
    k = i - 1
    while k >= 0 and (forms.core(texts[k]) in c.licence_classes or forms.norm(texts[k]) in c.list_joiners):
        k -= 1
    return k >= 0 and forms.norm(texts[k]) in c.licence_heads


def numbered_placeholders(forms: Forms, texts: list[str], kinds: list[str | None]) -> list[str | None]:
    """``kinds`` with the numbered placeholders marked: a noun and its number after an article or
    preposition ("in Ort 2", "der Firma 1"), and numbers with a leading zero after a street
    placeholder ("X-Straße 03", "Z-weg 01, 02 und 04")."""
    c = conventions()
    for i in [i for i, t in enumerate(texts) if t[:1].isdigit()]:
        if i == 0 or kinds[i] is not None:
            continue
        core = forms.core(texts[i]).rstrip(".")
        pred = forms.norm(texts[i - 1])
        if (_SMALL_NUMBER.match(core) and pred in c.numbered_nouns and texts[i - 1][:1].isupper()
                and i > 1 and forms.norm(texts[i - 2]) in c.numbered_lead_words and kinds[i - 1] is None):
            kinds[i - 1] = kinds[i] = "potential"
        elif c.padded_number.match(core) and _after_street_placeholder(forms, texts, kinds, i):
            kinds[i] = "potential"
    return kinds


def _after_street_placeholder(forms: Forms, texts: list[str], kinds: list[str | None], i: int) -> bool:
    """Whether a number follows a street placeholder, directly or through a list of such numbers."""
    c = conventions()
    k = i - 1
    while k >= 0 and kinds[k] is not None and forms.core(texts[k]).rstrip(".")[:1].isdigit() \
            or k >= 0 and forms.norm(texts[k]) in c.list_joiners:
        k -= 1
    if k < 0:
        return False
    word = forms.norm(texts[k])
    if kinds[k] is not None:
        return word.endswith(_STREET_ENDINGS)
    return word in _STREET_ENDINGS and k > 0 and kinds[k - 1] is not None  # "K Straße 03"
