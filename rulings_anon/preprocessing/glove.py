"""GloVe vectors trained in TensorFlow on the corpus tokens, and pretrained GloVe files (thesis 5.4.1.3).

``glove-python-binary`` has no build for Python 3.11, so we train GloVe ourselves as in
Pennington et al. (2014): symmetric co-occurrence counts within a window, each pair weighted by
1/distance; the weighted least-squares objective

    J = sum_ij f(X_ij) (w_i . w~_j + b_i + b~_j - log X_ij)^2,  f(x) = min(1, (x / x_max)^alpha)

with x_max 100 and alpha 0.75, minimized with AdaGrad; the vector of a token is w + w~.
Vectors are saved in the standard GloVe text format ("token v1 v2 ... vd" per line) and as a
``.npy`` matrix whose row i belongs to token id i.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_writer, open_text

X_MAX = 100.0
ALPHA = 0.75
DEFAULT_DIM = 200
DEFAULT_WINDOW = 10
DEFAULT_EPOCHS = 10
DEFAULT_MIN_COUNT = 1.0
DEFAULT_LEARNING_RATE = 0.05
# Pairs per AdaGrad step: large batches keep the CPU busy in a few big ops.
DEFAULT_BATCH = 32768
# Tokens per counting chunk: bounds the memory of the pair arrays (window * 2 pairs per token).
_CHUNK_TOKENS = 1_000_000
# deepset's German vectors write tokens as Python bytes literals: b'wort'.
_BYTES_LITERAL = re.compile(r"^b(['\"])(.*)\1$")


def cooccurrence(sequences: Iterable[Sequence[int]], vocab_size: int, window: int = DEFAULT_WINDOW,
                 ignore: Sequence[int] = (0,), min_count: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Symmetric co-occurrence counts ``(rows, cols, values)`` within each sequence.

    A pair at distance d adds 1/d to ``X[i, j]`` and ``X[j, i]``; ids in ``ignore`` (padding)
    count for nothing. Pairs never cross sequence boundaries. Entries below ``min_count`` are
    dropped: on the bundled corpus ``X >= 1`` keeps 23 % of the entries but 72 % of the
    objective's weight f(X), which makes training four times faster.
    """
    keys_parts, value_parts = [], []
    ids_chunk, seg_chunk, tokens = [], [], 0

    def flush():
        if not ids_chunk:
            return
        ids = np.concatenate(ids_chunk).astype(np.int64)
        seg = np.concatenate(seg_chunk)
        keys, values = [], []
        for d in range(1, window + 1):
            if d >= len(ids):
                break
            a, b = ids[:-d], ids[d:]
            same = (seg[:-d] == seg[d:]) & ~np.isin(a, ignore) & ~np.isin(b, ignore)
            a, b = a[same], b[same]
            # Count each unordered pair once (smaller id first); mirrored at the end.
            keys.append(np.minimum(a, b) * vocab_size + np.maximum(a, b))
            values.append(np.full(len(a), 1.0 / d))
        if keys:
            unique, inverse = np.unique(np.concatenate(keys), return_inverse=True)
            keys_parts.append(unique)
            value_parts.append(np.bincount(inverse, weights=np.concatenate(values)))
        ids_chunk.clear()
        seg_chunk.clear()

    for number, sequence in enumerate(sequences):
        ids_chunk.append(np.asarray(sequence, dtype=np.int64))
        seg_chunk.append(np.full(len(sequence), number, dtype=np.int64))
        tokens += len(sequence)
        if tokens >= _CHUNK_TOKENS:
            flush()
            tokens = 0
    flush()
    if not keys_parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64)
    unique, inverse = np.unique(np.concatenate(keys_parts), return_inverse=True)
    values = np.bincount(inverse, weights=np.concatenate(value_parts))
    rows, cols = unique // vocab_size, unique % vocab_size
    # X is symmetric: each pair counts in both directions, a token with itself twice.
    off = rows != cols
    values[~off] *= 2
    keep = values >= min_count
    rows, cols, values, off = rows[keep], cols[keep], values[keep], off[keep]
    return (np.concatenate([rows, cols[off]]), np.concatenate([cols, rows[off]]),
            np.concatenate([values, values[off]]))


def weighting(x, x_max: float = X_MAX, alpha: float = ALPHA):
    """GloVe's f(x) = min(1, (x / x_max)^alpha): rare pairs count less, frequent ones are capped."""
    return np.minimum(1.0, np.power(np.asarray(x) / x_max, alpha))


