"""``rulings-anon train-ner``: train the legal NER that proposes candidate references (thesis 9.2).

Only argument parsing lives here; TensorFlow is imported when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulings_anon.checkpoints import add_restart_argument
from rulings_anon.cli import Command

# NerConfig's defaults, written out so that building the parser imports no NER code.
DEFAULT_INVENTED_NAMES = 0.7
DEFAULT_ENTITY_DROPOUT = 0.5
DEFAULT_TITLED_PERSONS = 0.0
DEFAULT_LEXICON = "none"  # NerConfig.lexicon None; the shipped one is "de-nouns"
LEARNING_RATE_SCHEDULES = ("constant", "cosine", "linear")  # model.LEARNING_RATE_SCHEDULES' names
DEFAULT_LEARNING_RATE_SCHEDULE = "constant"

_DESCRIPTION = """\
Train the legal NER: a BiLSTM over word and character embeddings, on LER rulings whose
placeholders are replaced by realistic surrogates (so it learns real names), with the LER
types as tags (rulings_anon/data/ner_tags.json). Writes a model directory (config.json, weights.h5,
vocab.txt, chars.txt) that `evaluate --method ner` and `score` use for candidates.
By default it trains on the bundled courts except the held-out BSG. Interrupted runs resume
from the last finished epoch when started again with the same --out, corpus and settings;
--restart starts over when they changed.

example:
  rulings-anon train-ner --out runs/ner --epochs 6 --max-docs 450
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", nargs="+", type=Path, metavar="FILE",
                        help="LER-style JSONL files with 'text', 'spans' (placeholders) and 'entities' "
                             "(default: rulings_anon/data/ler/*.jsonl.gz without the held-out bsg)")
    parser.add_argument("--out", required=True, type=Path, metavar="NER_MODEL", help="model directory to write")
    parser.add_argument("--epochs", type=int, default=6, help="passes over the training windows (default 6)")
    parser.add_argument("--max-docs", type=int, default=450,
                        help="use at most this many rulings, taken in turn from each file (default 450; 0 = all)")
    parser.add_argument("--batch-size", type=int, default=32, help="windows per batch (default 32)")
    parser.add_argument("--hidden", type=int, default=64, help="LSTM units per direction (default 64)")
    parser.add_argument("--seed", type=int, default=0, help="seed of surrogates, shuffling and word dropout")
    parser.add_argument("--invented-names", type=float, metavar="SHARE",
                        help="share of surrogate surnames and places made up from two listed ones, so the names "
                             f"are too many to learn by heart (default {DEFAULT_INVENTED_NAMES})")
    parser.add_argument("--entity-dropout", type=float, metavar="RATE",
                        help="share of the words of person, company, place ... entities hidden in each epoch, "
                             f"so names are judged by context and letters (default {DEFAULT_ENTITY_DROPOUT})")
    parser.add_argument("--titled-persons", type=float, metavar="SHARE",
                        help="share of the persons courts anonymized given an academic title ('Dr.') in training, "
                             "since the training courts name their titled judges in clear; 0.3 gained precision "
                             f"and lost recall on the dev courts (default {DEFAULT_TITLED_PERSONS})")
    parser.add_argument("--average-epochs", type=int, default=1, metavar="N",
                        help="keep the mean of the weights after each of the last N epochs (default 1: the last "
                             "epoch's; 3 narrowed the spread between runs on BSG but lowered dev F1)")
    parser.add_argument("--learning-rate-schedule", choices=LEARNING_RATE_SCHEDULES,
                        default=DEFAULT_LEARNING_RATE_SCHEDULE, metavar="NAME",
                        help="how the learning rate falls over the run: "
                             f"{', '.join(LEARNING_RATE_SCHEDULES)} (default {DEFAULT_LEARNING_RATE_SCHEDULE})")
    add_restart_argument(parser)
    parser.add_argument("--lexicon", default=DEFAULT_LEXICON, metavar="NAME",
                        help="a shipped German noun lexicon (rulings_anon/data/lexicon/NAME.tsv.gz: de-nouns) whose bits (common "
                             "noun, name, place, compound) are a token input; better on the dev courts, worse on a "
                             f"left-out court (default {DEFAULT_LEXICON})")


def run(args: argparse.Namespace) -> int:
    from rulings_anon.errors import InputError
    from rulings_anon.ner.dataset import dev_corpus_files
    from rulings_anon.ner.trainer import train_ner
    from rulings_anon.output_paths import check_outputs, inputs, output

    files = args.corpus or dev_corpus_files()
    for path in files:
        if not Path(path).is_file():
            raise InputError("no such corpus file", path)
    check_outputs([output("--out", args.out, folder=True)], inputs("--corpus", files))
    for name, value in (("--epochs", args.epochs), ("--batch-size", args.batch_size), ("--hidden", args.hidden),
                        ("--average-epochs", args.average_epochs)):
        if value < 1:
            raise InputError(f"{name} must be at least 1, got {value}")
    overrides = {"hidden": args.hidden, "average_epochs": args.average_epochs,
                 "learning_rate_schedule": args.learning_rate_schedule,
                 "lexicon": None if args.lexicon == "none" else args.lexicon}
    if overrides["lexicon"]:
        from rulings_anon.ner.lexicon_builder import lexicon_file

        if not lexicon_file(overrides["lexicon"]).is_file():
            raise InputError("no such lexicon (give a name in rulings_anon/data/lexicon/ or 'none')", lexicon_file(args.lexicon))
    for name, field, value in (("--invented-names", "invented_names", args.invented_names),
                               ("--entity-dropout", "entity_dropout", args.entity_dropout),
                               ("--titled-persons", "titled_persons", args.titled_persons)):
        if value is not None:
            if not 0.0 <= value <= 1.0:
                raise InputError(f"{name} must be between 0 and 1, got {value}")
            overrides[field] = value
    tagger = train_ner(files, args.out, epochs=args.epochs, max_docs=args.max_docs or None, seed=args.seed,
                        batch_size=args.batch_size, overrides=overrides, restart=args.restart)
    losses = ", ".join(f"{x:.4f}" for x in tagger.config.training["loss"])
    print(f"train-ner: wrote {args.out} (loss per epoch: {losses})")
    return 0


COMMANDS = [Command("train-ner", "train the legal NER that proposes candidate references", configure, run,
                    description=_DESCRIPTION)]
