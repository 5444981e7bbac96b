"""From element probabilities to sensitive spans: the one decision ``score`` and ``evaluate`` share.

``evaluate --method none|ner`` measures exactly what ``score`` writes, because both call
:func:`decide`; the element labels ``evaluate`` counts are the elements that ``score``'s spans
overlap.

The decision, per document (thesis 5.5.3, 7.1, 9.2):

1. **Units.** Without candidates every element is a unit, sensitive when the contextual model's
   probability reaches the threshold. With candidates (``--method ner``) a unit is a proposed
   reference, sensitive when its *combined* score reaches the threshold: the
   :data:`COMBINATIONS` entry of ``Settings.combination`` joins the proposer's score (the legal
   NER's probability that the reference is one courts anonymize, a recognizer's score) with the
   model's probability for its masked elements. A hit of a standalone recognizer (IBAN, e-mail,
   ...) is sensitive on its own.
2. **Consistency.** A name flagged once is flagged everywhere in the document: every element whose
   word (without punctuation, or a genitive "s") equals a word of a flagged name becomes sensitive
   too, with the same score and, once the spans are made, the type of its name (``source``
   ``"consistency"``: "Hat Taucher ..." a person as "Frau Anna Taucher"); not where it names a judge or a public
   official (``rulings_anon.analyzer.exemptions.judge_named``: "Richter Müller" stays public when another
   "Müller" is flagged), nor, without candidates, where the model's probability is exactly 0: the
   sensitivity model's rules for public names say so ("des Amtsgerichts Offenburg" stays a court's
   seat when "in Offenburg" is flagged; the trees themselves never give 0).
   Before it, words that name no person are weighed down (times 0.1, so ``--recall-first`` still
   reaches them): a common noun "und" or a comma joins to another ("Feuer, Rauch oder dergleichen",
   :mod:`rulings_anon.analyzer.name_parts`), a medicine after its kind and a term's name built on an
   acronym ("TVÜ-Länder", :mod:`rulings_anon.analyzer.thing_names`), an author cited before a
   journal written out ("Kulosa, Der Betrieb 2014", :mod:`rulings_anon.analyzer.cited_works`).
   A common noun right after an article ("im Sommer 2019") is no unit and is not spread to; a dev
   court's common word spreads only where the lexicon knows it as a surname too, and only to its
   mentions without a determiner before or a number or legal form after ("Sommer kündigte").
   A word right after a role that names a person ("Geschäftsführer Christen") is a unit even
   below the threshold (:mod:`rulings_anon.analyzer.role_names`).
   A first name, an initial or a surname beside a flagged part of the same name becomes
   sensitive with it (``source`` ``"name part"``: "Thomas Wimmer", "Frau U. Koch";
   :mod:`rulings_anon.analyzer.name_parts`), not where the model's probability is exactly 0, and
   so does a capitalized word that "und" joins to a flagged part of a person's name ("Christen und
   Dorner"); a person's surname flagged so is spread to its other mentions too.
3. **Spans.** Sensitive elements are cut to their word (no commas, brackets or sentence periods;
   "K." keeps its period) and neighbouring ones, separated only by spaces, merged into one span:
   "Thilo Kemper" is one reference, "Kemper, Meyer" two. Two separated only by a name's or a
   place's particle (``particles`` and ``place_particles`` of ``rulings_anon/data/name_affixes.json``) are one
   span with the particle: "Ybbs an der Donau", "Karl von Bülow" (the particle is part of the
   name, and one name gets one surrogate). Overlapping units are one span; a
   flagged element next to a name a recognizer or the NER found joins it ("Thomas" flagged,
   "Wimmer" a recognizer's person), so one reference gets one surrogate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from rulings_anon.analyzer import name_parts, role_names
from rulings_anon.analyzer.cited_works import (
    without_commentary_names,
    without_document_authors,
    without_journal_authors,
)
from rulings_anon.analyzer.common_words import name_key
from rulings_anon.analyzer.exemptions import judge_named, span_unscored, without_common_edges
from rulings_anon.analyzer.name_parts import (
    neighbour_scores,
    without_elided,
    without_listed_nouns,
    without_nouns,
)
from rulings_anon.analyzer.signed_judges import without_signed_judges
from rulings_anon.analyzer.subject_names import with_subject_names
from rulings_anon.analyzer.thing_names import (
    without_acronym_compounds,
    without_fixed_things,
    without_quoted_signs,
    without_thing_names,
)
from rulings_anon.analyzer.word_compounds import without_word_compounds
from rulings_anon.document import Element, Span, keeps_period
from rulings_anon.references import NAME_TYPES, NER_SOURCE, rules

# Characters cut off the ends of a sensitive element: they belong to the sentence, not the name.
_LEADING = "([{„“‚‘\"'«»<"
_TRAILING = ")]}“”‘’\"'«»>,;:!?"
_TRAILING_OR_PERIOD = _TRAILING + "."
_GENITIVE = re.compile(r"(?:['’]s|['’]|s)$")

MODEL_SOURCE = "model"
CONSISTENCY_SOURCE = "consistency"
NAME_PART_SOURCE = "name part"


@dataclass(frozen=True)
class Combination:
    """How a proposed reference's score and the contextual model's probability become one score."""

    name: str
    combine: Callable[[float, float], float]  # (proposer score, model probability) -> score
    uses_model: bool
    description: str


# Thesis 5.5.3.2 judged NER candidates by the model alone ("model"); 9.2 asks for the combination.
COMBINATIONS: dict[str, Combination] = {c.name: c for c in (
    Combination("model", lambda proposer, model: model, True,
                "the contextual model's probability alone (thesis 5.5.3.2)"),
    Combination("ner", lambda proposer, model: proposer, False,
                "the proposer's score alone: the NER's probability that courts anonymize the reference"),
    Combination("min", min, True, "both must reach the threshold: the smaller of the two"),
    Combination("mean", lambda proposer, model: (proposer + model) / 2, True,
                "the mean of the proposer's score and the model's probability"),
)}


@dataclass(frozen=True)
class Settings:
    """How spans are decided.

    ``threshold``: the least probability of a sensitive element; ``consistency``: propagate flagged
    names; ``common_words``: words never propagated, because they are words, not names (German
    nouns are capitalized too: a "Vertrag" flagged once must not flag every "Vertrag"). A proposed
    reference that is one common word ("Rampen", "Blöcken"), a unit letter or a deciding judge has
    no NER score either (:mod:`rulings_anon.analyzer.exemptions`): only a contextual model may still judge it.
    """

    threshold: float
    consistency: bool = True
    common_words: frozenset = frozenset()
    combination: str = "model"

    def __post_init__(self):
        if self.combination not in COMBINATIONS:
            raise ValueError(f"unknown combination {self.combination!r}; known: {', '.join(COMBINATIONS)}")

    def needs_model(self, mode: str) -> bool:
        """Whether candidate mode ``mode`` (``none``, ``ner``, ``random``) needs the contextual
        model: always, except for ``ner`` with a combination that reads the proposers' scores alone."""
        return mode != "ner" or COMBINATIONS[self.combination].uses_model


