"""``score`` as an Apache Beam pipeline (``--runner RUNNER``).

The same work as in-process, through the same functions: :func:`evaluation.commands.load_scorer`
(through :class:`~rulings_anon.scoring.commands.ScoreSetup`) loads the model and the NER once per worker
(``DoFn.setup``), :meth:`rulings_anon.engine.Scorer.score` decides the spans of a chunk of documents
and :func:`rulings_anon.scoring.score_run.score_record` makes each record (with the court's
``--policy``, data sent to the workers, and a safe id for an id that names a party of its ruling:
:mod:`rulings_anon.name_ids`). The batch vocabulary (the capitalized words recurring in many input documents, which the
in-process run counts in a first pass; only with ``--batch-vocabulary``) is counted across the workers
on the text as the analyzer reads it and reaches every scorer as a side input, so each document is
decided as in-process.
"""

from __future__ import annotations

import sys
import time

import apache_beam as beam

from rulings_anon import beam_io
from rulings_anon.analyzer.common_words import document_words, least_documents
from rulings_anon.document import count_elements
from rulings_anon.engine import analyzed_text, policy_spans
from rulings_anon.name_ids import without_names
from rulings_anon.runners import as_url

from . import beam_texts
from .score_run import CHUNK_ELEMENTS, score_record

NAMESPACE = "rulings_anon"


class ScoreDocuments(beam.DoFn):
    """Documents -> scored records, in chunks of about ``CHUNK_ELEMENTS`` elements per worker."""

    def __init__(self, args, setup, policy=None):
        super().__init__()
        self.args = args
        self.setup_of = setup  # rulings_anon.scoring.commands.ScoreSetup
        self.policy = policy  # rulings_anon.replacement.policy.Policy: data, applied where each record is made
        self.documents = beam_io.counter(NAMESPACE, "documents")
        self.elements = beam_io.counter(NAMESPACE, "elements")
        self.spans = beam_io.counter(NAMESPACE, "spans")
        self.milliseconds = beam_io.counter(NAMESPACE, "scoring_ms")

    def setup(self):
        self.scorer = self.setup_of.scorer(fetch=beam_io.local_directory)
        self.ready = False

    def start_bundle(self):
        self.chunk, self.size = [], 0

    def process(self, document, batch_words):
        if not self.ready:  # the side input is the same for every document
            self.scorer = self.setup_of.scorer(frozenset(batch_words or ()))
            self.ready = True
        self.chunk.append(document)
        self.size += count_elements(document.text)
        if self.size >= CHUNK_ELEMENTS:
            yield from self._flush()

    def finish_bundle(self):
        from apache_beam.transforms.window import GlobalWindow
        from apache_beam.utils.windowed_value import WindowedValue

        for record in self._flush():
            yield WindowedValue(record, GlobalWindow().max_timestamp(), [GlobalWindow()])

    def _flush(self):
        chunk, self.chunk, self.size = self.chunk, [], 0
        if not chunk:
            return
        started = time.perf_counter()
        found = self.scorer.score(chunk)
        self.milliseconds.inc(int(1000 * (time.perf_counter() - started)))
        for document, spans in zip(chunk, found, strict=True):
            if self.policy is not None:  # its allow and deny lists, as in-process
                spans = policy_spans(document.text, spans, self.policy)
            self.documents.inc()
            self.elements.inc(count_elements(document.text))
            self.spans.inc(len(spans))
            record = score_record(document, spans, bool(self.args.anonymize), bool(self.args.pseudonymize),
                                  self.args.seed, self.policy)
            if beam_texts.source_file(document) is not None:
                record["source_file"] = beam_texts.source_file(document)
            yield without_names([record])[0]  # an id naming a party of its ruling: a safe id


def _frequent(item, documents: int):
    word, count = item
    if count >= least_documents(documents):
        yield word


