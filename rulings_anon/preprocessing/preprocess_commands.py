"""The ``preprocess`` and ``build-vocab`` subcommands (argument parsing only; work happens in ``run``)."""

from __future__ import annotations

import argparse
import sys

from rulings_anon.cli import Command
from rulings_anon.runners import add_runner_option, beam_requested

_PREPROCESS_EPILOG = """\
examples:
  rulings-anon preprocess rulings_anon/data/ler --out runs/data-bert --tokenizer bert
  rulings-anon preprocess corpus/ --out runs/data-bert --bert-handle runs/small-bert
  rulings-anon preprocess corpus/rulings.jsonl --out runs/data-glove --tokenizer glove \\
      --pretrained-glove vectors.txt
  rulings-anon preprocess corpus/ --out runs/data-pseudo --bert-handle runs/small-bert --pseudonymize

DATA receives train-*.tfrecord and validation-*.tfrecord shards (schema in
rulings_anon/preprocessing/record_format.py), format.json, stats.json, tokenizer/ and (GloVe) glove/.
Learned vocabularies and vectors are reused when a rerun asks for the same settings.
"""


def _configure_preprocess(p: argparse.ArgumentParser) -> None:
    from rulings_anon.defaults import (
        DEFAULT_CANDIDATE_RATE,
        DEFAULT_CANDIDATE_VECTORS,
        DEFAULT_VALIDATION_SHARE,
    )

    p.epilog = _PREPROCESS_EPILOG
    p.add_argument("corpus", nargs="+", metavar="CORPUS",
                   help="corpus directory, rulings/documents JSONL (.gz), .txt or portal files")
    p.add_argument("--out", required=True, metavar="DATA", help="data directory to write")
    p.add_argument("--tokenizer", choices=("bert", "glove"), default="bert",
                   help="bert: WordPiece records for BERT variants; glove: SentencePiece + word ids and "
                        "corpus-trained GloVe vectors for the leave-out variants (default: bert)")
    p.add_argument("--labels", choices=("weak", "gold"), default="weak",
                   help="weak: the placeholder detector's labels (default); gold: the corpus' gold 'spans'")
    p.add_argument("--pseudonymize", type=int, nargs="?", const=0, default=None, metavar="SEED",
                   help="replace each placeholder (of --labels) by a realistic surrogate as 'replace --auto' "
                        "does (seed SEED, default 0) before labelling; the surrogates are the positives and "
                        "keep their own tokens instead of becoming [PLH]")
    bert = p.add_argument_group("BERT")
    bert.add_argument("--vocab", metavar="VOCAB.txt", help="WordPiece vocabulary of the BERT model to train")
    bert.add_argument("--bert-handle", metavar="DIR",
                      help="local BERT SavedModel whose assets/vocab.txt to use (instead of --vocab)")
    bert.add_argument("--lower-case", action="store_true", help="lower-case and strip accents (uncased BERT)")
    bert.add_argument("--wordpiece-vocab-size", type=int, default=16000, metavar="N",
                      help="size of the vocabulary learned when neither --vocab nor --bert-handle is given "
                           "(default: 16000)")
    p.add_argument("--max-seq-len", type=int, metavar="N",
                   help="maximum tokens per sequence (default: 512 for bert incl. [CLS]/[SEP], 2048 for glove)")
    p.add_argument("--candidate-vectors", type=int, default=DEFAULT_CANDIDATE_VECTORS, metavar="N",
                   help=f"candidate vectors per sequence (default: {DEFAULT_CANDIDATE_VECTORS})")
    p.add_argument("--candidate-rate", type=float, default=DEFAULT_CANDIDATE_RATE, metavar="R",
                   help=f"share of the negative elements added to each candidate vector (default: {DEFAULT_CANDIDATE_RATE})")
    p.add_argument("--validation-share", type=float, default=DEFAULT_VALIDATION_SHARE, metavar="S",
                   help=f"share of documents in the validation split (default: {DEFAULT_VALIDATION_SHARE})")
    glove = p.add_argument_group("GloVe")
    glove.add_argument("--sp-vocab-size", type=int, default=8000, metavar="N",
                       help="SentencePiece unigram vocabulary size (default: 8000)")
    glove.add_argument("--word-vocab-size", type=int, default=100_000, metavar="N",
                       help="most frequent lower-cased words kept in the word vocabulary (default: 100000)")
    glove.add_argument("--glove-dim", type=int, default=200, metavar="D",
                       help="dimension of the corpus-trained piece vectors (default: 200)")
    glove.add_argument("--glove-epochs", type=int, default=10, metavar="N", help="GloVe training epochs (default: 10)")
    glove.add_argument("--glove-window", type=int, default=10, metavar="N",
                       help="co-occurrence window in tokens (default: 10)")
    glove.add_argument("--glove-min-cooccurrence", type=float, default=1.0, metavar="X",
                       help="drop co-occurrence entries below X (default: 1.0; 0 keeps all, about 4x slower)")
    glove.add_argument("--pretrained-glove", metavar="FILE",
                       help="pretrained GloVe text file for the words (e.g. 300-d German Wikipedia vectors)")
    p.add_argument("--seed", type=int, default=0, help="seed of candidate vectors and GloVe (default: 0)")
    p.add_argument("--json", action="store_true", help="print stats.json instead of the table")
    p.add_argument("--encoding", help="encoding of .txt inputs (default UTF-8)")
    add_runner_option(p)


