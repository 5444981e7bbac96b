"""The training loop (thesis 5.4.3–5.4.4): candidates, weighted loss, validation, early stopping.

Per step each sequence gets a random candidate vector and, for BERT, its candidates are masked by the
scheme (:mod:`models.input_pipeline`); the class-weighted binary cross-entropy counts the candidates only
(or every element with ``candidates=False``). After every epoch the model is validated on the
validation split; the best weights so far go to ``MODEL/weights``; training stops early when the
validation loss rises while the training loss falls (overfitting, 5.4.4.3).

Interrupted runs resume: the full training state (weights, optimizer, epoch, step within the epoch,
history) is checkpointed every few minutes and at every epoch end, and the shuffling order is seeded
per epoch, so a resumed epoch skips exactly the batches it already did.

Devices: ``MirroredStrategy`` over all GPUs when there are several, the default strategy otherwise;
on a GPU the ``mixed_float16`` policy with dynamic loss scaling (outputs and loss stay float32).
"""

from __future__ import annotations

import functools
import math
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rulings_anon.checkpoints import RunRecord, changed_settings, fingerprint_files, resumes
from rulings_anon.defaults import DEFAULT_CANDIDATE_RATE
from rulings_anon.errors import InputError, ModelError
from rulings_anon.jsonl import read_json, write_json
from rulings_anon.tf import keras, tensorflow

from . import model_dir as md
from .architecture import EmbeddingSpec, build_model
from .input_pipeline import InputConfig, make_dataset
from .masking import get_scheme
from .optimization import OptimizerConfig, class_weights, create_optimizer, weighted_bce_sum
from .variants import BERT, GLOVE, Variant, get_variant

tf = tensorflow()
tf_keras = keras()


@dataclass
class TrainOptions:
    """What ``rulings-anon train`` asks for; None means "the variant's default"."""

    data: Path
    variant: str
    out: Path
    masking: str | None = None
    candidates: bool | None = None
    epochs: int = 10
    batch_size: int | None = None
    bert_handle: str | None = None
    class_weight: str = "balanced"
    max_steps: int | None = None
    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
    patience: int = 1
    width_divisor: int = 1
    seed: int = 0
    checkpoint_seconds: float = 300.0
    progress: bool = True
    mixed_precision: bool | None = None  # None: on a GPU
    restart: bool = False  # a model directory of other data or settings starts over instead of failing


@functools.cache
def choose_strategy():
    """``(strategy, whether a GPU is visible)``, one per process: a second ``MirroredStrategy``
    would reuse the first one's collective keys."""
    gpus = tf.config.list_logical_devices("GPU")
    if len(gpus) > 1:
        return tf.distribute.MirroredStrategy(), True
    return tf.distribute.get_strategy(), bool(gpus)


def resolve_defaults(options: TrainOptions, variant: Variant) -> tuple[bool, str | None, int]:
    """``(candidates, masking, batch_size)`` after the variant's defaults (thesis 5.4.2, 5.4.4.1).

    BERT variants train on candidates masked by M7 (the evaluation condition), or without candidates
    on every element, a ``--masking`` scheme then hiding the placeholders alone (Table 6.4's "Cand
    NO" rows); the GloVe leave-out variants need neither (5.4.2.1) and are trained on every element.
    """
    candidates = options.candidates if options.candidates is not None else variant.embedding == BERT
    masking = None
    if variant.embedding == BERT and (candidates or options.masking):
        masking = get_scheme(options.masking or "M7").name
    elif options.masking:
        raise InputError(f"--masking needs a BERT variant; {variant.name} masks nothing (a leave-out layer "
                         "never sees the element itself: the thesis's M1), leave --masking out")
    return candidates, masking, options.batch_size or variant.batch_size


def _embedding_spec(variant: Variant, data_format: dict, bert_handle: str | None, data_dir: Path):
    if variant.embedding == BERT:
        return EmbeddingSpec(bert_handle=bert_handle), {}
    vectors = load_glove_tables(data_dir, data_format)
    glove = {"piece_vocab": vectors[0].shape[0], "piece_dim": vectors[0].shape[1],
             "word_vocab": 0 if vectors[1] is None else vectors[1].shape[0],
             "word_dim": 0 if vectors[1] is None else vectors[1].shape[1]}
    return EmbeddingSpec(**glove), glove


