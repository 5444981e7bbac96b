"""The product's engine: the spans a ruling must have anonymized, and the anonymized ruling.

Presidio's split, for German rulings: an :class:`Analyzer` returns the sensitive spans of a text
(the element model, the recognizers, the exemptions, per-document consistency and the joins
across a name's particle, with every setting resolved once, here); an :class:`Anonymizer`
applies an operator to them. ``score``, ``evaluate`` and the Beam workers build their analyzer
here, so a caller of this API gets exactly the spans ``score`` writes with the same options::

    from rulings_anon import Anonymizer

    result = Anonymizer().anonymize("Der Kläger Thomas Wimmer wohnt in Aichach.")
    result.text    # 'Der Kläger T. W. wohnt in ....'
    result.spans   # [Span(11, 24, 'Thomas Wimmer', ...), Span(34, 41, 'Aichach', ...)]

The default analyzer is the bundled sensitivity model (``rulings_anon/data/scorer``), which needs no
TensorFlow. A contextual model of ``rulings-anon train`` or the legal NER are the toolkit's
(``rulings-anon score --model/--ner``); an already loaded element model of any kind is accepted
as ``element_model``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from .defaults import DEFAULT_COMBINATION, DEFAULT_NER_THRESHOLD, DEFAULT_THRESHOLD
from .document import Document, Span, split_elements
from .errors import InputError


@runtime_checkable
class ElementModel(Protocol):
    """What judges a document's elements: one probability per ``split_elements`` element.

    ``candidates`` (document id -> element indices) are masked for a contextual model; a model
    that judges unmasked elements only refuses them. ``kind`` is what its directory records
    (:mod:`rulings_anon.model_kinds`); a model that ``reads_recognizer_hits`` takes each text's
    ``elements`` and recognizer hits from the caller, as keyword arguments of ``probabilities``,
    so the recognizers run once."""

    kind: str
    reads_recognizer_hits: bool

    def probabilities(self, documents: Sequence[Document],
                      candidates: Mapping[str, set[int]] | None = None) -> list[np.ndarray]: ...


def default_threshold(mode: str, combination: str) -> float:
    """The threshold of a model without a stored one: ``mode`` is ``none``, ``ner`` or ``random``."""
    return DEFAULT_NER_THRESHOLD if mode == "ner" and combination == "ner" else DEFAULT_THRESHOLD


def resolve_threshold(threshold: float | None, model_dir, recall_first: bool, mode: str,
                      combination: str) -> float:
    """The one place a decision's threshold is chosen: the caller's, else the one a sensitivity
    model directory stores for its default or recall-first rule, else the default of the mode.
    ``recall_first`` without a threshold needs a sensitivity model (an :class:`InputError` otherwise)."""
    from .analyzer.sensitivity_model import is_sensitivity_directory, stored_threshold

    if threshold is not None:
        return threshold
    if model_dir is not None and is_sensitivity_directory(model_dir):
        return stored_threshold(model_dir, recall_first=recall_first)
    if recall_first:
        raise InputError("--recall-first needs the sensitivity model: give --features (or --model rulings_anon/data/scorer --no-ner)")
    return default_threshold(mode, combination)


def court_policy(policy=None):
    """A court's ``policy`` as a :class:`~rulings_anon.replacement.policy.Policy`: given as one, read
    from a .toml/.json file or a shipped policy's name ("state-court"), or the shipped
    ``rulings_anon/data/policies/default.toml`` for None."""
    from .replacement import policy as policies

    return policy if isinstance(policy, policies.Policy) else policies.load_policy(policy)


def alone_details(policy=None) -> tuple[str, ...]:
    """The details a court's ``policy`` (see :func:`court_policy`) counts on its own."""
    return court_policy(policy).alone


def follow_exemptions(model, recall_first: bool, policy=None):
    """``model`` following the exemptions of one analyzer: with ``recall_first`` the sensitivity
    model's public rules lower a probability instead of zeroing it, and those the court's ``policy``
    switches off (``[exemptions]``) do neither. A copy (the boosters shared), so analyzers given one
    loaded model keep their own modes; another element model has no such rules and is returned as is."""
    import copy

    inner = getattr(model, "model", None)
    if not hasattr(inner, "follow_exemptions"):
        return model
    model, inner = copy.copy(model), copy.copy(inner)
    model.model = inner
    inner.follow_exemptions(recall_first, court_policy(policy).exempt_off)
    return model


