"""``rulings-anon preprocess``: prepare the tokenizer, build the records, train GloVe, report.

Learned assets (a WordPiece vocabulary, the SentencePiece model, the word list, GloVe vectors)
are the slow steps; each is kept in ``DATA`` with the settings it was made with and reused when
a later run asks for the same, so an interrupted or repeated run only redoes what changed.
"""

from __future__ import annotations

import collections
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from rulings_anon.defaults import DEFAULT_CANDIDATE_RATE, DEFAULT_CANDIDATE_VECTORS, DEFAULT_VALIDATION_SHARE
from rulings_anon.document import Document
from rulings_anon.errors import InputError
from rulings_anon.jsonl import read_json, write_json

from . import record_format as rf
from .build import build_data, pseudonymize_documents

SETTINGS_FILE = "settings.json"


@dataclass
class PreprocessOptions:
    """Everything ``preprocess`` can be told; defaults follow the thesis."""

    tokenizer: str = "bert"
    vocab: str | None = None
    bert_handle: str | None = None
    lower_case: bool = False
    wordpiece_vocab_size: int = 16000
    max_seq_len: int | None = None
    candidate_vectors: int = DEFAULT_CANDIDATE_VECTORS
    candidate_rate: float = DEFAULT_CANDIDATE_RATE
    labels: str = "weak"
    validation_share: float = DEFAULT_VALIDATION_SHARE
    sp_vocab_size: int = 8000
    word_vocab_size: int = 100_000
    glove_dim: int = 200
    glove_epochs: int = 10
    glove_window: int = 10
    glove_min_cooccurrence: float = 1.0
    pretrained_glove: str | None = None
    seed: int = 0
    pseudonymize: int | None = None  # seed of the surrogates; None keeps the placeholders ([PLH])


def _fingerprint(documents: list[Document]) -> dict:
    return {"documents": len(documents), "characters": sum(len(d.text) for d in documents)}


def _reusable(directory: Path, settings: dict, files: list[str]) -> bool:
    """Whether ``directory`` holds ``files`` made with exactly ``settings``."""
    path = directory / SETTINGS_FILE
    if not path.exists() or not all((directory / f).exists() for f in files):
        return False
    try:
        return read_json(path) == settings
    except InputError:
        return False


def _element_counts(documents: list[Document]) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for document in documents:
        counts.update(document.text.split())
    return counts


def bert_tokenizer(options: PreprocessOptions, documents: list[Document], out: Path, log):
    """The WordPiece tokenizer of ``--vocab``, of ``--bert-handle``, or learned from the corpus."""
    from .tokenizers import BertWordPiece

    if options.vocab and options.bert_handle:
        raise InputError("give --vocab or --bert-handle, not both")
    if options.vocab or options.bert_handle:
        # The given vocabulary replaces a learned one in DATA/tokenizer: forget that it was learned.
        (out / rf.TOKENIZER_DIR / SETTINGS_FILE).unlink(missing_ok=True)
    if options.vocab:
        return BertWordPiece(options.vocab, options.lower_case)
    if options.bert_handle:
        vocab = Path(options.bert_handle) / "assets" / "vocab.txt"
        if not vocab.exists():
            raise InputError("no assets/vocab.txt in the BERT handle: pass its vocabulary with --vocab",
                             options.bert_handle)
        return BertWordPiece(vocab, options.lower_case)
    from .wordpiece_vocab import learn_vocab, write_vocab

    directory = out / rf.TOKENIZER_DIR
    settings = {"wordpiece_vocab_size": options.wordpiece_vocab_size, "lower_case": options.lower_case,
                **_fingerprint(documents)}
    if not _reusable(directory, settings, ["vocab.txt"]):
        log(f"learning a WordPiece vocabulary of {options.wordpiece_vocab_size} tokens from the corpus")
        vocab = learn_vocab((d.text for d in documents), options.wordpiece_vocab_size, options.lower_case)
        write_vocab(directory / "vocab.txt", vocab)
        write_json(directory / SETTINGS_FILE, settings)
    return BertWordPiece(directory / "vocab.txt", options.lower_case)