def load_glove_tables(data_dir: Path, data_format: dict):
    """``(piece_vectors, word_vectors or None)`` as float32 arrays from the data directory."""
    import numpy as np

    assets = data_format.get("assets", {})

    def load(key):
        if not assets.get(key):
            return None
        path = Path(data_dir) / assets[key]
        if not path.exists():
            raise InputError(f"GloVe vectors {assets[key]} named in format.json are missing", path)
        return np.load(path).astype("float32")

    pieces = load("piece_vectors")
    if pieces is None:
        raise InputError("format.json names no piece_vectors: preprocess with --tokenizer glove", data_dir)
    return pieces, load("word_vectors")


def _check_bert_fits_data(handle: Path, data_dir: Path, data_format: dict) -> None:
    """A local BERT must share the data's vocabulary and cover its sequence length."""
    if not handle.is_dir():
        return  # a URL: TF Hub resolves it later
    vocab = handle / "assets" / "vocab.txt"
    data_vocab = data_dir / data_format.get("assets", {}).get("vocab", "tokenizer/vocab.txt")
    if vocab.exists() and data_vocab.exists() and vocab.read_bytes() != data_vocab.read_bytes():
        raise InputError(f"the data was tokenized with another vocabulary than the BERT at {handle}: "
                         f"run 'rulings-anon preprocess ... --bert-handle {handle}'", data_dir)
    config = handle / "encoder_config.json"  # written by 'rulings-anon pretrain'
    if config.exists():
        positions = read_json(config).get("max_seq_len", 0)
        if positions and data_format.get("max_seq_len", 0) > positions:
            raise InputError(f"sequences of {data_format['max_seq_len']} tokens are longer than the "
                             f"{positions} the BERT at {handle} covers: preprocess with --max-seq-len "
                             f"{positions}", data_dir)


def _count_classes(files, tokenizer_kind: str, candidates: bool) -> tuple[int, int, int]:
    """``(sequences, positives, negatives)`` over the elements the loss will count."""
    from rulings_anon.preprocessing.record_format import parse_dataset

    def counts(features):
        labels = tf.cast(features["element_label"], tf.float32)
        weight = tf.ones_like(labels)
        if candidates:
            stored = tf.cast(features["candidates"], tf.float32)
            weight = tf.cond(tf.shape(stored)[0] > 0, lambda: tf.reduce_mean(stored, axis=0),
                             lambda: tf.minimum(labels + DEFAULT_CANDIDATE_RATE, 1.0))
        return tf.stack([1.0, tf.reduce_sum(labels * weight), tf.reduce_sum((1.0 - labels) * weight)])

    dataset = parse_dataset(files, tokenizer_kind).map(tf.autograph.experimental.do_not_convert(counts))
    total = dataset.reduce(tf.zeros([3]), lambda a, b: a + b).numpy()
    return int(total[0]), int(round(total[1])), int(round(total[2]))


