"""``detect-placeholders`` and ``preprocess`` as Apache Beam pipelines (``--runner RUNNER``).

Each document goes through the same functions as in-process (:mod:`preprocessing.detection`,
:func:`preprocessing.build.document_records`); the detector and the tokenizer are built once per
worker in ``DoFn.setup``. Shared ends (reading, sharded JSONL, options, errors) are in
:mod:`rulings_anon.beam_io`.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

import apache_beam as beam

from rulings_anon import beam_io

from .detection import detect_record, load_detector

NAMESPACE = "rulings_anon"


class DetectPlaceholders(beam.DoFn):
    """Document -> its spans record; the detector is loaded once per worker."""

    def __init__(self, args):
        super().__init__()
        self.args = args
        self.documents = beam_io.counter(NAMESPACE, "documents")
        self.spans = beam_io.counter(NAMESPACE, "spans")

    def setup(self):
        self.detector = load_detector(self.args)

    def process(self, document):
        record = detect_record(self.detector, document)
        self.documents.inc()
        self.spans.inc(len(record["spans"]))
        yield record


def detect_placeholders(args) -> int:
    """``detect-placeholders --runner``: sharded spans JSONL beside ``--output``."""
    from rulings_anon.errors import InputError

    if args.output == "-":
        raise InputError("--runner writes sharded files: give --output SPANS.jsonl, not '-'")
    load_detector(args)  # a bad patterns or judge file is one line here, not a failed worker
    options = beam_io.pipeline_options(args.runner, args.beam_args)
    beam_io.prepare_output(args.output)

    def build(pipeline):
        (pipeline
         | "Read" >> beam_io.ReadDocuments(args.inputs, args.encoding or "utf-8")
         | "Detect" >> beam.ParDo(DetectPlaceholders(args))
         | "Spans" >> beam_io.WriteJsonl(args.output))

    counts = beam_io.counters(beam_io.run_pipeline(options, build), NAMESPACE)
    prefix, suffix = beam_io.shard_prefix(args.output)
    print(f"{counts.get('documents', 0)} documents, {counts.get('spans', 0)} placeholders -> "
          f"{prefix}-*-of-*{suffix}", file=sys.stderr)
    return 0


class SumCounts(beam.CombineFn):
    """Adds up the per-document figures of ``preprocess`` (dicts of numbers) across the workers."""

    def create_accumulator(self):
        return {}

    def add_input(self, accumulator, counts):
        for key, value in counts.items():
            accumulator[key] = accumulator.get(key, 0) + value
        return accumulator

    def merge_accumulators(self, accumulators):
        merged = {}
        for accumulator in accumulators:
            self.add_input(merged, accumulator)
        return merged

    def extract_output(self, accumulator):
        return accumulator


def _tokenizer_assets(tokenizer) -> dict:
    """What a worker needs to build the tokenizer again: its kind, settings and asset files' bytes."""
    if tokenizer.kind == "bert":
        files = {"vocab": tokenizer.vocab_file}
        return {"kind": "bert", "lower_case": tokenizer.lower_case,
                "files": {k: (Path(p).name, Path(p).read_bytes()) for k, p in files.items()}}
    files = {"sentencepiece": tokenizer.model_file, "words": tokenizer.words_file}
    return {"kind": "glove", "files": {k: (Path(p).name, Path(p).read_bytes()) for k, p in files.items()}}


def _load_tokenizer(assets: dict, folder: str):
    from .tokenizers import BertWordPiece, GloveTokenizer

    paths = {}
    for key, (name, data) in assets["files"].items():
        paths[key] = Path(folder) / name
        paths[key].write_bytes(data)
    if assets["kind"] == "bert":
        return BertWordPiece(paths["vocab"], assets["lower_case"])
    return GloveTokenizer(paths["sentencepiece"], paths["words"])


class BuildRecords(beam.DoFn):
    """Document -> its encoded records, tagged with its split, and its figures (tag ``counts``);
    the tokenizer and the detector are built once per worker."""

    def __init__(self, assets: dict, options):
        super().__init__()
        self.assets = assets
        self.options = options

    def setup(self):
        import tempfile

        from .build import pseudonymizer, record_builder

        options = self.options
        self.folder = tempfile.mkdtemp(prefix="rulings-anon-tokenizer-")
        surrogates = options.pseudonymize is not None
        self.builder, self.label = record_builder(
            _load_tokenizer(self.assets, self.folder), labels=options.labels, surrogates=surrogates,
            max_seq_len=options.max_seq_len, candidate_vectors=options.candidate_vectors,
            candidate_rate=options.candidate_rate, seed=options.seed)
        self.pseudonymize = pseudonymizer(options.labels, options.pseudonymize) if surrogates else None

    def teardown(self):
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)

    def process(self, document):
        from . import record_format as rf
        from .build import DocumentSummary, document_records

        counts = {}
        if self.pseudonymize is not None:
            document = self.pseudonymize(document)
            counts["surrogate_spans"] = len(document.spans)
        summary = DocumentSummary()
        split, records = document_records(self.builder, self.label, document, self.options.validation_share, summary)
        for record in records:
            yield beam.pvalue.TaggedOutput(split, rf.encode(record))
        counts.update(asdict(summary))
        counts[f"{split}_documents"] = 1
        counts[f"{split}_sequences"] = len(records)
        yield beam.pvalue.TaggedOutput("counts", counts)


