"""Candidate vectors (thesis 5.4.2.1) and masking schemes M1–M7 (Table 5.4), for tf.data.

Training data is anonymized: its placeholders ("K.", "M-GmbH") never occur in the rulings the model
will score. Masking hides them; but masking only placeholders would teach "mask means sensitive". So
each step draws a *candidate vector* per sequence: every placeholder element plus a random share of
the other elements (thesis: 2 % on top of 0.7 % placeholders). Candidates are masked alike, whole
elements at a time, and only candidates count in the loss.

Each candidate element is masked by one of four strategies, drawn with the scheme's proportions:

* placeholder-only: a placeholder's tokens become the mask token, other candidates stay as they are;
* random: the element's tokens become random vocabulary tokens;
* mask-token: the element's tokens become the mask token;
* keep: the element stays as it is, positive or not.

"Keep" only makes sense on pseudonymized training data (``preprocess --pseudonymize``), where the
positives are realistic surrogates with their own tokens: a kept candidate is what the evaluation
method ``none`` and ``score`` without ``--ner`` see, an unmasked element in its context. On
anonymized data a kept placeholder is the ``[PLH]`` symbol and gives the label away. The schemes
P1–P3 mix it with the mask token, which the methods ``random`` and ``ner`` put on their candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

PLACEHOLDER_ONLY, RANDOM, MASK_TOKEN, KEEP = 0, 1, 2, 3
STRATEGIES = ("placeholder-only", "random", "mask token", "keep")  # by strategy id


@dataclass(frozen=True)
class MaskingScheme:
    """Proportions of the strategies; they sum to one."""

    name: str
    placeholder_only: float
    random: float
    mask_token: float
    keep: float = 0.0

    @property
    def shares(self) -> tuple[float, float, float, float]:
        """The share of every strategy, by strategy id (:data:`STRATEGIES`)."""
        return (self.placeholder_only, self.random, self.mask_token, self.keep)

    @property
    def proportions(self) -> tuple[float, ...]:
        """The shares of the strategies by id; Table 5.4's three unless the scheme keeps candidates."""
        return self.shares if self.keep else self.shares[:KEEP]

    def describe(self) -> str:
        """"placeholder-only 0.25, random 0.25, mask token 0.5": the strategies it uses."""
        return ", ".join(f"{name} {share:g}" for name, share in zip(STRATEGIES, self.shares, strict=True) if share)


# Table 5.4 (BERT itself was pretrained with 0.1 / 0.1 / 0.8).
SCHEMES: dict[str, MaskingScheme] = {
    s.name: s
    for s in [
        MaskingScheme("M1", 1.0, 0.0, 0.0),
        MaskingScheme("M2", 0.1, 0.9, 0.0),
        MaskingScheme("M3", 0.0, 1.0, 0.0),
        MaskingScheme("M4", 0.25, 0.25, 0.5),
        MaskingScheme("M5", 0.25, 0.15, 0.6),
        MaskingScheme("M6", 0.0, 0.2, 0.8),
        MaskingScheme("M7", 0.0, 0.0, 1.0),
        # For pseudonymized training data (module docstring): P1 prepares for the masked methods
        # and `none` alike, P2 mostly for `none`, P3 only for it.
        MaskingScheme("P1", 0.0, 0.0, 0.5, keep=0.5),
        MaskingScheme("P2", 0.0, 0.0, 0.2, keep=0.8),
        MaskingScheme("P3", 0.0, 0.0, 0.0, keep=1.0),
    ]
}



def get_scheme(name: str) -> MaskingScheme:
    try:
        return SCHEMES[name.upper()]
    except KeyError:
        raise KeyError(f"unknown masking scheme {name!r}; choose one of {', '.join(SCHEMES)}") from None


def draw_candidates(tf, labels, element_mask, rate: float, seed=None):
    """A candidate vector ``[E]`` (float 0/1): all positive elements plus each other one with ``rate``."""
    draw = tf.random.uniform(tf.shape(labels), seed=seed) < rate
    chosen = tf.logical_or(labels > 0.5, draw)
    return tf.cast(tf.logical_and(chosen, element_mask > 0.5), tf.float32)


def draw_strategies(tf, num_elements, scheme: MaskingScheme, seed=None):
    """One strategy id per element ``[E]``, drawn with the scheme's proportions."""
    logits = tf.math.log(tf.constant([list(scheme.proportions)], tf.float32))
    drawn = tf.random.categorical(logits, num_elements, dtype=tf.int32, seed=seed)
    return drawn[0]


def mask_elements(tf, token_ids, token_element, candidates, labels, strategies, mask_id: int,
                  random_ids: tuple[int, int], seed=None):
    """Mask the candidate elements of one sequence; returns new ``(token_ids, token_element)``.

    A masked element becomes exactly one token (the mask token, or one random token), whatever its
    length: a placeholder is a single ``[PLH]`` token while a real name has several WordPieces, so
    masking token by token would let the number of masks give the label away.

    Args:
        token_ids: ``[T]`` int token ids of one sequence.
        token_element: ``[T]`` int, the element each token belongs to, -1 for [CLS]/[SEP].
        candidates: ``[E]`` float 0/1 candidate vector.
        labels: ``[E]`` float 0/1, 1 for placeholder elements.
        strategies: ``[E]`` int32 strategy per element (see :func:`draw_strategies`).
        mask_id: id of the mask token.
        random_ids: ``[low, high)`` range random replacement tokens are drawn from.
    """
    masked = tf.logical_and(candidates > 0.5, tf.logical_or(
        tf.not_equal(strategies, PLACEHOLDER_ONLY), labels > 0.5))
    masked = tf.logical_and(masked, tf.not_equal(strategies, KEEP))
    random_tokens = tf.random.uniform(tf.shape(labels), random_ids[0], random_ids[1], tf.int32, seed=seed)
    replacement = tf.where(tf.equal(strategies, RANDOM), random_tokens, mask_id)
    idx = tf.maximum(token_element, 0)
    token_masked = tf.logical_and(token_element >= 0, tf.gather(masked, idx))
    previous = tf.concat([[-1], token_element[:-1]], axis=0)
    first_of_element = tf.not_equal(token_element, previous)
    keep = tf.logical_or(tf.logical_not(token_masked), first_of_element)
    new_ids = tf.where(token_masked, tf.cast(tf.gather(replacement, idx), token_ids.dtype), token_ids)
    return tf.boolean_mask(new_ids, keep), tf.boolean_mask(token_element, keep)


def element_bounds(tf, token_element, num_elements):
    """Positions of each element's first and last token ``([E], [E])`` from ``token_element`` ``[T]``."""
    positions = tf.range(tf.shape(token_element)[0], dtype=token_element.dtype)
    inside = token_element >= 0
    segments = tf.boolean_mask(token_element, inside)
    kept = tf.boolean_mask(positions, inside)
    first = tf.math.unsorted_segment_min(kept, segments, num_elements)
    last = tf.math.unsorted_segment_max(kept, segments, num_elements)
    return first, last
