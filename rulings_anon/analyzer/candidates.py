"""Candidate references for ``evaluate --method ner`` and ``score`` (thesis 5.5.3.2, 9.2, 9.3).

:func:`propose_candidates` merges what the legal NER proposes (names, companies, places, ... of
the ``candidate_types`` in ``rulings_anon/data/ner_tags.json``) with the rule-based recognizers' hits (IBAN,
phone, e-mail, ...), grows every span to its whole multi-element reference and cuts salutations
and legal forms off names. Each span's ``source`` says who found it (``"ner"`` or a recognizer
name); :func:`rulings_anon.analyzer.recognizers.is_standalone_hit` says whether a span is sensitive on its
own (a recognizer hit marked ``standalone`` in ``rulings_anon/data/recognizers.json``) or only a candidate for
the contextual model.
"""

from __future__ import annotations

import bisect
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from rulings_anon.analyzer import recognizers as rec
from rulings_anon.analyzer.common_words import common_words, name_key
from rulings_anon.analyzer.merging import merge_into_references
from rulings_anon.analyzer.recognizers.unknown_word import UnknownWordRecognizer
from rulings_anon.document import WORD_PUNCTUATION, Span
from rulings_anon.references import NAME_TYPES, UNKNOWN_TYPE, group_references, strip_affixes

UNKNOWN_WORD = UnknownWordRecognizer.name


def propose_candidates(text: str, ner=None, recognizers: bool | set[str] = True, repeat: bool = True) -> list[Span]:
    """Candidate spans of ``text``, sorted by start, not overlapping.

    :param ner: a :class:`~rulings_anon.ner.NerTagger`, a model directory, or None (rules only).
    :param recognizers: True for the default recognizers, a set of names, or False for none.
    :param repeat: also propose every other occurrence of a proposed name in the document
        (``kind="repeated"``, same source): a name found once is a candidate everywhere.
    """
    return propose_candidates_many([text], ner, recognizers, repeat)[0]


def propose_candidates_many(texts: list[str], ner=None, recognizers: bool | set[str] = True,
                            repeat: bool = True, found: list[dict | None] | None = None) -> list[list[Span]]:
    """:func:`propose_candidates` for many texts; the NER tags them in shared batches (faster).

    The rule-based work (recognizers, reference grouping) runs in a thread while TensorFlow, which
    releases the interpreter, tags the texts: on two cores they overlap.

    :param found: per text, its :func:`rulings_anon.analyzer.recognizers.hits_by_recognizer` of at
        least the ``recognizers`` when the caller has them (None: the recognizers run).
    """
    tagger = _tagger(ner)
    enabled = None if recognizers is True else set(recognizers or ())

    def hits(i: int, text: str) -> list[Span]:
        if not recognizers:
            return []
        if found is not None and found[i] is not None:
            return rec.combine(found[i], enabled)
        return rec.analyze(text, enabled=enabled)

    def rules() -> list[tuple[list[Span], list[Span]]]:
        return [(hits(i, text), group_references(text)) for i, text in enumerate(texts)]

    if tagger is not None and texts:
        with ThreadPoolExecutor(max_workers=1) as pool:
            ruled = pool.submit(rules)
            ner_spans = tagger.predict_many(texts, candidates_only=True)
            rule_results = ruled.result()
    else:
        ner_spans, rule_results = [[] for _ in texts], rules()
    result = []
    for text, spans, (hits, references) in zip(texts, ner_spans, rule_results, strict=True):
        unknown = [h for h in hits if h.source == UNKNOWN_WORD]
        merged = merge_into_references(text, list(spans) + [h for h in hits if h.source != UNKNOWN_WORD], references)
        stripped = without_affixes(text, merged)
        proposed = _with_repetitions(text, stripped) if repeat else stripped
        if unknown:
            proposed = _with_unknown_words(text, proposed, unknown, references)
        result.append(proposed)
    return result


