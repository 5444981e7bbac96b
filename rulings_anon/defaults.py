"""Defaults that several stages share, written once.

Plain constants, no imports: the command modules read them while building their parsers, and
``fetch --help`` or ``replace --help`` must not wait for numpy, faker or TensorFlow.
"""

from __future__ import annotations

# The bundled LER court that no rule, model or threshold is fitted on (leave one court out), and
# the dev courts that everything is fitted and chosen on.
HELD_OUT_COURT = "bsg"
HELD_OUT_COURTS = (HELD_OUT_COURT,)
DEV_COURTS = ("bag", "bfh", "bgh", "bpatg", "bverfg")

# The defaults of ``score`` and ``evaluate`` were chosen on the dev courts' pseudonymized rulings
# that the bundled NER did not train on (benchmarks/bench_evaluation.py --unseen-by-ner), never on
# the held-out court. DEFAULT_THRESHOLD applies to the contextual model's probability (every
# element, or combinations that use the model) and favours recall (thesis 7.1: a revealed name
# harms more than a hidden word); DEFAULT_NER_THRESHOLD to the NER's sensitivity probability.
DEFAULT_THRESHOLD = 0.3
DEFAULT_NER_THRESHOLD = 0.8
DEFAULT_COMBINATION = "ner"

# A capitalized word in at least this share of the documents scored together, and in at least
# this many of them, is the court's vocabulary. Chosen before measuring, for safety rather than
# gain: the rulings of one case through its instances (a party's name in each) stay far below
# ten, while a court's own terms recur in far more of a batch of its rulings.
BATCH_SHARE = 0.05
BATCH_MIN_DOCUMENTS = 10

# Documents handed to the contextual model at once: enough to fill its batches, few enough to
# keep memory flat.
PREDICTION_CHUNK_ELEMENTS = 200_000
# Documents ``score`` decides and writes at once (each chunk is finished before the next starts,
# so an interrupted run resumes after the last written one).
SCORE_CHUNK_ELEMENTS = 100_000

# The halves of the surrogate name lists (rulings_anon.replacement.surrogates): all of them, the
# Austrian and Swiss names no model here trains on, or the testing or training half.
NAME_HALVES = ("all", "world", "foreign", "eastern", "testing", "training")

# Candidate vectors per TFRecord sequence, the share of non-placeholder elements added to the
# candidates (thesis 5.4.2.1; ``preprocess`` and training's masking alike), and the share of
# documents in the validation split (``preprocess``).
DEFAULT_CANDIDATE_VECTORS = 10
DEFAULT_CANDIDATE_RATE = 0.02
DEFAULT_VALIDATION_SHARE = 0.1