def resolve_recognizers(enabled: bool = True, skip: str | Iterable[str] = "") -> bool | set[str]:
    """The recognizers to run: True for the defaults of ``rulings_anon/data/recognizers.json``, a set without
    the ``skip``ped ones, or False for none (an unknown name is an :class:`InputError` listing the
    known ones)."""
    from .analyzer.recognizers import enabled_without

    if not enabled:
        return False
    skipped = skip if isinstance(skip, str) else ",".join(skip)
    try:
        return enabled_without(skipped)
    except ValueError as exc:
        raise InputError(f"--skip-recognizers: {exc}") from None


def decision_settings(threshold: float, consistency: bool = True, batch_vocabulary: bool = False,
                      combination: str = DEFAULT_COMBINATION, texts: Iterable[str] | None = None,
                      batch_words: frozenset | None = None):
    """The :class:`~rulings_anon.analyzer.decisions.Settings` of one batch: the common words that
    consistency never spreads are the dev courts' and, with ``batch_vocabulary``, the words that
    recur in the batch's ``texts`` as the analyzer reads them (:func:`analyzed_text`), or
    ``batch_words``, counted elsewhere (the Beam pipeline). Without it (the default) a ruling's
    spans are the same alone and among any others."""
    from .analyzer.common_words import common_words, common_words_for
    from .analyzer.decisions import Settings

    words = frozenset()
    if consistency:
        if not batch_vocabulary:
            words = common_words()
        elif batch_words is not None:
            words = common_words() | batch_words
        else:
            words = common_words_for(analyzed_text(t) for t in (texts if texts is not None else ()))
    return Settings(threshold, consistency, words, combination)


def analyzed_text(text: str) -> str:
    """``text`` as the analyzer reads it (:mod:`rulings_anon.normalization`: composed letters, no
    invisible marks, ...): what the batch vocabulary counts, so an NFD ruling counts as its NFC one."""
    from .normalization import normalize

    return normalize(text, _known_word, name_cues()).text


@dataclass
class Scorer:
    """A loaded element model, the proposers and the decision settings of one batch."""

    model: object  # an ElementModel, or None when the combination needs none
    settings: object  # rulings_anon.analyzer.decisions.Settings
    ner: object = None  # rulings_anon.ner.NerTagger or None
    recognizers: bool | set[str] = True
    details: tuple[str, ...] = ()  # the details a court's policy counts on its own (rulings_anon.analyzer.details)

    @property
    def mode(self) -> str:
        return "none" if self.ner is None else "ner"

    def score(self, documents: list[Document]) -> list[list[Span]]:
        """The sensitive spans of each document, sorted by start: found in the normalized text
        (:mod:`rulings_anon.normalization`), with the policy's details that count on their own,
        given as whole characters of the document's own."""
        from .analyzer.details import with_details
        from .analyzer.evidence import observe
        from .normalization import normalize, original_spans

        normalized = [normalize(d.text, _known_word, name_cues()) for d in documents]
        documents = [replace(d, text=n.text) if n.changed else d for d, n in zip(documents, normalized, strict=True)]
        elements = [split_elements(d.text) for d in documents]
        observations = observe(documents, elements, self.model, self.mode, ner=self.ner,
                               recognizers=self.recognizers)
        return [original_spans(with_details(d.text, o.spans(d.text, els, self.settings), self.details), n)
                for d, els, o, n in zip(documents, elements, observations, normalized, strict=True)]


@lru_cache(maxsize=1)
def name_cues():
    """The analyzer's knowledge of names that normalization reads for words in capitals."""
    from .analyzer.name_parts import first_name, name_part
    from .analyzer.sensitivity import _affixes
    from .normalization import NameCues

    affixes = _affixes()
    before = frozenset().union(*(affixes[k] for k in ("salutations", "academic_titles", "prefixes", "judge_roles")))
    return NameCues(before | _party_words(), first_name, name_part, affixes["legal_forms"])


def _party_words() -> frozenset[str]:
    """The nouns of parties and persons the placeholder detector reads a placeholder after
    ("Angeklagten", "Klägerin", "Geschäftsführer"), capitalized, and their "Mit-" compounds
    ("Mitangeklagten"): a word in capitals after one is a person's name ("der Mitangeklagten KELLER")."""
    from . import data
    from .jsonl import read_json

    triggers = read_json(data.path("placeholder_patterns.json"))["person_triggers"]
    nouns = [t[:1].upper() + t[1:] for t in triggers if t.isalpha() and len(t) > 3]
    return frozenset(nouns) | frozenset("Mit" + t.lower() for t in nouns)


