"""What the Apache Beam pipelines of ``detect-placeholders``, ``preprocess`` and ``score`` share.

Imported only when a command is given ``--runner`` (see :mod:`rulings_anon.runners`). The
pipelines do per document exactly what the in-process commands do, through the same functions;
this module holds their common ends:

* :func:`pipeline_options`: the runner and its pass-through options, checked up front so that a
  misspelt runner or option is one line, not a traceback;
* :class:`ReadDocuments`: input paths (files, folders, globs, ``gs://``-style URLs through Beam's
  file systems) -> :class:`~rulings_anon.document.Document` s, read by
  :func:`rulings_anon.inputs.read_file_documents` on the workers, one file per element, then
  spread over the workers;
* :class:`RefuseRepeatedIds` and :class:`WriteJsonl` (sharded ``NAME-00000-of-00002.jsonl``);
* :func:`run_pipeline`: runs a pipeline and turns a worker's :class:`InputError` or
  :class:`ModelError` (which arrives as a runner's error text) back into that error.
"""

from __future__ import annotations

import argparse
import glob
import json
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .document import Document
from .errors import InputError, ModelError
from .inputs import input_files, read_file_documents, repeated_id_error, source_of, text_digest

# Beam warns on import about Google Cloud clients it does not need for other runners; the
# command's own lines should not drown in the runner's INFO and WARNING lines either.
_root_level = logging.getLogger().level
logging.getLogger().setLevel(logging.ERROR)
try:
    import apache_beam as beam
    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems
    from apache_beam.options.pipeline_options import PipelineOptions
finally:
    logging.getLogger().setLevel(_root_level)
# A worker's error reaches the command as one line (run_pipeline); the runner would log it again.
logging.getLogger("apache_beam").setLevel(logging.CRITICAL)

# Options the pipelines add unless given: the SDK workers' INFO lines would bury the command's summary.
DEFAULT_FLAGS = ("--default_sdk_harness_log_level=WARNING",)


class PipelineError(InputError):
    """The runner refused or failed the pipeline for a reason other than bad input or model."""


class _StrictParser(argparse.ArgumentParser):
    """Beam's option parser, raising instead of exiting on a rejected option."""

    def error(self, message):
        raise InputError(f"Beam option rejected: {message}")


def _option_parser() -> argparse.ArgumentParser:
    from apache_beam.options.pipeline_options import _BeamArgumentParser

    class Parser(_StrictParser, _BeamArgumentParser):
        pass

    parser = Parser(allow_abbrev=False, add_help=False)
    # As PipelineOptions.get_all_options does: every options class the imported runners define.
    classes = {str(cls): cls for cls in PipelineOptions.__subclasses__()}
    for cls in classes.values():
        cls._add_argparse_args(parser)  # noqa: SLF001 (Beam's own way to collect the options)
    return parser


def pipeline_options(runner: str, flags: list[str]) -> PipelineOptions:
    """The options of a pipeline on ``runner``; an unknown runner or option, or a value the option
    parser rejects, is an :class:`InputError` of one line."""
    from apache_beam.runners.runner import create_runner

    try:
        create_runner(runner)  # also imports the runner's own option classes
    except (ValueError, ImportError) as exc:
        first = str(exc).split(". Valid values")[0]
        raise InputError(f"unknown Beam runner {runner!r} ({first}); known runners include DirectRunner, "
                         "FlinkRunner, SparkRunner, DataflowRunner, PrismRunner") from None
    flags = [*flags, *(f for f in DEFAULT_FLAGS if not any(g.startswith(f.split("=")[0]) for g in flags))]
    _, unknown = _option_parser().parse_known_args(flags)
    if unknown:
        raise InputError(f"Beam option rejected: unknown option {unknown[0]} (give options as --name=value)")
    return PipelineOptions([f"--runner={runner}", *flags])


_WORKER_ERROR = re.compile(r"rulings_anon\.errors\.(InputError|ModelError): (.*)")
_WHILE_RUNNING = re.compile(r" \[while running '[^']*'\]")


