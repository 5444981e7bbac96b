"""Texts folders of ``score --runner``: ``--anonymize DIR`` / ``--pseudonymize DIR`` as in-process.

A folder is written on this machine, whole or not at all, with a copy in its own format of each
Word, OpenDocument, PDF or RTF input (:func:`rulings_anon.scoring.score_run._write_texts`). The
workers cannot each write into it, so they write the texts as JSONL shards beside the folder
(``.DIR.texts-*.jsonl``, with the file each document was read from), and after the pipeline this
process writes the folder from them and removes the shards.
"""

from __future__ import annotations

import os
from pathlib import Path

from rulings_anon import beam_io
from rulings_anon.errors import InputError
from rulings_anon.jsonl import check_replaceable, read_jsonl

from .score_run import _write_texts, earlier_texts, is_jsonl_target


def is_folder(target) -> bool:
    return target is not None and not is_jsonl_target(target)


def check_folder(target, option: str) -> None:
    """A texts folder must be a local path that may be replaced (before any work)."""
    if beam_io._is_url(str(target)):
        raise InputError(f"with --runner, {option} writes a folder on this machine: give a local folder or a "
                         ".jsonl target", target)
    check_replaceable(target, earlier_texts)


def shards_of(target) -> str:
    """Where the workers write a target's texts: the target itself for JSONL, shards beside a folder."""
    if not is_folder(target):
        return str(target)
    folder = Path(target)
    return str(folder.with_name(f".{folder.name}.texts.jsonl"))


def text_record(record: dict, key: str, folder: bool) -> dict:
    """A scored record's text (``key``: ``anonymized`` or ``pseudonymized``) as its target keeps it;
    for a folder with the document file it was read from."""
    content = record[key] if isinstance(record[key], dict) else {"text": record[key]}
    out = {"id": record["id"], **content}
    if folder and record.get("source_file"):
        out["source_file"] = record["source_file"]
    return out


def source_file(document) -> str | None:
    """The Word, OpenDocument, PDF or RTF file ``document`` was read from, if it was one."""
    from rulings_anon.documents import DOCUMENT_SUFFIXES

    source = document.meta.get("source")
    if isinstance(source, str) and source.lower().endswith(DOCUMENT_SUFFIXES):
        return source
    return None


def write_folder(target) -> int:
    """The folder ``target`` from the shards the workers wrote (ids in order); returns the documents."""
    from rulings_anon import documents

    shards = beam_io.shard_files(shards_of(target))
    records = sorted((r for shard in shards for r in read_jsonl(shard)), key=lambda r: r["id"])
    for record in records:
        source = record.pop("source_file", None)
        if source and Path(source).is_file():
            documents.remember_source(record["id"], Path(source))
    _write_texts(Path(target), [(r["id"], {k: v for k, v in r.items() if k != "id"}) for r in records])
    for shard in shards:
        os.unlink(shard)
    return len(records)