class Trainer:
    """One training run into a model directory; :meth:`run` trains or resumes it.

    After :meth:`run`, ``model`` and ``optimizer`` hold the final (not necessarily best) state.
    """

    def __init__(self, options: TrainOptions):
        from rulings_anon.preprocessing.record_format import read_format, shard_files

        self.options = options
        self.out = Path(options.out)
        self.data_dir = Path(options.data)
        self.data_format = read_format(self.data_dir)
        base = get_variant(options.variant)
        kind = self.data_format.get("tokenizer")
        if kind != base.embedding:
            raise InputError(f"variant {base.name} needs data preprocessed with --tokenizer {base.embedding}, "
                             f"this data was preprocessed with --tokenizer {kind}", self.data_dir)
        self.variant = base.scaled(options.width_divisor) if options.width_divisor > 1 else base
        self.train_files = shard_files(self.data_dir, "train")
        self.validation_files = shard_files(self.data_dir, "validation")
        if not self.train_files:
            raise InputError("no train-*.tfrecord shards: run 'rulings-anon preprocess' first", self.data_dir)
        self.candidates, self.masking, self.batch_size = resolve_defaults(options, base)
        if base.embedding == BERT:
            if not options.bert_handle:
                raise InputError(f"variant {base.name} needs --bert-handle (a TF Hub URL or a local SavedModel)")
            _check_bert_fits_data(Path(options.bert_handle), self.data_dir, self.data_format)

    # -- set-up ------------------------------------------------------------------------------------
    def _pipeline_config(self) -> InputConfig:
        return InputConfig.for_data(self.data_format, self.variant.embedding, self.candidates, self.masking)

    def _model_config(self, glove: dict, weights: tuple[float, float]) -> md.ModelConfig:
        return md.ModelConfig(
            variant=self.variant.name, embedding=self.variant.embedding, layers=list(self.variant.layers),
            dropout=self.variant.dropout, fine_tune=self.variant.fine_tune,
            tokenizer=self.data_format["tokenizer"], data_format=self.data_format, masking=self.masking,
            candidates=self.candidates, candidate_rate=self._pipeline_config().candidate_rate,
            width_divisor=self.options.width_divisor, bert_handle=self.options.bert_handle, glove=glove,
            class_weights=list(weights), optimizer=self.options.optimizer.to_dict(),
            batch_size=self.batch_size, epochs=self.options.epochs,
            data_fingerprint=fingerprint_files(self.train_files),
        )

    def _check_resumable(self, config: md.ModelConfig) -> bool:
        """Whether ``out`` holds a run of the same data and set-up, which then resumes
        (:func:`rulings_anon.checkpoints.resumes`); with ``restart`` another run there is deleted."""
        if not (self.out / md.CONFIG_FILE).exists():
            return False
        previous = md.ModelConfig.read(self.out)
        same = ("variant", "layers", "tokenizer", "masking", "candidates", "batch_size")

        def record(c: md.ModelConfig) -> RunRecord:
            return RunRecord(c.data_fingerprint, {k: getattr(c, k) for k in same})

        if resumes(self.out, record(previous), record(config), self.options.restart, error=ModelError,
                   other_data=f"holds a model trained on other data ({self.data_dir} changed since)"):
            return True
        changed = changed_settings(record(previous), record(config))
        what = f"settings changed ({', '.join(changed)})" if changed else "data changed"
        print(f"{self.out}: the training {what}; starting over", file=sys.stderr)
        for name in (md.CHECKPOINT_DIR, md.HISTORY_FILE, md.CONFIG_FILE):
            target = self.out / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        return False

    def _prepare_model_dir(self, config: md.ModelConfig) -> None:
        """Copy what scoring needs (tokenizer assets, the BERT SavedModel) into the model directory."""
        self.out.mkdir(parents=True, exist_ok=True)
        tokenizer = self.data_dir / "tokenizer"
        if not tokenizer.is_dir():
            raise InputError("no tokenizer/ directory: run 'rulings-anon preprocess' again", self.data_dir)
        md.copy_tree(tokenizer, self.out / md.TOKENIZER_DIR)
        if self.variant.embedding == BERT and not (self.out / md.BERT_DIR / "saved_model.pb").exists():
            md.copy_tree(md.resolve_bert_handle(self.options.bert_handle), self.out / md.BERT_DIR)
        config.write(self.out)

    # -- the run -----------------------------------------------------------------------------------
    def run(self) -> dict:
        """Train (or resume) and return the training summary written into ``config.json``."""
        strategy, on_gpu = choose_strategy()
        mixed = on_gpu if self.options.mixed_precision is None else self.options.mixed_precision
        previous = tf_keras.mixed_precision.global_policy()
        if mixed:
            tf_keras.mixed_precision.set_global_policy("mixed_float16")
        try:
            return self._run(strategy, mixed)
        finally:  # models built later in this process (scoring) compute in float32 again
            tf_keras.mixed_precision.set_global_policy(previous)

    def _run(self, strategy, mixed: bool) -> dict:
        options = self.options
        kind = self.data_format["tokenizer"]
        sequences, positives, negatives = _count_classes(self.train_files, kind, self.candidates)
        weights = class_weights(options.class_weight, positives, negatives)
        spec, glove = _embedding_spec(self.variant, self.data_format, options.bert_handle, self.data_dir)
        config = self._model_config(glove, weights)
        resuming = self._check_resumable(config)
        if resuming:
            config.training = md.ModelConfig.read(self.out).training
        self._prepare_model_dir(config)
        # Always build from the copy in the model directory, the BERT that scoring will load.
        if self.variant.embedding == BERT:
            spec = EmbeddingSpec(bert_handle=str(self.out / md.BERT_DIR))

        steps_per_epoch = max(1, math.ceil(sequences / self.batch_size))
        model, optimizer, state, checkpoint = self._build(strategy, spec, mixed, options.epochs * steps_per_epoch)
        manager = tf.train.CheckpointManager(checkpoint, str(self.out / md.CHECKPOINT_DIR), max_to_keep=2)
        history = []
        if manager.latest_checkpoint:
            checkpoint.restore(manager.latest_checkpoint)
            history = read_json(self.out / md.HISTORY_FILE) if (self.out / md.HISTORY_FILE).exists() else []
            history = history[: int(state.epoch.numpy())]
            print(f"resuming {self.out}: epoch {int(state.epoch.numpy()) + 1}, "
                  f"step {int(state.step.numpy())}", file=sys.stderr)

        self.model, self.optimizer = model, optimizer
        pipeline = self._pipeline_config()
        self.drop_remainder = strategy.num_replicas_in_sync > 1
        probe = make_dataset(self.train_files, kind, pipeline, self.batch_size, drop_remainder=self.drop_remainder)
        loop = _Loop(model, optimizer, strategy, weights, mixed,
                     strategy.experimental_distribute_dataset(probe).element_spec)
        validation = (make_dataset(self.validation_files, kind, pipeline, self.batch_size, cache=True,
                                   drop_remainder=self.drop_remainder)
                      if self.validation_files else None)
        writers = {name: tf.summary.create_file_writer(str(self.out / md.LOG_DIR / name))
                   for name in ("train", "validation")}
        stopped = "early-stopping" if bool(state.early_stopped.numpy()) else "epochs"
        self.timed_steps, self.timed_seconds = 0, 0.0
        while int(state.epoch.numpy()) < options.epochs and stopped == "epochs":
            epoch = int(state.epoch.numpy())
            try:
                steps_done = self._train_epoch(loop, state, manager, writers["train"], epoch, steps_per_epoch)
            except KeyboardInterrupt:
                manager.save()  # Ctrl-C: keep the steps done so far; the same command resumes
                raise
            at_limit = bool(options.max_steps) and int(state.step.numpy()) >= options.max_steps
            finished_epoch = int(state.step_in_epoch.numpy()) >= steps_per_epoch or not at_limit
            if not finished_epoch:
                stopped = "max-steps"
                if not steps_done:
                    break  # resumed at the step limit: nothing new to validate
            entry = self._validate(loop, validation, state, epoch, finished_epoch, writers["validation"])
            history.append(entry)
            if entry["validation_loss"] <= float(state.best.numpy()) or not (self.out / md.WEIGHTS_DIR).exists():
                state.best.assign(entry["validation_loss"])
                state.best_epoch.assign(epoch)
                md.save_weights(model, self.out)
            if finished_epoch:
                state.next_epoch()
            if _overfitting(history, options.patience):
                stopped = "early-stopping"
                state.early_stopped.assign(True)
            write_json(self.out / md.HISTORY_FILE, history if finished_epoch else history[:-1])
            manager.save()
        summary = {
            "stopped": stopped, "steps": int(state.step.numpy()), "epochs_done": int(state.epoch.numpy()),
            "best_epoch": int(state.best_epoch.numpy()) + 1, "best_validation_loss": float(state.best.numpy()),
            "sequences": sequences, "positives": positives, "negatives": negatives,
            "mixed_precision": mixed, "replicas": strategy.num_replicas_in_sync, "history": history,
            # Of this run, without each epoch's first step (graph tracing, dataset start-up).
            "steps_per_second": round(self.timed_steps / self.timed_seconds, 3) if self.timed_seconds else None,
            "peak_gpu_memory_mib": _peak_gpu_memory_mib(),
        }
        config.training = summary
        config.write(self.out)
        return summary

    def _build(self, strategy, spec: EmbeddingSpec, mixed: bool, total_steps: int):
        """Model, optimizer, training state and their checkpoint, created under the strategy."""
        with strategy.scope():
            model = build_model(self.variant, spec, strategy)
            if self.variant.embedding == GLOVE:
                model.glove.set_tables(*load_glove_tables(self.data_dir, self.data_format))
            optimizer = create_optimizer(self.options.optimizer, total_steps, mixed)
            # Create Adam's slots now, so a checkpoint restores them at once rather than lazily.
            optimizer.build(model.trainable_variables)
            state = _TrainingState()
            checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, state=state.variables)
        return model, optimizer, state, checkpoint

    def _train_epoch(self, loop, state, manager, writer, epoch: int, steps_per_epoch: int) -> int:
        """Train the rest of ``epoch`` (or up to the step limit); returns the steps done."""
        options = self.options
        done_in_epoch = int(state.step_in_epoch.numpy())
        dataset = make_dataset(self.train_files, self.data_format["tokenizer"], self._pipeline_config(),
                               self.batch_size, shuffle_seed=options.seed + epoch,
                               drop_remainder=self.drop_remainder).skip(done_in_epoch)
        progress = _progress(options.progress, steps_per_epoch, done_in_epoch, f"epoch {epoch + 1}")
        last_save = time.monotonic()
        steps = 0
        previous = None
        for batch in loop.strategy.experimental_distribute_dataset(dataset):
            if options.max_steps and int(state.step.numpy()) >= options.max_steps:
                break
            loss_sum, count = loop.train_step(batch)
            state.add_train(float(loss_sum), float(count))  # float() waits for the step to finish
            steps += 1
            now = time.perf_counter()
            if previous is not None:
                self.timed_steps += 1
                self.timed_seconds += now - previous
            previous = now
            step = int(state.step.numpy())
            progress.update(1)
            progress.set_postfix(loss=f"{state.train_loss():.4f}")
            if step % 10 == 0:
                with writer.as_default(step=step):
                    _scalar("loss", float(loss_sum) / max(float(count), 1.0))
                    _scalar("learning_rate", loop.learning_rate())
            if time.monotonic() - last_save > options.checkpoint_seconds:
                manager.save()
                last_save = time.monotonic()
        progress.close()
        return steps

    def _validate(self, loop, validation, state, epoch: int, finished: bool, writer) -> dict:
        entry = {"epoch": epoch + 1, "complete": finished, "steps": int(state.step.numpy()),
                 "train_loss": state.train_loss()}
        metrics = loop.evaluate(validation) if validation is not None else None
        if not metrics:  # no validation split, or too small for one global batch
            metrics = {"validation_loss": state.train_loss()}
        entry.update(metrics)
        with writer.as_default(step=int(state.step.numpy())):
            for name, value in metrics.items():
                _scalar(name, value)
        return entry