def _one_line(text: str) -> str:
    return _WHILE_RUNNING.sub("", text).strip()


def run_pipeline(options: PipelineOptions, build: Callable[[beam.Pipeline], None]):
    """Build the pipeline with ``build(pipeline)``, run it to the end and return its result.

    A worker's :class:`InputError`/:class:`ModelError` is raised again here with its message
    (a runner with worker processes only passes its text on); any other failure of the runner is
    a :class:`PipelineError` naming its last line.
    """
    try:
        pipeline = beam.Pipeline(options=options)
        build(pipeline)
        result = pipeline.run()
        result.wait_until_finish()
        return result
    except (InputError, ModelError) as exc:
        raise type(exc)(_one_line(str(exc))) from None
    except Exception as exc:  # the runners wrap workers' errors in their own types
        text = str(exc)
        found = _WORKER_ERROR.findall(text)
        if found:
            kind, message = found[-1]
            raise (InputError if kind == "InputError" else ModelError)(_one_line(message)) from None
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        raise PipelineError(f"the Beam pipeline failed: {type(exc).__name__}: "
                            f"{_one_line(lines[-1]) if lines else 'no message'}") from None


def counter(namespace: str, name: str):
    """A Beam counter; :func:`counters` reads them from the pipeline's result."""
    return beam.metrics.Metrics.counter(namespace, name)


def counters(result, namespace: str) -> dict[str, int]:
    """The committed values of the counters of ``namespace`` (0 for a counter never incremented)."""
    from apache_beam.metrics.metric import MetricsFilter

    values: dict[str, int] = {}
    for item in result.metrics().query(MetricsFilter().with_namespace(namespace))["counters"]:
        values[item.key.metric.name] = values.get(item.key.metric.name, 0) + (item.committed or 0)
    return values


def local_directory(url: str) -> str:
    """A local copy of the directory ``url`` (``gs://bucket/model``, or any path Beam's file systems
    read), for a worker to load a model from; made in a new temporary folder."""
    base = url.rstrip("/")
    found = FileSystems.match([f"{base}/**"])[0].metadata_list
    if not found:
        raise ModelError(f"{url}: no such model directory (or an empty one)")
    folder = tempfile.mkdtemp(prefix="rulings-anon-model-")
    for item in found:
        target = Path(folder) / item.path[len(base):].lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        with FileSystems.open(item.path, compression_type=CompressionTypes.UNCOMPRESSED) as source, \
                open(target, "wb") as copy:
            shutil.copyfileobj(source, copy)
    return folder


def _is_url(path: str) -> bool:
    return "://" in path


def input_paths(inputs) -> list[tuple[str, bool]]:
    """The files that ``inputs`` stand for, as the in-process commands read them (a folder's
    ``rulings.jsonl`` or supported files), plus glob patterns and file-system URLs (``gs://``...);
    each once, with whether it was named itself (such a file must hold a document)."""
    files: dict[str, tuple[str, bool]] = {}

    def add(path: str, named: bool) -> None:
        files.setdefault(path if _is_url(path) else os.path.realpath(path), (path, named))

    for raw in map(str, inputs):
        if _is_url(raw):
            matched = [m.path for m in FileSystems.match([raw])[0].metadata_list]
            if not matched:
                raise InputError("no such file", raw)
            for path in sorted(matched):
                add(path, path == raw)
        elif not os.path.exists(raw) and glob.has_magic(raw):
            matched = sorted(glob.glob(raw))
            if not matched:
                raise InputError("no file matches this pattern", raw)
            for path in matched:
                for file in input_files(path):
                    add(str(file), False)
        else:
            for file in input_files(raw):
                add(str(file), not os.path.isdir(raw))
    return list(files.values())


def read_path(item: tuple[str, bool], encoding: str | None = None) -> Iterator[Document]:
    """The documents of one input file of :func:`input_paths`; a file named on the command line
    that holds none is an :class:`InputError`, as in-process."""
    path, named = item
    count = 0
    for document in _read_path(path, encoding):
        count += 1
        yield document
    if named and count == 0:
        raise InputError("holds no documents", path)


