"""Training the legal NER on pseudonymized LER rulings (``rulings-anon train-ner``).

Resumable: after every epoch the weights and the epoch number are saved in the output directory
(``checkpoint.h5``, ``training_state.json``, and with ``average_epochs`` > 1 the running mean of
the last epochs' weights, ``average.npz``); running the same command again on the same corpus and
settings continues there, and ``restart`` starts over when they changed (:mod:`rulings_anon.checkpoints`).
The finished directory is what :func:`rulings_anon.ner.load_ner` reads.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
from tqdm import tqdm

from rulings_anon.checkpoints import RunRecord, resumes
from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_writer
from rulings_anon.lexicon import load_lexicon

from .dataset import (
    add_titles,
    candidate_tag_weights,
    drop_words,
    oversampled_rows,
    pseudonymize_corpus,
    read_corpus,
    tag_record,
    training_arrays,
)
from .model import NerConfig, build_model, learning_rate_at
from .tagger import NerTagger
from .tags import default_tagset
from .tokens import Vocabulary

CHECKPOINT = "checkpoint.h5"
AVERAGE = "average.npz"
STATE = "training_state.json"
MAX_WORDS = 30000
MIN_COUNT = 2


def corpus_fingerprint(records: list[dict], seed: int, titled: float = 0.0) -> str:
    """sha256 of the training rulings (ids and pseudonymized texts), the seed and the share of
    titled persons: a run resumes only on the corpus it started with."""
    digest = hashlib.sha256(f"{seed}/{titled}".encode("ascii"))
    for record in records:
        digest.update(str(record.get("id", "")).encode("utf-8") + b"\0" + record["text"].encode("utf-8") + b"\0")
    return digest.hexdigest()


def _load_average(path: Path) -> list[np.ndarray] | None:
    if not path.exists():
        return None
    with np.load(path) as arrays:
        return [arrays[f"arr_{i}"] for i in range(len(arrays.files))]


def train_ner(files, out, epochs: int = 6, max_docs: int | None = None, seed: int = 0, batch_size: int = 32,
              steps_per_epoch: int | None = None, overrides: dict | None = None,
              progress: bool | None = None, restart: bool = False) -> NerTagger:
    """Train a tagger on ``files`` (LER-style JSONL) and save it to ``out``.

    :param steps_per_epoch: cap the batches per epoch (tiny runs in tests).
    :param overrides: :class:`NerConfig` fields to change (``hidden``, ``window``, ...).
    :param restart: start over when ``out`` holds an unfinished run on another corpus or settings.
    :returns: the trained tagger; ``tagger.config.training`` records the data and the loss per epoch.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    tagset = default_tagset()
    invented = (overrides or {}).get("invented_names", NerConfig.invented_names)
    records = pseudonymize_corpus(read_corpus(files, max_docs), seed, invented=invented)
    titled = (overrides or {}).get("titled_persons", NerConfig.titled_persons)
    title_rng = np.random.default_rng([seed, 1])
    person = tagset.tags.index("B-PER")
    texts = [add_titles(tag_record(r, tagset), person, titled, title_rng) for r in records]
    if not any(t.tokens for t in texts):
        raise InputError("the corpus holds no text to train on", ", ".join(str(f) for f in files))

    state_path = out / STATE
    state = json.loads(state_path.read_text(encoding="utf-8")) if state_path.exists() else None
    corpus = corpus_fingerprint(records, seed, titled)
    settings = {"overrides": overrides or {}, "batch_size": batch_size, "steps_per_epoch": steps_per_epoch}
    previous = RunRecord(state.get("corpus", ""), state.get("settings", {})) if state is not None else None
    if not resumes(out, previous, RunRecord(corpus, settings), restart,
                   other_data="holds an unfinished run on another corpus (other files, --max-docs, --seed or "
                              "--titled-persons)"):
        for name in (CHECKPOINT, AVERAGE, STATE):
            (out / name).unlink(missing_ok=True)
        state = None
    if state is not None and (out / "vocab.txt").exists():
        config = NerConfig(**state["config"])
        vocab = Vocabulary.load(out, config.max_chars, load_lexicon(config.lexicon))
    else:
        state = None
        config = NerConfig(tags=tagset.tags, candidate_types=list(tagset.candidate_types), sensitivity=True,
                           **(overrides or {}))
        vocab = Vocabulary.build((t for text in texts for t in text.tokens), MAX_WORDS, MIN_COUNT, config.max_chars)
        vocab.lexicon = load_lexicon(config.lexicon)
        config.vocab_size, config.char_vocab_size = len(vocab.words), len(vocab.chars)
        vocab.save(out)

    learning_rate_at(config, 0.0)  # an unknown schedule fails here, before any training
    tag_weights = candidate_tag_weights(config.tags, config.candidate_types, config.candidate_weight)
    arrays = training_arrays(texts, vocab, config.window, tag_weights)
    rows = oversampled_rows(arrays["labels"], tag_weights, config.candidate_oversample)
    model = build_model(config)
    first_epoch = 0
    if state is not None and (out / CHECKPOINT).exists():
        model.load_weights(str(out / CHECKPOINT))
        first_epoch = state["epoch"]
    losses: list[float] = list(state["loss"]) if state else []
    averaged = state.get("averaged", 0) if state else 0
    average = _load_average(out / AVERAGE) if averaged else None
    averaged = averaged if average is not None else 0
    first_averaged = epochs - max(1, config.average_epochs)  # epochs counted from 0
    rng = np.random.default_rng(seed)
    show = sys.stderr.isatty() if progress is None else progress
    # Whole batches only: one batch shape means one traced training step.
    batch_size = min(batch_size, len(rows))
    batches = len(rows) // batch_size
    if steps_per_epoch:
        batches = min(batches, steps_per_epoch)
    rate = model.optimizer.learning_rate
    for epoch in range(first_epoch, epochs):
        order = rng.permutation(rows)[: batches * batch_size]
        sensitive = arrays["sensitive"][order]
        entities = arrays["weights"][order] > 1.0  # tokens of candidate-type entities weigh more
        words = drop_words(arrays["words"][order], config.word_dropout, rng, entities, config.entity_dropout)
        chars, labels, weights = arrays["chars"][order], arrays["labels"][order], arrays["weights"][order]
        bar = tqdm(total=batches, desc=f"train-ner epoch {epoch + 1}/{epochs}", unit="batch", disable=not show,
                   file=sys.stderr)
        batch_losses = []
        for b in range(batches):
            # The rate follows the schedule by position in the whole run, so a resumed run goes on
            # where the interrupted one was.
            rate.assign(learning_rate_at(config, (epoch * batches + b) / (epochs * batches)))
            batch = slice(b * batch_size, (b + 1) * batch_size)
            inputs = {"words": words[batch], "chars": chars[batch]}
            if config.lexicon:
                inputs["lexicon"] = arrays["lexicon"][order[batch]]
            if config.sensitivity:
                loss = model.train_on_batch(inputs, {"tags": labels[batch], "sensitive": sensitive[batch, :, None]},
                                            sample_weight={"tags": weights[batch], "sensitive": weights[batch]})
                loss = loss[0] if isinstance(loss, list) else loss  # the total of both outputs
            else:
                loss = model.train_on_batch(inputs, labels[batch], sample_weight=weights[batch])
            batch_losses.append(float(loss))
            bar.update(1)
            bar.set_postfix(loss=f"{loss:.4f}")
        bar.close()
        losses.append(float(np.mean(batch_losses)))
        model.save_weights(str(out / CHECKPOINT))
        if epoch >= first_averaged:
            averaged += 1
            weights_now = model.get_weights()
            average = weights_now if average is None else [a + (w - a) / averaged for a, w in zip(average, weights_now)]
            with atomic_writer(out / AVERAGE, "wb") as handle:
                np.savez(handle, *average)
        with atomic_writer(state_path) as handle:
            json.dump({"epoch": epoch + 1, "loss": losses, "config": asdict(config), "corpus": corpus,
                       "settings": settings, "averaged": averaged}, handle)

    if average is not None and averaged > 1:
        model.set_weights(average)  # the mean of the last epochs' weights: less run-to-run spread

    config.training = {"documents": len(records), "tokens": int(sum(len(t.tokens) for t in texts)),
                       "epochs": epochs, "seed": seed, "loss": [round(x, 5) for x in losses],
                       "averaged_epochs": averaged,
                       "seconds": round(time.time() - started, 1)}
    tagger = NerTagger(config, vocab, model)
    tagger.save(out)
    for name in (CHECKPOINT, AVERAGE, STATE):
        (out / name).unlink(missing_ok=True)
    return tagger
