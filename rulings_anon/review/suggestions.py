"""A batch of rulings read into a review database with the engine's suggestions.

The suggestions are exactly :class:`rulings_anon.engine.Analyzer`'s spans of the batch (the
rulings analyzed together, as ``score`` does), with the options ``score`` takes. Each file is
read on its own, so a ruling that fails to parse is listed with its one-line error and the
others are reviewed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rulings_anon.errors import InputError
from rulings_anon.inputs import input_files, read_file_documents, repeated_id_error, source_of, text_digest

from .database import ReviewDatabase


def read_batch(batch) -> tuple[list, list[tuple[str, str, str]]]:
    """The documents of ``batch`` (a file or folder) and the failures ``(id, source, error)``."""
    documents, failures, seen = [], [], {}
    for path in input_files(batch):
        try:
            found = list(read_file_documents(path))
            if not found:
                raise InputError("holds no rulings", path)
        except InputError as exc:
            failures.append((_free_id(path.name, seen, failures), str(path), str(exc)))
            continue
        for document in found:
            where = source_of(document, path)
            digest = text_digest(document.text)
            if document.id in seen:
                if seen[document.id][1] != digest:
                    failures.append((_free_id(f"{document.id} ({path.name})", seen, failures), where,
                                     str(repeated_id_error(document.id, seen[document.id][0], where))))
                continue
            seen[document.id] = (where, digest)
            documents.append((document, where))
    return documents, failures


def _free_id(name: str, seen: dict, failures: list) -> str:
    taken = set(seen) | {f[0] for f in failures}
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name} #{n}"
    return candidate


def analyzer_options(threshold: float | None, recall_first: bool) -> dict:
    return {"threshold": threshold, "recall_first": recall_first}


def suggested_type(text: str, span) -> str:
    """The type shown for a suggestion: its own, else the one its context gives; what the export's
    operators (court_style.reference_type, then surrogate_type) make of the engine's span."""
    from rulings_anon.replacement.court_style import reference_type, surrogate_type

    return surrogate_type(reference_type(text, span))


# Documents analyzed per step: the bar moves often enough, the model still sees full batches.
CHUNK = 16


def analyze_in_chunks(analyzer, documents: list, progress: bool = True, chunk: int = CHUNK) -> list[list]:
    """The spans of ``analyzer.analyze_batch`` over ``documents``, scored a chunk at a time under a
    progress bar over elements: the scorer (its batch vocabulary and batch features) is set from
    the whole batch once, so the spans do not depend on the chunks."""
    from tqdm import tqdm

    from rulings_anon.document import Document, count_elements

    texts = [d.text for d in documents]
    scorer = analyzer.scorer(texts)
    found: list[list] = []
    with tqdm(total=sum(map(count_elements, texts)), unit="elements", unit_scale=True, desc="review: analyzing",
              file=sys.stderr, disable=not progress or not sys.stderr.isatty()) as bar:
        for at in range(0, len(documents), chunk):
            part = [Document(d.id, d.text) for d in documents[at:at + chunk]]
            found += scorer.score(part)
            bar.update(sum(count_elements(d.text) for d in part))
    return found


def document_file_of(document) -> Path | None:
    """The .docx/.odt/.pdf/.rtf file a ruling was read from in this process (its export is written
    from it), or None: a record's own "source" field (a URL, say) is not taken for one."""
    from rulings_anon.documents import source_file

    source = source_file(document.id)
    return source.resolve() if source is not None else None


def file_digest(path) -> str:
    """SHA-256 of a file's bytes: an export refuses a source changed since the review started."""
    import hashlib

    digest = hashlib.sha256()
    with Path(path).open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def create_review(db_path, batch, threshold: float | None = None, recall_first: bool = False,
                  progress: bool = True, policy=None) -> ReviewDatabase:
    """A review database of ``batch`` with the suggestions of the engine; written whole or not at all.

    ``policy`` (a :class:`~.policy.ReviewPolicy`, default the shipped one) is the court's: the
    suggestions are the spans ``score --policy`` writes (its details, exemptions, allow and deny
    lists), and the review file keeps it for the export."""
    from rulings_anon.engine import Analyzer, policy_spans

    from .stored_policy import POLICY_OPERATOR, given_policy

    policy = policy if policy is not None else given_policy(None)
    documents, failures = read_batch(batch)
    analyzer = Analyzer(threshold=threshold, recall_first=recall_first, policy=policy.policy)
    found = analyze_in_chunks(analyzer, [d for d, _ in documents], progress) if documents else []
    found = [policy_spans(d.text, spans, policy.policy) for (d, _), spans in zip(documents, found, strict=True)]
    staging = Path(db_path).with_name(f".{Path(db_path).name}.partial")
    staging.unlink(missing_ok=True)
    database = ReviewDatabase(staging, create=True)
    try:
        with database.transaction() as c:
            for position, ((document, where), spans) in enumerate(zip(documents, found, strict=True)):
                record = {k: v for k, v in document.meta.items() if isinstance(v, (str, int, float, bool))}
                database.add_ruling(c, position, document.id, where, document.text, record)
                source = document_file_of(document)
                if source is not None:
                    database.add_document_file(c, document.id, str(source), file_digest(source))
                for span in spans:
                    database.add_suggestion(c, document.id, span.start, span.end, suggested_type(document.text, span),
                                            span.score, span.source, span.type)
            for offset, (doc_id, where, error) in enumerate(failures):
                database.add_ruling(c, len(documents) + offset, doc_id, where, error=error)
            for key, value in {"batch": str(batch), "options": json.dumps(analyzer_options(threshold, recall_first)),
                               "threshold": str(analyzer.threshold), "policy": policy.record(),
                               "operator": "placeholder" if policy.shipped else POLICY_OPERATOR}.items():
                c.execute("INSERT INTO meta VALUES (?, ?)", (key, value))
        database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        database.close()
        staging.rename(db_path)
    except BaseException:
        database.close()
        for leftover in (staging, Path(f"{staging}-wal"), Path(f"{staging}-shm")):
            leftover.unlink(missing_ok=True)
        raise
    for leftover in (Path(f"{staging}-wal"), Path(f"{staging}-shm")):
        leftover.unlink(missing_ok=True)
    return ReviewDatabase(db_path)