class _TrainingState:
    """Counters checkpointed with the model: step, epoch, step within epoch, running train loss, best."""

    def __init__(self):
        self.step = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.epoch = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.step_in_epoch = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.loss_sum = tf.Variable(0.0, dtype=tf.float64, trainable=False)
        self.loss_count = tf.Variable(0.0, dtype=tf.float64, trainable=False)
        self.best = tf.Variable(float("inf"), dtype=tf.float64, trainable=False)
        self.best_epoch = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.early_stopped = tf.Variable(False, trainable=False)

    @property
    def variables(self) -> dict:
        return {name: value for name, value in vars(self).items()}

    def add_train(self, loss_sum: float, count: float) -> None:
        self.step.assign_add(1)
        self.step_in_epoch.assign_add(1)
        self.loss_sum.assign_add(loss_sum)
        self.loss_count.assign_add(count)

    def train_loss(self) -> float:
        return float(self.loss_sum.numpy() / max(self.loss_count.numpy(), 1.0))

    def next_epoch(self) -> None:
        self.epoch.assign_add(1)
        self.step_in_epoch.assign(0)
        self.loss_sum.assign(0.0)
        self.loss_count.assign(0.0)


class _Loop:
    """The compiled train and evaluation steps of one model under one strategy."""

    def __init__(self, model, optimizer, strategy, weights, mixed: bool, batch_spec):
        self.model, self.optimizer, self.strategy = model, optimizer, strategy
        self.weights = weights
        self.mixed = mixed
        # Batches are padded to their own longest sequence: one trace for any length.
        self.train_step = tf.function(self._train_step, input_signature=[batch_spec])
        self.eval_step = tf.function(self._eval_step, input_signature=[batch_spec])

    def learning_rate(self) -> float:
        optimizer = getattr(self.optimizer, "inner_optimizer", self.optimizer)
        return float(tf.convert_to_tensor(optimizer.learning_rate))

    def _train_step(self, batch):
        def step(inputs, labels, loss_mask):
            count = tf.reduce_sum(loss_mask)
            with tf.GradientTape() as tape:
                logits = self.model(inputs, training=True)
                loss_sum = weighted_bce_sum(logits, labels, loss_mask, self.weights)
                # Each replica averages over its own elements; replicas' gradients are summed.
                loss = loss_sum / tf.maximum(count, 1.0) / self.strategy.num_replicas_in_sync
                if self.mixed:
                    loss = self.optimizer.get_scaled_loss(loss)
            variables = self.model.trainable_variables
            gradients = tape.gradient(loss, variables)
            if self.mixed:
                gradients = self.optimizer.get_unscaled_gradients(gradients)
            self.optimizer.apply_gradients(zip(gradients, variables))
            return loss_sum, count

        loss_sum, count = self.strategy.run(step, args=batch)
        reduce = tf.distribute.ReduceOp.SUM
        return self.strategy.reduce(reduce, loss_sum, None), self.strategy.reduce(reduce, count, None)

    def _eval_step(self, batch):
        def step(inputs, labels, loss_mask):
            logits = self.model(inputs, training=False)
            predicted = tf.cast(logits > 0.0, tf.float32) * loss_mask
            truth = labels * loss_mask
            return tf.stack([
                weighted_bce_sum(logits, labels, loss_mask, self.weights),
                tf.reduce_sum(loss_mask),
                tf.reduce_sum(predicted * truth),
                tf.reduce_sum(predicted),
                tf.reduce_sum(truth),
                tf.reduce_sum(tf.cast(tf.equal(predicted, truth), tf.float32) * loss_mask),
            ])

        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, self.strategy.run(step, args=batch), None)

    def evaluate(self, dataset) -> dict:
        """Validation loss, precision, recall and accuracy at 0.5 over the loss-counted elements
        (empty when the dataset had no batch)."""
        total = tf.zeros([6])
        for batch in self.strategy.experimental_distribute_dataset(dataset):
            total += self.eval_step(batch)
        loss, count, tp, predicted, actual, correct = (float(v) for v in total.numpy())
        if not count:
            return {}
        return {
            "validation_loss": loss / max(count, 1.0),
            "validation_precision": tp / predicted if predicted else 0.0,
            "validation_recall": tp / actual if actual else 0.0,
            "validation_accuracy": correct / max(count, 1.0),
        }


