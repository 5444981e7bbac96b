"""Loading a NER model directory and tagging texts: ``load_ner(dir).predict(text) -> [Span]``.

A model directory holds ``config.json`` (:class:`~rulings_anon.ner.model.NerConfig`),
``weights.h5`` and the vocabularies ``vocab.txt`` and ``chars.txt``. Predicted entities are
character spans with ``type`` (the NER type, a LER type by default), ``score`` (mean tag
probability) and ``source`` ``"ner"``; names lose salutations, titles and legal forms
(:func:`rulings_anon.references.strip_affixes`, thesis 9.2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from rulings_anon.data import path as data_path
from rulings_anon.document import Span
from rulings_anon.errors import ModelError
from rulings_anon.jsonl import read_json
from rulings_anon.lexicon import load_lexicon
from rulings_anon.references import NER_SOURCE, strip_affixes
from rulings_anon.tf import tensorflow

from .dataset import windows
from .model import NerConfig, build_model
from .tags import decode_bio
from .tokens import PAD, Vocabulary, tokenize

SOURCE = NER_SOURCE
WEIGHTS = "weights.h5"
BATCH = 256


@dataclass
class TaggedTokens:
    """One text as the tagger saw it: token spans, tag ids, scores and sensitivity per token."""

    spans: list[tuple[int, int]]
    ids: np.ndarray
    scores: np.ndarray
    sensitive: np.ndarray


class NerTagger:
    """A trained tagger: :meth:`predict` one text, :meth:`predict_many` for throughput."""

    def __init__(self, config: NerConfig, vocab: Vocabulary, model):
        self.config = config
        self.vocab = vocab
        self.model = model
        self._call = None
        self._candidate_tags = None

    def _probabilities(self, inputs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
        """Tag probabilities [B, T, K] and, with a sensitivity output, sensitivity [B, T]."""
        if self._call is None:
            # One trace for every batch shape: [B, T] word ids, [B, T, C] character ids (and
            # [B, T] lexicon ids).
            tf = tensorflow()
            signature = {"words": tf.TensorSpec([None, None], tf.int32),
                         "chars": tf.TensorSpec([None, None, self.config.max_chars], tf.int32)}
            if self.config.lexicon:
                signature["lexicon"] = tf.TensorSpec([None, None], tf.int32)
            self._call = tf.function(lambda x: self.model(x, training=False), input_signature=[signature])
        out = self._call(inputs)
        if isinstance(out, dict):
            return out["tags"].numpy(), out["sensitive"].numpy()[..., 0]
        return out.numpy(), None

    def predict(self, text: str, candidates_only: bool = False) -> list[Span]:
        return self.predict_many([text], candidates_only)[0]

    def predict_many(self, texts: list[str], candidates_only: bool = False) -> list[list[Span]]:
        """Entity spans of each text, sorted by start; only ``candidate_types`` when asked."""
        return [self._spans(text, tagged.spans, tagged.ids, tagged.scores, candidates_only)
                for text, tagged in zip(texts, self.tag_many(texts), strict=True)]

    def sensitivity_many(self, texts: list[str]) -> list[tuple[list[tuple[int, int]], np.ndarray]]:
        """Per text its token spans and per token the probability that courts anonymize it
        (:class:`ModelError` for a model trained without the sensitivity output)."""
        if not self.config.sensitivity:
            raise ModelError("this NER model has no sensitivity output; retrain it with `rulings-anon train-ner`")
        return [(tagged.spans, tagged.sensitive) for tagged in self.tag_many(texts)]

    def tag_many(self, texts: list[str]) -> list[TaggedTokens]:
        """Tokens, tag ids, scores (and sensitivity) of each text."""
        c = self.config
        token_spans = [tokenize(t) for t in texts]
        # Each text's ids once (windows overlap); every window of every text, batched together.
        encoded = [self.vocab.encode([text[s:e] for s, e in spans]) for text, spans in zip(texts, token_spans,
                                                                                             strict=True)]
        jobs = []  # (text index, window)
        for i, spans in enumerate(token_spans):
            jobs.extend((i, w) for w in windows(len(spans), c.predict_window, c.predict_margin) if w[1] > w[0])
        tagged = [TaggedTokens(spans, np.zeros(len(spans), dtype=np.int32), np.zeros(len(spans), dtype=np.float32),
                               np.zeros(len(spans), dtype=np.float32)) for spans in token_spans]
        for b in range(0, len(jobs), BATCH):
            batch = jobs[b:b + BATCH]
            width = max(w[1] - w[0] for _, w in batch)
            words = np.full((len(batch), width), PAD, dtype=np.int32)
            chars = np.full((len(batch), width, c.max_chars), PAD, dtype=np.int32)
            inputs = {"words": words, "chars": chars}
            if c.lexicon:
                inputs["lexicon"] = np.zeros((len(batch), width), dtype=np.int32)
            for row, (i, (start, end, _, _)) in enumerate(batch):
                words[row, : end - start] = encoded[i][0][start:end]
                chars[row, : end - start] = encoded[i][1][start:end]
                if c.lexicon:
                    inputs["lexicon"][row, : end - start] = encoded[i][2][start:end]
            probs, sensitive = self._probabilities(inputs)
            for row, (i, (start, _, keep_start, keep_end)) in enumerate(batch):
                keep = slice(keep_start - start, keep_end - start)
                row_sensitive = None if sensitive is None else sensitive[row, keep]
                ids, scores = self._decide(probs[row, keep], row_sensitive)
                target = tagged[i]
                target.ids[keep_start:keep_end] = ids
                target.scores[keep_start:keep_end] = scores
                if row_sensitive is not None:
                    target.sensitive[keep_start:keep_end] = row_sensitive
        return tagged

    def _decide(self, probs: np.ndarray, sensitive: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Tag ids and scores for ``probs`` [T, K], favouring recall (thesis 9.2).

        A token whose candidate-type tags together reach ``candidate_threshold`` takes the best of
        them even when another tag is likelier; its score is then that summed probability. With a
        sensitivity output (``sensitive`` [T]) a token of a candidate type scores the probability
        that courts anonymize its reference instead: a public "Berlin" is proposed, with a low score.
        """
        ids, best = probs.argmax(-1), probs.max(-1)
        if self._candidate_tags is None:
            wanted = set(self.config.candidate_types)
            self._candidate_tags = np.array([t[2:] in wanted for t in self.config.tags])
        threshold = self.config.candidate_threshold
        if threshold is None or not self._candidate_tags.any():
            return ids, best
        candidate = probs[:, self._candidate_tags]
        mass = candidate.sum(-1)
        switch = (mass >= threshold) & ~self._candidate_tags[ids]
        ids = np.where(switch, np.flatnonzero(self._candidate_tags)[candidate.argmax(-1)], ids)
        scores = np.where(switch, mass, best)
        if sensitive is not None:
            scores = np.where(self._candidate_tags[ids], sensitive, scores)
        return ids, scores

    def _spans(self, text, token_spans, ids, probs, candidates_only) -> list[Span]:
        wanted = set(self.config.candidate_types) if candidates_only else None
        result = []
        for first, last, kind, score in decode_bio(ids, probs, self.config.tags):
            if wanted is not None and kind not in wanted:
                continue
            for start, end in sentence_pieces(text, token_spans[first:last]):
                if not any(ch.isalnum() for ch in text[start:end]):
                    continue  # a stray punctuation tag is no reference
                span = strip_affixes(text, Span(start, end, text[start:end], kind, min(1.0, score), source=SOURCE))
                if span is not None:
                    result.append(span)
        return result

    def save(self, directory) -> None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.vocab.save(directory)
        self.model.save_weights(str(directory / WEIGHTS))
        self.config.save(directory)


