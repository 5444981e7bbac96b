"""A trademark's sign in quotation marks: "die Marke „Myzin“", "der Widerspruchsmarke „Panto“".

A ruling about marks quotes the signs it compares, and a sign is in the register for anyone to
read, even where it is a surname ("„Becker“") or a made-up word the model takes for one ("„Refle“",
"„Adamantas“": 0.2 to 0.9). In the five development courts' test rulings that write one of
:data:`MARK_WORDS` five times or more (73 of BPatG's 134, 4 of BGH's 59, none of the other
courts'), the default flagged 56 words at a short quotation's edge, one of them sensitive (a square
quoted as the name a mark was derived from: "die "Köhlerplatz""). Elsewhere quotation marks hold
as many names as signs (BAG 11 of 12 such flags, BGH 16 of 33), so the rule needs the ruling to be
about marks. A sign's other mentions in its ruling are the sign too ("die Marke Myzin"). In the
six courts' anonymized rulings the rule marks 3,370 capitalized words printed in clear (2,080 of
them at a quotation's edge) and one placeholder, that square's ("die "Kö"":
``benchmarks/count_thing_words.py``). The decision weighs such a word down
(:func:`rulings_anon.analyzer.thing_names.without_quoted_signs`) rather than clearing it:
``--recall-first`` still reaches it (docs/experiments.md, "A trademark's quoted sign").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rulings_anon.analyzer.sensitivity import core_word

# the words a ruling about marks writes ("die Marke", "der Widerspruchsmarke", "§ 9 MarkenG"), and
# how often it writes them at least
MARK_WORDS = re.compile(r"\b(?:Marken?|MarkenG|Widerspruchsmarken?|Wortmarken?|Bildmarken?|Markeninhaber(?:in)?)\b")
MARK_RULING_WORDS = 5
# the most words a quoted sign has ("„Monster Energy“"); a longer quotation is a sentence, whose
# first or last word may be a name ("„Müller hat ... gesagt“")
SIGN_WORDS = 3
OPEN_QUOTES = "„‚»«“\""
CLOSE_QUOTES = "“”‘’«»\""
_TRAILING = ".,;:!?)]"


@lru_cache(maxsize=8)
def mark_ruling(text: str) -> bool:
    """Whether ``text`` is a ruling about marks: it writes :data:`MARK_WORDS` at least
    :data:`MARK_RULING_WORDS` times."""
    found = 0
    for _ in MARK_WORDS.finditer(text):
        found += 1
        if found >= MARK_RULING_WORDS:
            return True
    return False


def opens(word: str) -> bool:
    return word[:1] in OPEN_QUOTES


def closes(word: str) -> bool:
    return word.rstrip(_TRAILING)[-1:] in CLOSE_QUOTES


def at_quote_edge(word: str) -> bool:
    """Whether an element's text opens or closes a quotation (the quick test before :func:`quoted_sign`)."""
    return opens(word) or closes(word)


def quoted_sign(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` of the element texts ``raw`` opens or closes a quotation of at most
    :data:`SIGN_WORDS` words: "„Myzin“", "„Monster Energy“"."""
    if opens(raw[i]):
        return any(closes(raw[k]) for k in range(i, min(len(raw), i + SIGN_WORDS)))
    if closes(raw[i]):
        return any(opens(raw[k]) for k in range(i, max(-1, i - SIGN_WORDS), -1))
    return False


@lru_cache(maxsize=8)
def signs_in(text: str) -> frozenset[str]:
    """The words a ruling about marks quotes as signs (core words: "Myzin" of "„Myzin“"); none in
    any other ruling."""
    if not mark_ruling(text):
        return frozenset()
    raw = text.split()
    return frozenset(core_word(raw[i]) for i in range(len(raw)) if at_quote_edge(raw[i]) and quoted_sign(raw, i))


def sign_at(text: str, raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` is a sign its ruling about marks quotes, here or at another of its
    mentions ("die Marke „Myzin“", later "die Marke Myzin")."""
    signs = signs_in(text)
    return bool(signs) and core_word(raw[i]) in signs