def glove_tokenizer(options: PreprocessOptions, documents: list[Document], out: Path, log):
    """SentencePiece unigram model and word list learned from the corpus (reused when unchanged)."""
    from .tokenizers import GloveTokenizer, build_word_vocab, train_sentencepiece

    directory = out / rf.TOKENIZER_DIR
    settings = {"sp_vocab_size": options.sp_vocab_size, "word_vocab_size": options.word_vocab_size,
                **_fingerprint(documents)}
    if not _reusable(directory, settings, ["pieces.model", "words.txt"]):
        counts = _element_counts(documents)
        log(f"training a SentencePiece unigram model of {options.sp_vocab_size} pieces")
        train_sentencepiece(counts, directory / "pieces.model", options.sp_vocab_size)
        build_word_vocab(counts, directory / "words.txt", options.word_vocab_size)
        write_json(directory / SETTINGS_FILE, settings)
    return GloveTokenizer(directory / "pieces.model", directory / "words.txt")


def glove_vectors(options: PreprocessOptions, tokenizer, piece_sequences: list, out: Path, log) -> dict:
    """Train piece vectors (and map pretrained word vectors); returns assets and figures."""
    import numpy as np

    from . import glove

    directory = out / rf.GLOVE_DIR
    text_file = f"pieces.{options.glove_dim}d.txt"
    settings = {"dim": options.glove_dim, "epochs": options.glove_epochs, "window": options.glove_window,
                "min_cooccurrence": options.glove_min_cooccurrence,
                "seed": options.seed, "tokens": sum(map(len, piece_sequences)),
                "sequences": len(piece_sequences), "vocab_size": tokenizer.vocab_size}
    figures = {}
    if _reusable(directory, settings, ["pieces.npy", text_file]):
        log("GloVe piece vectors are up to date")
    else:
        started = time.perf_counter()
        rows, cols, values = glove.cooccurrence(piece_sequences, tokenizer.vocab_size, options.glove_window,
                                                ignore=[tokenizer.special_ids["pad"]],
                                                min_count=options.glove_min_cooccurrence)
        log(f"training {options.glove_dim}-d GloVe vectors on {len(values):,} co-occurrences")
        vectors, losses = glove.train_glove(rows, cols, values, tokenizer.vocab_size, options.glove_dim,
                                            options.glove_epochs, seed=options.seed,
                                            progress=_bar(options.glove_epochs, "GloVe epochs"))
        directory.mkdir(parents=True, exist_ok=True)
        np.save(directory / "pieces.npy", vectors.astype(np.float32))
        glove.save_text(directory / text_file, tokenizer.tokens(range(tokenizer.vocab_size)), vectors)
        write_json(directory / SETTINGS_FILE, settings)
        figures = {"glove_cooccurrences": int(len(values)), "glove_loss_first": round(losses[0], 5),
                   "glove_loss_last": round(losses[-1], 5),
                   "glove_seconds": round(time.perf_counter() - started, 1)}
    assets = {"piece_vectors": f"{rf.GLOVE_DIR}/pieces.npy", "piece_vectors_text": f"{rf.GLOVE_DIR}/{text_file}"}
    if options.pretrained_glove:
        matrix = glove.pretrained_matrix(options.pretrained_glove, tokenizer.words)
        np.save(directory / "words.npy", matrix)
        assets["word_vectors"] = f"{rf.GLOVE_DIR}/words.npy"
        figures["pretrained_word_coverage"] = round(glove.coverage(matrix), 4)
        log(f"pretrained word vectors: {figures['pretrained_word_coverage']:.1%} of {len(tokenizer.words):,} "
            "words found, the rest are zero vectors")
    return {"assets": assets, "figures": figures}


def _bar(total: int, desc: str):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="", file=sys.stderr, disable=not sys.stderr.isatty())


def check_options(options: PreprocessOptions) -> None:
    """What ``preprocess`` refuses before any work, in-process and on Beam: an unknown tokenizer or ``--labels``."""
    rf.check_kind(options.tokenizer)
    if options.labels not in ("weak", "gold"):
        raise InputError(f"unknown --labels {options.labels!r}: use weak or gold")


