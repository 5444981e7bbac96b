"""``score``: the sensitive spans of new, non-anonymized rulings (thesis 7.1, 9.2).

Without a NER model every element is classified unmasked (the ``none`` method) and standalone
recognizer hits (IBAN, e-mail, ...) are added; with ``--ner`` the legal NER and the recognizers
propose references, which are masked and judged by the contextual model (the ``ner`` method).
Either way :func:`rulings_anon.analyzer.decisions.decide` makes the spans, with per-document consistency,
so ``evaluate`` with the same options measures exactly what ``score`` writes.

Documents are scored in chunks; finished documents go to ``OUTPUT.partial`` at once, so an
interrupted run resumes where it stopped, and the outputs are written atomically at the end.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulings_anon.analyzer.decisions import Settings
from rulings_anon.analyzer.evidence import observe
from rulings_anon.defaults import (
    DEFAULT_COMBINATION,  # noqa: F401 (the scorer's defaults, read by the benchmarks)
    DEFAULT_NER_THRESHOLD,
    DEFAULT_THRESHOLD,
    SCORE_CHUNK_ELEMENTS,
)
from rulings_anon.document import Document, Span, count_elements, spans_record, split_elements
from rulings_anon.errors import InputError
from rulings_anon.jsonl import JsonlAppender, atomic_writer, read_jsonl, write_jsonl

from .prediction import chunks

CHUNK_ELEMENTS = SCORE_CHUNK_ELEMENTS


def default_threshold(mode: str, combination: str) -> float:
    """The threshold used when none is given: ``mode`` is ``none``, ``ner`` or ``random``."""
    return DEFAULT_NER_THRESHOLD if mode == "ner" and combination == "ner" else DEFAULT_THRESHOLD


@dataclass
class Scorer:
    """The model, the proposers and the decision settings of one ``score`` run."""

    model: object  # evaluation.prediction.ElementModel, or None when the combination needs none
    settings: Settings
    ner: object = None  # rulings_anon.ner.NerTagger or None
    recognizers: bool = True

    @property
    def mode(self) -> str:
        return "none" if self.ner is None else "ner"

    def score(self, documents: list[Document]) -> list[list[Span]]:
        """The sensitive spans of each document, sorted by start."""
        elements = [split_elements(d.text) for d in documents]
        observations = observe(documents, elements, self.model, self.mode, ner=self.ner,
                               recognizers=self.recognizers)
        return [o.spans(d.text, els, self.settings)
                for d, els, o in zip(documents, elements, observations, strict=True)]


def unique_ids(documents: Iterable[Document]) -> Iterator[Document]:
    """The documents, refusing a repeated id (spans are matched to documents by id)."""
    seen: set[str] = set()
    for document in documents:
        if document.id in seen:
            raise InputError(f"two input documents have the id {document.id!r}; give them distinct ids")
        seen.add(document.id)
        yield document


@dataclass
class ScoreRun:
    """Where ``score`` writes: the spans file and, when asked, anonymized and pseudonymized texts."""

    output: Path
    anonymize: Path | None = None
    pseudonymize: Path | None = None
    seed: int = 0

    @property
    def partial(self) -> Path:
        return self.output.with_name(f".{self.output.name}.partial")

    def done_ids(self) -> set[str]:
        if not self.partial.exists():
            return set()
        return {r["id"] for r in read_jsonl(self.partial, allow_torn_tail=True) if "id" in r}

    def record(self, document: Document, spans: list[Span]) -> dict:
        """What the partial file keeps of one scored document."""
        from rulings_anon.replacement.operators import anonymize, pseudonymize_references

        record = spans_record(document.id, spans)
        if self.anonymize:
            record["anonymized"] = anonymize(document.text, spans)
        if self.pseudonymize:
            text, gold = pseudonymize_references(document.text, spans, document.id, self.seed)
            record["pseudonymized"] = {"text": text, "spans": gold}
        return record

    def finish(self) -> int:
        """Write the outputs from the partial file atomically; returns the number of documents."""
        records = list(read_jsonl(self.partial, allow_torn_tail=True)) if self.partial.exists() else []
        count = write_jsonl(self.output, ({"id": r["id"], "spans": r["spans"]} for r in records))
        if self.anonymize:
            _write_texts(self.anonymize, [(r["id"], {"text": r["anonymized"]}) for r in records])
        if self.pseudonymize:
            _write_texts(self.pseudonymize, [(r["id"], r["pseudonymized"]) for r in records])
        self.partial.unlink(missing_ok=True)
        return count


def _write_texts(target: Path, items: list[tuple[str, dict]]) -> None:
    """A JSONL file of ``{"id", "text", ...}`` (``.jsonl``/``.jsonl.gz``) or a folder of ``ID.txt`` files."""
    if target.name.endswith((".jsonl", ".jsonl.gz", ".jsonl.xz")):
        write_jsonl(target, ({"id": doc_id, **content} for doc_id, content in items))
        return
    target.mkdir(parents=True, exist_ok=True)
    for doc_id, content in items:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in doc_id) or "document"
        with atomic_writer(target / f"{safe}.txt") as handle:
            handle.write(content["text"])


def score_documents(scorer: Scorer, documents: Iterable[Document], run: ScoreRun, show=None,
                    progress: bool = False) -> dict:
    """Score every document not yet in the partial file, then write the outputs; returns figures."""
    from tqdm import tqdm

    done = run.done_ids()
    figures = {"documents": 0, "elements": 0, "spans": 0, "resumed": len(done), "seconds": 0.0}
    bar = tqdm(unit="doc", desc="score", file=sys.stderr, disable=not progress or not sys.stderr.isatty())
    with JsonlAppender(run.partial, fsync=False) as appender:
        for chunk in chunks((d for d in unique_ids(documents) if d.id not in done), CHUNK_ELEMENTS):
            started = time.perf_counter()
            spans = scorer.score(chunk)
            figures["seconds"] += time.perf_counter() - started
            for document, found in zip(chunk, spans, strict=True):
                appender.append(run.record(document, found))
                figures["documents"] += 1
                figures["elements"] += count_elements(document.text)
                figures["spans"] += len(found)
                if show is not None:
                    show(document, found)
            bar.update(len(chunk))
    bar.close()
    figures["written"] = run.finish()
    seconds = figures["seconds"]
    figures["elements_per_second"] = figures["elements"] / seconds if seconds > 0 else 0.0
    return figures