def _with_unknown_words(text: str, spans: list[Span], unknown: list[Span],
                        references: list[Span] | None = None) -> list[Span]:
    """``spans`` plus the ``unknown_word`` hits that overlap none of them, grown to their name or
    place references: a word another finder proposed, or its repetition, is that finder's, and an
    unknown word never grows another finder's span (so the NER's references, and with them
    ``score``'s NER-alone decisions, stay as they were)."""
    spans = sorted(spans, key=lambda s: s.start)  # disjoint: merged references
    starts = [s.start for s in spans]

    def free(hit: Span) -> bool:
        i = bisect.bisect_left(starts, hit.end) - 1
        return i < 0 or spans[i].end <= hit.start

    grown = without_affixes(text, merge_into_references(text, [h for h in unknown if free(h)], references))
    # no type: a name or a place, which whoever uses the span infers from its context
    return sorted(spans + [replace(h, type=None) for h in grown if free(h)], key=lambda s: s.start)


def without_affixes(text: str, spans: list[Span]) -> list[Span]:
    """The NER's spans, persons' names and unknown words without salutations, titles and legal
    forms ("Meyer GmbH" -> "Meyer"): a person's span merged from a recognizer hit and the NER's
    may start with the NER's titles ("Dipl. - Phys. Kaiser", kept as the standalone
    ``titled_name`` hit "Kaiser")."""
    kept = (strip_affixes(text, s) if s.source == "ner" or s.type in NAME_TYPES or s.type == UNKNOWN_TYPE else s
            for s in spans)
    return [s for s in kept if s is not None]


def _with_repetitions(text: str, spans: list[Span], common: frozenset[str] | None = None) -> list[Span]:
    """``spans`` plus the other whole-word occurrences of their texts (not at the end of a
    hyphenated word: "Brandenburg" is not repeated in "Berlin-Brandenburg", "Meyer" is in
    "Meyer-Gruppe"), which the first finder's span
    stands for. Only a text that looks like a name is repeated (:func:`_repeatable`): "der", "van"
    or a common word ("Anspruch") found once is no name to look for everywhere.

    :param common: the common words never repeated; None takes
        :func:`rulings_anon.analyzer.common_words.common_words`.
    """
    names = {}
    for span in spans:
        name = text[span.start:span.end]
        if name not in names and _repeatable(name, common):
            names[name] = span
    if not names:
        return spans
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?!\w)")
    found = list(spans)
    ordered = sorted(spans, key=lambda s: s.start)
    starts = [s.start for s in ordered]
    for match in pattern.finditer(text):
        i = bisect.bisect_left(starts, match.end()) - 1  # the last span starting before the match ends
        if i < 0 or ordered[i].end <= match.start():
            first = names[match.group()]
            found.append(Span(match.start(), match.end(), match.group(), first.type, first.score, "repeated",
                              first.source))
    return sorted(found, key=lambda s: s.start)


def _repeatable(name: str, common: frozenset[str] | None = None) -> bool:
    """Whether ``name`` (a span's text) looks like a name: three characters or more, and a word of it
    is a name key (:func:`rulings_anon.analyzer.common_words.name_key`: capitalized, two letters or more, not
    all capitals) that is not a common word. "Kemper" and "Thilo von Schmiedeberg" are repeated;
    "van", "Die", "Anspruch", "US 1 183 062" are not."""
    if len(name) < 3:
        return False
    if common is None:
        common = common_words()
    keys = (name_key(word.strip(WORD_PUNCTUATION)) for word in name.split())
    return any(key is not None and key not in common for key in keys)


def _tagger(ner):
    if ner is None or hasattr(ner, "predict_many"):
        return ner
    if isinstance(ner, (str, Path)):
        from rulings_anon.ner import load_ner

        return load_ner(ner)
    raise TypeError(f"ner must be a NerTagger, a model directory or None, not {type(ner).__name__}")