def _known_word(word: str) -> bool:
    """Whether the sensitivity model's word clusters list ``word`` as written."""
    from .analyzer.sensitivity import clusters

    return clusters().get(word) is not None


def load_sensitivity_model(model_dir=None):
    """The sensitivity model of ``model_dir`` (default the bundled ``rulings_anon/data/scorer``) as an element model."""
    from .analyzer.sensitivity_model import SensitivityElementModel

    return SensitivityElementModel(model_dir)


class Analyzer:
    """The sensitive spans of rulings, with every option resolved once.

    :param model: a sensitivity model directory (default the bundled ``rulings_anon/data/scorer``).
    :param element_model: an element model already loaded (any :class:`ElementModel`); replaces ``model``.
    :param threshold: the least score of a sensitive element; default the model's stored one.
    :param recall_first: the model's recall-first threshold, for review where staff check every suggestion.
    :param recognizers: run the rule-based recognizers (IBAN, e-mail, phone, "Herr Kemper", ...);
        ``skip_recognizers`` names some not to run.
    :param consistency: flag every mention in a document of a name flagged once in it.
    :param batch_vocabulary: words recurring in many of the rulings analyzed together are the
        court's vocabulary, never spread as names. Off by default: it can only take spans away, so
        with it a ruling's spans depend on the rulings analyzed with it.
    :param ner: a loaded legal NER proposing references (``combination`` says how they are judged).
    :param policy: the court's policy (a :class:`~rulings_anon.replacement.policy.Policy` or a .toml/.json
        file; default the shipped one): the details its ``[alone]`` table names (a birth date, a
        postcode with its town, a land parcel, ...) are spans whatever the model says.
    """

    def __init__(self, model=None, *, element_model=None, threshold: float | None = None,
                 recall_first: bool = False, recognizers: bool = True, skip_recognizers: str | Iterable[str] = "",
                 consistency: bool = True, batch_vocabulary: bool = False, ner=None,
                 combination: str | None = None, policy=None):
        from rulings_anon.data import path as data_path

        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise InputError(f"threshold must be in 0..1, got {threshold}")
        bundled = model is None and element_model is None and ner is None
        self.model_dir = Path(model) if model is not None else (data_path("scorer") if bundled else None)
        self.mode = "none" if ner is None else "ner"
        self.combination = combination or DEFAULT_COMBINATION
        self.threshold = resolve_threshold(threshold, self.model_dir, recall_first, self.mode, self.combination)
        self.recognizers = resolve_recognizers(recognizers, skip_recognizers)
        self.consistency = consistency
        self.batch_vocabulary = batch_vocabulary
        self.ner = ner
        policy = court_policy(policy)  # read once: its details and its exemptions
        self.details = alone_details(policy)
        self.model = element_model if element_model is not None else (
            load_sensitivity_model(self.model_dir) if bundled or model is not None else None)
        self.model = follow_exemptions(self.model, recall_first, policy)

    def scorer(self, texts: Callable[[], Iterable[str]] | Sequence[str] | None = None,
               batch_words: frozenset | None = None) -> Scorer:
        """The scorer of one batch: its settings (the batch vocabulary of ``texts`` or ``batch_words``,
        where ``batch_vocabulary`` asks for one). ``texts`` is the batch's texts or a function giving
        them afresh (read once, and only for the batch vocabulary, never held here)."""
        read = texts if callable(texts) or texts is None else (lambda: texts)
        settings = decision_settings(self.threshold, self.consistency, self.batch_vocabulary, self.combination,
                                     read() if read is not None and self.reads_batch_vocabulary else None,
                                     batch_words)
        return Scorer(self.model, settings, self.ner, self.recognizers, self.details)

    @property
    def reads_batch_vocabulary(self) -> bool:
        """Whether the decision takes the words recurring in the batch's texts."""
        return self.consistency and self.batch_vocabulary

    def analyze(self, text: str) -> list[Span]:
        """The sensitive spans of one ruling, decided on that ruling alone."""
        return self.analyze_batch([text])[0]

    def analyze_batch(self, texts: Sequence[str], ids: Sequence[str] | None = None) -> list[list[Span]]:
        """The sensitive spans of rulings analyzed together (``score``'s batch): each ruling's are
        those it has alone, unless ``batch_vocabulary`` takes the words recurring in them away."""
        texts = [_checked_text(t) for t in texts]
        ids = list(ids) if ids is not None else [f"document-{n}" for n in range(1, len(texts) + 1)]
        scorer = self.scorer(texts)
        return scorer.score([Document(i, t) for i, t in zip(ids, texts, strict=True)])


