"""The preprocess pipeline: corpus -> paragraphs -> labelled elements -> tokens -> TFRecords.

Per document (thesis 5.3): paragraphs are extracted, split into whitespace elements and labelled
(the placeholder detector's weak labels, or the gold ``spans`` of a gold corpus); every
placeholder element becomes the one placeholder-symbol token; the other elements are tokenized;
(with pseudonymization, :func:`pseudonymize_documents`, the placeholders are first replaced by
realistic surrogates, which are the positives and are tokenized as written);
paragraphs are packed into sequences (:mod:`preprocessing.sequences`) and written as records of
:mod:`preprocessing.record_format`. Documents go to the training or validation split by a hash
of their id (90/10, thesis 5.4.4.3), so a rebuild never moves a document between splits.

* :class:`SequenceBuilder` turns one document into :class:`SequenceRecord` s;
* :func:`document_sequencer` does it for new documents with a model's tokenizer (scoring);
* :func:`pseudonymize_documents` replaces the placeholders of documents by surrogates;
* :func:`build_data` writes a whole data directory; :func:`make_records` is its small in-memory
  front end for tests.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

import numpy as np

from rulings_anon.defaults import (
    DEFAULT_CANDIDATE_RATE,
    DEFAULT_CANDIDATE_VECTORS,
    DEFAULT_VALIDATION_SHARE,
)
from rulings_anon.document import Document, Element, Paragraph, Span, element_labels
from rulings_anon.errors import InputError
from rulings_anon.jsonl import write_json

from . import record_format as rf
from .sequences import candidate_vectors, is_sentence_end, pack

# Sequence length defaults per tokenizer kind (thesis 5.4.1.2: BERT 512; 5.4.1.3: GloVe 2048).
MAX_SEQ_LEN = {"bert": 512, "glove": 2048}
# Tokens a BERT sequence spends on [CLS] and [SEP].
FRAME_TOKENS = {"bert": 2, "glove": 0}
RECORDS_PER_SHARD = 2000


@dataclass
class LabeledParagraph:
    """A paragraph, its elements (paragraph offsets) and whether each is a placeholder."""

    paragraph: Paragraph
    elements: list[Element]
    labels: list[bool]


def _paragraphs(document: Document) -> list[Paragraph]:
    from rulings_anon.placeholders.paragraphs import extract_paragraphs

    return extract_paragraphs(document.text)


def weak_labels() -> Callable[[Document], list[LabeledParagraph]]:
    """Labels from the rule-based placeholder detector (the training signal, thesis 5.3.2)."""
    from rulings_anon.placeholders.detector import PlaceholderDetector

    detector = PlaceholderDetector()

    def label(document: Document) -> list[LabeledParagraph]:
        out = []
        paragraphs = _paragraphs(document)
        with detector.document(paragraphs):  # letters judged with the document's designators
            for paragraph in paragraphs:
                elements, labels = detector.label_elements(paragraph.text)
                out.append(LabeledParagraph(paragraph, elements, labels))
        return out

    return label


def gold_labels() -> Callable[[Document], list[LabeledParagraph]]:
    """Labels from the documents' gold ``spans``: an element is positive when a span overlaps it."""

    def label(document: Document) -> list[LabeledParagraph]:
        out = []
        for paragraph in _paragraphs(document):
            elements = paragraph.elements()
            in_document = [Element(*paragraph.to_document_span(e.start, e.end), e.text, e.index)
                           for e in elements]
            out.append(LabeledParagraph(paragraph, elements, element_labels(in_document, document.spans)))
        return out

    return label


def no_labels() -> Callable[[Document], list[LabeledParagraph]]:
    """Every element negative and tokenized as written (new documents to score)."""

    def label(document: Document) -> list[LabeledParagraph]:
        out = []
        for paragraph in _paragraphs(document):
            elements = paragraph.elements()
            out.append(LabeledParagraph(paragraph, elements, [False] * len(elements)))
        return out

    return label


LABEL_SOURCES = {"weak": weak_labels, "gold": gold_labels, "none": no_labels}


