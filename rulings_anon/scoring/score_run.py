"""``score``: the sensitive spans of new, non-anonymized rulings (thesis 7.1, 9.2).

Without a NER model every element is classified unmasked (the ``none`` method) and standalone
recognizer hits (IBAN, e-mail, ...) are added; with ``--ner`` the legal NER and the recognizers
propose references, which are masked and judged by the contextual model (the ``ner`` method).
Either way :func:`rulings_anon.analyzer.decisions.decide` makes the spans, with per-document consistency,
so ``evaluate`` with the same options measures exactly what ``score`` writes.

Documents are scored in chunks; finished documents go to ``.OUTPUT.partial`` at once, so an
interrupted run resumes where it stopped (only with the same options, model, NER and texts: see
:class:`ScoreRun`), and the outputs are written atomically at the end.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulings_anon.defaults import (  # noqa: F401 (the scorer's defaults, read by the benchmarks)
    DEFAULT_COMBINATION,
    DEFAULT_THRESHOLD,
    SCORE_CHUNK_ELEMENTS,
)
from rulings_anon.document import Document, Span, count_elements, spans_record
from rulings_anon.engine import Scorer
from rulings_anon.errors import InputError
from rulings_anon.filenames import file_stems
from rulings_anon.inputs import text_digest as full_digest
from rulings_anon.jsonl import (
    JsonlAppender,
    atomic_folder,
    atomic_writer,
    check_replaceable,
    check_writable,
    read_jsonl,
    repair_torn_tail,
    write_jsonl,
)
from rulings_anon.name_ids import without_names
from rulings_anon.output_paths import Input, Output, check_outputs

from .prediction import chunks

CHUNK_ELEMENTS = SCORE_CHUNK_ELEMENTS


def score_record(document: Document, spans: list[Span], anonymize: bool = False, pseudonymize: bool = False,
                 seed: int = 0, policy=None, mapping=None) -> dict:
    """One scored document: its spans record, with the ``anonymized`` text and the ``pseudonymized``
    ``{"text", "spans"}`` when asked (the in-process run and the Beam pipeline both write these).

    ``policy`` (a :class:`~rulings_anon.replacement.policy.Policy`) chooses the operator of each
    type for the anonymized text (default court style); ``mapping`` (a
    :class:`~rulings_anon.replacement.surrogate_mapping.SurrogateMapping`) gives and takes the
    surrogates of other rulings, and the record keeps what this one added."""
    from rulings_anon.replacement import operators

    record = spans_record(document.id, spans)
    if anonymize and policy is None:
        record["anonymized"] = operators.anonymize(document.text, spans)
    elif anonymize:
        from rulings_anon.replacement.policy import PolicyOperator

        chosen = PolicyOperator(policy, document.id, seed, mapping)
        record["anonymized"] = operators.replace(document.text, spans, chosen).text
    if pseudonymize:
        text, gold = operators.pseudonymize_references(document.text, spans, document.id, seed, mapping)
        record["pseudonymized"] = {"text": text, "spans": gold}
    if mapping is not None:
        record["mapping"] = mapping.take_added()
    return record


def text_digest(text: str) -> str:
    """A short fingerprint of a document's text (what a resumed record must have been scored on)."""
    return full_digest(text)[:20]


