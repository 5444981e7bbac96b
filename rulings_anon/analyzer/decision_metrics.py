"""Recall and precision of the decision ``score`` makes, measured on a court's feature rows.

Choosing a threshold needs the figures at many thresholds, so they are computed on the candidates'
rows (:class:`~rulings_anon.analyzer.sensitivity_model.CourtFeatures`) and not by running
``score``: a word flagged once flagged throughout its document (:func:`consistent`) and the
particle between two flagged words flagged with them (:func:`name_gaps`, "Ybbs an der Donau"), as
:mod:`rulings_anon.analyzer.decisions` does. Element level, as ``evaluate``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from rulings_anon.analyzer import name_parts_rows as npr
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm

# the F rules' weights of recall against precision
F_BETA = {"f1": 1.0, "f15": 1.5, "f2": 2.0}

# per court's features (by id): the particles between two candidates (:func:`name_gaps`) and the
# words consistency spreads (:func:`_mentions`), kept beside the features they belong to
_GAPS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}
_MENTIONS: dict[int, tuple[sm.CourtFeatures, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
# per court's features (by id): every sensitive element of its documents (:class:`Positives`)
_POSITIVES: dict[int, tuple[sm.CourtFeatures, Positives]] = {}


@dataclasses.dataclass(frozen=True)
class Positives:
    """Every sensitive element of a court's documents, a candidate or not, and whether a person's
    span covers it: what a leak is counted on (:func:`missed_documents`), as ``evaluate`` counts it."""

    documents: np.ndarray  # int: the document's number
    elements: np.ndarray   # int: the element's index in its document
    persons: np.ndarray    # bool: a person's element
    n_documents: int

    @classmethod
    def of(cls, records: list[dict]) -> Positives:
        """The sensitive elements of gold ``records`` (``{"text", "spans": [{"start", "end", "type"}]}``)."""
        from rulings_anon.document import Span, element_labels, split_elements
        from rulings_anon.entity_types import PERSON_TYPES

        documents, elements, persons = [], [], []
        for d, record in enumerate(records):
            spans = record.get("spans") or []
            if not spans:
                continue
            split = split_elements(record["text"])
            sensitive = element_labels(split, [Span(s["start"], s["end"]) for s in spans])
            person = element_labels(split, [Span(s["start"], s["end"]) for s in spans if s.get("type") in PERSON_TYPES])
            for i in np.flatnonzero(sensitive):
                documents.append(d)
                elements.append(int(i))
                persons.append(person[i])
        return cls(np.array(documents, int), np.array(elements, int), np.array(persons, bool), len(records))


def name_gaps(records: list[dict], court: sm.CourtFeatures) -> np.ndarray:
    """``[first row, second row, particle elements, sensitive ones]`` for each two candidates of a
    document (rows of ``court``, extracted from ``records``) separated by a particle alone ("Ybbs
    an der Donau"): ``score`` makes one span of them, particle included, when both are flagged
    (:func:`rulings_anon.analyzer.decisions.joins`). The particles are no candidates, so the model
    never judges them, but they count among the sensitive elements."""
    from rulings_anon.analyzer.decisions import core, joins
    from rulings_anon.document import Span, element_labels, split_elements

    gaps = []
    starts = np.searchsorted(court.documents, np.arange(len(records) + 1))
    for d, record in enumerate(records):
        rows = range(starts[d], starts[d + 1])
        text, elements, labels = record["text"], None, None
        for first, second in zip(rows, rows[1:]):
            i, j = int(court.elements[first]), int(court.elements[second])
            if j - i < 2:
                continue
            elements = elements or split_elements(text)
            end = core(text, elements[i].start, elements[i].end)[1]
            start = core(text, elements[j].start, elements[j].end)[0]
            if not joins(text, end, start):  # elements lie between: never a gap of spaces alone
                continue
            labels = labels or element_labels(elements, [Span(s["start"], s["end"]) for s in record.get("spans") or []])
            gaps.append((first, second, j - i - 1, sum(labels[i + 1:j])))
    return np.array(gaps, int).reshape(-1, 4)


def register_gaps(court: sm.CourtFeatures, gaps: np.ndarray) -> None:
    """Keep ``gaps`` (:func:`name_gaps`) as ``court``'s, for :func:`joined`."""
    _GAPS[id(court)] = (court, gaps)


def register_positives(court: sm.CourtFeatures, positives: Positives) -> None:
    """Keep ``positives`` (the sensitive elements of the records ``court`` was extracted from) as
    ``court``'s, for :func:`missed_documents`."""
    _POSITIVES[id(court)] = (court, positives)


def concatenated(parts: list[sm.CourtFeatures]) -> sm.CourtFeatures:
    """:func:`~rulings_anon.analyzer.sensitivity_model.concatenate` of ``parts`` (one court's rulings
    with several draws of surrogates), with their particle gaps registered for the whole."""
    whole = sm.concatenate(parts)
    if whole is not parts[0]:
        offsets = np.cumsum([0] + [len(p.words) for p in parts[:-1]])
        gaps = [_GAPS[id(p)][1] if id(p) in _GAPS else np.zeros((0, 4), int) for p in parts]
        register_gaps(whole, np.concatenate([g + np.array([o, o, 0, 0]) for g, o in zip(gaps, offsets, strict=True)]))
        if all(id(p) in _POSITIVES for p in parts):
            firsts = sm.document_offsets(parts)
            each = [_POSITIVES[id(p)][1] for p in parts]
            register_positives(whole, Positives(np.concatenate([q.documents + f for q, f in zip(each, firsts, strict=True)]),
                                                np.concatenate([q.elements for q in each]),
                                                np.concatenate([q.persons for q in each]),
                                                sum(q.n_documents for q in each)))
    return whole


def joined(court: sm.CourtFeatures, flagged: np.ndarray) -> tuple[int, int]:
    """The sensitive and the other particle elements ``score`` flags between two flagged
    candidates of ``court`` (:func:`name_gaps`; none where none were registered)."""
    gaps = _GAPS[id(court)][1] if id(court) in _GAPS else np.zeros((0, 4), int)
    both = gaps[flagged[gaps[:, 0]] & flagged[gaps[:, 1]]]
    return int(both[:, 3].sum()), int((both[:, 2] - both[:, 3]).sum())


def document_frequency(court: sm.CourtFeatures, members: np.ndarray | None = None) -> dict[str, int]:
    """In how many documents each candidate word of ``court`` (or of its rows ``members``) occurs."""
    documents: dict[str, set[int]] = {}
    for r in range(len(court.words)) if members is None else members:
        documents.setdefault(court.words[r], set()).add(int(court.documents[r]))
    return {word: len(found) for word, found in documents.items()}


def in_batches(court: sm.CourtFeatures, size: int, background: sm.Background | None,
               seed: int = 1) -> sm.CourtFeatures:
    """``court`` with its documents scored in random batches of ``size`` (the batch feature counted
    within each batch, padded with ``background`` as ``score`` pads a small batch)."""
    n_documents = int(court.documents.max()) + 1
    batch_of = np.random.default_rng(seed).permutation(n_documents) // size
    batches = batch_of[court.documents]
    rows = court.rows.copy()
    for batch in np.unique(batch_of):
        members = np.flatnonzero(batches == batch)
        df, n = sm.padded(document_frequency(court, members), int((batch_of == batch).sum()), background)
        rows[members, sf.COLUMN["batch_share"]] = \
            [df[court.words[r]] / n for r in members] if n >= sf.MIN_BATCH else np.nan
    return dataclasses.replace(court, rows=rows)


def f_beta(recall: float, precision: float, beta: float) -> float:
    """The F-measure that weighs recall ``beta`` times as much as precision."""
    b2 = beta * beta
    return (1 + b2) * recall * precision / (b2 * precision + recall) if recall + precision else 0.0


def metrics_at(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float,
               joined_particles: tuple[int, int] = (0, 0)) -> dict:
    """Recall, precision and F-measures of the candidates at ``threshold``, with
    ``joined_particles`` (sensitive, other) elements flagged besides them."""
    predicted = probabilities >= threshold
    tp = int((predicted & court.labels).sum()) + joined_particles[0]
    fp = int((predicted & ~court.labels).sum()) + joined_particles[1]
    fn = court.n_positive - tp
    recall = tp / court.n_positive if court.n_positive else 0.0
    precision = tp / (tp + fp) if tp + fp else 0.0
    return {"recall": recall, "precision": precision, "tp": tp, "fp": fp, "fn": fn,
            **{rule: f_beta(recall, precision, beta) for rule, beta in F_BETA.items()}}


def average_precision(court: sm.CourtFeatures, probabilities: np.ndarray) -> float:
    """The precision averaged over the ranking, at each sensitive element found (those no
    candidate holds count as never found): threshold-free, so a refit that only moves the
    probabilities up or down leaves it as it is."""
    if not court.n_positive:
        return 0.0
    found = court.labels[np.argsort(-probabilities, kind="stable")]
    precision = np.cumsum(found) / np.arange(1, len(found) + 1)
    return float(precision[found].sum() / court.n_positive)


def precision_at_recall(court: sm.CourtFeatures, probabilities: np.ndarray, recall: float) -> float:
    """The precision at the first rank of the ranking where ``recall`` of the sensitive elements are
    found (0 where no threshold finds them): threshold-free, like :func:`average_precision`."""
    found = court.labels[np.argsort(-probabilities, kind="stable")]
    hits = np.cumsum(found)
    reached = np.flatnonzero(hits >= recall * court.n_positive) if court.n_positive else []
    return float(hits[reached[0]] / (reached[0] + 1)) if len(reached) else 0.0


def _mentions(court: sm.CourtFeatures) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate of ``court``: an id of its document and word, whether consistency spreads the
    word (a name word, and none of the dev courts' common words, which ``score`` never spreads: it
    takes no batch vocabulary by default, each ruling decided alone), whether it is a common word
    that spreads to its bare mentions (a surname too: :func:`~rulings_anon.analyzer.name_parts.spreads_bare`),
    and whether the candidate is such a bare mention
    (:func:`~rulings_anon.analyzer.name_parts_rows.bare_rows`); computed once per court."""
    if id(court) not in _MENTIONS:
        from rulings_anon.analyzer.common_words import common_words, name_key
        from rulings_anon.analyzer.name_parts import spreads_bare

        common = common_words()
        keyed = [name_key(w) is not None for w in court.words]
        spread = np.array([k and w not in common for k, w in zip(keyed, court.words)], bool)
        bare_words = np.array([k and w in common and spreads_bare(w) for k, w in zip(keyed, court.words)], bool)
        bare = npr.bare_rows(court)
        ids: dict[tuple[int, str], int] = {}
        keys = np.array([ids.setdefault((int(d), w), len(ids)) for d, w in zip(court.documents, court.words)], int)
        _MENTIONS[id(court)] = (court, keys, spread, bare_words, bare)
    _, keys, spread, bare_words, bare = _MENTIONS[id(court)]
    return keys, spread, bare_words, bare


def consistent(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float,
               name_like: float | None = None, sources: np.ndarray | None = None) -> np.ndarray:
    """``probabilities`` with a document's word flagged once (at ``threshold``) flagged at every
    other candidate of the document that no rule made public (probability 0), as ``score``'s
    consistency does (approximately: by the candidates' words, no common words but a surname's
    bare mentions: :func:`_mentions`); ``name_like``:
    only words whose German Zipf frequency is below it or that the lexicon does not call a common
    noun spread; ``sources``: only the words of these rows (bool per row) spread."""
    keys, spread, bare_words, bare = _mentions(court)
    flagged = probabilities >= threshold
    if sources is not None:
        spread, bare_words = spread & sources, bare_words & sources
    if name_like is not None:
        spread = spread & ((court.rows[:, sf.COLUMN["zipf_de"]] < name_like)
                           | (court.rows[:, sf.COLUMN["lex_common"]] == 0))
    hit = np.isin(keys, keys[flagged & spread]) | (np.isin(keys, keys[flagged & bare_words]) & bare)
    out = probabilities.copy()
    out[hit & ~flagged & (probabilities > 0)] = threshold
    return out


def decided(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float, with_consistency: bool) -> dict:
    """:func:`metrics_at` of the decision at ``threshold``: the model alone, or as ``score`` decides,
    with consistency, a name's parts and the particles between two flagged words (:func:`joined`)."""
    if not with_consistency:
        return metrics_at(court, probabilities, threshold)
    probabilities = decided_probabilities(court, probabilities, threshold)
    return metrics_at(court, probabilities, threshold, joined(court, probabilities >= threshold))


def decided_probabilities(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` as ``score``'s decision leaves them, in its order: a compound's elided part
    0, a thing of a list, a thing's name after its noun, an acronym's term, a fixed phrase's word or a
    chemical formula, a compound of two German words, a quoted sign of a ruling about marks, a
    journal's author, a cited document's first author, a commentary's or a tribute's scholar cited
    without commas and a judge named after the role's abbreviation weighed down, common nouns after an
    article 0, a word a role names, a surname standing bare as a clause's subject and a company's
    name hyphenated to a legal form's abbreviation flagged (at ``threshold``), consistency spread, a flagged name's parts flagged at ``threshold``
    (:mod:`.name_parts_rows`), a surname a link joins to one flagged too, and the words a person's
    name part flagged spread too."""
    probabilities = npr.without_elided(court, probabilities)
    probabilities = npr.without_listed_nouns(court, probabilities)
    probabilities = npr.without_thing_names(court, probabilities)
    probabilities = npr.without_acronym_compounds(court, probabilities)
    probabilities = npr.without_fixed_things(court, probabilities)
    probabilities = npr.without_word_compounds(court, probabilities)
    probabilities = npr.without_quoted_signs(court, probabilities)
    probabilities = npr.without_journal_authors(court, probabilities)
    probabilities = npr.without_document_authors(court, probabilities)
    probabilities = npr.without_commentary_names(court, probabilities)
    probabilities = npr.without_signed_judges(court, probabilities)
    if npr.RULES["nouns"]:
        probabilities = npr.without_nouns(court, probabilities)
    if npr.RULES["roles"]:
        probabilities = npr.with_role_names(court, probabilities, threshold)
    probabilities = npr.with_subject_names(court, probabilities, threshold)
    probabilities = npr.with_hyphenated_companies(court, probabilities, threshold)
    probabilities = consistent(court, probabilities, threshold)
    if npr.RULES["name_parts"]:
        before_parts = probabilities
        probabilities = npr.with_name_parts(court, probabilities, threshold)
        if npr.RULES["coordinated"]:  # a surname joined by "und" to a flagged name's part
            probabilities = npr.with_coordinated(court, probabilities, threshold)
        if npr.RULES["spread_parts"]:  # the other mentions of a surname a person's name part flagged
            added = (probabilities >= threshold) & (before_parts < threshold) & npr.person_part_rows(court)
            probabilities = consistent(court, probabilities, threshold, sources=added)
    return probabilities


def missed_documents(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float) -> dict:
    """The share of ``court``'s documents in which the decision at ``threshold`` leaves a sensitive
    element in clear (``documents_missed``), and a person's (``documents_missed_person``), as
    ``evaluate`` counts them: over every sensitive element of the documents (the positives
    :func:`register_positives` kept), a candidate or not, an element found when the decision flags
    its candidate or the particle between two flagged ones (:func:`joined`)."""
    if id(court) not in _POSITIVES:
        raise ValueError("no sensitive elements registered for these features (register_positives)")
    positives = _POSITIVES[id(court)][1]
    flagged = decided_probabilities(court, probabilities, threshold) >= threshold
    # one number per (document, element): the document times more than any element's index, plus the index
    stride = int(max(court.elements.max(initial=0), positives.elements.max(initial=0))) + 1
    found = [court.documents[flagged] * stride + court.elements[flagged]]
    gaps = _GAPS[id(court)][1] if id(court) in _GAPS else np.zeros((0, 4), int)
    for first, second, _, _ in gaps[flagged[gaps[:, 0]] & flagged[gaps[:, 1]]]:
        found.append(court.documents[first] * stride + np.arange(court.elements[first] + 1, court.elements[second]))
    missed = ~np.isin(positives.documents * stride + positives.elements, np.concatenate(found))
    return {"documents_missed": len(np.unique(positives.documents[missed])) / max(1, positives.n_documents),
            "documents_missed_person": len(np.unique(positives.documents[missed & positives.persons]))
            / max(1, positives.n_documents)}