def _overfitting(history: list[dict], patience: int) -> bool:
    """Validation loss rose while training loss fell, for ``patience`` epochs in a row (5.4.4.3)."""
    complete = [h for h in history if h["complete"]]
    if len(complete) <= patience:
        return False
    recent = complete[-(patience + 1):]
    return all(b["validation_loss"] > a["validation_loss"] and b["train_loss"] < a["train_loss"]
               for a, b in zip(recent, recent[1:]))


def _peak_gpu_memory_mib() -> dict[str, float] | None:
    """Peak memory TensorFlow allocated on each visible GPU, in MiB (None without a GPU)."""
    gpus = tf.config.list_logical_devices("GPU")
    if not gpus:
        return None
    return {gpu.name: round(tf.config.experimental.get_memory_info(gpu.name)["peak"] / 2 ** 20, 1)
            for gpu in gpus}


def _scalar(name: str, value: float) -> None:
    """A TensorBoard scalar, written with TF's own summary op (TensorBoard itself isn't required)."""
    from tensorflow.core.framework import summary_pb2

    metadata = summary_pb2.SummaryMetadata(
        plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="scalars"))
    tf.summary.write(name, tf.constant(value, tf.float32), metadata=metadata)


def _progress(enabled: bool, total: int, initial: int, description: str):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=description, unit="step", file=sys.stderr,
                disable=not enabled or not sys.stderr.isatty(), leave=False)


def train(options: TrainOptions) -> dict:
    """Train (or resume) ``options.variant`` on ``options.data`` into ``options.out``."""
    return Trainer(options).run()