def directory_digest(path) -> str | None:
    """A fingerprint of the contents of every file under ``path`` (None for no path)."""
    if path is None:
        return None
    path = Path(path)
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        digest.update(str(file.relative_to(path) if path.is_dir() else file.name).encode("utf-8") + b"\0")
        with contextlib.suppress(OSError), open(file, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        digest.update(b"\0")
    return digest.hexdigest()


@dataclass
class ScoreRun:
    """Where ``score`` writes: the spans file and, when asked, anonymized and pseudonymized texts.

    ``key`` fingerprints everything besides the text that decides a document's result (options,
    model and NER contents, the batch vocabulary, what is written). The partial file starts with
    it, and each record keeps the digest of the text it was scored on: a rerun resumes only
    records of the same key and text; a partial file of another key is discarded (the run starts
    over), a document whose text changed is scored again.
    """

    output: Path
    anonymize: Path | None = None
    pseudonymize: Path | None = None
    seed: int = 0
    key: str = ""
    restarted: bool = False
    policy: object = None  # a rulings_anon.replacement.policy.Policy: operators per type, allow and deny lists
    mapping_path: Path | None = None  # --mapping: surrogates kept across rulings and runs
    mapping: object = None  # its SurrogateMapping, read by done()

    @property
    def partial(self) -> Path:
        return self.output.with_name(f".{self.output.name}.partial")

    def targets(self) -> list[Output]:
        """The paths this run writes: the spans file, and the texts' files or folders."""
        targets = [Output("--output", Path(self.output))]
        for option, target in (("--anonymize", self.anonymize), ("--pseudonymize", self.pseudonymize)):
            if target is not None:
                targets.append(Output(option, Path(target), folder=not is_jsonl_target(target)))
        if self.mapping_path is not None:
            targets.append(Output("--mapping", Path(self.mapping_path)))
        return targets

    def check_outputs(self, read: Iterable[Input] = ()) -> None:
        """Refuse outputs that cannot be written, or that are inputs (``read``) or one another,
        before any work is done (one-line errors)."""
        for target in self.targets():
            check_writable(target.path, target.option, folder=target.folder)
        check_outputs(self.targets(), read)

    def done(self) -> dict[str, str]:
        """``id -> text digest`` of the documents the partial file holds for this run's key.

        A torn last line (a run killed in the middle of a write) is cut off first; a partial file
        of another key is removed, and :attr:`restarted` says so. Folder targets that could not be
        replaced at the end are refused first, before any work."""
        for target in (self.anonymize, self.pseudonymize):
            if target is not None and not is_jsonl_target(target):
                check_replaceable(target, earlier_texts)
        repair_torn_tail(self.partial)
        if self.mapping_path is not None:
            from rulings_anon.replacement.surrogate_mapping import read_mapping

            self.mapping = read_mapping(self.mapping_path)
        if not self.partial.exists():
            return {}
        done: dict[str, str] = {}
        header = None
        added = []
        for record in read_jsonl(self.partial, allow_torn_tail=True):
            if header is None:
                header = record
                if record.get("key") != self.key:
                    break
                continue
            if "id" in record and "digest" in record:
                done[record["id"]] = record["digest"]
                added += record.get("mapping", [])
        if header is None or header.get("key") != self.key:
            self.partial.unlink()
            self.restarted = header is not None
            return {}
        if self.mapping is not None:
            self.mapping.extend(added)  # the surrogates the interrupted run chose stay
        return done

    def spans_of(self, document: Document, spans: list[Span]) -> list[Span]:
        """``spans`` as the policy counts them (its allow and deny lists)."""
        if self.policy is None:
            return spans
        from rulings_anon.engine import policy_spans

        return policy_spans(document.text, spans, self.policy)

    def header(self) -> dict:
        return {"key": self.key}

    def record(self, document: Document, spans: list[Span]) -> dict:
        """What the partial file keeps of one scored document."""
        record = score_record(document, spans, bool(self.anonymize), bool(self.pseudonymize), self.seed,
                              self.policy, self.mapping)
        record["digest"] = text_digest(document.text)
        return record

    def finish(self, inputs: dict[str, str] | None = None) -> int:
        """Write the outputs from the partial file atomically; returns the number of documents.

        ``inputs`` (``id -> text digest`` in input order) keeps only the current input's documents,
        each as scored on its current text, in input order."""
        records: dict[str, dict] = {}
        if self.partial.exists():
            lines = read_jsonl(self.partial, allow_torn_tail=True)
            next(lines, None)  # the key
            for record in lines:
                records[record["id"]] = record
        if inputs is not None:
            missing = [i for i, d in inputs.items() if records.get(i, {}).get("digest") != d]
            if missing:
                raise InputError(f"{len(missing)} input documents were not scored (first {missing[0]!r}); "
                                 "run the command again", self.partial)
            records = {i: records[i] for i in inputs}
        ordered = without_names(list(records.values()))  # no file named after the parties names an output
        _keep_sources(ordered)
        count = write_jsonl(self.output, ({k: r[k] for k in ("id", "source_id", "spans") if k in r} for r in ordered),
                            private=True)
        if self.anonymize:
            _write_texts(self.anonymize, [(r["id"], {"text": r["anonymized"]}) for r in ordered])
        if self.pseudonymize:
            _write_texts(self.pseudonymize, [(r["id"], r["pseudonymized"]) for r in ordered])
        if self.mapping is not None:
            from rulings_anon.replacement.surrogate_mapping import write_mapping

            write_mapping(self.mapping_path, self.mapping)
        self.partial.unlink(missing_ok=True)
        return count


def _keep_sources(records: list[dict]) -> None:
    """A document file's copy keeps its format under a safe id: the id is noted as read from the file."""
    from rulings_anon import documents

    for record in records:
        source = documents.source_file(record["source_id"]) if "source_id" in record else None
        if source is not None:
            documents.remember_source(record["id"], source)


# Elements per chunk a worker process scores: small enough that two workers share 300,000
# elements evenly, large enough that handing a chunk over costs nothing worth measuring.
JOB_CHUNK_ELEMENTS = 20_000
_worker: tuple[Scorer, ScoreRun] | None = None  # what a forked worker process scores with
WARM_UP = "Der Kläger Herr Müller aus Memmingen, Hauptstraße 4, klagt gegen die Beklagte, die M-GmbH."


MAX_DEFAULT_JOBS = 8  # past this, a bigger machine is better served by --runner


def usable_jobs(requested: int, elements: int | None = None) -> int:
    """Worker processes ``score`` uses: ``requested``, or for 0 the CPU cores this process may use
    (at most :data:`MAX_DEFAULT_JOBS`, and no more than the ``elements`` to score fill chunks);
    1 once TensorFlow is loaded (a contextual model or the NER), which does not survive a fork."""
    if "tensorflow" in sys.modules or not hasattr(os, "fork"):
        return 1
    if requested > 0:
        return requested
    chunks_of_work = -(-elements // JOB_CHUNK_ELEMENTS) if elements is not None else MAX_DEFAULT_JOBS
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, MAX_DEFAULT_JOBS, chunks_of_work))


