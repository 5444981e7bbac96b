"""Optimizer schedule (thesis 5.4.3, Table 5.5) and the weighted binary cross-entropy (5.4.4.2).

Adam (beta1 0.9, beta2 0.999, epsilon 1e-6). For the first 5 % of the steps the learning rate is the
warm-up rate 1e-2; then it starts at the initial rate 1e-5 and falls linearly to 0 at the last step.
The loss weights the two classes so that neither false positives nor false negatives are preferred
("balanced": each class contributes half of the loss), or by a given positive-class weight.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from rulings_anon.tf import keras, tensorflow

tf = tensorflow()
tf_keras = keras()


@dataclass(frozen=True)
class OptimizerConfig:
    """Table 5.5; ``warmup_share`` of the total steps run at ``warmup_lr``."""

    warmup_lr: float = 1e-2
    initial_lr: float = 1e-5
    warmup_share: float = 0.05
    beta_1: float = 0.9
    beta_2: float = 0.999
    epsilon: float = 1e-6

    def to_dict(self) -> dict:
        return asdict(self)


@tf_keras.utils.register_keras_serializable(package="rulings_anon")
class WarmupLinearDecay(tf_keras.optimizers.schedules.LearningRateSchedule):
    """``warmup_lr`` for ``warmup_steps``, then ``initial_lr`` decaying linearly to 0 at ``total_steps``."""

    def __init__(self, warmup_lr: float, initial_lr: float, warmup_steps: int, total_steps: int):
        self.warmup_lr = warmup_lr
        self.initial_lr = initial_lr
        self.warmup_steps = warmup_steps
        self.total_steps = total_steps

    def __call__(self, step):
        step = tf.cast(step, tf.float32)
        warmup = float(self.warmup_steps)
        decay_steps = max(float(self.total_steps - self.warmup_steps), 1.0)
        decayed = self.initial_lr * tf.maximum(1.0 - (step - warmup) / decay_steps, 0.0)
        return tf.where(step < warmup, tf.constant(self.warmup_lr, tf.float32), decayed)

    def get_config(self):
        return {"warmup_lr": self.warmup_lr, "initial_lr": self.initial_lr,
                "warmup_steps": self.warmup_steps, "total_steps": self.total_steps}


def create_optimizer(config: OptimizerConfig, total_steps: int, mixed_precision: bool = False):
    """Adam with the Table 5.5 schedule; wrapped for dynamic loss scaling under mixed precision."""
    warmup_steps = int(round(config.warmup_share * total_steps))
    schedule = WarmupLinearDecay(config.warmup_lr, config.initial_lr, warmup_steps, total_steps)
    optimizer = tf_keras.optimizers.Adam(
        learning_rate=schedule, beta_1=config.beta_1, beta_2=config.beta_2, epsilon=config.epsilon)
    if mixed_precision:
        optimizer = tf_keras.mixed_precision.LossScaleOptimizer(optimizer)
    return optimizer


def balanced_weights(positives: int, negatives: int) -> tuple[float, float]:
    """Class weights ``(positive, negative)`` that make both classes weigh half of the loss."""
    total = positives + negatives
    if not positives or not negatives:
        return 1.0, 1.0
    return total / (2.0 * positives), total / (2.0 * negatives)


def class_weights(setting: str, positives: int, negatives: int) -> tuple[float, float]:
    """``setting`` is ``balanced`` or a number: the positive-class weight (negatives weigh 1)."""
    if setting == "balanced":
        return balanced_weights(positives, negatives)
    try:
        weight = float(setting)
    except ValueError:
        raise ValueError(f"class weight must be 'balanced' or a positive number, not {setting!r}") from None
    if weight <= 0:
        raise ValueError(f"class weight must be positive, not {weight}")
    return weight, 1.0


def weighted_bce_sum(logits, labels, loss_mask, weights: tuple[float, float]):
    """Sum over the masked elements of the class-weighted binary cross-entropy ``[B, E]`` -> scalar.

    Callers divide by the number of masked elements of the global batch.
    """
    logits = tf.cast(logits, tf.float32)
    labels = tf.cast(labels, tf.float32)
    per_element = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    weight = labels * weights[0] + (1.0 - labels) * weights[1]
    return tf.reduce_sum(per_element * weight * tf.cast(loss_mask, tf.float32))