def placeholder_spans(labels: str) -> Callable[[Document], list[Span]]:
    """The placeholder spans of a document that pseudonymization replaces.

    ``weak``: the detector's references exactly as ``replace --auto`` accepts them
    (:func:`rulings_anon.placeholders.review_units.document_units`: one span per reference, "K. B.", "M-GmbH & Co. KG",
    no two sharing an element); ``gold``: the document's gold ``spans``.
    """
    if labels == "gold":
        return lambda document: list(document.spans)
    if labels != "weak":
        raise InputError(f"cannot pseudonymize with --labels {labels!r}: use weak or gold")
    from rulings_anon.placeholders.detector import PlaceholderDetector
    from rulings_anon.placeholders.review_units import document_units

    detector = PlaceholderDetector()

    def spans(document: Document) -> list[Span]:
        _, units = document_units(document.text, detector)
        return [Span(u.start, u.end) for u in units if u.detected]

    return spans


def pseudonymize_documents(documents: Iterable[Document], labels: str = "weak",
                           seed: int = 0) -> Iterator[Document]:
    """Each document with its placeholders replaced by realistic surrogates (training data).

    The placeholders (:func:`placeholder_spans`) get the type their gold span has or the one the
    terminal tool infers from the context (:func:`rulings_anon.replacement.type_inference.infer_type`), and a value of
    the terminal tool's generator seeded by ``seed`` and the document id
    (the :class:`~rulings_anon.replacement.operators.PlaceholderSurrogate` operator, as ``replace --auto``
    and ``build-testset`` use it).
    The returned document's ``spans`` point exactly at the surrogates' names (gold labels), its
    ``text`` is the pseudonymized one, its id and metadata are kept.
    """
    return map(pseudonymizer(labels, seed), documents)


def pseudonymizer(labels: str = "weak", seed: int = 0) -> Callable[[Document], Document]:
    """The function of :func:`pseudonymize_documents` for one document (each is independent of the
    others: its surrogates are seeded by ``seed`` and its id)."""
    from rulings_anon.replacement.operators import PlaceholderSurrogate, replace
    from rulings_anon.replacement.surrogates import ReplacementTable, SurrogateGenerator
    from rulings_anon.replacement.type_inference import infer_type

    spans_of = placeholder_spans(labels)
    generator = SurrogateGenerator(seed)

    def pseudonymize(document: Document) -> Document:
        typed = [Span(s.start, s.end, type=s.type or infer_type(document.text, s.start, s.end))
                 for s in spans_of(document)]
        operator = PlaceholderSurrogate(ReplacementTable(generator.for_document(document.id)))
        try:
            replaced = replace(document.text, typed, operator)
        except ValueError as exc:  # overlapping or out-of-range gold spans
            raise InputError(f"cannot pseudonymize document {document.id!r}: {exc}") from None
        return Document(document.id, replaced.text, document.meta, replaced.spans)

    return pseudonymize


def validation_split(doc_id: str, share: float = DEFAULT_VALIDATION_SHARE) -> str:
    """``"validation"`` for about ``share`` of the document ids, chosen by a stable hash."""
    bucket = int.from_bytes(hashlib.sha1(doc_id.encode("utf-8")).digest()[:8], "big") / 2 ** 64
    return "validation" if bucket < share else "train"


@dataclass
class DocumentSummary:
    """What one document contributed, for stats.json."""

    elements: int = 0
    placeholders: int = 0
    tokens: int = 0
    truncated_elements: int = 0
    split_paragraphs: int = 0
    candidates: int = 0
    candidate_slots: int = 0