def _checked_text(text) -> str:
    if not isinstance(text, str):
        raise TypeError(f"a ruling's text is a str, not {type(text).__name__}")
    return text


# The operators a caller chooses by name: court-style placeholders, consistent realistic
# surrogates, or the category of each span.
OPERATOR_NAMES = ("placeholder", "pseudonym", "tag")


@dataclass(frozen=True)
class AnonymizerResult:
    """An anonymized ruling: its ``text`` and the sensitive ``spans`` of the original it replaced."""

    text: str
    spans: list[Span] = field(default_factory=list)

    def __str__(self) -> str:
        return self.text


def apply_operator(text: str, spans: Sequence[Span], operator: str = "placeholder", doc_id: str = "document",
                   seed: int = 0) -> str:
    """``text`` with ``spans`` replaced by the operator named (one of :data:`OPERATOR_NAMES`)."""
    from .replacement import operators

    if operator == "placeholder":
        return operators.anonymize(text, spans)
    if operator == "pseudonym":
        return operators.pseudonymize_references(text, spans, doc_id, seed)[0]
    if operator == "tag":
        return operators.replace(text, spans, operators.CategoryTag()).text
    raise InputError(f"unknown operator {operator!r}; known: {', '.join(OPERATOR_NAMES)}")


def apply_policy(text: str, spans: Sequence[Span], policy=None, doc_id: str = "document", seed: int = 0) -> str:
    """``text`` with ``spans`` replaced as a court's policy says: an operator per type, names never
    and always anonymized (``policy``: a :class:`~rulings_anon.replacement.policy.Policy`, a
    .toml/.json file, or None for the shipped ``rulings_anon/data/policies/default.toml``)."""
    from .replacement import policy as policies

    return policies.apply_policy(text, spans, court_policy(policy), doc_id, seed)


def policy_spans(text: str, spans: Sequence[Span], policy=None) -> list[Span]:
    """``spans`` as a court's policy counts them: a span on its allow list (the court's judges) left
    out, every mention of a name on its deny list added. Without either list the spans stay as
    they are, in their order (what ``score`` writes does not change under the shipped policy)."""
    from .replacement import policy as policies

    chosen = court_policy(policy)
    if not chosen.allow and not chosen.deny:
        return list(spans)
    return policies.policy_spans(text, spans, chosen)


class Anonymizer:
    """Anonymize rulings: the :class:`Analyzer`'s spans replaced by an operator.

    :param operator: ``placeholder`` (court style: "Herr K.", "die M GmbH", "..."), ``pseudonym``
        (consistent realistic surrogates, ``seed`` chooses them) or ``tag`` ("<person>").
    :param analyzer: an :class:`Analyzer`; otherwise one is built from ``analyzer_options``
        (``threshold``, ``recall_first``, ``model``, ...).
    """

    def __init__(self, operator: str = "placeholder", *, analyzer: Analyzer | None = None, seed: int = 0,
                 **analyzer_options):
        if operator not in OPERATOR_NAMES:
            raise InputError(f"unknown operator {operator!r}; known: {', '.join(OPERATOR_NAMES)}")
        if analyzer is not None and analyzer_options:
            raise TypeError("give an analyzer or its options, not both")
        self.operator = operator
        self.seed = seed
        self.analyzer = analyzer or Analyzer(**analyzer_options)

    def analyze(self, text: str) -> list[Span]:
        """The sensitive spans of one ruling (what :meth:`anonymize` replaces)."""
        return self.analyzer.analyze(text)

    def anonymize(self, text: str, doc_id: str = "document") -> AnonymizerResult:
        """One ruling anonymized; ``doc_id`` seeds its pseudonyms."""
        spans = self.analyze(text)
        return AnonymizerResult(apply_operator(text, spans, self.operator, doc_id, self.seed), spans)

    def anonymize_batch(self, texts: Sequence[str], ids: Sequence[str] | None = None) -> list[AnonymizerResult]:
        """Rulings analyzed together (as ``score`` does a batch), each anonymized."""
        ids = list(ids) if ids is not None else [f"document-{n}" for n in range(1, len(texts) + 1)]
        found = self.analyzer.analyze_batch(texts, ids)
        return [AnonymizerResult(apply_operator(t, s, self.operator, i, self.seed), s)
                for t, s, i in zip(texts, found, ids, strict=True)]
