"""Move rulings from a source into a corpus: skip what is stored, count placeholders, stop at N.

A source (portal or files) yields :class:`Candidate` objects: the ruling's id, known from a
listing before anything is downloaded, and a function that loads the ruling. That is what makes
resuming cheap: an id already in the corpus costs no download.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tqdm import tqdm

from rulings_anon.document import Document
from rulings_anon.errors import InputError
from rulings_anon.escapes import printable

from .client import GaveUp
from .corpus import Corpus


@dataclass(frozen=True)
class Candidate:
    """A ruling a source can deliver: its id and how to load it. A ``local`` one (a user's file)
    costs nothing to load, so a stored ruling of its id is compared with it and replaced when the
    file's text changed; a portal's published ruling is not downloaded again."""

    id: str
    load: Callable[[], Document]
    local: bool = False


@dataclass
class Report:
    """What one run did."""

    stored: int = 0  # new rulings written to rulings.jsonl
    dropped: int = 0  # new rulings without placeholders (metadata only)
    failed: int = 0  # rulings that could not be had this time (retried next run)
    present: int = 0  # candidates already in the corpus
    updated: int = 0  # stored rulings replaced because their file's text changed
    placeholders: list[int] = field(default_factory=list)  # per stored ruling


def court_matches(court: str | None, wanted: str | None) -> bool:
    """Whether ``court`` is ``wanted`` or a part of it: "BGH" matches "BGH 9. Zivilsenat"."""
    if not wanted:
        return True
    court, wanted = " ".join((court or "").split()).casefold(), " ".join(wanted.split()).casefold()
    return court == wanted or court.startswith(wanted + " ")


def in_period(date: str | None, start: str | None, end: str | None) -> bool:
    """Whether an ISO date lies in ``[start, end]``; an unknown date passes no bound."""
    if not start and not end:
        return True
    if not date:
        return False
    return (not start or date >= start) and (not end or date <= end)


def _log_to_stderr(message: str) -> None:
    tqdm.write(printable(message, one_line=True), file=sys.stderr)


def collect(
    candidates: Iterable[Candidate],
    corpus: Corpus,
    count_placeholders: Callable[[str], int],
    keep_unanonymized: bool = False,
    limit: int | None = None,
    skip_failures: bool = True,
    log: Callable[[str], None] = _log_to_stderr,
) -> Report:
    """Store the candidates' rulings in ``corpus`` until it holds ``limit`` rulings.

    With ``skip_failures`` a ruling that cannot be downloaded or parsed is reported and
    skipped (and tried again next run); a server that stops answering ends the run.
    """
    report = Report()
    if limit is not None and corpus.kept >= limit:
        return report
    bar = tqdm(total=limit, initial=corpus.kept, unit="ruling", desc="rulings", file=sys.stderr, disable=None)
    with bar:
        for candidate in candidates:
            if candidate.id in corpus:
                if candidate.local and _update(candidate.load(), corpus, count_placeholders, keep_unanonymized, log):
                    report.updated += 1
                else:
                    report.present += 1
                continue
            try:
                document = candidate.load()
            except GaveUp:
                raise
            except InputError as exc:
                if not skip_failures:
                    raise
                log(f"skipped: {exc}")
                report.failed += 1
                continue
            count = count_placeholders(document.text)
            keep = keep_unanonymized or count > 0
            corpus.add(document, count, keep)
            if keep:
                report.stored += 1
                report.placeholders.append(count)
                bar.update()
            else:
                report.dropped += 1
                log(f"dropped {document.id}: no anonymization placeholders found")
            bar.set_postfix(dropped=report.dropped, failed=report.failed, refresh=False)
            if limit is not None and corpus.kept >= limit:
                break
    return report


def _update(document: Document, corpus: Corpus, count_placeholders, keep_unanonymized: bool, log) -> bool:
    """Replace a stored ruling whose text changed since it was stored; whether it did."""
    if not corpus.changed(document):
        return False
    count = count_placeholders(document.text)
    keep = keep_unanonymized or count > 0
    corpus.update(document, count, keep)
    if not keep:
        log(f"dropped {document.id}: its changed text has no anonymization placeholders")
    return True
