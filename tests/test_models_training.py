"""Every variant trains; the training loop validates, saves, reloads and resumes (thesis 5.4.3–5.4.4)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from models_toy_data import write_tiny_bert, write_toy_data

from rulings_anon.cli import main
from rulings_anon.errors import InputError, ModelError
from rulings_anon.models import model_dir as md
from rulings_anon.models.architecture import EmbeddingSpec, build_model
from rulings_anon.models.input_pipeline import InputConfig, make_dataset
from rulings_anon.models.masking import get_scheme
from rulings_anon.models.optimization import OptimizerConfig, weighted_bce_sum
from rulings_anon.models.predict import load_keras_model
from rulings_anon.models.training import Trainer, TrainOptions
from rulings_anon.models.variants import VARIANTS
from rulings_anon.preprocessing.record_format import shard_files
from rulings_anon.tf import keras, tensorflow

tf = tensorflow()
tf_keras = keras()

# Tiny runs need a larger rate than Table 5.5's 1e-5 to move within a few steps.
FAST = OptimizerConfig(warmup_lr=1e-2, initial_lr=1e-2)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    bert = write_toy_data(root / "bert", "bert")
    glove = write_toy_data(root / "glove", "glove")
    short = {kind: write_toy_data(root / f"{kind}-short", kind, train=4, validation=0, elements=6)
             for kind in ("bert", "glove")}
    encoder = write_tiny_bert(root / "encoder")
    return {"root": root, "bert": bert, "glove": glove, "short": short, "encoder": encoder}


def first_batch(data, kind: str, size: int, candidates: bool = True):
    """A batch as training sees it: BERT candidates masked by M7, GloVe unmasked."""
    config = InputConfig(glove=kind == "glove", candidates=candidates and kind == "bert",
                            scheme=get_scheme("M7") if kind == "bert" else None, mask_id=4, random_ids=(6, 56))
    return next(iter(make_dataset(shard_files(data, "train"), kind, config, size)))


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_builds_and_its_loss_falls_in_a_few_steps(workspace, name):
    variant = VARIANTS[name]
    tf_keras.utils.set_random_seed(3)  # fixed weights and dropout: the check cannot flake
    # Loss on every element: a draw of candidates could leave a tiny batch without any.
    batch = first_batch(workspace["short"][variant.embedding], variant.embedding, 4, candidates=False)
    spec = EmbeddingSpec(bert_handle=workspace["encoder"], piece_vocab=56, piece_dim=8, word_vocab=20,
                         word_dim=6)
    model = build_model(variant.scaled(16), spec)
    optimizer = tf_keras.optimizers.Adam(3e-3 if variant.fine_tune else 1e-2)
    inputs, labels, loss_mask = batch

    def loss(training: bool):
        logits = model(inputs, training=training)
        assert logits.shape == labels.shape and logits.dtype == tf.float32
        return weighted_bce_sum(logits, labels, loss_mask, (1.0, 1.0)) / tf.reduce_sum(loss_mask)

    before = float(loss(False))
    for _ in range(2):  # eagerly: tracing 17 graphs would cost more than these steps
        with tf.GradientTape() as tape:
            value = loss(True)
        variables = model.trainable_variables
        optimizer.apply_gradients(zip(tape.gradient(value, variables), variables))
    assert float(loss(False)) < before


def train_options(workspace, name, out, **kwargs):
    settings = {"data": workspace[VARIANTS[name].embedding], "variant": name, "out": workspace["root"] / out,
                "bert_handle": workspace["encoder"], "optimizer": FAST, "width_divisor": 16,
                "progress": False, **kwargs}
    return TrainOptions(**settings)


def test_trained_bert_model_directory_reloads_and_predicts_the_same(workspace):
    trainer = Trainer(train_options(workspace, "Dense", "dense", epochs=1))
    summary = trainer.run()
    out = workspace["root"] / "dense"
    assert summary["stopped"] == "epochs" and summary["steps"] == 2  # 32 sequences, batch 16
    config = json.loads((out / "config.json").read_text())
    assert (config["variant"], config["masking"], config["candidates"], config["tokenizer"]) == (
        "Dense", "M7", True, "bert")
    assert config["layers"] == ["d16", "d16"] and config["batch_size"] == 16
    assert (out / "bert" / "saved_model.pb").exists() and (out / "tokenizer" / "vocab.txt").exists()
    assert list((out / "logs" / "validation").iterdir())  # TensorBoard events

    model, _ = load_keras_model(out)
    inputs, _, _ = first_batch(workspace["bert"], "bert", 8)
    np.testing.assert_allclose(model(inputs, training=False).numpy(),
                               trainer.model(inputs, training=False).numpy(), atol=1e-5)


def test_training_resumes_from_its_checkpoint(workspace, capsys):
    interrupted = Trainer(train_options(workspace, "LOConv2", "loconv", epochs=3, max_steps=3))
    first = interrupted.run()
    assert first["stopped"] == "max-steps" and first["steps"] == 3 and first["epochs_done"] == 1
    out = workspace["root"] / "loconv"
    assert (out / "weights" / "model.index").exists()  # usable before training ends

    resumed = Trainer(train_options(workspace, "LOConv2", "loconv", epochs=3, max_steps=3))
    resumed.run()  # restores step 3 and has nothing left to do
    assert "resuming" in capsys.readouterr().err
    assert int(resumed.optimizer.iterations.numpy()) == 3
    for saved, restored in zip(interrupted.model.weights, resumed.model.weights):
        np.testing.assert_array_equal(saved.numpy(), restored.numpy())

    done = Trainer(train_options(workspace, "LOConv2", "loconv", epochs=3)).run()
    # 2 steps per epoch: 3 epochs, or fewer when validation loss rose while training loss fell.
    assert done["steps"] == 2 * done["epochs_done"] and done["epochs_done"] >= 2
    assert done["stopped"] == ("epochs" if done["epochs_done"] == 3 else "early-stopping")
    assert [h["epoch"] for h in done["history"]] == list(range(1, done["epochs_done"] + 1))
    assert json.loads((out / "history.json").read_text()) == done["history"]
    config = md.ModelConfig.read(out)
    assert config.candidates is False and config.masking is None  # GloVe leave-out defaults


def test_a_model_trained_on_other_data_is_refused_or_restarted(workspace, capsys):
    first = Trainer(train_options(workspace, "LOConv2", "changed-data", epochs=1)).run()
    out = workspace["root"] / "changed-data"
    fingerprint = md.ModelConfig.read(out).data_fingerprint
    assert len(fingerprint) == 64 and first["epochs_done"] == 1
    other = write_toy_data(workspace["root"] / "glove-other", "glove", seed=1)  # other sequences, same format
    with pytest.raises(ModelError, match="trained on other data .*pass --restart"):
        Trainer(train_options(workspace, "LOConv2", "changed-data", epochs=1, data=other)).run()
    again = Trainer(train_options(workspace, "LOConv2", "changed-data", epochs=1, data=other, restart=True)).run()
    assert "the training data changed; starting over" in capsys.readouterr().err
    assert again["epochs_done"] == 1 and again["steps"] == first["steps"]  # from the start, not resumed
    assert md.ModelConfig.read(out).data_fingerprint not in ("", fingerprint)


MIRRORED = """
import sys
from rulings_anon.tf import tensorflow
tf = tensorflow()
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
from rulings_anon.models import training
from rulings_anon.models.optimization import OptimizerConfig
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
training.choose_strategy = lambda: (strategy, True)  # as on two GPUs
trainer = training.Trainer(training.TrainOptions(
    data=sys.argv[1], variant="LOConv2", out=sys.argv[2], epochs=1, width_divisor=16, progress=False,
    optimizer=OptimizerConfig(1e-2, 1e-2)))