class SequenceBuilder:
    """Turns labelled paragraphs of a document into records (one per sequence).

    With ``placeholder_symbol`` (anonymized training data) a positive element becomes the one
    placeholder-symbol token; without (pseudonymized data: the positives are surrogates) every
    element is tokenized as written.
    """

    def __init__(self, tokenizer, max_seq_len: int | None = None,
                 candidate_vectors: int = DEFAULT_CANDIDATE_VECTORS,
                 candidate_rate: float = DEFAULT_CANDIDATE_RATE, seed: int = 0, placeholder_symbol: bool = True):
        self.tokenizer = tokenizer
        self.kind = tokenizer.kind
        self.max_seq_len = max_seq_len or MAX_SEQ_LEN[self.kind]
        self.capacity = self.max_seq_len - FRAME_TOKENS[self.kind]
        if self.capacity < 1:
            raise InputError(f"--max-seq-len {self.max_seq_len} leaves no room for tokens")
        self.candidate_vectors = candidate_vectors
        self.candidate_rate = candidate_rate
        self.seed = seed
        self.placeholder_symbol = placeholder_symbol

    def sequences(self, doc_id: str, paragraphs: list[LabeledParagraph],
                  summary: DocumentSummary | None = None) -> list[rf.SequenceRecord]:
        summary = summary if summary is not None else DocumentSummary()
        placeholder = self.tokenizer.special_ids["placeholder"]
        flat = [(p, e, label) for p, lp in enumerate(paragraphs) for e, label in zip(lp.elements, lp.labels)]
        symbol = [label and self.placeholder_symbol for *_, label in flat]
        texts = [e.text for (_, e, _), as_symbol in zip(flat, symbol) if not as_symbol]
        tokenized = iter(self.tokenizer.tokenize_elements(texts) if texts else [])
        tokens: list[list[int]] = []
        for as_symbol in symbol:
            ids = [placeholder] if as_symbol else next(tokenized)
            if len(ids) > self.capacity:
                summary.truncated_elements += 1
                ids = ids[:self.capacity]
            tokens.append(ids)
        words = None
        if self.kind == "glove":
            word_ids = iter(self.tokenizer.word_ids(texts) if texts else [])
            words = [self.tokenizer.placeholder_word_id if as_symbol else next(word_ids) for as_symbol in symbol]

        # Per paragraph: token counts and sentence ends, for packing; offsets into ``flat``.
        firsts, layout, position = [], [], 0
        for lp in paragraphs:
            firsts.append(position)
            n = len(lp.elements)
            layout.append(([len(t) for t in tokens[position:position + n]],
                           [is_sentence_end(e.text) for e in lp.elements]))
            position += n
        packed = pack(layout, self.capacity)
        sequences_of: dict[int, set[int]] = {}
        for index, chunks in enumerate(packed):
            for chunk in chunks:
                sequences_of.setdefault(chunk.paragraph, set()).add(index)
        summary.split_paragraphs += sum(1 for seen in sequences_of.values() if len(seen) > 1)

        columns = _Columns(paragraphs, flat, tokens, words)
        records = []
        for index, chunks in enumerate(packed):
            # Packing keeps the elements in order, so a sequence is one run of ``flat``.
            first = firsts[chunks[0].paragraph] + chunks[0].first
            end = firsts[chunks[-1].paragraph] + chunks[-1].end
            record = self._record(doc_id, index, columns, first, end)
            records.append(record)
            summary.candidates += sum(map(sum, record.candidates))
            summary.candidate_slots += len(record.candidates) * record.num_elements
        summary.elements += len(flat)
        summary.placeholders += sum(1 for *_, label in flat if label)
        summary.tokens += int(columns.counts.sum())
        return records

    def _record(self, doc_id, index, columns: _Columns, first: int, end: int) -> rf.SequenceRecord:
        """The record of elements ``flat[first:end]``, sliced from the document's columns."""
        frame = 1 if self.kind == "bert" else 0
        special = self.tokenizer.special_ids
        counts = columns.counts[first:end]
        token_ids = columns.token_ids[columns.token_offsets[first]:columns.token_offsets[end]].tolist()
        token_element = np.repeat(np.arange(end - first), counts).tolist()
        starts = (columns.token_offsets[first:end] - columns.token_offsets[first] + frame).tolist()
        if frame:
            token_ids = [special["cls"], *token_ids, special["sep"]]
            token_element = [-1, *token_element, -1]
        labels = columns.labels[first:end].tolist()
        rng = random.Random(f"{self.seed}:{doc_id}:{index}")
        return rf.SequenceRecord(
            doc_id=doc_id, sequence_index=index, token_ids=token_ids, token_element=token_element,
            element_token_start=starts, element_token_count=counts.tolist(), element_label=labels,
            element_start=columns.starts[first:end].tolist(), element_end=columns.ends[first:end].tolist(),
            element_paragraph=columns.paragraph[first:end].tolist(),
            candidates=candidate_vectors(labels, self.candidate_vectors, self.candidate_rate, rng),
            word_ids=columns.word_ids[first:end].tolist() if columns.word_ids is not None else None)


