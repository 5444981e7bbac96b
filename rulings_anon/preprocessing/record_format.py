"""The one definition of the TFRecord schema that ``preprocess`` writes and the models read.

A preprocessed data directory ``DATA`` holds::

    DATA/format.json                    what the records mean (see :func:`read_format`)
    DATA/stats.json                     corpus summary (thesis Table 5.1)
    DATA/train-00000.tfrecord ...       shards of the training split
    DATA/validation-00000.tfrecord ...  shards of the validation split (10 % of the documents)
    DATA/tokenizer/                     tokenizer assets (vocab.txt, or pieces.model + words.txt)
    DATA/glove/                         GloVe vectors (GloVe path only)

Each record (a ``tf.train.Example``) is one *sequence*: whole paragraphs of one document packed
up to the maximum sequence length, never splitting a text element (thesis 5.3.3). Letters used
for shapes: T tokens, E elements, N candidate vectors.

=======================  =========  ====  ==============================================
feature                  dtype      shape what it holds
=======================  =========  ====  ==============================================
``doc_id``               bytes      []    the document's id
``sequence_index``       int64      []    position of the sequence within its document
``token_ids``            int64      [T]   BERT: ``[CLS] pieces... [SEP]``; GloVe: SentencePiece ids
``input_mask``           int64      [T]   1 for every stored token (0 only after padding)
``token_element``        int64      [T]   element index of each token, -1 for [CLS]/[SEP]
``element_token_start``  int64      [E]   index in ``token_ids`` of the element's first token
``element_token_count``  int64      [E]   number of tokens of the element (>= 1)
``element_label``        int64      [E]   1 = placeholder (sensitive), 0 = not
``element_start``        int64      [E]   character offset of the element in the document text
``element_end``          int64      [E]   end offset (exclusive) in the document text
``element_paragraph``    int64      [E]   index of the element's paragraph in the document
``candidates``           int64      [N*E] N 0/1 candidate vectors over the elements, row-major
``word_ids``             int64      [E]   GloVe only: the element's lower-cased word id
=======================  =========  ====  ==============================================

A placeholder element is a single placeholder-symbol token (``[PLH]``), so it is never
fragmented; in pseudonymized data (``format.json`` ``"surrogates": true``, ``preprocess
--pseudonymize``) the positives are surrogates tokenized as written and the offsets are those of
the pseudonymized text. A candidate vector (thesis 5.4.2.1) marks every positive element plus about 2 % of
the others; training picks one of the N at random per step. Offsets are those of the original
document, so ``(doc_id, element_start, element_end)`` maps every prediction back.

:func:`parse_dataset` yields one dict per sequence with the features above as dense tensors
(``candidates`` reshaped to ``[N, E]``) plus ``element_mask`` (ones ``[E]``); :func:`padded_batch`
batches them. To build tiny data directories in tests use ``preprocessing.build.make_records``;
to turn new documents into sequences for scoring use ``preprocessing.build.document_sequences``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_path, read_json, write_json

FORMAT_VERSION = 1
TOKENIZER_KINDS = ("bert", "glove")
SPLITS = ("train", "validation")
FORMAT_FILE = "format.json"
STATS_FILE = "stats.json"
TOKENIZER_DIR = "tokenizer"
GLOVE_DIR = "glove"

# Per-token and per-element int64 features, in record order.
TOKEN_FEATURES = ("token_ids", "input_mask", "token_element")
ELEMENT_FEATURES = ("element_token_start", "element_token_count", "element_label",
                    "element_start", "element_end", "element_paragraph")
GLOVE_ELEMENT_FEATURES = ("word_ids",)

# Values that pad each feature in a batch: -1 where 0 is a valid index.
PADDING = {"token_element": -1, "element_paragraph": -1}


@dataclass
class SequenceRecord:
    """One sequence of one document, as stored in a record (python side)."""

    doc_id: str
    sequence_index: int
    token_ids: list[int]
    token_element: list[int]
    element_token_start: list[int]
    element_token_count: list[int]
    element_label: list[int]
    element_start: list[int]
    element_end: list[int]
    element_paragraph: list[int]
    candidates: list[list[int]] = field(default_factory=list)
    word_ids: list[int] | None = None

    @property
    def input_mask(self) -> list[int]:
        return [1] * len(self.token_ids)

    @property
    def num_elements(self) -> int:
        return len(self.element_label)

    def element_tokens(self, i: int) -> list[int]:
        """Token ids of element ``i``."""
        start = self.element_token_start[i]
        return self.token_ids[start:start + self.element_token_count[i]]


def encode(record: SequenceRecord) -> bytes:
    """Serialize a sequence as a ``tf.train.Example``."""
    from rulings_anon.tf import tensorflow

    tf = tensorflow()

    def ints(values):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))

    features = {
        "doc_id": tf.train.Feature(bytes_list=tf.train.BytesList(value=[record.doc_id.encode("utf-8")])),
        "sequence_index": ints([record.sequence_index]),
        "candidates": ints([v for row in record.candidates for v in row]),
    }
    for name in TOKEN_FEATURES + ELEMENT_FEATURES:
        features[name] = ints(getattr(record, name))
    if record.word_ids is not None:
        features["word_ids"] = ints(record.word_ids)
    return tf.train.Example(features=tf.train.Features(feature=features)).SerializeToString()


def decode(serialized: bytes) -> SequenceRecord:
    """Parse one serialized record back into a :class:`SequenceRecord` (tests, debugging)."""
    from rulings_anon.tf import tensorflow

    example = tensorflow().train.Example.FromString(serialized)
    feature = example.features.feature

    def ints(name):
        return list(feature[name].int64_list.value)

    elements = len(feature["element_label"].int64_list.value)
    flat = ints("candidates")
    return SequenceRecord(
        doc_id=feature["doc_id"].bytes_list.value[0].decode("utf-8"),
        sequence_index=ints("sequence_index")[0],
        token_ids=ints("token_ids"),
        token_element=ints("token_element"),
        element_token_start=ints("element_token_start"),
        element_token_count=ints("element_token_count"),
        element_label=ints("element_label"),
        element_start=ints("element_start"),
        element_end=ints("element_end"),
        element_paragraph=ints("element_paragraph"),
        candidates=[flat[i:i + elements] for i in range(0, len(flat), elements)] if elements else [],
        word_ids=ints("word_ids") if "word_ids" in feature else None,
    )


def read_records(files: Iterable) -> Iterator[SequenceRecord]:
    """Decode every record of the given TFRecord files in order (python side)."""
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    for path in files:
        for raw in tf.data.TFRecordDataset(str(path)).as_numpy_iterator():
            yield decode(raw)


def write_records(path, records: Iterable[SequenceRecord]) -> int:
    """Write records to one TFRecord file atomically; returns how many were written."""
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    count = 0
    with atomic_path(path) as partial, tf.io.TFRecordWriter(str(partial)) as writer:  # it needs a name
        for record in records:
            writer.write(encode(record))
            count += 1
    return count


def feature_spec(tokenizer_kind: str) -> dict:
    """The ``tf.io`` parsing spec of a record written for ``tokenizer_kind``."""
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    check_kind(tokenizer_kind)
    spec = {
        "doc_id": tf.io.FixedLenFeature([], tf.string),
        "sequence_index": tf.io.FixedLenFeature([], tf.int64),
        "candidates": tf.io.RaggedFeature(tf.int64),
    }
    names = TOKEN_FEATURES + ELEMENT_FEATURES
    if tokenizer_kind == "glove":
        names += GLOVE_ELEMENT_FEATURES
    for name in names:
        spec[name] = tf.io.RaggedFeature(tf.int64)
    return spec


def parse_example(serialized, tokenizer_kind: str) -> dict:
    """Parse one serialized record into dense tensors (``candidates`` as ``[N, E]``)."""
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    parsed = tf.io.parse_single_example(serialized, feature_spec(tokenizer_kind))
    elements = tf.shape(parsed["element_label"])[0]
    parsed["candidates"] = tf.reshape(parsed["candidates"], [-1, elements])
    parsed["element_mask"] = tf.ones_like(parsed["element_label"])
    return parsed


def parse_dataset(files, tokenizer_kind: str, num_parallel_calls=None):
    """A ``tf.data.Dataset`` of one dict per sequence from the given TFRecord files.

    Keys: every feature of the module table (``word_ids`` only for ``glove``) plus
    ``element_mask``; per-token and per-element features are 1-D int64 tensors, ``doc_id`` a
    string scalar, ``candidates`` int64 ``[N, E]``.
    """
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    files = [str(f) for f in files]
    if not files:
        raise InputError("no TFRecord files to read")
    check_kind(tokenizer_kind)
    # Plain TF ops only: autograph has nothing to convert (and would trip over os.environ).
    parse = tf.autograph.experimental.do_not_convert(lambda s: parse_example(s, tokenizer_kind))
    dataset = tf.data.TFRecordDataset(files)
    return dataset.map(parse, num_parallel_calls=num_parallel_calls or tf.data.AUTOTUNE)


def padded_batch(dataset, batch_size: int, drop_remainder: bool = False):
    """Batch parsed sequences, padding tokens to the longest T and elements to the longest E.

    Padding is 0 (so ``input_mask``/``element_mask``/labels/candidates read "absent") except
    ``token_element`` and ``element_paragraph``, which are padded with -1.
    """
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    values = {}
    for name, spec in dataset.element_spec.items():
        if spec.dtype == tf.string:
            values[name] = tf.constant(b"", tf.string)
        else:
            values[name] = tf.constant(PADDING.get(name, 0), spec.dtype)
    return dataset.padded_batch(batch_size, padding_values=values, drop_remainder=drop_remainder)


def check_kind(tokenizer_kind: str) -> None:
    if tokenizer_kind not in TOKENIZER_KINDS:
        raise ValueError(f"unknown tokenizer kind {tokenizer_kind!r}; expected one of {TOKENIZER_KINDS}")


def shard_name(split: str, index: int) -> str:
    return f"{split}-{index:05d}.tfrecord"


def shard_files(data_dir, split: str = "train") -> list[Path]:
    """The TFRecord shards of ``split`` in a data directory, in order."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    return sorted(Path(data_dir).glob(f"{split}-[0-9][0-9][0-9][0-9][0-9].tfrecord"))


