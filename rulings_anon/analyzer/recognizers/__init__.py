"""Rule-based recognizers for the references a NER misses (thesis 9.2).

One module per recognizer, each a :class:`~rulings_anon.analyzer.recognizers.base.Recognizer` with named
patterns, context words and a validator. :data:`RECOGNIZERS` lists them explicitly;
``rulings_anon/data/recognizers.json`` says which run by default and the least score a hit needs.

    >>> analyze("IBAN DE91 1000 0000 0123 4567 89")[0].source
    'iban'
"""

from __future__ import annotations

import bisect
from functools import cache, lru_cache

from rulings_anon.data import path as data_path
from rulings_anon.document import Span
from rulings_anon.jsonl import read_json

from .account_number import AccountNumberRecognizer
from .alias import AliasRecognizer
from .authority_seat import AuthoritySeatRecognizer
from .base import Pattern, Recognizer
from .birth_date import BirthDateRecognizer
from .contract_number import ContractNumberRecognizer
from .email import EmailRecognizer
from .file_number import FileNumberRecognizer
from .iban import IbanRecognizer
from .land_parcel import LandParcelRecognizer
from .patent import PatentRecognizer
from .permit import PermitRecognizer
from .person_title import (
    DescribedPersonRecognizer,
    PartyNameRecognizer,
    PersonTitleRecognizer,
    SalutationNameRecognizer,
    TitledNameRecognizer,
)
from .phone import PhoneRecognizer
from .postcode import PostcodeRecognizer
from .road_number import RoadNumberRecognizer
from .street import StreetRecognizer
from .trademark import TrademarkRecognizer
from .unknown_word import UnknownWordRecognizer
from .url import UrlRecognizer
from .vehicle_registration import VehicleRegistrationRecognizer

RECOGNIZERS: tuple[type[Recognizer], ...] = (
    IbanRecognizer,
    AccountNumberRecognizer,
    EmailRecognizer,
    UrlRecognizer,
    PhoneRecognizer,
    PatentRecognizer,
    TrademarkRecognizer,
    PermitRecognizer,
    ContractNumberRecognizer,
    VehicleRegistrationRecognizer,
    BirthDateRecognizer,
    PersonTitleRecognizer,
    TitledNameRecognizer,
    SalutationNameRecognizer,
    PartyNameRecognizer,
    DescribedPersonRecognizer,
    StreetRecognizer,
    UnknownWordRecognizer,
    # Details a policy counts on its own (rulings_anon.analyzer.details); not run by default, so the
    # sensitivity model's features do not see them. Listed last: a recognizer's number is a feature.
    PostcodeRecognizer,
    LandParcelRecognizer,
    RoadNumberRecognizer,
    FileNumberRecognizer,
    AliasRecognizer,
    AuthoritySeatRecognizer,
)
NAMES = tuple(r.name for r in RECOGNIZERS)

__all__ = ["NAMES", "RECOGNIZERS", "Pattern", "Recognizer", "analyze", "combine", "default_config",
           "enabled_by_default", "enabled_without", "hits_by_recognizer", "is_standalone", "is_standalone_hit", "resolve_overlaps"]


@lru_cache(maxsize=1)
def default_config() -> dict:
    """``rulings_anon/data/recognizers.json``: ``min_score`` and per recognizer ``enabled``, ``standalone``
    and its options."""
    config = read_json(data_path("recognizers.json"))
    unknown = set(config["recognizers"]) - set(NAMES)
    if unknown:
        raise ValueError(f"rulings_anon/data/recognizers.json names unknown recognizers: {sorted(unknown)}")
    return config


def _settings(name: str) -> dict:
    return default_config()["recognizers"].get(name, {})


def is_standalone(name: str, score: float | None = None) -> bool:
    """Whether a hit of recognizer ``name`` (scored ``score``) is sensitive on its own, else only
    a candidate: ``standalone``, or a score of at least ``standalone_min_score`` (a street with a
    house number is an address)."""
    settings = _settings(name)
    if settings.get("standalone", False):
        return True
    least = settings.get("standalone_min_score")
    return least is not None and score is not None and score >= least


_NOT_OPTIONS = ("enabled", "standalone", "standalone_min_score")


@cache
def _instance(name: str) -> Recognizer:
    options = {k: v for k, v in _settings(name).items() if k not in _NOT_OPTIONS}
    return {r.name: r for r in RECOGNIZERS}[name](**options)


def is_standalone_hit(span: Span) -> bool:
    """Whether ``span`` is a recognizer hit sensitive without the contextual model."""
    return span.source in NAMES and is_standalone(span.source, span.score)


def enabled_by_default() -> set[str]:
    """The recognizers ``rulings_anon/data/recognizers.json`` runs by default."""
    return {name for name, settings in default_config()["recognizers"].items() if settings.get("enabled")}


def enabled_without(skipped: str) -> bool | set[str]:
    """The recognizers to run when the comma-separated names ``skipped`` are not to: True (the
    defaults) when none is named; :class:`ValueError` naming an unknown one and the known ones."""
    names = {name.strip() for name in skipped.split(",") if name.strip()}
    if not names:
        return True
    unknown = names - set(NAMES)
    if unknown:
        raise ValueError(f"unknown recognizer {', '.join(sorted(unknown))}; known: {', '.join(NAMES)}")
    return without(True, names)


def without(recognizers: bool | set[str], names: set[str]) -> bool | set[str]:
    """``recognizers`` (True for the defaults, a set of names, or False for none) less ``names``."""
    if not recognizers:
        return recognizers
    return (enabled_by_default() if recognizers is True else set(recognizers)) - set(names)


def analyze(text: str, enabled: set[str] | None = None, min_score: float | None = None) -> list[Span]:
    """Spans of every enabled recognizer's references, overlaps resolved, sorted by start.

    :param enabled: recognizer names to run; ``None`` runs the defaults of
        ``rulings_anon/data/recognizers.json``.
    :param min_score: drop hits scored lower; ``None`` takes the configured value.
    """
    enabled = _checked(enabled)
    return combine(hits_by_recognizer(text, enabled, min_score), enabled)


def hits_by_recognizer(text: str, enabled: set[str] | None = None,
                       min_score: float | None = None) -> dict[str, list[Span]]:
    """Each enabled recognizer's hits in ``text`` scored at least ``min_score`` (None: the configured
    value), overlaps not yet resolved: what :func:`combine` makes :func:`analyze`'s result of, for
    any subset of these recognizers, without running them again."""
    floor = default_config()["min_score"] if min_score is None else min_score
    enabled = _checked(enabled)
    return {name: [s for s in _instance(name).analyze(text) if s.score >= floor] for name in NAMES if name in enabled}


def combine(hits: dict[str, list[Span]], enabled: set[str] | None = None) -> list[Span]:
    """:func:`analyze`'s spans of the ``enabled`` recognizers (None: the defaults) from their
    :func:`hits_by_recognizer`, which must hold every one of them."""
    enabled = _checked(enabled)
    return resolve_overlaps([s for name in NAMES if name in enabled for s in hits[name]])


def _checked(enabled: set[str] | None) -> set[str]:
    if enabled is None:
        return enabled_by_default()
    unknown = set(enabled) - set(NAMES)
    if unknown:
        raise ValueError(f"unknown recognizers {sorted(unknown)}; known: {', '.join(NAMES)}")
    return enabled


def resolve_overlaps(spans: list[Span]) -> list[Span]:
    """Keep the best of overlapping spans (higher score, then longer), sorted by start."""
    starts: list[int] = []  # kept spans, sorted by start and disjoint
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: (-(s.score or 0.0), -(s.end - s.start), s.start)):
        i = bisect.bisect_left(starts, span.start)
        if (i > 0 and kept[i - 1].end > span.start) or (i < len(kept) and kept[i].start < span.end):
            continue
        starts.insert(i, span.start)
        kept.insert(i, span)
    return kept