class _Columns:
    """A document's elements as numpy columns (``flat`` order), so records are slices, not loops."""

    def __init__(self, paragraphs: list[LabeledParagraph], flat: list, tokens: list[list[int]],
                 words: list[int] | None):
        self.counts = np.fromiter(map(len, tokens), np.int64, len(tokens))
        self.token_offsets = np.zeros(len(tokens) + 1, np.int64)
        np.cumsum(self.counts, out=self.token_offsets[1:])
        self.token_ids = np.fromiter(chain.from_iterable(tokens), np.int64, int(self.token_offsets[-1]))
        self.labels = np.fromiter((label for *_, label in flat), np.int64, len(flat))
        self.word_ids = None if words is None else np.asarray(words, np.int64)
        bounds = [_document_bounds(lp) for lp in paragraphs]
        self.starts = np.concatenate([b[0] for b in bounds] or [np.zeros(0, np.int64)])
        self.ends = np.concatenate([b[1] for b in bounds] or [np.zeros(0, np.int64)])
        self.paragraph = np.repeat([lp.paragraph.index for lp in paragraphs],
                                   [len(lp.elements) for lp in paragraphs]).astype(np.int64)


def _document_bounds(lp: LabeledParagraph) -> tuple[np.ndarray, np.ndarray]:
    """Document ``(starts, ends)`` of a paragraph's elements: ``Paragraph.to_document_span`` in bulk."""
    paragraph = lp.paragraph
    starts = np.fromiter((e.start for e in lp.elements), np.int64, len(lp.elements))
    ends = np.fromiter((e.end for e in lp.elements), np.int64, len(lp.elements))
    empty = ends <= starts
    first = _to_document(paragraph, starts)
    return first, np.where(empty, first, _to_document(paragraph, np.maximum(ends - 1, starts)) + 1)


def _to_document(paragraph: Paragraph, offsets: np.ndarray) -> np.ndarray:
    """``Paragraph.to_document`` of many offsets."""
    if not len(offsets):
        return offsets
    segments = np.asarray(paragraph.segments, np.int64).reshape(-1, 3)
    if not len(segments):  # to_document would fail on any offset inside such a paragraph
        return np.array([paragraph.to_document(int(o)) for o in offsets], np.int64)
    p, d, n = segments.T
    # bisect_right - 1, where -1 takes the last segment as a Python index would.
    i = np.searchsorted(p, offsets, side="right") - 1
    mapped = d[i] + np.minimum(offsets - p[i], n[i])
    return np.where(offsets >= len(paragraph.text), paragraph.end, mapped)


def document_sequencer(tokenizer_dir, data_format: dict, labels: str = "none"):
    """A function ``document -> [SequenceRecord]`` with the tokenizer in ``tokenizer_dir``.

    ``data_format`` is the ``format.json`` of the data the model was trained on; its asset
    files are looked up by name in ``tokenizer_dir`` (a model directory's copy). New documents
    are tokenized as written (``labels="none"``); ``"weak"`` replaces detected placeholders.
    """
    from .tokenizers import load_tokenizer

    assets = {name: Path(relative).name for name, relative in data_format["assets"].items()
              if name in ("vocab", "sentencepiece", "words")}
    tokenizer = load_tokenizer(tokenizer_dir, {**data_format, "assets": assets})
    builder = SequenceBuilder(tokenizer, data_format.get("max_seq_len"), candidate_vectors=0)
    label = LABEL_SOURCES[labels]()
    return lambda document: builder.sequences(document.id, label(document))


