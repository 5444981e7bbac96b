"""Pretrain a small BERT of our own as a masked LM with whole-element masking (thesis 9.4).

``pretrain(documents, out_dir, settings)`` learns a WordPiece vocabulary from the corpus
(:mod:`preprocessing.wordpiece_vocab`), packs the corpus into token sequences with
:class:`preprocessing.tokenizers.BertWordPiece` (placeholders as one ``[PLH]`` token each), trains
the encoder of :mod:`models.encoder` plus a masked-LM head on whole-element masked batches
(:mod:`models.pretrain_data`) and exports the encoder with the TF Hub BERT interface
(:mod:`models.hub_export`). The output directory ``ENCODER`` holds::

    ENCODER/saved_model.pb, variables/, assets/vocab.txt   the hub-loadable encoder
    ENCODER/encoder_config.json                            its architecture
    ENCODER/pretrain.json                                  settings, final MLM loss/accuracy, timing
    ENCODER/pretrain/                                      the run's working files, for resuming:
        run.json (the corpus fingerprint), settings.json, vocab.txt, sequences.npz, checkpoints/, log.jsonl

Every step's batch and masking is drawn from ``(seed, step)``, so a run interrupted and resumed
from its last checkpoint sees the same data as one that ran through.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from rulings_anon.checkpoints import RunRecord, resumes
from rulings_anon.errors import InputError
from rulings_anon.jsonl import JsonlAppender, read_jsonl, write_json, write_jsonl
from rulings_anon.preprocessing.tokenizers import BertWordPiece, read_vocab
from rulings_anon.preprocessing.wordpiece_vocab import RESERVED_TOKENS, learn_vocab, write_vocab
from rulings_anon.tf import keras, tensorflow

from .encoder import EncoderConfig, build_encoder, word_embedding_matrix
from .hub_export import VOCAB_ASSET, export_hub_encoder
from .pretrain_data import (
    LABELLERS,
    TokenSequences,
    WholeElementMasking,
    labelled_elements,
    mask_whole_elements,
    pack_sequences,
)

WORK_DIR = "pretrain"
SETTINGS_FILE = "settings.json"
RUN_FILE = "run.json"
SEQUENCES_FILE = "sequences.npz"
LOG_FILE = "log.jsonl"
REPORT_FILE = "pretrain.json"


@dataclass(frozen=True)
class PretrainSettings:
    """What a pretraining run is: architecture, data, optimisation. Saved as ``settings.json``.

    ``vocab_size`` is the size asked of the vocabulary learner; the encoder gets the size it
    delivers. ``eval_sequences`` sequences are held out to measure the final MLM loss/accuracy.
    """

    vocab_size: int = 8000
    layers: int = 2
    hidden: int = 128
    heads: int = 2
    intermediate: int = 512
    max_seq_len: int = 128
    steps: int = 1000
    batch_size: int = 32
    learning_rate: float = 1e-3
    warmup_share: float = 0.05
    weight_decay: float = 0.01
    masking: WholeElementMasking = field(default_factory=WholeElementMasking)
    placeholders: str = "detector"
    seed: int = 0
    checkpoint_every: int = 100
    log_every: int = 10
    eval_sequences: int = 256

    def encoder_config(self, vocab_size: int) -> EncoderConfig:
        return EncoderConfig(
            vocab_size=vocab_size, hidden=self.hidden, layers=self.layers, heads=self.heads,
            intermediate=self.intermediate, max_seq_len=self.max_seq_len,
        )

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, record: dict) -> PretrainSettings:
        return cls(**{**record, "masking": WholeElementMasking(**record["masking"])})


# --- the masked-LM head --------------------------------------------------------------------------

def masked_lm_head(hidden: int, vocab_size: int):
    """Predicts the original tokens at masked positions; the output layer is the (tied) word embedding."""
    tf = tensorflow()
    tf_keras = keras()

    class MaskedLMHead(tf_keras.layers.Layer):
        def build(self, input_shape):
            self.transform = tf_keras.layers.Dense(hidden, activation="gelu", name="transform")
            self.norm = tf_keras.layers.LayerNormalization(epsilon=1e-12, name="transform_norm")
            self.output_bias = self.add_weight("output_bias", shape=(vocab_size,), initializer="zeros")
            super().build(input_shape)

        def call(self, sequence_output, positions, embeddings):
            gathered = tf.gather(sequence_output, positions, batch_dims=1)  # [B, P, H]
            x = self.norm(self.transform(gathered))
            return tf.matmul(x, embeddings, transpose_b=True) + self.output_bias  # [B, P, V]

    return MaskedLMHead(name="masked_lm")


def warmup_linear_decay(peak: float, steps: int, warmup_share: float):
    """Linear warm-up to ``peak`` over ``warmup_share`` of the steps, then linear decay to 0."""
    tf = tensorflow()
    tf_keras = keras()
    warmup = max(1, int(steps * warmup_share))

    class WarmupLinearDecay(tf_keras.optimizers.schedules.LearningRateSchedule):
        def __call__(self, step):
            step = tf.cast(step, tf.float32) + 1.0
            rise = step / warmup
            fall = tf.maximum(0.0, (steps - step + 1.0) / max(1, steps - warmup + 1))
            return peak * tf.minimum(rise, fall)

        def get_config(self):
            return {"peak": peak, "steps": steps, "warmup_share": warmup_share}

    return WarmupLinearDecay()


# --- training ------------------------------------------------------------------------------------

class Pretrainer:
    """Encoder + masked-LM head + optimizer + checkpoint of one run directory."""

    def __init__(self, settings: PretrainSettings, config: EncoderConfig, checkpoint_dir: Path):
        tf = self._tf = tensorflow()
        tf_keras = keras()
        self.settings = settings
        self.config = config
        self.encoder = build_encoder(config)
        self.head = masked_lm_head(config.hidden, config.vocab_size)
        self.optimizer = tf_keras.optimizers.AdamW(
            learning_rate=warmup_linear_decay(settings.learning_rate, settings.steps, settings.warmup_share),
            weight_decay=settings.weight_decay, clipnorm=1.0,
        )
        # BERT decays neither layer norms nor biases.
        self.optimizer.exclude_from_weight_decay(var_names=["norm", "bias", "position_embedding"])
        self.step = tf.Variable(0, dtype=tf.int64, trainable=False, name="step")
        self._build()
        self.checkpoint = tf.train.Checkpoint(
            encoder=self.encoder, head=self.head, optimizer=self.optimizer, step=self.step
        )
        self.manager = tf.train.CheckpointManager(self.checkpoint, str(checkpoint_dir), max_to_keep=2)
        signature = [
            tf.TensorSpec([None, None], tf.int32),  # input ids
            tf.TensorSpec([None, None], tf.int32),  # input mask
            tf.TensorSpec([None, None], tf.int32),  # positions
            tf.TensorSpec([None, None], tf.int32),  # targets
            tf.TensorSpec([None, None], tf.float32),  # weights
        ]
        self._train_step = tf.function(self._train_step_eager, input_signature=signature)
        self._eval_step = tf.function(self._loss_and_hits, input_signature=signature)

    def _build(self):
        tf = tensorflow()
        one = tf.zeros([1, 2], tf.int32)
        self._loss_and_hits(one, one + 1, one, one, tf.zeros([1, 2]))
        # The pooler gets no MLM gradient (BERT trained it on next-sentence prediction): it stays
        # at its initial weights until fine-tuning.
        self.variables = [v for v in self.encoder.trainable_variables if not v.name.startswith("pooler/")]
        self.variables += self.head.trainable_variables
        self.optimizer.build(self.variables)

    def _loss_and_hits(self, input_ids, input_mask, positions, targets, weights, training=False):
        tf = self._tf
        outputs = self.encoder(
            {"input_word_ids": input_ids, "input_mask": input_mask,
             "input_type_ids": tf.zeros_like(input_ids)},
            training=training,
        )
        logits = self.head(outputs["sequence_output"], positions, word_embedding_matrix(self.encoder))
        losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits)
        hits = tf.cast(tf.equal(tf.argmax(logits, -1, output_type=tf.int32), targets), tf.float32)
        return tf.reduce_sum(losses * weights), tf.reduce_sum(hits * weights), tf.reduce_sum(weights)

    def _train_step_eager(self, input_ids, input_mask, positions, targets, weights):
        tf = self._tf
        with tf.GradientTape() as tape:
            loss_sum, hits, count = self._loss_and_hits(
                input_ids, input_mask, positions, targets, weights, training=True
            )
            loss = loss_sum / tf.maximum(count, 1.0)
        gradients = tape.gradient(loss, self.variables)
        self.optimizer.apply_gradients(zip(gradients, self.variables, strict=True))
        self.step.assign_add(1)
        return loss_sum, hits, count

    def restore(self) -> int:
        if self.manager.latest_checkpoint:
            self.checkpoint.restore(self.manager.latest_checkpoint).assert_existing_objects_matched()
        return int(self.step.numpy())

    def train_batch(self, batch) -> tuple[float, float, float]:
        return tuple(float(v) for v in self._train_step(*_batch_tensors(batch)))

    def evaluate(self, sequences: TokenSequences, masker) -> dict:
        """MLM loss and accuracy over held-out sequences with a fixed masking draw."""
        rng = np.random.default_rng([self.settings.seed, 1 << 20])
        loss_sum = hits = count = 0.0
        for start in range(0, len(sequences), self.settings.batch_size):
            batch = masker(sequences.take(slice(start, start + self.settings.batch_size)), rng)
            values = self._eval_step(*_batch_tensors(batch))
            loss_sum, hits, count = (a + float(b) for a, b in zip((loss_sum, hits, count), values, strict=True))
        return {"mlm_loss": loss_sum / max(count, 1.0), "mlm_accuracy": hits / max(count, 1.0),
                "targets": int(count)}


def _trim(batch: TokenSequences) -> TokenSequences:
    """Cut the batch to its longest sequence: shorter tensors, same content."""
    length = int(batch.lengths.max())
    return TokenSequences(batch.ids[:, :length], batch.elements[:, :length], batch.placeholder[:, :length])


def _batch_tensors(batch):
    return (batch.input_ids, batch.input_mask, batch.positions, batch.targets, batch.weights)


def step_batch(sequences: TokenSequences, step: int, batch_size: int, seed: int) -> TokenSequences:
    """The training batch of ``step``: epochs walk through a seeded permutation of the sequences."""
    per_epoch = max(1, len(sequences) // batch_size)
    epoch, index = divmod(step, per_epoch)
    order = np.random.default_rng([seed, epoch]).permutation(len(sequences))
    return sequences.take(np.sort(order[index * batch_size:(index + 1) * batch_size]))


# --- the run ---------------------------------------------------------------------------------------

def _prepare(documents, work: Path, settings: PretrainSettings, progress) -> tuple[Path, TokenSequences]:
    """Learn the vocabulary and pack the sequences once; a resumed run reuses them.

    ``settings.json`` is written last: a run stopped before it has no data to resume and starts over.
    """
    vocab_file = work / VOCAB_ASSET
    sequences_file = work / SEQUENCES_FILE
    if (work / SETTINGS_FILE).exists():
        return vocab_file, TokenSequences.load(sequences_file)
    labeller = LABELLERS[settings.placeholders]()
    corpus = [pairs for pairs in labelled_elements(progress(documents, "labelling"), labeller) if pairs]
    if not corpus:
        raise InputError("the corpus holds no text")
    texts = (text for pairs in corpus for text, placeholder in pairs if not placeholder)
    write_vocab(vocab_file, learn_vocab(texts, settings.vocab_size, lower_case=False))
    tokenizer = BertWordPiece(vocab_file, lower_case=False)
    sequences = pack_sequences(progress(corpus, "tokenizing"), tokenizer.tokenize_elements, tokenizer.special_ids,
                               settings.max_seq_len)
    sequences.save(sequences_file)
    write_json(work / SETTINGS_FILE, settings.to_dict())
    return vocab_file, sequences


def _masker(settings: PretrainSettings, vocab: list[str]):
    mask_id = vocab.index("[MASK]")
    replacement_ids = np.array([i for i, t in enumerate(vocab) if t not in RESERVED_TOKENS], np.int32)
    slots = settings.masking.max_predictions(settings.max_seq_len)

    def mask(batch: TokenSequences, rng):
        return mask_whole_elements(_trim(batch), settings.masking, rng, mask_id, replacement_ids, slots)

    return mask


def _compared(settings: PretrainSettings) -> dict:
    """The settings a resumed run must share with its start: all but the step count, which may grow
    (:func:`rulings_anon.checkpoints.changed_settings` compares them as JSON)."""
    return {k: v for k, v in settings.to_dict().items() if k != "steps"}


def _settings_for(work: Path, settings: PretrainSettings, restart: bool, fingerprint: str,
                  out_dir: Path) -> PretrainSettings:
    """The settings of the run in ``out_dir``: its own when it resumes (:func:`rulings_anon.checkpoints.resumes`),
    with the step count raised to ``settings.steps``; else ``settings``, and an earlier run's work is deleted."""
    saved = work / SETTINGS_FILE
    previous = PretrainSettings.from_dict(json.loads(saved.read_text(encoding="utf-8"))) if saved.exists() else None
    recorded = RunRecord.read(work / RUN_FILE) or RunRecord()
    before = RunRecord(recorded.fingerprint, _compared(previous)) if previous is not None else None
    if resumes(out_dir, before, RunRecord(fingerprint, _compared(settings)), restart,
               other_data="holds a pretraining run on another corpus"):
        if settings.steps > previous.steps:
            previous = replace(previous, steps=settings.steps)
            write_json(saved, previous.to_dict())
        return previous
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    RunRecord(fingerprint, _compared(settings)).write(work / RUN_FILE)
    return settings