def train_glove(rows: np.ndarray, cols: np.ndarray, values: np.ndarray, vocab_size: int,
                dim: int = DEFAULT_DIM, epochs: int = DEFAULT_EPOCHS,
                learning_rate: float = DEFAULT_LEARNING_RATE, batch_size: int = DEFAULT_BATCH,
                seed: int = 0, progress=None) -> tuple[np.ndarray, list[float]]:
    """Fit GloVe vectors to co-occurrence counts; returns ``(vectors [V, dim], loss per epoch)``.

    The loss of an epoch is the mean weighted squared error over all pairs. Ids that occur in
    no pair get zero vectors.
    """
    from rulings_anon.tf import tensorflow

    tf = tensorflow()
    if len(values) == 0:
        raise InputError("no co-occurrences to train GloVe on (the corpus is empty)")
    tf.random.set_seed(seed)
    scale = 0.5 / dim
    init = tf.random_uniform_initializer(-scale, scale, seed=seed)
    w = tf.Variable(init([vocab_size, dim]), name="w")
    w_context = tf.Variable(init([vocab_size, dim]), name="w_context")
    b = tf.Variable(tf.zeros([vocab_size]), name="b")
    b_context = tf.Variable(tf.zeros([vocab_size]), name="b_context")
    variables = [w, w_context, b, b_context]
    # AdaGrad as in the reference implementation: accumulators start at 1 (gradsq = 1). The
    # vocabularies are small (pieces), so dense updates of the whole tables beat sparse ones:
    # the gradient of a batch is first summed per row.
    accumulators = [tf.Variable(tf.ones_like(v)) for v in variables]

    @tf.function(reduce_retracing=True)
    def step(i, j, log_x, f):
        with tf.GradientTape() as tape:
            diff = (tf.reduce_sum(tf.gather(w, i) * tf.gather(w_context, j), axis=1)
                    + tf.gather(b, i) + tf.gather(b_context, j) - log_x)
            loss = 0.5 * tf.reduce_sum(f * tf.square(diff))
        for variable, accumulator, grad in zip(variables, accumulators, tape.gradient(loss, variables)):
            grad = tf.convert_to_tensor(grad)
            accumulator.assign_add(tf.square(grad))
            variable.assign_sub(learning_rate * grad / tf.sqrt(accumulator))
        return tf.reduce_sum(f * tf.square(diff))

    rows32, cols32 = rows.astype(np.int32), cols.astype(np.int32)
    log_x = np.log(values).astype(np.float32)
    f = weighting(values).astype(np.float32)
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(epochs):
        order = rng.permutation(len(values))
        total = 0.0
        for start in range(0, len(order), batch_size):
            batch = order[start:start + batch_size]
            total += float(step(rows32[batch], cols32[batch], log_x[batch], f[batch]))
        losses.append(total / len(values))
        if progress is not None:
            progress.update(1)
            progress.set_postfix(loss=f"{losses[-1]:.4f}")
    vectors = (w + w_context).numpy()
    seen = np.zeros(vocab_size, bool)
    seen[rows] = True
    vectors[~seen] = 0.0
    return vectors, losses


def save_text(path, tokens: Sequence[str], vectors: np.ndarray) -> None:
    """Write vectors in the standard GloVe text format, one ``token v1 ... vd`` line per token."""
    if len(tokens) != len(vectors):
        raise ValueError(f"{len(tokens)} tokens but {len(vectors)} vectors")
    with atomic_writer(path) as handle:
        for token, vector in zip(tokens, vectors):
            handle.write(token + " " + " ".join(f"{v:.6f}" for v in vector) + "\n")


def _parse_line(line: str, path, line_no: int) -> tuple[str, list[str]]:
    parts = line.rstrip("\n").rstrip(" ").split(" ")
    if len(parts) < 2:
        raise InputError("expected 'token v1 v2 ...'", path, line_no)
    token = parts[0]
    literal = _BYTES_LITERAL.match(token)
    return (literal.group(2) if literal else token), parts[1:]


def load_text(path) -> tuple[list[str], np.ndarray]:
    """Read a GloVe text file (a word2vec "COUNT DIM" first line is skipped)."""
    tokens, rows = [], []
    for token, values in _iter_text(path):
        tokens.append(token)
        rows.append(values)
    return tokens, np.asarray(rows, dtype=np.float32)


def _iter_text(path):
    path = Path(path)
    if not path.exists():
        raise InputError("no such GloVe vectors file", path)
    dim = None
    try:
        with open_text(path) as handle:
            for line_no, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                token, values = _parse_line(line, path, line_no)
                if line_no == 1 and len(values) == 1 and token.isdigit():
                    continue  # word2vec header
                if dim is None:
                    dim = len(values)
                elif len(values) != dim:
                    raise InputError(f"{len(values)} values where earlier lines have {dim}", path, line_no)
                try:
                    yield token, [float(v) for v in values]
                except ValueError:
                    raise InputError("a vector value is not a number", path, line_no) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path) from None


def pretrained_matrix(path, vocabulary: Sequence[str], lower_case: bool = True) -> np.ndarray:
    """Vectors of a pretrained GloVe file for ``vocabulary`` (row i for word i).

    Words the file lacks, and the special entries, get zero vectors (thesis 5.4.1.3). Only the
    needed rows are kept, so multi-GB files stream through in bounded memory.
    """
    index = {word: i for i, word in enumerate(vocabulary)}
    matrix = None
    for token, values in _iter_text(path):
        key = token.lower() if lower_case else token
        i = index.get(key)
        if matrix is None:
            matrix = np.zeros((len(vocabulary), len(values)), np.float32)
        if i is not None and not matrix[i].any():
            matrix[i] = values
    if matrix is None:
        raise InputError("the GloVe vectors file is empty", path)
    return matrix


def coverage(matrix: np.ndarray) -> float:
    """Share of rows with a non-zero vector."""
    return float(np.count_nonzero(np.abs(matrix).sum(axis=1))) / max(len(matrix), 1)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    denominator = math.sqrt(float(a @ a) * float(b @ b))
    return float(a @ b) / denominator if denominator else 0.0