def core(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without surrounding punctuation (the whole range if nothing else is left)."""
    if start < end and text[start] not in _LEADING and text[end - 1] not in _TRAILING_OR_PERIOD:
        return start, end  # the common case: nothing to cut
    s, e = start, end
    while s < e and text[s] in _LEADING:
        s += 1
    while e > s and text[e - 1] in _TRAILING:
        e -= 1
    if e - s > 1 and text[e - 1] == "." and not keeps_period(text[s:e]):
        while e > s + 1 and text[e - 1] == ".":
            e -= 1
    if e <= s or not any(c.isalnum() for c in text[s:e]):
        return start, end
    return s, e


def _keys_of(word: str) -> tuple[str, ...]:
    """The keys a word matches: itself and, for a genitive ("Kempers", "Fuchs'"), its base."""
    key = name_key(word)
    if key is None:
        return ()
    base = _GENITIVE.sub("", key)
    return (key, base) if base != key and len(base) >= 2 else (key,)


@dataclass
class _Unit:
    """A decided piece of the document: a span, the elements it covers, its score and source."""

    start: int
    end: int
    elements: list[int]
    score: float
    source: str
    type: str | None = None
    mergeable: bool = True


def decide(text: str, elements: Sequence[Element], probabilities: Sequence[float], settings: Settings,
           candidates: Sequence[Span] | None = None, standalone: Sequence[Span] = ()) -> list[Span]:
    """The sensitive spans of one document, sorted by start.

    :param elements: the document's elements (``split_elements(text)``).
    :param probabilities: the model's probability for each element (masked ones where candidates).
    :param candidates: proposed references whose context the model judges; None = every element.
    :param standalone: recognizer hits that are sensitive on their own.
    """
    if len(probabilities) != len(elements):
        raise ValueError(f"{len(probabilities)} probabilities for {len(elements)} elements")
    if candidates is None:
        probabilities = without_elided(elements, probabilities)
        probabilities = without_listed_nouns(text, elements, probabilities)
        probabilities = without_thing_names(text, elements, probabilities)
        probabilities = without_acronym_compounds(elements, probabilities)
        probabilities = without_fixed_things(elements, probabilities)
        probabilities = without_word_compounds(elements, probabilities)
        probabilities = without_quoted_signs(text, elements, probabilities)
        probabilities = without_journal_authors(elements, probabilities)
        probabilities = without_document_authors(elements, probabilities)
        probabilities = without_commentary_names(text, elements, probabilities)
        probabilities = without_signed_judges(text, elements, probabilities)
        probabilities = without_nouns(text, elements, probabilities) if name_parts.NOUNS_AFTER_ARTICLES \
            else probabilities
        if role_names.ROLE_NAMES:
            probabilities = role_names.with_role_names(text, elements, probabilities, settings.threshold)
        probabilities = with_subject_names(elements, probabilities, settings.threshold)
        probabilities = name_parts.with_hyphenated_companies(elements, probabilities, settings.threshold)
        units = _element_units(text, elements, probabilities, settings.threshold)
    else:
        units = _reference_units(text, elements, probabilities, settings.threshold, candidates,
                                 COMBINATIONS[settings.combination], settings.common_words)
    units += [_Unit(s.start, s.end, covered_elements(elements, s), s.score if s.score is not None else 1.0,
                    s.source or "recognizer", s.type, mergeable=False) for s in standalone]
    units = [u for u in units if u.elements]
    if settings.consistency:
        certain = np.asarray(probabilities) if candidates is None else None
        units += _propagate(text, elements, units, settings.common_words, certain)
    parts = _name_parts(text, elements, units, np.asarray(probabilities) if candidates is None else None,
                        settings.threshold)
    units += parts
    persons = [u for u in parts if u.type == "person"]
    if candidates is None:  # a surname joined by "und" to a flagged name's part
        linked = _coordinated(text, elements, units, np.asarray(probabilities), settings.threshold)
        units += linked
        persons += linked
    if settings.consistency and persons and name_parts.SPREAD_PARTS:  # a person's name part's other mentions
        units += _propagate(text, elements, units, settings.common_words, certain, persons)
    return _typed_mentions(text, _spans(text, units))


def _typed_mentions(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` with each untyped consistency span given the type of a typed span of its word: a
    name's parts type it only after consistency has spread it ("Frau Ingrid Sommer" a person, so
    "Sommer kündigte" one too), and a mention's placeholder or surrogate must be its name's ("S.",
    not "..."). An untyped name written out with a first name is a person's, and so is another
    untyped span of one of its words ("Anton Stadler", then "Stadler bestreitet": "A. S." and "S.")."""
    kinds: dict[str, str] = {}
    persons: set[str] = set()  # the words of the names written out with a first name
    written = set()  # the indices of those names' spans
    for n, span in enumerate(spans):
        words = text[span.start:span.end].split()
        kind = span.type
        if kind is None and len(words) > 1 and _first_name_written(words[0]):
            kind = "person"
            written.add(n)
        if kind:
            for word in words:
                s, e = core(word, 0, len(word))
                for key in _keys_of(word[s:e]):
                    kinds.setdefault(key, kind)
                    if n in written:
                        persons.add(key)
    if not kinds:
        return spans
    out = []
    for n, span in enumerate(spans):
        if span.type is None:
            keys = _keys_of(span.text or "")
            if n in written:
                span = replace(span, type="person")
            elif span.source == CONSISTENCY_SOURCE:
                span = replace(span, type=next((kinds[k] for k in keys if k in kinds), None))
            elif any(k in persons and kinds.get(k) == "person" for k in keys):
                span = replace(span, type="person")
        out.append(span)
    return out


def _first_name_written(word: str) -> bool:
    """Whether ``word`` (a span's first word) is a first name written out, no initial ("Anton")."""
    s, e = core(word, 0, len(word))
    return name_parts.written_first_name(word[s:e])


def _name_parts(text: str, elements: Sequence[Element], units: list[_Unit], certain, threshold: float) -> list[_Unit]:
    """Units for the first names, initials and surnames beside a flagged part of the same name
    (:mod:`rulings_anon.analyzer.name_parts`), not those whose probability in ``certain`` is 0."""
    scores: dict[int, float] = {}
    for unit in units:
        for i in unit.elements:
            scores[i] = max(scores.get(i, 0.0), unit.score)
    added = []
    for i, (score, kind) in neighbour_scores(text, elements, scores, certain, threshold).items():
        s, e = core(text, elements[i].start, elements[i].end)
        added.append(_Unit(s, e, [i], score, NAME_PART_SOURCE, kind))
    return added


def _coordinated(text: str, elements: Sequence[Element], units: list[_Unit], certain: np.ndarray,
                 threshold: float) -> list[_Unit]:
    """Person units for the surnames a link joins to a flagged name's part
    (:func:`rulings_anon.analyzer.name_parts.coordinated_names`), not those whose probability in
    ``certain`` is 0 (a public name), at ``threshold``."""
    flagged = {i for unit in units for i in unit.elements}
    added = []
    for i in name_parts.coordinated_names(text, elements, flagged, certain > 0,
                                          lambda words: role_names.determined_words(elements, words)):
        s, e = core(text, elements[i].start, elements[i].end)
        added.append(_Unit(s, e, [i], threshold, NAME_PART_SOURCE, "person"))
    return added


def _element_units(text, elements, probabilities, threshold) -> list[_Unit]:
    units = []
    for i in np.flatnonzero(np.asarray(probabilities, dtype=np.float64) >= threshold):
        element = elements[i]
        s, e = core(text, element.start, element.end)
        units.append(_Unit(s, e, [element.index], float(probabilities[i]), MODEL_SOURCE))
    return units


def _reference_units(text, elements, probabilities, threshold, candidates, combination: Combination,
                     common_words=frozenset()) -> list[_Unit]:
    """Units of the candidates whose combined score reaches ``threshold``.

    Only the NER's score says whether courts anonymize a reference; a candidate of a rule-based
    recognizer that is not sensitive on its own ("Frau Dr. Hacker", a patent number) or a NER
    reference of :mod:`rulings_anon.analyzer.exemptions` is judged by the model alone, and without a model
    (combination ``ner``) it is no unit.
    """
    units = []
    for span in candidates:
        judged = _scored_part(text, span, common_words) if span.source == NER_SOURCE and span.score is not None else None
        scored = judged is not None
        span = judged or span
        if not combination.uses_model and not scored:
            continue
        covered = covered_elements(elements, span)
        if not covered:
            continue
        model = max(float(probabilities[i]) for i in covered)
        p = combination.combine(span.score, model) if scored else model
        if p >= threshold:
            source = f"{span.source or 'candidate'}+{MODEL_SOURCE}" if combination.uses_model else span.source
            units.append(_Unit(span.start, span.end, covered, p, source, span.type, mergeable=False))
    return units


def _scored_part(text: str, span: Span, common_words) -> Span | None:
    """The part of a NER reference its score speaks for: without the common words at its edges
    (:func:`rulings_anon.analyzer.exemptions.without_common_edges`); None when its score must not decide
    (:mod:`rulings_anon.analyzer.exemptions`)."""
    kept = without_common_edges(text, span.start, span.end, common_words)
    if kept is None:
        return None
    if kept != (span.start, span.end):
        span = Span(kept[0], kept[1], text[kept[0]:kept[1]], span.type, span.score, span.kind, span.source)
    return None if span_unscored(text, span, common_words, core) else span


def covered_elements(elements: Sequence[Element], span: Span) -> list[int]:
    """Indices of the elements ``span`` overlaps (elements sorted by start, binary search)."""
    lo, hi = 0, len(elements)
    while lo < hi:
        mid = (lo + hi) // 2
        if elements[mid].end <= span.start:
            lo = mid + 1
        else:
            hi = mid
    covered = []
    while lo < len(elements) and elements[lo].start < span.end:
        covered.append(lo)
        lo += 1
    return covered


def _propagate(text: str, elements: Sequence[Element], units: list[_Unit], common_words,
               certain: np.ndarray | None = None, sources: list[_Unit] | None = None) -> list[_Unit]:
    """Units for every unflagged element whose word is a word of a flagged name (of ``sources``,
    by default every unit), except those whose probability in ``certain`` (the model's, where it
    judged every element) is 0. A common word spreads only where it is a surname too
    (:func:`name_parts.spreads_bare`) and only to its bare mentions (:func:`name_parts.bare_mention`); their types
    are given after the name's parts (:func:`_typed_mentions`)."""
    best: dict[str, float] = {}
    bare_only: set[str] = set()
    flagged = {i for unit in units for i in unit.elements}
    for unit in units if sources is None else sources:
        for word in text[unit.start:unit.end].split():
            s, e = core(word, 0, len(word))
            key = name_key(word[s:e])
            if key is None or key in common_words and not name_parts.spreads_bare(key):
                continue
            best[key] = max(best.get(key, 0.0), unit.score)
            if key in common_words:
                bare_only.add(key)
    if not best:
        return []
    added = []
    strip = _LEADING + _TRAILING + "."
    raw = None
    for element in elements:
        # A cheap look-up first: most elements are no flagged name.
        word = element.text.strip(strip)
        if word not in best and _GENITIVE.sub("", word) not in best or element.index in flagged \
                or certain is not None and certain[element.index] == 0:
            continue
        s, e = core(text, element.start, element.end)
        keys = [k for k in _keys_of(text[s:e]) if k in best]
        if keys and all(k in bare_only for k in keys):
            raw = raw or [el.text for el in elements]
            if not name_parts.bare_mention(text, raw, element.index, e):
                continue
        scores = [best[k] for k in keys]
        if scores and not judge_named(text, s, e):
            added.append(_Unit(s, e, [element.index], max(scores), CONSISTENCY_SOURCE))
    return added


def _spans(text: str, units: list[_Unit]) -> list[Span]:
    """Spans of the units, neighbours separated by spaces only merged (see the module docstring)."""
    merged: list[list] = []  # [start, end, best unit, type, mergeable]
    for unit in sorted(units, key=lambda u: (u.start, -u.end)):
        if merged:
            last = merged[-1]
            if unit.start < last[1] or (_may_join(last[4], last[3], unit) and joins(text, last[1], unit.start)):
                last[1] = max(last[1], unit.end)
                last[2] = last[2] if last[2].score >= unit.score else unit
                last[3] = last[3] or unit.type
                last[4] = last[4] and unit.mergeable
                continue
        merged.append([unit.start, unit.end, unit, unit.type, unit.mergeable])
    return [Span(start, end, text[start:end], kind, min(1.0, max(0.0, best.score)), source=best.source)
            for start, end, best, kind, _ in merged]


def _may_join(mergeable: bool, kind: str | None, unit: _Unit) -> bool:
    """Whether a span (``mergeable``, of type ``kind``) and the ``unit`` right after it may be one
    reference: two flagged elements, or a flagged element and a name (a recognizer's "Thomas" and
    the model's "Wimmer" are one person, so one surrogate); two whole references never."""
    if mergeable and unit.mergeable:
        return True
    if mergeable:
        return unit.type in NAME_TYPES
    return unit.mergeable and kind in NAME_TYPES


def joins(text: str, end: int, start: int) -> bool:
    """Whether the gap ``text[end:start]`` joins two flagged pieces into one reference: spaces, or
    a particle between spaces ("Ybbs an der Donau"), within one paragraph."""
    gap = text[end:start]
    return bool(gap) and (gap.isspace() or rules().name_gap.fullmatch(gap) is not None) and gap.count("\n") < 2