def pretrain(documents, out_dir, settings: PretrainSettings, restart: bool = False, fingerprint: str = "",
             progress=None) -> dict:
    """Run (or resume) a pretraining run into ``out_dir``; returns the ``pretrain.json`` report.

    A run of the same corpus (``fingerprint`` of its files) and settings resumes from its last
    checkpoint, its step count raised to ``settings.steps``; another run there is an error, or with
    ``restart`` deleted (:mod:`rulings_anon.checkpoints`).
    """
    progress = progress or (lambda items, _desc: items)
    out_dir = Path(out_dir)
    work = out_dir / WORK_DIR
    settings = _settings_for(work, settings, restart, fingerprint, out_dir)
    started = time.monotonic()
    vocab_file, sequences = _prepare(documents, work, settings, progress)
    vocab = read_vocab(vocab_file)
    if len(sequences) < 2:
        raise InputError("the corpus is too small to pretrain on (fewer than 2 sequences)")
    order = np.random.default_rng([settings.seed, 1 << 21]).permutation(len(sequences))
    held_out = min(settings.eval_sequences, max(1, len(sequences) // 10))
    evaluation, training = sequences.take(np.sort(order[:held_out])), sequences.take(np.sort(order[held_out:]))
    prepared = time.monotonic() - started

    config = settings.encoder_config(len(vocab))
    trainer = Pretrainer(settings, config, work / "checkpoints")
    first = trainer.restore()
    log = _reopen_log(work / LOG_FILE, first)
    masker = _masker(settings, vocab)
    window = [0.0, 0.0, 0.0]
    train_started, cpu_started = time.monotonic(), time.process_time()
    bar = _bar(settings.steps, first)
    with log:
        for step in range(first, settings.steps):
            batch = step_batch(training, step, settings.batch_size, settings.seed)
            values = trainer.train_batch(masker(batch, np.random.default_rng([settings.seed, step])))
            window = [a + b for a, b in zip(window, values, strict=True)]
            done = step + 1
            if done % settings.log_every == 0 or done == settings.steps:
                entry = {"step": done, "loss": window[0] / max(window[2], 1.0),
                         "accuracy": window[1] / max(window[2], 1.0)}
                log.append(entry)
                bar.set_postfix(loss=f"{entry['loss']:.3f}", acc=f"{entry['accuracy']:.3f}")
                window = [0.0, 0.0, 0.0]
            if done % settings.checkpoint_every == 0 or done == settings.steps:
                trainer.manager.save(checkpoint_number=done)
            bar.update(1)
    bar.close()
    train_seconds = time.monotonic() - train_started
    train_cpu_seconds = time.process_time() - cpu_started

    export_hub_encoder(trainer.encoder, config, vocab_file, out_dir)
    history = list(read_jsonl(work / LOG_FILE))
    report = {
        "settings": settings.to_dict(),
        "encoder": asdict(config),
        "sequences": {"train": len(training), "held_out": len(evaluation)},
        "steps_this_run": settings.steps - first,
        "prepare_seconds": round(prepared, 1),
        "train_seconds": round(train_seconds, 1),
        "train_cpu_seconds": round(train_cpu_seconds, 1),
        "steps_per_second": round((settings.steps - first) / train_seconds, 2) if train_seconds > 0 else None,
        "final_train": history[-1] if history else None,
        "held_out": trainer.evaluate(evaluation, masker),
        "history": history,
    }
    write_json(out_dir / REPORT_FILE, report)
    return report


def _reopen_log(path: Path, step: int) -> JsonlAppender:
    """The run's loss log, cut back to the restored checkpoint's step."""
    if path.exists():
        kept = [entry for entry in read_jsonl(path) if entry["step"] <= step]
        write_jsonl(path, kept)
    return JsonlAppender(path, fsync=False)


def _bar(total: int, initial: int):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc="pretraining", unit="step", file=sys.stderr,
                disable=None, dynamic_ncols=True)