def sentence_pieces(text: str, token_spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(start, end)`` of an entity's tokens, cut where a sentence ends inside it: a period after
    a word of three letters or more, followed by a space ("Weinhage. Höland" is two names, "K.
    B." and "Dr. Meyer" stay one)."""
    pieces, start = [], token_spans[0][0]
    for i in range(1, len(token_spans) - 1):
        s, e = token_spans[i]
        before = token_spans[i - 1]
        word = text[before[0]:before[1]]
        if text[s:e] == "." and before[1] == s and len(word) >= 3 and token_spans[i + 1][0] > e \
                and word.isalpha() and word not in _abbreviations():
            pieces.append((start, before[1]))
            start = token_spans[i + 1][0]
    pieces.append((start, token_spans[-1][1]))
    return pieces


@lru_cache(maxsize=1)
def _abbreviations() -> frozenset[str]:
    """Words a period follows inside a name ("Prof.", "Dipl.-Ing.", "Co."): the abbreviated
    titles and legal forms of ``rulings_anon/data/name_affixes.json``."""
    affixes = read_json(data_path("name_affixes.json"))
    words = (w for key in ("salutations", "academic_titles", "prefixes", "legal_forms") for w in affixes[key])
    return frozenset(part for w in words for part in re.findall(r"(\w+)\.", w))


def load_ner(directory) -> NerTagger:
    """The tagger saved in ``directory``; :class:`ModelError` names what is missing."""
    directory = Path(directory)
    config = NerConfig.load(directory)
    missing = [n for n in (WEIGHTS, "vocab.txt", "chars.txt") if not (directory / n).exists()]
    if missing:
        raise ModelError(f"{directory}: NER model directory lacks {', '.join(missing)}")
    vocab = Vocabulary.load(directory, config.max_chars, load_lexicon(config.lexicon))
    if (len(vocab.words), len(vocab.chars)) != (config.vocab_size, config.char_vocab_size):
        raise ModelError(f"{directory}: vocab.txt/chars.txt do not match config.json (sizes differ)")
    model = build_model(config)
    try:
        model.load_weights(str(directory / WEIGHTS))
    except (ValueError, OSError) as exc:
        raise ModelError(f"{directory / WEIGHTS}: weights do not fit config.json ({exc})") from exc
    return NerTagger(config, vocab, model)