def preprocess(documents: list[Document], out, options: PreprocessOptions, log=print) -> dict:
    """Run the whole stage into ``out``; returns the stats written to ``stats.json``."""
    started = time.perf_counter()
    check_options(options)
    if not documents:
        raise InputError("the corpus holds no documents")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    surrogates = options.pseudonymize is not None
    if surrogates:
        # Before anything learns from the text: a learned vocabulary sees the surrogates too.
        log(f"pseudonymizing the {options.labels} placeholders (seed {options.pseudonymize})")
        documents = list(pseudonymize_documents(documents, options.labels, options.pseudonymize))
    if options.tokenizer == "bert":
        tokenizer = bert_tokenizer(options, documents, out, log)
    else:
        tokenizer = glove_tokenizer(options, documents, out, log)
    (out / rf.FORMAT_FILE).unlink(missing_ok=True)  # the directory is incomplete until the end
    progress = _bar(len(documents), "documents")
    result = build_data(documents, tokenizer, out, labels=options.labels, surrogates=surrogates,
                        max_seq_len=options.max_seq_len,
                        candidate_vectors=options.candidate_vectors, candidate_rate=options.candidate_rate,
                        validation_share=options.validation_share, seed=options.seed,
                        keep_pieces=options.tokenizer == "glove", progress=progress,
                        extra_meta={"pseudonymize": options.pseudonymize, "options": asdict(options)})
    progress.close()
    stats = result.stats
    if surrogates:
        stats["pseudonymize"] = options.pseudonymize
        stats["surrogate_spans"] = sum(len(d.spans) for d in documents)
    return finish(options, tokenizer, lambda: result.piece_sequences, out, stats, started, log)


def finish(options: PreprocessOptions, tokenizer, pieces, out: Path, stats: dict, started: float, log) -> dict:
    """The last step of ``preprocess``, in-process and on Beam: the GloVe vectors of the written
    pieces (``pieces()`` is only called for the GloVe tokenizer), then ``stats.json``."""
    if options.tokenizer == "glove":
        meta = rf.read_format(out)
        vectors = glove_vectors(options, tokenizer, pieces(), out, log)
        meta["assets"].update(vectors["assets"])
        meta["glove_dim"] = options.glove_dim
        rf.write_format(out, {k: v for k, v in meta.items() if k != "format_version"})
        stats.update(vectors["figures"])
    stats["seconds"] = round(time.perf_counter() - started, 1)
    write_json(out / rf.STATS_FILE, stats)
    return stats


# Rows of the printed summary: (stats key, label); Table 5.1 first.
SUMMARY_ROWS = (
    ("documents", "documents"),
    ("elements", "text elements"),
    ("placeholder_elements", "placeholder elements"),
    ("pseudonymize", "pseudonymized, surrogate seed"),
    ("surrogate_spans", "placeholders replaced by surrogates"),
    ("positive_rate", "positive rate"),
    ("tokens_per_element", "tokens per element"),
    ("sequences", "sequences"),
    ("train_sequences", "  training"),
    ("validation_sequences", "  validation"),
    ("train_documents", "training documents"),
    ("validation_documents", "validation documents"),
    ("split_paragraphs", "paragraphs split over sequences"),
    ("truncated_elements", "elements truncated to the maximum length"),
    ("candidate_share", "elements per candidate vector"),
    ("glove_cooccurrences", "GloVe co-occurrence pairs"),
    ("glove_loss_first", "GloVe loss, first epoch"),
    ("glove_loss_last", "GloVe loss, last epoch"),
    ("glove_seconds", "GloVe training seconds"),
    ("pretrained_word_coverage", "words with a pretrained vector"),
    ("seconds", "seconds"),
)


def format_stats(stats: dict) -> str:
    """The stats as an aligned two-column table."""
    lines = []
    for key, label in SUMMARY_ROWS:
        if key not in stats:
            continue
        value = stats[key]
        if isinstance(value, dict):
            value = ", ".join(f"{v} ({k})" for k, v in value.items())
        elif key in ("positive_rate", "candidate_share", "pretrained_word_coverage"):
            value = f"{value:.2%}"
        elif isinstance(value, int):
            value = f"{value:,}"
        lines.append(f"{label:<42} {value}")
    return "\n".join(lines)
