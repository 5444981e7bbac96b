"""A corpus of anonymized rulings as ``train-scorer`` learns from it: weak labels, and groups.

The placeholders the courts left are the labels: a ruling's own ``spans`` where it has them (the
bundled LER rulings, ``split``'s and ``build-testset``'s records), else the placeholder detector's.
The groups are what the thresholds are cross-validated over: courts where the corpus has several,
else years, else sources; never single documents, or a court's own habits would choose its
threshold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rulings_anon.errors import InputError

GROUPINGS = ("auto", "court", "year", "source")
LABELS = ("given", "detector")


def labelled_records(paths: Iterable, labels: str = "given", holdout_court: str | None = None) -> list[dict]:
    """The rulings of ``paths`` as ``{"id", "text", "spans", "court", "date", "source"}``, the spans
    their placeholders (``labels``: "given" keeps a ruling's own spans and asks the detector for
    the others; "detector" asks it for all); rulings of ``holdout_court`` left out."""
    from rulings_anon.fetcher.collect import court_matches
    from rulings_anon.inputs import read_input_documents
    from rulings_anon.placeholders.detector import PlaceholderDetector

    detector = None
    records = []
    for document in read_input_documents(paths):
        court = document.meta.get("court")
        if holdout_court and court_matches(str(court) if court else None, holdout_court):
            continue
        if document.gold and labels == "given":
            spans = [{"start": s.start, "end": s.end, **({"type": s.type} if s.type else {})} for s in document.spans]
        else:
            detector = detector or PlaceholderDetector()
            spans = [{"start": s.start, "end": s.end} for s in detector.detect(document.text)]
        records.append({"id": document.id, "text": document.text, "spans": spans,
                        **{k: document.meta[k] for k in ("court", "date", "source") if document.meta.get(k)}})
    return records


def group_name(value) -> str:
    """A group's name from a court, year or source: lower case, runs of other characters a hyphen."""
    return re.sub(r"[^0-9a-zäöüß]+", "-", str(value).casefold()).strip("-") or "unknown"


def _key(record: dict, grouping: str) -> str | None:
    if grouping == "year":
        match = re.match(r"\d{4}", str(record.get("date") or ""))
        return match.group(0) if match else None
    value = record.get(grouping)
    return group_name(value) if value else None


def grouped(records: list[dict], grouping: str = "auto", min_groups: int = 3) -> tuple[str, dict[str, list[dict]]]:
    """``records`` by court, year or source (``auto``: the first of them with ``min_groups``
    groups), in corpus order within each; records without the field form the group "unknown"."""
    if grouping not in GROUPINGS:
        raise InputError(f"cannot group by {grouping!r} (choose {', '.join(GROUPINGS)})")
    order = ("court", "year", "source") if grouping == "auto" else (grouping,)
    chosen = order[0]
    for candidate in order:
        if len({_key(r, candidate) for r in records}) >= min_groups:
            chosen = candidate
            break
    groups: dict[str, list[dict]] = {}
    for record in records:
        groups.setdefault(_key(record, chosen) or "unknown", []).append(record)
    return chosen, {name: groups[name] for name in sorted(groups)}
