"""A court's anonymization policy: which operator each type gets, names never and always anonymized.

A policy file is JSON or TOML (``rulings_anon/data/policies/default.toml`` is the shipped default and documents
the keys): ``operators`` maps a type to ``placeholder``, ``pseudonym``, ``tag``, ``redact`` or
``keep``; ``allow`` lists names never anonymized (a span whose words all belong to one is left out);
``deny`` lists names always anonymized (every whole-word mention becomes a span); ``alone`` says which
details count on their own, whatever the contextual model says (a birth date, a postcode with its
town, a land parcel; the engine adds them). Presidio chooses operators per entity type the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rulings_anon.document import Span
from rulings_anon.entity_types import DETAIL_NAMES
from rulings_anon.errors import InputError

from .court_style import reference_type, surrogate_type
from .operators import (
    CourtPlaceholder,
    Keep,
    NumberedTag,
    Operator,
    Piece,
    Redact,
    ReferenceSurrogate,
    replace,
)

OPERATOR_CHOICES = ("placeholder", "pseudonym", "tag", "redact", "keep")


@dataclass(frozen=True)
class Policy:
    operators: dict[str, str] = field(default_factory=lambda: {"default": "placeholder"})
    allow: tuple[str, ...] = ()
    deny: tuple[tuple[str, str], ...] = ()  # (name, type)
    alone: tuple[str, ...] = ()  # the details (rulings_anon.entity_types.DETAIL_NAMES) that count on their own
    exempt_off: tuple[str, ...] = ()  # the EXEMPTIONS this court does not follow


def default_policy_path() -> Path:
    from rulings_anon.data import path as data_path

    return Path(data_path("policies")) / "default.toml"


def shipped_policies() -> dict[str, Path]:
    """The policies shipped in ``rulings_anon/data/policies/`` by name ("default", "state-court")."""
    from rulings_anon.data import path as data_path

    return {p.stem: p for p in sorted(Path(data_path("policies")).glob("*.toml"))}


def policy_path(path) -> Path:
    """``path`` as given, or the shipped policy of that name where no such file exists
    (``--policy state-court``)."""
    path = Path(path)
    if not path.exists() and not path.suffix and path.name == str(path) and path.name in shipped_policies():
        return shipped_policies()[path.name]
    return path


def policy_bytes(path=None) -> tuple[bytes, Path]:
    """The bytes of a policy file or a shipped policy's name (default: the shipped default) and
    the file they were read from; a missing or unreadable one is an :class:`InputError` naming it."""
    path = policy_path(path) if path is not None else default_policy_path()
    if not path.exists() and not path.suffix:
        raise InputError(f"no such policy file, nor a shipped policy (shipped: {', '.join(shipped_policies())})", path)
    try:
        return path.read_bytes(), path
    except OSError as exc:
        raise InputError(f"cannot read the policy ({exc.strerror})", path) from None


def load_policy(path=None) -> Policy:
    """The policy of a ``.toml`` or ``.json`` file or a shipped policy's name (default: the shipped
    default); a wrong file is an :class:`InputError` naming it."""
    return read_policy(*policy_bytes(path))


def read_policy(raw: bytes, path) -> Policy:
    """The policy of a file's bytes ``raw``, TOML or JSON as ``path``'s suffix says (a review file
    keeps the bytes of the policy it was started with); a wrong one is an :class:`InputError` naming ``path``."""
    path = Path(path)
    try:
        if path.suffix.lower() == ".toml":
            import tomllib

            data = tomllib.loads(raw.decode("utf-8"))
        else:
            data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"not a policy file ({type(exc).__name__}: {str(exc).splitlines()[0][:80]})", path) from None
    return policy_from(data, path)


def policy_from(data, where=None) -> Policy:
    if not isinstance(data, dict):
        raise InputError("a policy is a table with operators, allow, deny and alone", where)
    unknown = sorted(set(data) - {"operators", "allow", "deny", "alone", "exemptions"})
    if unknown:
        raise InputError(f"unknown policy key {unknown[0]!r} (known: operators, allow, deny, alone, exemptions)",
                         where)
    operators = data.get("operators", {})
    if not isinstance(operators, dict) or not all(isinstance(v, str) for v in operators.values()):
        raise InputError("'operators' maps types to operator names", where)
    for kind, name in operators.items():
        if name not in OPERATOR_CHOICES:
            raise InputError(f"operator {name!r} for {kind!r} is unknown (known: {', '.join(OPERATOR_CHOICES)})",
                             where)
    allow = data.get("allow", [])
    deny = data.get("deny", [])
    if not isinstance(allow, list) or not all(isinstance(n, str) and n.strip() for n in allow):
        raise InputError("'allow' is a list of names", where)
    if not isinstance(deny, list):
        raise InputError("'deny' is a list of names (or of {name, type} tables)", where)
    denied = []
    for entry in deny:
        name, kind = (entry, "person") if isinstance(entry, str) else (
            (entry.get("name"), entry.get("type", "person")) if isinstance(entry, dict) else (None, None))
        if not isinstance(name, str) or not name.strip() or not isinstance(kind, str):
            raise InputError("'deny' is a list of names (or of {name, type} tables)", where)
        denied.append((name.strip(), kind))
    return Policy({"default": "placeholder", **operators}, tuple(a.strip() for a in allow), tuple(denied),
                  alone_details(data.get("alone", {}), where), exemptions_off(data.get("exemptions", {}), where))


# names printed in clear by convention, each a rule of the sensitivity model
# (rulings_anon.analyzer.sensitivity_model.EXEMPTION_COLUMNS): the deciding judges and public
# officials, the seats of courts and authorities (and landmarks named after their place), cited
# decisions, cases and authors and quoted terms, listed abbreviations, countries and states
EXEMPTIONS = ("judges", "seats", "public_names", "abbreviations", "countries")


def exemptions_off(table, where=None) -> tuple[str, ...]:
    """The exemptions an ``[exemptions]`` table (exemption -> true/false) switches off (false);
    one it leaves out holds."""
    if not isinstance(table, dict) or not all(isinstance(v, bool) for v in table.values()):
        raise InputError("'exemptions' maps exemptions to true or false", where)
    unknown = sorted(set(table) - set(EXEMPTIONS))
    if unknown:
        raise InputError(f"unknown exemption {unknown[0]!r} (known: {', '.join(EXEMPTIONS)})", where)
    return tuple(name for name in EXEMPTIONS if table.get(name) is False)


def alone_details(table, where=None) -> tuple[str, ...]:
    """The details an ``[alone]`` table (detail -> true/false) counts on its own, in
    :data:`~rulings_anon.entity_types.DETAIL_NAMES` order; a detail it leaves out does not count."""
    if not isinstance(table, dict) or not all(isinstance(v, bool) for v in table.values()):
        raise InputError("'alone' maps details to true or false", where)
    unknown = sorted(set(table) - set(DETAIL_NAMES))
    if unknown:
        raise InputError(f"unknown detail {unknown[0]!r} in 'alone' (known: {', '.join(DETAIL_NAMES)})", where)
    return tuple(name for name in DETAIL_NAMES if table.get(name))


class PolicyOperator(Operator):
    """Each span replaced by the operator its type gets in the policy."""

    name = "policy"

    def __init__(self, policy: Policy, doc_id: str = "document", seed: int = 0, mapping=None):
        self.policy = policy
        self.choices = {"placeholder": CourtPlaceholder(), "pseudonym": ReferenceSurrogate(doc_id, seed, mapping),
                        "tag": NumberedTag(), "redact": Redact(), "keep": Keep()}

    def choice(self, text: str, span: Span) -> str:
        raw = reference_type(text, span)
        operators = self.policy.operators
        return operators.get(raw) or operators.get(surrogate_type(raw)) or operators["default"]

    def operate(self, text: str, span: Span) -> Piece:
        return self.choices[self.choice(text, span)].operate(text, span)


def _words(name: str) -> set[str]:
    return {w.lower() for w in re.findall(r"\w+", name)}


def policy_spans(text: str, spans: Sequence[Span], policy: Policy) -> list[Span]:
    """``spans`` without the allowed names, with every mention of a denied name added."""
    allowed = [_words(a) for a in policy.allow]
    kept = [s for s in spans if not any(_words(text[s.start:s.end]) <= words for words in allowed)]
    for name, kind in policy.deny:
        pattern = re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?!\w)")
        for match in pattern.finditer(text):
            if not any(s.start < match.end() and match.start() < s.end for s in kept):
                kept.append(Span(match.start(), match.end(), match.group(), type=kind))
    return sorted(kept, key=lambda s: (s.start, s.end))


def apply_policy(text: str, spans: Sequence[Span], policy: Policy, doc_id: str = "document", seed: int = 0) -> str:
    """``text`` anonymized as the policy says."""
    return replace(text, policy_spans(text, spans, policy), PolicyOperator(policy, doc_id, seed)).text