def _read_path(path: str, encoding: str | None) -> Iterator[Document]:
    """A URL is copied to a local temporary file of the same name first, so every format is read
    by the same code as in-process."""
    if not _is_url(path):
        yield from read_file_documents(path, encoding)
        return
    folder = tempfile.mkdtemp(prefix="rulings-anon-")
    try:
        local = Path(folder) / path.rstrip("/").rsplit("/", 1)[-1]
        with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as source, \
                open(local, "wb") as target:
            shutil.copyfileobj(source, target)
        for document in read_file_documents(local, encoding):
            document.meta.setdefault("source", path)
            yield document
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _read_with_source(item: tuple[str, bool], encoding: str | None = None) -> Iterator[tuple[str, tuple[str, Document]]]:
    for document in read_path(item, encoding):
        yield document.id, (source_of(document, item[0]), document)


def one_per_id(item: tuple[str, Iterable[tuple[str, Document]]]) -> Iterator[Document]:
    """The document of one id: the same text read twice is one document (as in-process); two
    different texts are the in-process error naming both files."""
    doc_id, copies = item
    copies = sorted(copies, key=lambda copy: copy[0])
    (first, kept), digest = copies[0], text_digest(copies[0][1].text)
    for where, other in copies[1:]:
        if text_digest(other.text) != digest:
            raise repeated_id_error(doc_id, first, where)
    yield kept


class ReadDocuments(beam.PTransform):
    """Input paths -> documents, read one file per element and spread over the workers by id, each
    id once: the rules of :func:`rulings_anon.inputs.read_input_documents`."""

    def __init__(self, inputs, encoding: str | None = None):
        super().__init__()
        self.files = input_paths(inputs)
        self.encoding = encoding

    def expand(self, pbegin):
        return (pbegin
                | "Files" >> beam.Create(self.files)
                | "Read" >> beam.FlatMap(_read_with_source, self.encoding)
                | "ById" >> beam.GroupByKey()
                | "OnePerId" >> beam.FlatMap(one_per_id))


SHARD_TEMPLATE = "-SSSSS-of-NNNNN"
_JSONL = (".jsonl.gz", ".jsonl.xz", ".jsonl")


def shard_prefix(output) -> tuple[str, str]:
    """``(prefix, suffix)`` of the shards standing for ``output``: ``spans.jsonl`` ->
    ``spans-00000-of-00002.jsonl``, ...; a name without ``.jsonl`` gets it."""
    output = str(output)
    for suffix in _JSONL:
        if output.endswith(suffix):
            return output[:-len(suffix)], suffix
    return output, ".jsonl"


def shard_files(output) -> list[str]:
    """The shards written for ``output`` (local paths), in order."""
    prefix, suffix = shard_prefix(output)
    pattern = re.compile(re.escape(Path(prefix).name) + r"-\d{5}-of-\d{5}" + re.escape(suffix) + "$")
    folder = Path(prefix).parent
    if not folder.is_dir():
        return []
    return sorted(str(p) for p in folder.iterdir() if pattern.match(p.name))


def prepare_output(output, option: str = "--output") -> None:
    """Check that a local ``output`` can be written (as in-process, before any work) and remove the
    shards of an earlier run (they may be more than this run writes)."""
    if _is_url(str(output)):
        return
    from .jsonl import check_writable

    check_writable(output, option)
    for path in shard_files(output):
        os.unlink(path)


class WriteJsonl(beam.PTransform):
    """Dicts -> sharded JSONL files (one JSON object per line, UTF-8, as the in-process files)."""

    def __init__(self, output):
        super().__init__()
        self.output = str(output)

    def expand(self, records):
        prefix, suffix = shard_prefix(self.output)
        if not _is_url(prefix):
            Path(prefix).parent.mkdir(parents=True, exist_ok=True)
        return (records
                | "Json" >> beam.Map(lambda record: json.dumps(record, ensure_ascii=False))
                | "Write" >> beam.io.WriteToText(prefix, file_name_suffix=suffix,
                                                 shard_name_template=SHARD_TEMPLATE))
