"""What the proposers and the contextual model say about documents, before any threshold.

Shared by ``score`` and ``evaluate``: the recognizers (and the legal NER, for ``ner``) propose
references, the proposed elements are masked, and the model gives every element a probability.
:func:`rulings_anon.analyzer.decisions.decide` turns an :class:`Observation` into spans at a threshold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from rulings_anon.document import Document, Element, Span, element_labels

from .decisions import Settings, decide

# Proposers run on blocks of whole paragraphs of about this many characters: a reference never
# crosses a blank line, and the cost of a 5 MB document stays that of its blocks.
BLOCK_CHARS = 20_000
_BLANK_LINE = re.compile(r"\n[ \t]*\n")

# How candidates are chosen: "none" classifies every element unmasked, "ner" masks the proposed
# references, "random" masks given elements (evaluation only: all positives plus random ones).
CANDIDATE_MODES = ("none", "ner", "random")


@dataclass
class Observation:
    """One document's element probabilities and proposals."""

    probabilities: np.ndarray
    candidates: list[Span] | None = None  # references the model judges (ner); None = every element
    standalone: list[Span] = field(default_factory=list)  # recognizer hits, sensitive on their own
    proposed: list[bool] | None = None  # per element: masked as a candidate (ner, random)

    def spans(self, text: str, elements: Sequence[Element], settings: Settings) -> list[Span]:
        """The sensitive spans at ``settings`` (``none`` and ``ner``)."""
        return decide(text, elements, self.probabilities, settings, self.candidates, self.standalone)


def _without_unknown_words(recognizers):
    """The recognizers to run where no contextual model judges candidates: ``unknown_word``'s hits
    are candidates for that model only and change no other span, so they are not looked for."""
    from .recognizers import without
    from .recognizers.unknown_word import UnknownWordRecognizer

    return without(recognizers, {UnknownWordRecognizer.name})


def observe(documents: Sequence[Document], elements: Sequence[Sequence[Element]], model, mode: str, *,
            ner=None, recognizers=True, proposed: Sequence[list[bool]] | None = None) -> list[Observation]:
    """Run the proposers and ``model`` (an :class:`~rulings_anon.engine.ElementModel`) once.

    ``model`` may be None for ``ner`` when the decision uses the proposers' scores alone
    (combination ``ner``): the probabilities are then zeros and no model runs.
    :param recognizers: True, a set of recognizer names, or False (see ``propose_candidates``).
    :param proposed: for ``random``: per document and element, whether it is a candidate.
    """
    from .recognizers import combine, hits_by_recognizer, is_standalone_hit

    if mode not in CANDIDATE_MODES:
        raise ValueError(f"unknown candidate mode {mode!r}; known: {', '.join(CANDIDATE_MODES)}")
    if model is None and mode != "ner":
        raise ValueError(f"candidate mode {mode!r} needs the contextual model")
    if mode == "random":
        if proposed is None:
            raise ValueError("random candidates need the proposed elements")
        masked = {d.id: {i for i, c in enumerate(flags) if c} for d, flags in zip(documents, proposed, strict=True)}
        return [Observation(p, proposed=list(c))
                for p, c in zip(model.probabilities(documents, masked), proposed, strict=True)]
    texts = [d.text for d in documents]
    use_ner = ner if mode == "ner" else None
    if mode != "ner" or model is None:
        recognizers = _without_unknown_words(recognizers)
    # The sensitivity model's features read the default recognizers' hits in each whole text: they
    # run once, and the proposals of a text that is one block take theirs from the same hits.
    shared = mode == "none" and model.reads_recognizer_hits
    found = [hits_by_recognizer(text, _union(True, recognizers)) for text in texts] if shared else None
    if use_ner is None and not recognizers:
        proposals = [[] for _ in documents]
    else:
        proposals = propose_in_blocks(texts, use_ner, recognizers, found)
    standalone = [[s for s in spans if is_standalone_hit(s)] for spans in proposals]
    if mode == "none":
        extra = {} if found is None else {"elements": elements, "recognizer_hits": [combine(f) for f in found]}
        return [Observation(p, None, hits)
                for p, hits in zip(model.probabilities(documents, **extra), standalone, strict=True)]
    flags = [element_labels(list(els), spans) for els, spans in zip(elements, proposals, strict=True)]
    if model is None:
        probabilities = [np.zeros(len(els)) for els in elements]
    else:
        masked = {d.id: {i for i, c in enumerate(f) if c} for d, f in zip(documents, flags, strict=True)}
        probabilities = model.probabilities(documents, masked)
    return [Observation(p, [s for s in spans if not is_standalone_hit(s)], hits, f)
            for p, spans, hits, f in zip(probabilities, proposals, standalone, flags, strict=True)]


def blocks(text: str, size: int = BLOCK_CHARS) -> list[tuple[int, int]]:
    """``(start, end)`` ranges covering ``text``, cut at blank lines once a block reaches ``size``."""
    ranges, start = [], 0
    for match in _BLANK_LINE.finditer(text):
        if match.start() - start >= size:
            ranges.append((start, match.start()))
            start = match.start()
    ranges.append((start, len(text)))
    return ranges


def _union(*recognizers) -> set[str]:
    """The names of recognizer settings (True for the defaults, a set of names, False for none)."""
    from .recognizers import enabled_by_default

    names: set[str] = set()
    for chosen in recognizers:
        names |= enabled_by_default() if chosen is True else set(chosen or ())
    return names


def propose_in_blocks(texts: Sequence[str], ner, recognizers, hits: Sequence[dict] | None = None) -> list[list[Span]]:
    """``propose_candidates_many`` of each text, run block by block, offsets back in the text.

    :param hits: per text, its ``hits_by_recognizer`` of at least ``recognizers``: a text that is
        one block takes its hits from there instead of running the recognizers again.
    """
    from .candidates import propose_candidates_many

    pieces = [(i, start, text[start:end]) for i, text in enumerate(texts) for start, end in blocks(text)]
    whole = None if hits is None else [hits[i] if len(piece) == len(texts[i]) else None for i, _, piece in pieces]
    found = propose_candidates_many([piece for _, _, piece in pieces], ner, recognizers, found=whole)
    result: list[list[Span]] = [[] for _ in texts]
    for (i, offset, _), spans in zip(pieces, found, strict=True):
        result[i] += [_canonical(s, offset) for s in spans]
    return result


def _canonical(span: Span, offset: int = 0) -> Span:
    """The span moved by ``offset``, a LER tag as type ("PER") renamed to the reference type."""
    from rulings_anon.entity_types import LER_TYPES

    return Span(span.start + offset, span.end + offset, span.text, LER_TYPES.get(span.type, span.type),
                span.score, span.kind, span.source)