def batch_vocabulary(documents, total):
    """The capitalized words in enough of ``documents`` (``analyzer.common_words.batch_common_words``), as
    one list: counted per word across the workers; ``total`` is the number of documents (a
    one-element PCollection)."""
    return (documents
            | "Words" >> beam.FlatMap(lambda document: sorted(document_words(analyzed_text(document.text))))
            | "PerWord" >> beam.combiners.Count.PerElement()
            | "Frequent" >> beam.FlatMap(_frequent, beam.pvalue.AsSingleton(total))
            | "AsList" >> beam.combiners.ToList())


def _check_targets(args) -> None:
    from rulings_anon.errors import InputError

    if args.show:
        raise InputError("--show prints in-process only; leave it out with --runner")
    for name in ("anonymize", "pseudonymize"):
        if beam_texts.is_folder(getattr(args, name)):
            beam_texts.check_folder(getattr(args, name), f"--{name}")


def score(args, setup) -> int:
    """``score --runner``: sharded spans JSONL beside ``--output``, and ``--anonymize``/``--pseudonymize``
    as sharded JSONL or a local folder in the inputs' formats (:mod:`.beam_texts`).

    ``setup`` (:class:`rulings_anon.scoring.commands.ScoreSetup`) makes the decision settings and the scorer
    of the command line.
    """
    from rulings_anon.replacement.policy import load_policy

    _check_targets(args)
    setup.check()
    policy = load_policy(args.policy)  # the shipped one without --policy, as in-process
    # --output and the texts' targets are Paths: a gs://... URL gets back its "//" here.
    for name in ("output", "anonymize", "pseudonymize"):
        if getattr(args, name) is not None:
            setattr(args, name, as_url(getattr(args, name)) or str(getattr(args, name)))
    options = beam_io.pipeline_options(args.runner, args.beam_args)
    for option in ("output", "anonymize", "pseudonymize"):
        if getattr(args, option) is not None:
            beam_io.prepare_output(beam_texts.shards_of(getattr(args, option)), f"--{option}")

    def build(pipeline):
        documents = pipeline | "Read" >> beam_io.ReadDocuments(args.inputs, args.encoding or "utf-8")
        size = documents | "BatchSize" >> beam.combiners.Count.Globally()
        if setup.uses_batch_vocabulary:
            words = batch_vocabulary(documents, size)
        else:
            words = pipeline | "NoBatchWords" >> beam.Create([[]])
        records = documents | "Score" >> beam.ParDo(ScoreDocuments(args, setup, policy), beam.pvalue.AsSingleton(words))
        _ = (records
             | "SpansOnly" >> beam.Map(lambda r: {k: r[k] for k in ("id", "source_id", "spans") if k in r})
             | "Spans" >> beam_io.WriteJsonl(args.output))
        if args.anonymize:
            _ = (records
                 | "AnonymizedText" >> beam.Map(beam_texts.text_record, "anonymized", beam_texts.is_folder(args.anonymize))
                 | "Anonymized" >> beam_io.WriteJsonl(beam_texts.shards_of(args.anonymize)))
        if args.pseudonymize:
            _ = (records
                 | "PseudonymizedText" >> beam.Map(beam_texts.text_record, "pseudonymized",
                                                  beam_texts.is_folder(args.pseudonymize))
                 | "Pseudonymized" >> beam_io.WriteJsonl(beam_texts.shards_of(args.pseudonymize)))

    started = time.perf_counter()
    counts = beam_io.counters(beam_io.run_pipeline(options, build), NAMESPACE)
    for name in ("anonymize", "pseudonymize"):
        if beam_texts.is_folder(getattr(args, name)):  # written here, from the workers' shards
            beam_texts.write_folder(getattr(args, name))
    seconds = time.perf_counter() - started
    prefix, suffix = beam_io.shard_prefix(args.output)
    elements = counts.get("elements", 0)
    scoring = counts.get("scoring_ms", 0) / 1000
    per_worker = f", {elements / scoring:,.0f} elements/s per worker while scoring" if scoring else ""
    print(f"score: {counts.get('documents', 0)} documents, {elements:,} elements, {counts.get('spans', 0):,} spans "
          f"in {seconds:.1f} s on {args.runner}, start-up included ({elements / seconds:,.0f} elements/s"
          f"{per_worker}) -> {prefix}-*-of-*{suffix}", file=sys.stderr)
    return 0
