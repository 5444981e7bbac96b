"""What a review hands on: the anonymized rulings, the decision log and the reviewed spans as gold.

One folder, written whole or not at all (``jsonl.atomic_folder``, private: it holds names):

* ``anonymized.jsonl``: ``{"id", ...the ruling's fields, "text"}`` with every span not rejected
  replaced by the operator chosen (an open suggestion is replaced too: nothing unchecked leaks);
  ``policy`` replaces each span by the operator the review's court policy gives its type, as
  ``score --anonymize --policy`` does;
* ``decisions.jsonl``: every decision with its time and reviewer (the audit trail);
* ``gold.jsonl``: the rulings marked done, ``{"id", "text", "spans": [{"start", "end", "type"}]}``,
  the test set format ``rulings-anon evaluate --test`` reads;
* ``summary.json``: what was exported and what is still open;
* ``documents/``: each ruling read from a .docx/.odt (.pdf/.rtf) file, anonymized in that format
  (:mod:`.document_export`), named as ``summary.json``'s ``documents`` says.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulings_anon.document import Span
from rulings_anon.engine import apply_operator
from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_folder

from .database import ACTIVE, ReviewDatabase
from .document_export import FOLDER, document_sources, write_documents
from .stored_policy import POLICY_OPERATOR, REVIEW_OPERATORS, stored_policy

FILES = ("anonymized.jsonl", "decisions.jsonl", "gold.jsonl", "summary.json")


def is_earlier_export(folder: Path) -> bool:
    return {p.name for p in folder.iterdir()} <= {*FILES, FOLDER} and (folder / "summary.json").is_file()


def reviewed_spans(database: ReviewDatabase, ruling_id: str, engine_types: bool = False) -> list[Span]:
    """The spans a ruling is anonymized with: every span shown and not rejected. With
    ``engine_types`` a suggestion keeps the engine's own type (BIRTH_DATE, IBAN, ...) unless the
    reviewer gave it another: the type a court policy's operators are looked up by, as in ``score``."""
    from rulings_anon.replacement.court_style import surrogate_type

    own = database.engine_types(ruling_id) if engine_types else {}
    return [Span(s.start, s.end, type=own[s.id] if s.id in own and surrogate_type(own[s.id]) == s.type else s.type)
            for s in database.spans(ruling_id) if s.state in ACTIVE]


def anonymized_text(database: ReviewDatabase, ruling, operator: str, policy=None) -> str:
    """The ruling's text with its reviewed spans replaced; the ``policy`` output follows ``policy``
    (a :class:`~rulings_anon.replacement.policy.Policy`, default the review's)."""
    if operator == POLICY_OPERATOR:
        from rulings_anon.replacement.operators import replace
        from rulings_anon.replacement.policy import PolicyOperator

        policy = policy if policy is not None else stored_policy(database).policy
        return replace(ruling.text, reviewed_spans(database, ruling.id, engine_types=True),
                       PolicyOperator(policy, ruling.id)).text
    return apply_operator(ruling.text, reviewed_spans(database, ruling.id), operator, ruling.id)


def export_review(database: ReviewDatabase, folder, operator: str) -> dict:
    """Write the export folder; returns its summary."""
    if operator not in REVIEW_OPERATORS:
        raise InputError(f"unknown operator {operator!r}; known: {', '.join(REVIEW_OPERATORS)}")
    policy = stored_policy(database).policy if operator == POLICY_OPERATOR else None
    rulings = [r for r in database.rulings() if r.error is None]
    summary = {"operator": operator, "rulings": len(rulings), "done": 0, "open_suggestions": 0,
               "failed": [r.id for r in database.rulings() if r.error is not None]}
    sources = document_sources(database, rulings)
    with atomic_folder(Path(folder), is_earlier_export, private=True) as staging:
        with (staging / "anonymized.jsonl").open("w", encoding="utf-8") as anonymized, \
                (staging / "gold.jsonl").open("w", encoding="utf-8") as gold:
            for ruling in rulings:
                record = {"id": ruling.id, **ruling.record, "text": anonymized_text(database, ruling, operator, policy)}
                anonymized.write(json.dumps(record, ensure_ascii=False) + "\n")
                summary["open_suggestions"] += sum(s.state == "open" for s in database.spans(ruling.id))
                if ruling.done:
                    summary["done"] += 1
                    spans = [{"start": s.start, "end": s.end, **({"type": s.type} if s.type else {})}
                             for s in reviewed_spans(database, ruling.id)]
                    gold.write(json.dumps({"id": ruling.id, "text": ruling.text, "spans": spans},
                                          ensure_ascii=False) + "\n")
        with (staging / "decisions.jsonl").open("w", encoding="utf-8") as log:
            for decision in database.decisions():
                log.write(json.dumps(decision, ensure_ascii=False) + "\n")
        names = write_documents(staging / FOLDER, sources,
                                lambda i: reviewed_spans(database, i, engine_types=policy is not None), operator, policy)
        summary["documents"] = {i: f"{FOLDER}/{n}" for i, n in zip(sources, names, strict=True)}
        (staging / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary
