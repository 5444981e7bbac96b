"""``rulings-anon train``: train a variant of thesis Tables 5.2/5.3 on preprocessed TFRecords.

Only argparse-level imports here; TensorFlow loads inside :func:`run_train`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulings_anon.checkpoints import add_restart_argument
from rulings_anon.cli import Command

from .masking import SCHEMES
from .pretrain_commands import COMMANDS as _PRETRAIN
from .variants import BERT_VARIANTS, GLOVE_VARIANTS

TRAIN_HELP = "train a model variant on preprocessed TFRecords"


def _variant_list() -> str:
    def lines(variants):
        return "\n".join(f"  {v.name:<8} {' '.join(v.layers) or 'fine-tuned BERT'}" for v in variants)

    schemes = "\n".join(f"  {s.name}: {s.describe()}" for s in SCHEMES.values())
    return (
        "variants on BERT (data preprocessed with --tokenizer bert; needs --bert-handle):\n"
        f"{lines(BERT_VARIANTS)}\n"
        "variants on combined GloVe embeddings (data preprocessed with --tokenizer glove):\n"
        f"{lines(GLOVE_VARIANTS)}\n"
        "layers: dN dense, cKxN convolution, rN BiLSTM, lcKxN leave-out convolution,\n"
        "lrN leave-out BiLSTM (N features/cells, K kernel size).\n\n"
        f"masking schemes (BERT with candidates; default M7):\n{schemes}\n\n"
        "The model directory gets config.json, weights/, tokenizer/, bert/ (BERT variants),\n"
        "checkpoints/, logs/ (TensorBoard) and history.json. Run the same command again to resume."
    )


def configure_train(parser: argparse.ArgumentParser) -> None:
    parser.epilog = _variant_list()
    parser.add_argument("--data", required=True, type=Path, help="directory written by 'rulings-anon preprocess'")
    parser.add_argument("--variant", required=True, help="architecture variant (listed below)")
    parser.add_argument("--out", required=True, type=Path, help="model directory to write (or resume)")
    parser.add_argument("--masking", choices=list(SCHEMES), help="masking scheme of the candidates (BERT; default M7)")
    parser.add_argument("--candidates", action=argparse.BooleanOptionalAction, default=None,
                        help="count only candidate elements in the loss (default: yes for BERT, no for GloVe)")
    parser.add_argument("--epochs", type=int, default=10, help="maximum number of epochs (default 10)")
    parser.add_argument("--batch-size", type=int, help="sequences per step (default: 6 for FT, 16 otherwise)")
    parser.add_argument("--bert-handle", help="TF Hub BERT: a URL or a local SavedModel directory")
    parser.add_argument("--class-weight", default="balanced",
                        help="'balanced' (default) or the weight of the positive class (negatives weigh 1)")
    parser.add_argument("--max-steps", type=int, help="stop after this many steps in total (run again to go on)")
    parser.add_argument("--warmup-lr", type=float, default=1e-2, help="learning rate of the warm-up (1e-2)")
    parser.add_argument("--initial-lr", type=float, default=1e-5,
                        help="learning rate after warm-up, decaying linearly to 0 (1e-5)")
    parser.add_argument("--warmup-share", type=float, default=0.05, help="share of steps for warm-up (0.05)")
    parser.add_argument("--patience", type=int, default=1,
                        help="stop after this many epochs of rising validation and falling training loss (1)")
    parser.add_argument("--width-divisor", type=int, default=1,
                        help="divide every layer width by this (quick experiments; default 1 = thesis sizes)")
    parser.add_argument("--mixed-precision", action=argparse.BooleanOptionalAction, default=None,
                        help="float16 compute with loss scaling (default: on a GPU only)")
    parser.add_argument("--seed", type=int, default=0, help="shuffling seed (default 0)")
    add_restart_argument(parser)
    parser.add_argument("--checkpoint-minutes", type=float, default=5.0,
                        help="save the training state at least this often (default 5)")


def run_train(args: argparse.Namespace) -> int:
    from rulings_anon.errors import InputError
    from rulings_anon.output_paths import check_outputs, inputs, output

    from .optimization import OptimizerConfig
    from .training import TrainOptions, train
    from .variants import get_variant

    try:
        get_variant(args.variant)
    except KeyError as exc:
        raise InputError(exc.args[0]) from None
    check_outputs([output("--out", args.out, folder=True)],
                  inputs("--data", args.data) + inputs("--bert-handle", args.bert_handle))
    for name in ("epochs", "batch_size", "max_steps", "patience", "width_divisor"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise InputError(f"--{name.replace('_', '-')} must be at least 1, not {value}")
    options = TrainOptions(
        data=args.data, variant=args.variant, out=args.out, masking=args.masking, candidates=args.candidates,
        epochs=args.epochs, batch_size=args.batch_size, bert_handle=args.bert_handle,
        class_weight=args.class_weight, max_steps=args.max_steps,
        optimizer=OptimizerConfig(warmup_lr=args.warmup_lr, initial_lr=args.initial_lr,
                                  warmup_share=args.warmup_share),
        patience=args.patience, width_divisor=args.width_divisor, seed=args.seed,
        checkpoint_seconds=args.checkpoint_minutes * 60, mixed_precision=args.mixed_precision,
        restart=args.restart,
    )
    try:
        summary = train(options)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    last = summary["history"][-1] if summary["history"] else {}
    print(f"{args.out}: {summary['steps']} steps, {summary['epochs_done']} epochs ({summary['stopped']}); "
          f"best epoch {summary['best_epoch']}, validation loss {summary['best_validation_loss']:.4f}"
          + (f", recall {last.get('validation_recall', 0):.3f}, precision {last.get('validation_precision', 0):.3f}"
             if last else "")
          + (f"; {summary['steps_per_second']:.2f} steps/s" if summary.get("steps_per_second") else ""))
    return 0


COMMANDS = [
    Command("train", TRAIN_HELP, configure_train, run_train,
            description="Train a model variant (thesis Tables 5.2 and 5.3) on preprocessed TFRecords:\n"
                        "candidate vectors, masking scheme, weighted BCE, early stopping, resumable."),
    *_PRETRAIN,
]
