"""The ``pretrain`` subcommand: a small BERT of our own (thesis 9.4), hub-loadable.

Only argparse-level code here; TensorFlow is imported inside :func:`run`.
"""

from __future__ import annotations

import argparse
import sys

from rulings_anon.checkpoints import add_restart_argument
from rulings_anon.cli import Command
from rulings_anon.defaults import DEV_COURTS as DEFAULT_COURTS

DESCRIPTION = """\
Pretrain a small BERT-style encoder as a masked language model on a corpus and export it as a
TF2 SavedModel with the TF Hub BERT interface, loadable wherever a BERT handle is asked for
(train --bert-handle ENCODER, hub.KerasLayer(ENCODER)).

Masking is by whole text element (thesis 9.4): about --mask-rate of the whitespace-separated
elements of each sequence are chosen and all their WordPiece tokens are masked together (80 %
[MASK], 10 % random tokens, 10 % kept). Court placeholders ("K.", "M-GmbH", "...") become the
single token [PLH] and are never prediction targets.

ENCODER receives saved_model.pb, variables/, assets/vocab.txt (WordPiece vocabulary learned from
the corpus), encoder_config.json and pretrain.json (final MLM loss and accuracy on held-out
sequences, timing, loss history). Its pretrain/ folder keeps checkpoints: the same command run
again resumes an interrupted run on the same corpus and settings (--steps may raise its step
count); --restart starts over when the corpus or settings changed.

The defaults (2 layers, width 128, 1000 steps of 32 sequences) train in minutes on 2 CPU cores.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", nargs="+", metavar="CORPUS",
                        help="rulings to learn from: .jsonl(.gz), .txt, a corpus directory or portal "
                             "files (default: the bundled corpus without the held-out BSG)")
    parser.add_argument("--out", required=True, metavar="ENCODER", help="output directory of the encoder")
    parser.add_argument("--vocab-size", type=int, default=8000, help="WordPiece vocabulary size (default 8000)")
    parser.add_argument("--layers", type=int, default=2, help="transformer layers (default 2)")
    parser.add_argument("--hidden", type=int, default=128, help="hidden width (default 128)")
    parser.add_argument("--heads", type=int, default=2, help="attention heads per layer (default 2)")
    parser.add_argument("--intermediate", type=int, default=512,
                        help="feed-forward width inside each layer (default 512)")
    parser.add_argument("--max-seq-len", type=int, default=128, help="tokens per sequence (default 128)")
    parser.add_argument("--steps", type=int,
                        help="training steps (default 1000; a resumed run keeps its own when that is more)")
    parser.add_argument("--batch-size", type=int, default=32, help="sequences per step (default 32)")
    parser.add_argument("--learning-rate", type=float, default=1e-3,
                        help="peak learning rate after the warm-up (default 1e-3)")
    parser.add_argument("--mask-rate", type=float, default=0.15,
                        help="share of the elements of a sequence that are masked (default 0.15)")
    parser.add_argument("--placeholders", choices=("detector", "gold"), default="detector",
                        help="find placeholders with the rule-based detector (default) or take the "
                             "corpus' gold 'spans'")
    parser.add_argument("--seed", type=int, default=0, help="seed of batches and masking (default 0)")
    add_restart_argument(parser)
    # Resuming is the default now; the flag is still accepted so that older command lines run.
    parser.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)


def _validate(args) -> None:
    from rulings_anon.errors import InputError

    checks = [
        (args.hidden % args.heads == 0, f"--hidden {args.hidden} must be divisible by --heads {args.heads}"),
        (0.0 < args.mask_rate < 1.0, "--mask-rate must lie between 0 and 1"),
        (args.max_seq_len >= 8, "--max-seq-len must be at least 8"),
        (min(args.steps or 1, args.batch_size, args.layers, args.heads) >= 1,
         "--steps, --batch-size, --layers and --heads must be positive"),
        (args.vocab_size >= 100, "--vocab-size must be at least 100"),
    ]
    for ok, message in checks:
        if not ok:
            raise InputError(message)


def run(args) -> int:
    _validate(args)
    from pathlib import Path

    from rulings_anon import data
    from rulings_anon.checkpoints import fingerprint_files
    from rulings_anon.inputs import read_documents
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .pretrain import PretrainSettings, pretrain
    from .pretrain_data import WholeElementMasking

    corpus = args.corpus or [str(p) for p in data.ler_corpus_files(DEFAULT_COURTS)]
    check_outputs([output("--out", args.out, folder=True)], inputs("--corpus", corpus))
    settings = PretrainSettings(
        vocab_size=args.vocab_size, layers=args.layers, hidden=args.hidden, heads=args.heads,
        intermediate=args.intermediate, max_seq_len=args.max_seq_len, steps=args.steps or PretrainSettings.steps,
        batch_size=args.batch_size, learning_rate=args.learning_rate,
        masking=WholeElementMasking(mask_rate=args.mask_rate), placeholders=args.placeholders, seed=args.seed,
    )
    fingerprint = fingerprint_files([p for p in corpus if Path(p).exists()])
    report = pretrain(read_documents(corpus), args.out, settings, restart=args.restart, fingerprint=fingerprint,
                      progress=_progress)
    held_out = report["held_out"]
    print(f"pretrained to step {report['settings']['steps']} ({report['steps_this_run']} steps this run, "
          f"{report['train_seconds']:.0f} s); held-out MLM loss {held_out['mlm_loss']:.3f}, "
          f"accuracy {held_out['mlm_accuracy']:.1%} over {held_out['targets']} masked tokens; "
          f"encoder in {args.out}")
    return 0


def _progress(items, desc):
    from tqdm import tqdm

    return tqdm(items, desc=desc, unit="doc", file=sys.stderr, disable=None, dynamic_ncols=True)


COMMANDS = [
    Command(
        "pretrain",
        "pretrain a small BERT (masked LM, whole-element masking) and export it for TF Hub",
        configure,
        run,
        description=DESCRIPTION,
    )
]
