"""Training data of the legal NER: pseudonymized LER rulings as token windows with BIO tags.

The bundled LER records (``rulings_anon/data/ler/<court>.jsonl.gz``) carry the courts' placeholders. Each
placeholder is replaced by a realistic surrogate of its type (``rulings_anon.replacement.surrogates``: "Herr
K." -> "Herr Kemper", "die M-GmbH" -> "die Meyer GmbH"), so the tagger learns what real names
look like, while judges, courts, laws and citations keep their LER labels. The held-out court
(BSG) is never read here unless it is asked for by file name.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rulings_anon.data import ler_corpus_files
from rulings_anon.defaults import HELD_OUT_COURTS
from rulings_anon.errors import InputError
from rulings_anon.jsonl import read_jsonl
from rulings_anon.replacement.operators import pseudonymize_record
from rulings_anon.replacement.surrogates import SurrogateGenerator

from .tags import TagSet, encode_bio, sensitive_tokens
from .tokens import PAD, UNK, Vocabulary, tokenize


def dev_corpus_files() -> list[Path]:
    """The bundled court files without the held-out court."""
    return [f for f in ler_corpus_files() if f.name.split(".")[0] not in HELD_OUT_COURTS]


def read_corpus(files, max_docs: int | None = None) -> list[dict]:
    """Records of ``files`` taken in turn from each file (so every court is represented).

    A file is LER-style JSONL (``.jsonl``, ``.jsonl.gz``) or a ``split`` archive, whose metadata
    keeps each ruling's placeholders and LER entities (the GPU pipeline trains its NER on the
    same training split as its models).
    """
    from rulings_anon.formats import is_split_archive

    per_file = []
    for path in files:
        records = _archive_records(path) if is_split_archive(path) else list(read_jsonl(path))
        for line, record in enumerate(records, 1):
            if not isinstance(record.get("text"), str) or not isinstance(record.get("entities", []), list):
                raise InputError("record needs a 'text' string and an 'entities' list", path, line)
        per_file.append(records)
    mixed = [r for group in itertools.zip_longest(*per_file) for r in group if r is not None]
    return mixed[:max_docs] if max_docs else mixed


def _archive_records(path) -> list[dict]:
    """LER-style records of a ``split`` archive; an :class:`InputError` when its rulings carry no
    LER entities (a corpus fetched from a portal has placeholders only, nothing to tag)."""
    from rulings_anon.formats import read_split_archive

    records = []
    for document in read_split_archive(path):
        entities = document.meta.get("entities")
        if not isinstance(entities, list):
            raise InputError(f"ruling {document.id!r} has no LER 'entities' list; train-ner needs "
                             "entity labels (the bundled LER corpus, or a split archive made from it)", path)
        records.append({"id": document.id, "text": document.text, "spans": [s.to_dict() for s in document.spans],
                        "entities": entities})
    return records


def pseudonymize_corpus(records: list[dict], seed: int = 0, names: str = "all",
                        invented: float = 0.0) -> list[dict]:
    """Each record with its placeholders replaced by surrogates and its entities moved along.

    Training draws from the German name lists; a measurement passes ``names="foreign"`` so that
    the NER is tested on names it never saw (``rulings_anon.replacement.surrogates.NAME_HALVES``).
    ``invented``: the share of surnames and places made up from two listed ones.
    """
    generator = SurrogateGenerator(seed, names, invented)
    return [pseudonymize_record(r, generator) for r in records]


@dataclass
class TaggedText:
    """A text as tokens with their offsets, gold tag ids and sensitivity (1.0: anonymized by the court)."""

    tokens: list[str]
    spans: list[tuple[int, int]]
    labels: np.ndarray
    sensitive: np.ndarray


def tag_record(record: dict, tagset: TagSet) -> TaggedText:
    text = record["text"]
    spans = tokenize(text)
    entities = record.get("entities", [])
    labels = encode_bio(spans, entities, tagset.tags, tagset.tag_of)
    anonymized = [(s["start"], s["end"]) for s in record.get("spans") or []]
    sensitive = sensitive_tokens(spans, entities, anonymized, tagset.tag_of)
    return TaggedText([text[s:e] for s, e in spans], spans, labels, sensitive)


# Academic titles as tokens, given to some sensitive persons in training (``NerConfig.titled_persons``).
TITLES = (("Dr", "."), ("Prof", ".", "Dr", "."), ("Dr", ".", "med", "."), ("Dipl", ".", "-", "Psych", "."))
_TITLE_WORDS = frozenset(t for title in TITLES for t in title)


def add_titles(text: TaggedText, person_tag: int, rate: float, rng) -> TaggedText:
    """``text`` with an academic title ("Dr.", "Prof. Dr.", ...) before a share ``rate`` of its
    sensitive persons (their first token tagged ``person_tag``) that have none.

    The dev courts name their judges "Dr. X" and anonymize few titled people, so a tagger learns
    that a titled name is public. Real rulings anonymize titled experts, doctors and parties;
    the titles are tagged ``O`` and not sensitive, as the LER annotates them. Offsets (``spans``)
    of the inserted tokens repeat the next token's: they are for training only.
    """
    if rate <= 0:
        return text
    starts = [i for i in np.flatnonzero((text.labels == person_tag) & (text.sensitive > 0))
              if i == 0 or text.tokens[i - 1] not in _TITLE_WORDS]
    chosen = [i for i in starts if rng.random() < rate]
    if not chosen:
        return text
    tokens, spans, labels, sensitive = [], [], [], []
    last = 0
    for i in chosen + [len(text.tokens)]:
        tokens += text.tokens[last:i]
        spans += text.spans[last:i]
        labels.append(text.labels[last:i])
        sensitive.append(text.sensitive[last:i])
        if i < len(text.tokens):
            title = TITLES[int(rng.integers(len(TITLES)))]
            tokens += list(title)
            spans += [text.spans[i]] * len(title)
            labels.append(np.zeros(len(title), dtype=text.labels.dtype))
            sensitive.append(np.zeros(len(title), dtype=text.sensitive.dtype))
        last = i
    return TaggedText(tokens, spans, np.concatenate(labels), np.concatenate(sensitive))


def windows(n: int, width: int, margin: int) -> list[tuple[int, int, int, int]]:
    """Cut ``n`` tokens into windows ``(start, end, keep_start, keep_end)``.

    Windows overlap by ``2 * margin`` tokens; each token's prediction is kept from the window
    where it is at least ``margin`` tokens from an edge (the first and last windows keep their
    outer edge), so every token sees context on both sides.
    """
    if n <= width:
        return [(0, n, 0, n)]
    step = width - 2 * margin
    result = []
    start = 0
    while True:
        end = min(start + width, n)
        keep_start = 0 if start == 0 else start + margin
        if end == n:
            result.append((start, end, keep_start, n))
            return result
        result.append((start, end, keep_start, end - margin))
        start += step


def training_arrays(texts: list[TaggedText], vocab: Vocabulary, width: int,
                    tag_weights: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Non-overlapping windows of ``width`` tokens, padded: ``words``, ``chars``, ``lexicon``, ``labels``,
    ``sensitive`` and ``weights`` (0 for padding, else the weight of the token's tag, 1 without
    ``tag_weights``)."""
    rows = sum((len(t.tokens) + width - 1) // width for t in texts)
    words = np.full((rows, width), PAD, dtype=np.int32)
    chars = np.full((rows, width, vocab.max_chars), PAD, dtype=np.int32)
    lexicon = np.zeros((rows, width), dtype=np.int32)
    labels = np.zeros((rows, width), dtype=np.int32)
    sensitive = np.zeros((rows, width), dtype=np.float32)
    row = 0
    for text in texts:
        word_ids, char_ids, lexicon_ids = vocab.encode(text.tokens)
        for start in range(0, len(text.tokens), width):
            end = min(start + width, len(text.tokens))
            words[row, : end - start] = word_ids[start:end]
            chars[row, : end - start] = char_ids[start:end]
            lexicon[row, : end - start] = lexicon_ids[start:end]
            labels[row, : end - start] = text.labels[start:end]
            sensitive[row, : end - start] = text.sensitive[start:end]
            row += 1
    weights = (words != PAD).astype(np.float32)
    if tag_weights is not None:
        weights *= tag_weights[labels]
    return {"words": words, "chars": chars, "lexicon": lexicon, "labels": labels, "sensitive": sensitive, "weights": weights}


def candidate_tag_weights(tags: list[str], candidate_types, weight: float) -> np.ndarray:
    """Loss weight per tag id: ``weight`` for tags of candidate types, 1 for the others."""
    wanted = set(candidate_types)
    return np.array([weight if t[2:] in wanted else 1.0 for t in tags], dtype=np.float32)


def oversampled_rows(labels: np.ndarray, tag_weights: np.ndarray, times: int) -> np.ndarray:
    """Row indices where windows holding a candidate-type tag occur ``times`` times, the rest once."""
    has_candidate = (tag_weights[labels] > 1.0).any(axis=1)
    return np.concatenate([np.arange(len(labels))] + [np.flatnonzero(has_candidate)] * max(0, times - 1))


def drop_words(words: np.ndarray, rate: float, rng: np.random.Generator,
               entities: np.ndarray | None = None, entity_rate: float = 0.0) -> np.ndarray:
    """Word dropout: known words become unknown with probability ``rate`` (tokens where
    ``entities`` is set: ``max(rate, entity_rate)``), so the tagger also learns to recognize
    names from their characters and context."""
    dropped = words.copy()
    rates = np.full(words.shape, rate, dtype=np.float32)
    if entities is not None and entity_rate > rate:
        rates[entities > 0] = entity_rate
    dropped[(rng.random(words.shape) < rates) & (words > UNK)] = UNK
    return dropped