def scored_records(scorer: Scorer, run: ScoreRun, chunk: list[Document]) -> list[tuple[dict, list[Span]]]:
    """``(record, spans)`` of each document of ``chunk``: what one process or one worker does."""
    scored = [run.spans_of(document, spans) for document, spans in zip(chunk, scorer.score(chunk), strict=True)]
    return [(run.record(document, spans), spans) for document, spans in zip(chunk, scored, strict=True)]


def _score_chunk(chunk: list[Document]) -> list[tuple[dict, list[Span]]]:
    return scored_records(*_worker, chunk)


def _worker_start() -> None:
    """A worker dies with the parent (a killed ``score`` leaves no process behind) and leaves
    Ctrl-C to it."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def scored_chunks(scorer: Scorer, run: ScoreRun, documents: Iterable[Document],
                  jobs: int = 1) -> Iterator[tuple[list[Document], list[tuple[dict, list[Span]]]]]:
    """``(chunk, [(record, spans), ...])`` for chunks of ``documents`` in input order.

    With ``jobs`` > 1 forked worker processes score the chunks (each inherits the loaded model);
    at most two chunks per worker are in flight, so the input streams as in one process. A
    document's spans depend on nothing but its text and the batch vocabulary set before, so the
    records are the same as in one process.
    """
    if jobs <= 1:
        for chunk in chunks(documents, CHUNK_ELEMENTS):
            yield chunk, scored_records(scorer, run, chunk)
        return
    global _worker
    _worker = (scorer, run)
    # Tables loaded on first use (word frequencies, the lexicon) are loaded here, once, before the
    # workers are forked, instead of once in each of them.
    scorer.score([Document("warm-up", WARM_UP)])
    from rulings_anon.lexicon import DEFAULT, load_lexicon

    load_lexicon(DEFAULT)  # the warm-up's few words are searched in the file; every ruling reads the dict
    in_flight: deque = deque()
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_start) as pool:
        for chunk in chunks(documents, JOB_CHUNK_ELEMENTS):
            in_flight.append((chunk, pool.apply_async(_score_chunk, (chunk,))))
            if len(in_flight) >= 2 * jobs:
                done, result = in_flight.popleft()
                yield done, result.get()
        while in_flight:
            done, result = in_flight.popleft()
            yield done, result.get()
    _worker = None


TEXTS_INDEX = "index.jsonl"  # a texts folder's ``{"id", "file"}`` lines


def is_jsonl_target(target) -> bool:
    """Whether a texts target (--anonymize, --pseudonymize) is one JSONL file rather than a folder."""
    return Path(target).name.endswith((".jsonl", ".jsonl.gz", ".jsonl.xz"))


def _write_texts(target: Path, items: list[tuple[str, dict]]) -> None:
    """A JSONL file of ``{"id", "text", ...}`` (``.jsonl``/``.jsonl.gz``) or a folder of text files,
    one per document, named by :func:`rulings_anon.filenames.file_stems` (the id itself when it is a
    plain short name, else a safe prefix and a hash of the id) with an ``index.jsonl`` mapping the
    ids to the file names."""
    if is_jsonl_target(target):
        write_jsonl(target, ({"id": doc_id, **content} for doc_id, content in items), private=True)
        return
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise InputError("names a file; give a folder or a .jsonl file", target)
    stems = file_stems(doc_id for doc_id, _ in items)
    from rulings_anon.documents import write_document_copy

    names = []
    with atomic_folder(target, earlier_texts, private=True) as folder:  # all files or none
        for (doc_id, content), stem in zip(items, stems, strict=True):
            # a Word/ODT/PDF/RTF input gets a copy of its format (PDF, RTF: .docx), others a .txt
            names.append(write_document_copy(folder, stem, doc_id, content["text"]) or f"{stem}.txt")
            if names[-1] == f"{stem}.txt":
                with atomic_writer(folder / names[-1], private=True) as handle:
                    handle.write(content["text"])
        write_jsonl(folder / TEXTS_INDEX, ({"id": doc_id, "file": name}
                                           for (doc_id, _), name in zip(items, names, strict=True)), private=True)


def earlier_texts(folder: Path) -> bool:
    """Whether ``folder`` holds what :func:`_write_texts` writes and nothing else: the index and
    the files it names (such a folder is replaced as a whole; any other is refused)."""
    try:
        names = {record.get("file") for record in read_jsonl(folder / TEXTS_INDEX)} | {TEXTS_INDEX}
    except InputError:
        return False
    return all(entry.name in names and entry.is_file() and not entry.is_symlink() for entry in folder.iterdir())


class _NoBar:
    """What ``score`` updates where no progress bar is shown (not a terminal, ``-q``)."""

    def update(self, count: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(elements: int | None, shown: bool):
    """tqdm's bar over ``elements``, or where it is not ``shown`` a bar that draws nothing: a
    script's ``score`` does not import tqdm (which reads its version from the installed package
    metadata, a tenth of a second)."""
    if not shown:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=elements, unit="elements", unit_scale=True, desc="score", file=sys.stderr)


def score_documents(scorer: Scorer, documents: Iterable[Document], run: ScoreRun, show=None,
                    progress: bool = False, inputs: dict[str, str] | None = None, elements: int | None = None,
                    jobs: int = 1) -> dict:
    """Score every document not yet in the partial file, then write the outputs; returns figures.

    ``documents`` have distinct ids, as :func:`rulings_anon.inputs.read_input_documents` reads them
    (it refuses two texts of one id and keeps one of the same text twice). ``jobs`` worker processes score chunks side by side (:func:`scored_chunks`); the records are
    the same whatever their number, as they are whatever the chunks.

    ``inputs`` (``id -> text digest``, from a first pass over the input) makes :meth:`ScoreRun.finish`
    write exactly those documents; ``elements`` is their element count, the progress bar's total.
    """
    done = run.done()
    figures = {"documents": 0, "elements": 0, "spans": 0, "resumed": 0, "seconds": 0.0}
    bar = _progress_bar(elements, progress and sys.stderr.isatty())

    def pending():
        for document in documents:
            if done.get(document.id) == text_digest(document.text):
                figures["resumed"] += 1
                bar.update(count_elements(document.text))
                continue
            yield document

    fresh = not run.partial.exists()
    with JsonlAppender(run.partial, fsync=False, private=True) as appender:
        if fresh:
            appender.append(run.header())
        started = time.perf_counter()
        for chunk, scored in scored_chunks(scorer, run, pending(), jobs):
            for document, (record, found) in zip(chunk, scored, strict=True):
                appender.append(record)
                figures["documents"] += 1
                count = count_elements(document.text)
                figures["elements"] += count
                figures["spans"] += len(found)
                bar.update(count)
                if show is not None:
                    show(document, found)
        figures["seconds"] = time.perf_counter() - started
    bar.close()
    figures["written"] = run.finish(inputs)
    seconds = figures["seconds"]
    figures["elements_per_second"] = figures["elements"] / seconds if seconds > 0 else 0.0
    return figures