def read_format(data_dir) -> dict:
    """``format.json`` of a data directory: what the records hold and where the assets are.

    Keys: ``format_version``, ``tokenizer`` ("bert"/"glove"), ``max_seq_len``,
    ``candidate_vectors`` (N), ``candidate_rate``, ``labels`` ("weak"/"gold"), ``vocab_size``
    (size of the ``token_ids`` vocabulary), ``special_ids`` (``pad``, ``unk``, ``placeholder``
    and for BERT ``cls``, ``sep``, ``mask``), ``assets`` (paths relative to ``data_dir``:
    BERT ``vocab``; GloVe ``sentencepiece``, ``words``, ``piece_vectors`` (``.npy``, row i for
    piece id i), ``piece_vectors_text`` (the same in GloVe text format) and, when a pretrained
    file was given, ``word_vectors`` (``.npy``, row i for word id i, zeros for unknown words)),
    ``lower_case`` (BERT), ``word_vocab_size`` and ``glove_dim`` (GloVe), ``options`` (the
    preprocess settings).
    """
    path = Path(data_dir) / FORMAT_FILE
    if not path.exists():
        raise InputError(f"no {FORMAT_FILE}: not a directory written by 'rulings-anon preprocess'", data_dir)
    meta = read_json(path)
    if meta.get("format_version") != FORMAT_VERSION:
        raise InputError(f"record format version {meta.get('format_version')} is not {FORMAT_VERSION}: "
                         "run 'rulings-anon preprocess' again", path)
    return meta


def write_format(data_dir, meta: dict) -> None:
    write_json(Path(data_dir) / FORMAT_FILE, {"format_version": FORMAT_VERSION, **meta})