def _write_counts(counts: dict, path: str) -> None:
    from rulings_anon.jsonl import write_json

    write_json(path, counts)


COUNTS_FILE = ".beam-counts.json"


def preprocess(args, options) -> dict:
    """``preprocess --runner``: the records built on the workers into ``DATA/{train,validation}-NNNNN.tfrecord``
    through Beam's TFRecord sink, their figures summed by :class:`SumCounts` into the same ``stats.json``.

    What needs the whole corpus at once stays on this machine, as in-process: learning a WordPiece
    vocabulary (none is learned with ``--vocab``/``--bert-handle``), the SentencePiece model and the
    GloVe vectors (from the written records).
    """
    import time

    from rulings_anon.errors import InputError
    from rulings_anon.inputs import read_input_documents
    from rulings_anon.jsonl import read_json

    from . import record_format as rf
    from .build import (
        DocumentSummary,
        data_stats,
        pseudonymize_documents,
        record_builder,
        remove_shards,
        write_data_format,
    )
    from .preprocess import bert_tokenizer, check_options, finish, glove_tokenizer

    def log(message):
        print(message, file=sys.stderr)

    started = time.perf_counter()
    check_options(options)
    beam_options = beam_io.pipeline_options(args.runner, args.beam_args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    surrogates = options.pseudonymize is not None
    documents = []
    if options.tokenizer == "glove" or not (options.vocab or options.bert_handle):
        # A tokenizer learned from the corpus sees the whole of it, here, as in-process.
        log("reading the corpus here to learn the tokenizer (give --vocab or --bert-handle to skip this)")
        documents = list(read_input_documents(args.corpus, args.encoding or "utf-8"))
        if not documents:
            raise InputError("the corpus holds no documents")
        if surrogates:
            documents = list(pseudonymize_documents(documents, options.labels, options.pseudonymize))
    tokenizer = (bert_tokenizer if options.tokenizer == "bert" else glove_tokenizer)(options, documents, out, log)
    del documents
    builder, _ = record_builder(tokenizer, labels=options.labels, surrogates=surrogates,
                                max_seq_len=options.max_seq_len)  # checks --max-seq-len here
    (out / rf.FORMAT_FILE).unlink(missing_ok=True)  # the directory is incomplete until the end
    remove_shards(out)
    counts_path = out / COUNTS_FILE
    counts_path.unlink(missing_ok=True)

    def build(pipeline):
        documents = pipeline | "Read" >> beam_io.ReadDocuments(args.corpus, args.encoding or "utf-8")
        built = documents | "Build" >> beam.ParDo(BuildRecords(_tokenizer_assets(tokenizer), options)).with_outputs(
            *rf.SPLITS, "counts")
        for split in rf.SPLITS:
            _ = built[split] | f"Write{split.title()}" >> beam.io.WriteToTFRecord(
                str(out / split), file_name_suffix=".tfrecord", shard_name_template="-SSSSS")
        _ = (built["counts"]
             | "Sum" >> beam.CombineGlobally(SumCounts())
             | "WriteCounts" >> beam.Map(_write_counts, str(counts_path)))

    log(f"building the records on {args.runner}")
    beam_io.run_pipeline(beam_options, build)
    counts = read_json(counts_path) if counts_path.exists() else {}
    counts_path.unlink(missing_ok=True)
    if not counts.get("train_documents", 0) + counts.get("validation_documents", 0):
        raise InputError("the corpus holds no documents")
    for split in rf.SPLITS:  # as in-process, a split without records still has one (empty) shard
        if not rf.shard_files(out, split):
            rf.write_records(out / rf.shard_name(split, 0), [])
    summary = DocumentSummary(**{k: counts.get(k, 0) for k in DocumentSummary.__dataclass_fields__})
    write_data_format(out, tokenizer, builder.max_seq_len, candidate_vectors=options.candidate_vectors,
                      candidate_rate=options.candidate_rate, labels=options.labels, surrogates=surrogates,
                      validation_share=options.validation_share,
                      extra_meta={"pseudonymize": options.pseudonymize, "options": asdict(options)})
    stats = data_stats(summary, {s: counts.get(f"{s}_documents", 0) for s in rf.SPLITS},
                       {s: counts.get(f"{s}_sequences", 0) for s in rf.SPLITS}, tokenizer.kind)
    stats["seconds"] = 0.0
    if surrogates:
        stats["pseudonymize"] = options.pseudonymize
        stats["surrogate_spans"] = counts.get("surrogate_spans", 0)
    return finish(options, tokenizer, lambda: [r.token_ids for split in rf.SPLITS
                                               for r in rf.read_records(rf.shard_files(out, split))],
                  out, stats, started, log)