def _check_ranges(args) -> None:
    from rulings_anon.errors import InputError

    if args.max_seq_len is not None and args.max_seq_len < 4:
        raise InputError("--max-seq-len must be at least 4")
    if args.candidate_vectors < 0:
        raise InputError("--candidate-vectors must not be negative")
    if args.glove_min_cooccurrence < 0:
        raise InputError("--glove-min-cooccurrence must not be negative")
    for name in ("candidate_rate", "validation_share"):
        if not 0.0 <= getattr(args, name) < 1.0:
            raise InputError(f"--{name.replace('_', '-')} must be in [0, 1)")
    for name in ("sp_vocab_size", "word_vocab_size", "glove_dim", "glove_epochs", "glove_window",
                 "wordpiece_vocab_size"):
        if getattr(args, name) < 1:
            raise InputError(f"--{name.replace('_', '-')} must be positive")


def _run_preprocess(args) -> int:
    import json

    from rulings_anon.inputs import read_input_documents
    from rulings_anon.jsonl import check_writable
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .preprocess import PreprocessOptions, format_stats, preprocess

    _check_ranges(args)
    options = PreprocessOptions(
        tokenizer=args.tokenizer, vocab=args.vocab, bert_handle=args.bert_handle, lower_case=args.lower_case,
        wordpiece_vocab_size=args.wordpiece_vocab_size, max_seq_len=args.max_seq_len,
        candidate_vectors=args.candidate_vectors, candidate_rate=args.candidate_rate, labels=args.labels,
        validation_share=args.validation_share, sp_vocab_size=args.sp_vocab_size,
        word_vocab_size=args.word_vocab_size, glove_dim=args.glove_dim, glove_epochs=args.glove_epochs,
        glove_window=args.glove_window,
        glove_min_cooccurrence=args.glove_min_cooccurrence, pretrained_glove=args.pretrained_glove, seed=args.seed,
        pseudonymize=args.pseudonymize)
    check_writable(args.out, "--out", folder=True)
    check_outputs([output("--out", args.out, folder=True)],
                  inputs("CORPUS", args.corpus) + inputs("--vocab", args.vocab) + inputs("--bert-handle", args.bert_handle)
                  + inputs("--pretrained-glove", args.pretrained_glove))
    if beam_requested(args):
        from .beam_pipelines import preprocess as preprocess_on_beam

        stats = preprocess_on_beam(args, options)
    else:
        documents = list(read_input_documents(args.corpus, args.encoding or "utf-8"))
        stats = preprocess(documents, args.out, options, log=lambda m: print(m, file=sys.stderr))
    print(json.dumps(stats, indent=2) if args.json else format_stats(stats))
    print(f"-> {args.out}", file=sys.stderr)
    return 0


def _configure_vocab(p: argparse.ArgumentParser) -> None:
    p.add_argument("corpus", nargs="+", metavar="CORPUS", help="corpus directory, JSONL or .txt files")
    p.add_argument("--out", required=True, metavar="VOCAB.txt", help="vocabulary file to write")
    p.add_argument("--vocab-size", type=int, default=16000, metavar="N", help="at most N tokens (default: 16000)")
    p.add_argument("--lower-case", action="store_true", help="learn a lower-cased, accent-free vocabulary")


def _run_vocab(args) -> int:
    from rulings_anon.inputs import read_documents
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .wordpiece_vocab import learn_vocab, write_vocab

    check_outputs([output("--out", args.out)], inputs("CORPUS", args.corpus))
    vocab = learn_vocab((d.text for d in read_documents(args.corpus)), args.vocab_size, args.lower_case)
    write_vocab(args.out, vocab)
    print(f"{len(vocab)} WordPiece tokens -> {args.out}", file=sys.stderr)
    return 0


COMMANDS = [
    Command("preprocess", "tokenize a corpus into TFRecords for training (BERT WordPiece or GloVe)",
            _configure_preprocess, _run_preprocess,
            description="Corpus -> paragraphs -> elements with weak placeholder labels -> placeholder symbol "
                        "-> tokens -> sequences -> sharded TFRecords, stats.json (thesis Table 5.1) and "
                        "tokenizer assets; with --tokenizer glove also GloVe vectors trained on the corpus."),
    Command("build-vocab", "learn a BERT WordPiece vocab.txt from a corpus", _configure_vocab, _run_vocab,
            description="Learn a WordPiece vocabulary ([PAD] [UNK] [CLS] [SEP] [MASK] [PLH] first) from a "
                        "corpus, e.g. for pretraining a small BERT of our own."),
]