summary = trainer.run()
print("trained", isinstance(trainer.optimizer, training.tf_keras.mixed_precision.LossScaleOptimizer),
      trainer.model.head[0].compute_dtype)
print("replicas", summary["replicas"], "mixed", summary["mixed_precision"], "steps", summary["steps"])
print("policy after training", training.tf_keras.mixed_precision.global_policy().name)
from rulings_anon.models.predict import load_keras_model
model, _ = load_keras_model(sys.argv[2])
print("reloaded", model.head[1].compute_dtype, model.output_layer.compute_dtype)
"""


def test_two_replicas_train_with_mirrored_strategy_and_mixed_precision(workspace):
    """The multi-GPU path on two logical CPUs: replica-context build, no empty replica batches,
    mixed_float16 with loss scaling, then a float32 model for scoring."""
    out = workspace["root"] / "mirrored"
    result = subprocess.run([sys.executable, "-c", MIRRORED, str(workspace["glove"]), str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "replicas 2 mixed True steps 2" in result.stdout
    assert "trained True float16" in result.stdout  # dynamic loss scaling, float16 layers
    assert "policy after training float32" in result.stdout
    assert "reloaded float32 float32" in result.stdout
    assert (out / "weights" / "model.index").exists()


def test_bad_model_directories_and_settings_raise_clear_errors(workspace, tmp_path):
    with pytest.raises(ModelError, match="no config.json"):
        load_keras_model(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"model_format": 99, "variant": "Dense"}))
    with pytest.raises(ModelError, match="model format 99"):
        load_keras_model(tmp_path)
    record = json.loads((workspace["root"] / "dense" / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps(record))
    with pytest.raises(ModelError, match="missing weights/model.index, tokenizer, bert/saved_model.pb"):
        load_keras_model(tmp_path)
    with pytest.raises(InputError, match="--tokenizer glove"):
        Trainer(train_options(workspace, "LORNN1", "x", data=workspace["bert"]))
    handle = tmp_path / "bert"  # a local BERT of another vocabulary, then of shorter sequences
    (handle / "assets").mkdir(parents=True)
    (handle / "assets" / "vocab.txt").write_text("[PAD]\n[UNK]\n")
    with pytest.raises(InputError, match="another vocabulary"):
        Trainer(train_options(workspace, "Dense", "x", bert_handle=str(handle)))
    (handle / "assets" / "vocab.txt").unlink()
    (handle / "encoder_config.json").write_text(json.dumps({"max_seq_len": 32}))
    with pytest.raises(InputError, match="--max-seq-len 32"):
        Trainer(train_options(workspace, "Dense", "x", bert_handle=str(handle)))
    with pytest.raises(ModelError, match="other settings"):
        Trainer(train_options(workspace, "Dense", "dense", masking="M3")).run()


def test_train_command_reports_bad_input_in_one_line(workspace, capsys):
    code = main(["train", "--data", str(workspace["root"] / "none"), "--variant", "Dense", "--out", "m"])
    assert code == 2
    assert "rulings-anon train: error:" in capsys.readouterr().err
    assert main(["train", "--data", str(workspace["bert"]), "--variant", "Conv9", "--out", "m"]) == 2
    assert "choose one of Dense, Conv1" in capsys.readouterr().err
