"""Reviewed rulings written back in their input's format: a ruling read from a .docx or .odt file is
exported as an anonymized file of that format (a .pdf or .rtf one as a .docx), with the same
replacements as its text in ``anonymized.jsonl``.

The review file keeps each such source's path and digest; a source moved or changed since the
review started is refused before anything is written: the reviewed offsets are offsets into the
text it had then.
"""

from __future__ import annotations

from pathlib import Path

from rulings_anon.errors import InputError
from rulings_anon.filenames import file_stems

from .database import ReviewDatabase
from .suggestions import file_digest

FOLDER = "documents"


def operator_of(name: str, doc_id: str, seed: int = 0, policy=None):
    """The replacement operator ``apply_operator`` uses for ``name``, for one ruling; ``policy``
    (the output of that name) each type's operator in the court's ``policy``."""
    from rulings_anon.replacement import operators

    if name == "policy" and policy is not None:
        from rulings_anon.replacement.policy import PolicyOperator

        return PolicyOperator(policy, doc_id, seed)
    if name == "placeholder":
        return operators.CourtPlaceholder()
    if name == "pseudonym":
        return operators.ReferenceSurrogate(doc_id, seed)
    if name == "tag":
        return operators.CategoryTag()
    raise InputError(f"unknown operator {name!r}")


def document_sources(database: ReviewDatabase, rulings) -> dict[str, Path]:
    """Ruling id -> its source file, each checked to be the file reviewed (a one-line error otherwise)."""
    sources = {}
    for ruling in rulings:
        found = database.document_file(ruling.id)
        if found is None:
            continue
        path, digest = Path(found[0]), found[1]
        if not path.is_file():
            raise InputError("the document this ruling was reviewed from is gone; put it back to export "
                             f"ruling {ruling.id!r} in its format", path)
        if file_digest(path) != digest:
            raise InputError("the document changed since it was reviewed (its digest differs); review it again "
                             "in a new review file, the reviewed offsets no longer fit it", path)
        sources[ruling.id] = path
    return sources


def write_documents(folder: Path, sources: dict[str, Path], spans_of, operator: str, policy=None) -> list[str]:
    """Write each ruling of ``sources`` anonymized into ``folder``; ``spans_of(id)`` gives the
    spans replaced (``policy``: the court's, for the ``policy`` output). Returns the file names
    written, in the order of ``sources``."""
    from rulings_anon.documents import output_suffix
    from rulings_anon.replacement.document_files import write_anonymized

    if not sources:
        return []
    folder.mkdir()
    names = []
    for (ruling_id, source), stem in zip(sources.items(), file_stems(sources), strict=True):
        name = f"{stem}{output_suffix(source)}"
        write_anonymized(source, spans_of(ruling_id), operator_of(operator, ruling_id, policy=policy), folder / name)
        names.append(name)
    return names
