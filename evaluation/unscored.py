"""Proposed references whose NER score must not decide: words, units and the deciding judges.

The NER's sensitivity carries over badly to a court it never saw (README, leave one court out).
These generic cases are told apart by the text around the reference instead:

* one common word ("Rampen", "Bauwerken"): a capitalized word the dev courts' rulings use outside
  every entity (:mod:`evaluation.common_words`). Not its inflected forms: stripping endings gained
  0.5 points of precision on a court the NER never saw and turns towns into nouns ("Geldern");
* a unit letter after a degree sign ("780 ° C");
* a cited author: a name right before "et al." ("McMillan et al., Glass-Ceramics"). Parties are
  never cited so; on the dev rulings the NER had not seen, all four such references it proposed
  were authors of the prior art;
* a judge of the deciding panel, named in clear: a list of names and titles right after a judge's
  role ("unter Mitwirkung des Vorsitzenden Richters Dr. Strößner sowie der Richter Merzbach,
  Dr. Meiser und Schödel"). A judge of another court ("die Richterin am LSG Dr. W.") is not
  covered: the court's name stops the list, and courts do anonymize such judges.

A contextual model may still judge these references (combinations ``model``, ``min``, ``mean``).
"""

from __future__ import annotations

import re

from data import path as data_path
from rulings_anon.document import Span
from rulings_anon.jsonl import read_json

_AFFIXES = read_json(data_path("name_affixes.json"))
JUDGE_ROLES = frozenset(_AFFIXES["judge_roles"])
_TITLE_PIECES = frozenset(piece for title in _AFFIXES["academic_titles"] for piece in title.split())
_ABBREVIATED_TITLE = re.compile(r"^(?:Dipl\.-?\w*\.?|[A-ZÄÖÜ][a-zäöü]{0,5}\.|-)$")  # "Dipl.", "Phys.", "-"
_NAME = re.compile(r"^[A-ZÄÖÜ][\w'’-]*$")
_CONNECTORS = frozenset({"und", "sowie", ","})
_ET_AL = re.compile(r"[\s,]*et\s*al\b")
# How far back a list of judges may reach: roles, titles, names and connectors only.
_MAX_LIST = 16


def unscored(text: str, start: int, end: int, common_words) -> bool:
    """Whether the reference ``text[start:end]`` (without its punctuation) is one of the cases above."""
    word = text[start:end]
    if " " not in word and word in common_words:
        return True
    unit = word.lstrip("° ")
    if len(unit) == 1 and (unit != word or text[:start].rstrip().endswith("°")):
        return True
    if _ET_AL.match(text, end):
        return True
    return after_judge_role(text, start)


def after_judge_role(text: str, start: int) -> bool:
    """Whether only names, titles and connectors stand between a judge's role and ``start``."""
    words = text[max(0, start - 300):start].split()
    for word in reversed(words[-_MAX_LIST:]):
        bare = word.rstrip(",;")
        if bare in JUDGE_ROLES:
            return True
        if word == "," or bare in _CONNECTORS or bare in _TITLE_PIECES or _ABBREVIATED_TITLE.match(bare):
            continue
        if _NAME.match(bare) and bare == word.rstrip(","):  # a name; a sentence period ends the list
            continue
        return False
    return False


def span_unscored(text: str, span: Span, common_words, core) -> bool:
    """:func:`unscored` for a proposed span, cut to its ``core`` (no surrounding punctuation)."""
    s, e = core(text, span.start, span.end)
    return unscored(text, s, e, common_words)