class _ShardWriter:
    """Writes records of one split into numbered shards of at most ``per_shard`` records."""

    def __init__(self, directory: Path, split: str, per_shard: int):
        self.directory, self.split, self.per_shard = directory, split, per_shard
        self.shards = 0
        self.count = 0
        self._buffer: list[rf.SequenceRecord] = []

    def add(self, records: list[rf.SequenceRecord]) -> None:
        self._buffer.extend(records)
        while len(self._buffer) >= self.per_shard:
            self._flush(self._buffer[:self.per_shard])
            self._buffer = self._buffer[self.per_shard:]

    def close(self) -> None:
        if self._buffer or not self.shards:
            self._flush(self._buffer)
            self._buffer = []

    def _flush(self, records) -> None:
        self.count += rf.write_records(self.directory / rf.shard_name(self.split, self.shards), records)
        self.shards += 1


@dataclass
class BuildResult:
    stats: dict
    piece_sequences: list = field(default_factory=list)


def build_data(documents: Iterable[Document], tokenizer, out_dir, *, labels: str = "weak",
               surrogates: bool = False,
               max_seq_len: int | None = None, candidate_vectors: int = DEFAULT_CANDIDATE_VECTORS,
               candidate_rate: float = DEFAULT_CANDIDATE_RATE, validation_share: float = DEFAULT_VALIDATION_SHARE,
               records_per_shard: int = RECORDS_PER_SHARD, seed: int = 0, keep_pieces: bool = False,
               progress=None, extra_meta: dict | None = None) -> BuildResult:
    """Write the shards, ``format.json`` (without GloVe assets) and ``stats.json`` of ``out_dir``.

    With ``surrogates`` the documents come from :func:`pseudonymize_documents`: their gold
    ``spans`` mark the positives, which keep their own tokens (``labels`` names where the replaced
    placeholders came from). With ``keep_pieces`` the token ids of every sequence are returned for
    GloVe counting.
    """
    started = time.perf_counter()
    out = Path(out_dir)
    remove_shards(out)
    builder, label = record_builder(tokenizer, labels=labels, surrogates=surrogates, max_seq_len=max_seq_len,
                                    candidate_vectors=candidate_vectors, candidate_rate=candidate_rate, seed=seed)
    writers = {split: _ShardWriter(out, split, records_per_shard) for split in rf.SPLITS}
    summary = DocumentSummary()
    documents_per_split = dict.fromkeys(rf.SPLITS, 0)
    pieces = []
    seen: set[str] = set()
    for document in documents:
        if document.id in seen:
            raise InputError(repeated_id(document.id))
        seen.add(document.id)
        split, records = document_records(builder, label, document, validation_share, summary)
        documents_per_split[split] += 1
        writers[split].add(records)
        if keep_pieces:
            pieces.extend(r.token_ids for r in records)
        if progress is not None:
            progress.update(1)
    for writer in writers.values():
        writer.close()
    if not seen:
        raise InputError("the corpus holds no documents")
    write_data_format(out, tokenizer, builder.max_seq_len, candidate_vectors=candidate_vectors,
                      candidate_rate=candidate_rate, labels=labels, surrogates=surrogates,
                      validation_share=validation_share, extra_meta=extra_meta)
    stats = data_stats(summary, documents_per_split, {split: w.count for split, w in writers.items()},
                       tokenizer.kind)
    stats["seconds"] = round(time.perf_counter() - started, 1)
    return BuildResult(stats, pieces)


def remove_shards(out: Path) -> None:
    """Make ``out`` and remove its shards: shards of an earlier build would mix with the new ones."""
    out.mkdir(parents=True, exist_ok=True)
    for split in rf.SPLITS:
        for stale in rf.shard_files(out, split):
            stale.unlink()


def repeated_id(doc_id: str) -> str:
    return f"document id {doc_id!r} occurs twice: ids must be unique"


def record_builder(tokenizer, *, labels: str = "weak", surrogates: bool = False, max_seq_len: int | None = None,
                   candidate_vectors: int = DEFAULT_CANDIDATE_VECTORS, candidate_rate: float = DEFAULT_CANDIDATE_RATE,
                   seed: int = 0) -> tuple[SequenceBuilder, Callable[[Document], list[LabeledParagraph]]]:
    """The :class:`SequenceBuilder` and the labelling function of a build (see :func:`build_data`)."""
    builder = SequenceBuilder(tokenizer, max_seq_len, candidate_vectors, candidate_rate, seed,
                              placeholder_symbol=not surrogates)
    return builder, gold_labels() if surrogates else LABEL_SOURCES[labels]()


def document_records(builder: SequenceBuilder, label, document: Document, validation_share: float,
                     summary: DocumentSummary) -> tuple[str, list[rf.SequenceRecord]]:
    """One document's split and records, its figures added to ``summary`` (the per-document work
    of :func:`build_data` and of the Beam pipeline)."""
    records = builder.sequences(document.id, label(document), summary)
    return validation_split(document.id, validation_share), records


def write_data_format(out: Path, tokenizer, max_seq_len: int, *, candidate_vectors: int, candidate_rate: float,
                      labels: str, surrogates: bool, validation_share: float, extra_meta: dict | None = None) -> None:
    """``format.json`` (without GloVe assets) and the tokenizer assets of a data directory."""
    meta = {"tokenizer": tokenizer.kind, "max_seq_len": max_seq_len,
            "candidate_vectors": candidate_vectors, "candidate_rate": candidate_rate, "labels": labels,
            "surrogates": surrogates,
            "validation_share": validation_share, **tokenizer.format_meta(),
            "assets": {k: f"{rf.TOKENIZER_DIR}/{v}" for k, v in tokenizer.save_assets(out / rf.TOKENIZER_DIR).items()},
            **(extra_meta or {})}
    rf.write_format(out, meta)


def data_stats(summary: DocumentSummary, documents: dict[str, int], sequences: dict[str, int], kind: str) -> dict:
    """The build's part of ``stats.json`` from the summed figures (per split: documents, sequences)."""
    return {
        "documents": documents["train"] + documents["validation"],
        "train_documents": documents["train"],
        "validation_documents": documents["validation"],
        "elements": summary.elements,
        "placeholder_elements": summary.placeholders,
        "positive_rate": round(summary.placeholders / max(summary.elements, 1), 6),
        "tokens_per_element": {kind: round(summary.tokens / max(summary.elements, 1), 4)},
        "sequences": sequences["train"] + sequences["validation"],
        "train_sequences": sequences["train"],
        "validation_sequences": sequences["validation"],
        "split_paragraphs": summary.split_paragraphs,
        "truncated_elements": summary.truncated_elements,
        "candidate_share": round(summary.candidates / max(summary.candidate_slots, 1), 6),
    }


def make_records(documents: Iterable[Document | dict], tokenizer, out_dir, *, labels: str = "gold",
                 pseudonymize: int | None = None, max_seq_len: int | None = None, candidate_vectors: int = 3,
                 candidate_rate: float = DEFAULT_CANDIDATE_RATE, validation_share: float = 0.0,
                 seed: int = 0) -> dict:
    """Write a tiny data directory from in-memory documents (tests); returns its stats.

    ``documents`` may be :class:`Document` s or ruling dicts with ``id``, ``text`` and, for the
    default ``labels="gold"``, ``spans``. ``pseudonymize`` (a seed) replaces the placeholders by
    surrogates first. GloVe vectors are not trained here.
    """
    docs = [d if isinstance(d, Document) else Document.from_record(d) for d in documents]
    if pseudonymize is not None:
        docs = list(pseudonymize_documents(docs, labels, pseudonymize))
    result = build_data(docs, tokenizer, out_dir, labels=labels, surrogates=pseudonymize is not None,
                        max_seq_len=max_seq_len,
                        candidate_vectors=candidate_vectors, candidate_rate=candidate_rate,
                        validation_share=validation_share, seed=seed)
    write_json(Path(out_dir) / rf.STATS_FILE, result.stats)
    return result.stats

