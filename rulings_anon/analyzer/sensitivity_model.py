"""The gradient-boosted sensitivity model over :mod:`rulings_anon.analyzer.sensitivity`'s features.

Fitted on courts' anonymized rulings whose placeholders the project's generator turned into
surrogates (weak labels: an element a placeholder became is sensitive). The tables the features
read (context rates, words printed in clear) are cross-fitted: each training court's rows see
tables learnt from the other training courts only, as a court never seen sees tables learnt from
all of them. Stored as data: a LightGBM text model, the tables as JSON and a ``config.json`` with
the thresholds and how they were chosen (``rulings_anon/data/scorer/``).

    from rulings_anon.analyzer.sensitivity_model import load_model
    model = load_model()                           # rulings_anon/data/scorer
    probabilities = model.predict_texts([text])    # per text: {element index: probability}
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer.common_words import label_shaped
from rulings_anon.analyzer.substance_names import substance_names
from rulings_anon.errors import ModelError
from rulings_anon.model_kinds import SENSITIVITY

# each tree sees a fifth of the features (``feature_fraction``): no tree can lean on the few
# columns that describe the training courts' habits best, and the model ranks a court it never
# saw better (left-out dev courts, three seeds: mean average precision 83.0 -> 83.8, precision
# at recall 80 72.6 -> 76.5; 0.1 and 0.3 did less; BSG, never tuned on, lost: docs/experiments.md,
# "Features per tree"). 250 rounds: with the trees held to MONOTONE (below) they rank the left-out
# dev courts better than 150 (average precision 85.7 -> 86.1), and EARLY_STOP pays for them
# "deterministic" holds only with the histograms' layout fixed: left to choose, LightGBM times both
# layouts and on a busy machine now and then takes the other, whose trees differ in a few split
# values' last digits (row-wise is what it takes on an idle one)
PARAMS = {"objective": "binary", "learning_rate": 0.08, "num_leaves": 31, "min_data_in_leaf": 40,
          "feature_fraction": 0.2, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0,
          "seed": 0, "deterministic": True, "force_row_wise": True, "num_threads": 2, "verbose": -1, "rounds": 250}
# Most candidates are plain common nouns, settled after a few trees: a booster stops adding trees
# for a candidate once its raw score passes +-8 (LightGBM compares twice the score with the margin),
# a probability under 0.00034 or over 0.99966. On BSG's 87,000 candidates the probabilities moved
# by at most 0.0003, 3 crossed 0.002 and none a higher threshold, and the trees took a quarter of
# the time (docs/experiments.md, "Trees stopped early")
EARLY_STOP = {"pred_early_stop": True, "pred_early_stop_freq": 10, "pred_early_stop_margin": 16.0}
# The direction in which a feature moves the answer on every court: a word frequent in German, a
# common noun, printed in clear by the training courts, after a judge's role, a public office, a
# court or an institution, near a citation or spread over the batch is anonymized less often; one
# after a salutation, a title or a prefix, in the name lists, shaped like a name, a recognizer's own
# hit, or after a context word the training courts anonymized after (the context rates) more often.
# The trees may follow a feature only that way, so no training court's habit can turn one round
# (left-out dev courts, three seeds: average precision 84.7 -> 85.7, precision at recall 85 73.0 ->
# 75.2; docs/experiments.md, "Monotone features"); the public columns are 0 anyway
MONOTONE = {"zipf_de": -1, "lex_common": -1, "part1_common": -1, "clear_count": -1, "judge_before": -1,
            "office_before": -1, "court_before": -1, "institution_before": -1, "citation_near": -1,
            "cited_author": -1, "batch_share": -1, "doc_judge": -1, "doc_citation": -1, "doc_institution": -1,
            "seat": -1, "public_name": -1, "judge_list": -1,
            "salutation_before": 1, "title_before": 1, "prefix_before": 1, "lex_name": 1, "part1_name": 1,
            "name_shape": 1, "standalone": 1, "doc_salutation": 1, "doc_title": 1, "doc_standalone": 1,
            "prev1_rate": 1, "prev2_rate": 1, "next1_rate": 1, "doc_prev1_rate": 1, "doc_prev1_rate_min": 1,
            "doc_prev1_rate_mean": 1}
# Columns stacked after sf.FEATURES only for a model whose config.json lists them ("extra_features"):
# "context_prob", a contextual model's probability of the element (train-scorer --context-model),
# cross-fitted for the training rows; a higher one can only raise the answer
CONTEXT_FEATURE = "context_prob"
EXTRA_FEATURES = (CONTEXT_FEATURE,)
MONOTONE_EXTRA = {CONTEXT_FEATURE: 1}
# share of the training documents whose batch feature is hidden, so a model without background
# rulings (no batch feature) meets a case it has seen
BATCH_DROPOUT = 0.3
# Every ruling is scored as if among BACKGROUND_DOCUMENTS published rulings of the training courts,
# whose anonymized texts name no party, and no other (alone_shares): its own words count once in
# the batch feature, the courts' vocabulary as often as the background holds it. The rulings scored
# with it never count, so none can take a span away (docs/experiments.md, "One document, one
# answer"). BACKGROUND_BELOW: the batches the benchmarks' in_batches pads, as score once did
BACKGROUND_BELOW = 100
BACKGROUND_DOCUMENTS = 100
# Most capitalized words are common nouns: the fit sees this share of the negatives (weighted up
# to stand for all of them), which keeps it to seconds on two cores
NEGATIVE_SHARE = 0.15
# boosters fitted with different seeds, their probabilities averaged
BOOSTERS = 3
_TABLE_COLUMNS = [sf.COLUMN[n] for n in ("prev1_rate", "prev1_count", "prev2_rate", "prev2_count",
                                          "next1_rate", "next1_count", "clear_count", "doc_prev1_rate",
                                          "doc_prev1_rate_min", "doc_prev1_rate_mean")]
FORMAT = 1
# columns that make a candidate public or no name at all: its probability is 0 (predict_rows)
PUBLIC_COLUMNS = [sf.COLUMN[n] for n in ("judge_list", "seat", "public_name", "abbreviation", "country")]
# Exemptions are conventions: under --recall-first a public rule multiplies the trees' probability by
# this instead of zeroing it, so review still sees a seat a court anonymizes ("Landratsamt K.")
RECALL_FIRST_PUBLIC_WEIGHT = 0.1
# A word that one of these rules makes public in one mention is public in every mention of its
# document: "Justizvollzugsanstalt Offenburg" makes "nach Offenburg" the institution's town, "Schmitt
# in Meyer-Goßner" makes the later "Schmitt" the commentary's author. The seat rule only for a known
# place (the word after "die Berichterstatterin des FG" may be the person addressed) after a court or
# a landmark (an authority's seat may be the party's town, which a state court anonymizes), and never
# the judges' list (a judge of a lower court may be a witness in the case).
DOCUMENT_PUBLIC_COLUMNS = [sf.COLUMN[n] for n in ("public_name", "abbreviation", "country")]
_SEAT = sf.COLUMN["seat"]
_PLACE_COLUMNS = [sf.COLUMN[n] for n in ("place_pop", "lex_place")]
_ABBREVIATION = sf.COLUMN["abbreviation"]
_PUBLIC_NAME = sf.COLUMN["public_name"]
# the policy's exemptions (rulings_anon.replacement.policy.EXEMPTIONS) and the columns they are
EXEMPTION_COLUMNS = {"judges": "judge_list", "seats": "seat", "public_names": "public_name",
                     "abbreviations": "abbreviation", "countries": "country"}


@dataclass
class CourtFeatures:
    """Feature rows of one court's (or batch's) candidates with what the tables need."""

    rows: np.ndarray             # [candidates, N] without the table columns
    keys: list                   # context keys per candidate (sensitive context words hidden)
    lookup_keys: list            # context keys per candidate as the text has them
    words: list[str]
    labels: np.ndarray           # bool [candidates]
    documents: np.ndarray        # int [candidates]: the document's number
    elements: np.ndarray         # int [candidates]: the element's index in its document
    n_elements: int
    n_positive: int              # sensitive elements, candidates or not
    # bool [candidates]: nothing but spaces between the element and the next, no paragraph break
    # (document.joined_next), which the measured decision's pairs read; None: not kept
    joined: np.ndarray | None = None
    # per name of MARKS, bool [candidates]: what the measured decision's rules read beside the
    # features; empty: not kept
    marks: dict[str, np.ndarray] = field(default_factory=dict)


def _comma_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.document import comma_next

    return comma_next(text, elements, i)


def _journal_author_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.analyzer.public_names import before_written_journal

    return before_written_journal(raw, i)


def _document_author_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.analyzer.public_names import cited_document_author

    return cited_document_author(raw, i)


def _commentary_name_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.analyzer.public_names import commentary_name

    return commentary_name(raw, i)


def _judge_abbreviation_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.analyzer.exemptions import after_judge_abbreviation

    return after_judge_abbreviation(raw, i)


def _subject_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.analyzer.clauses import bare_subject

    return bare_subject(raw, i)


def _fixed_thing_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.analyzer.fixed_phrases import thing_at

    return thing_at(raw, i)


def _quoted_sign_mark(text: str, elements: list, raw: list[str], i: int) -> bool:
    from rulings_anon.analyzer.quoted_signs import sign_at

    return sign_at(text, raw, i)


# What decision rules read per candidate beside the features, computed from the text when the
# features are (no column the trees read, so a new mark needs no refit, only the cached features
# computed again): the element a word and a comma, the next a word on its line ("Feuer, Rauch":
# document.comma_next); an author before a journal written out ("Kulosa, Der Betrieb 2014, 972":
# public_names.before_written_journal); a cited document's first author ("D6 Bourgeat, ...":
# public_names.cited_document_author); a word standing bare as a clause's subject ("Vielmehr hat
# Taucher": clauses.bare_subject); a word of a fixed phrase or a chemical formula ("in Kraft",
# "Li2O": fixed_phrases.thing_at); a sign a ruling about marks quotes ("die Marke „Myzin“":
# quoted_signs.sign_at); a scholar of a commentary or a tribute cited without commas ("in Sachs GG
# 7. Aufl.", "FS Bepler": public_names.commentary_name); a judge named after the role's abbreviation
# ("RiBGH Dr. Tiemann": exemptions.after_judge_abbreviation). score's decision asks the same
# functions of the text.
MARKS = {"comma": _comma_mark, "journal_author": _journal_author_mark, "document_author": _document_author_mark,
         "subject": _subject_mark, "fixed_thing": _fixed_thing_mark, "quoted_sign": _quoted_sign_mark,
         "commentary_name": _commentary_name_mark, "judge_abbreviation": _judge_abbreviation_mark}


def extract_court(records: Sequence[dict], labelled: bool = True) -> CourtFeatures:
    """Features of gold records ``{"id", "text", "spans"}`` scored as one batch."""
    from rulings_anon.analyzer import recognizers as rec
    from rulings_anon.document import Span, element_labels, joined_next, split_elements

    texts = [r["text"] for r in records]
    df = sf.batch_document_frequency(texts)
    parts, keys, lookup_keys, words, labels, docs, element_ids, joined = [], [], [], [], [], [], [], []
    marks: dict[str, list[bool]] = {name: [] for name in MARKS}
    n_elements = n_positive = 0
    for d, record in enumerate(records):
        text = record["text"]
        gold = element_labels(split_elements(text), [Span(s["start"], s["end"]) for s in record.get("spans") or []]) \
            if labelled else None
        features = sf.document_features(text, sf.Tables(), rec.analyze(text), df, len(texts), positive=gold)
        parts.append(features.rows)
        keys.extend(features.masked_keys)
        lookup_keys.extend(features.keys)
        words.extend(sf.core_word(features.elements[i].text) for i in features.candidates)
        labels.extend(bool(gold[i]) if gold else False for i in features.candidates)
        docs.extend([d] * len(features.candidates))
        element_ids.extend(features.candidates)
        joined.extend(joined_next(text, features.elements, i) for i in features.candidates)
        raw = [e.text for e in features.elements]
        for name, mark in MARKS.items():
            marks[name].extend(mark(text, features.elements, raw, i) for i in features.candidates)
        n_elements += len(features.elements)
        n_positive += sum(gold) if gold else 0
    rows = np.concatenate(parts) if parts else np.zeros((0, sf.N), np.float32)
    return CourtFeatures(rows, keys, lookup_keys, words, np.array(labels, bool), np.array(docs, np.int32),
                         np.array(element_ids, np.int32), n_elements, n_positive, np.array(joined, bool),
                         {name: np.array(values, bool) for name, values in marks.items()})


def document_offsets(parts: Sequence[CourtFeatures]) -> np.ndarray:
    """What :func:`concatenate` adds to each part's document numbers: the documents numbered on."""
    return np.cumsum([0] + [int(p.documents.max()) + 1 if len(p.documents) else 0 for p in parts[:-1]])


def concatenate(parts: Sequence[CourtFeatures]) -> CourtFeatures:
    """One court's features from several draws of its surrogates (the same rulings, other names):
    the documents numbered on, so each draw's documents stay documents of their own."""
    if len(parts) == 1:
        return parts[0]
    offsets = document_offsets(parts)
    return CourtFeatures(np.concatenate([p.rows for p in parts]), [k for p in parts for k in p.keys],
                         [k for p in parts for k in p.lookup_keys], [w for p in parts for w in p.words],
                         np.concatenate([p.labels for p in parts]),
                         np.concatenate([p.documents + o for p, o in zip(parts, offsets, strict=True)]),
                         np.concatenate([p.elements for p in parts]), sum(p.n_elements for p in parts),
                         sum(p.n_positive for p in parts),
                         np.concatenate([p.joined for p in parts]) if all(p.joined is not None for p in parts)
                         else None,
                         {name: np.concatenate([p.marks[name] for p in parts])
                          for name in set.intersection(*(set(p.marks) for p in parts))})


def build_tables(courts: Sequence[CourtFeatures], clears: Sequence[dict[str, int]]) -> sf.Tables:
    """Context rates of ``courts``' candidates and the words their anonymized rulings print."""
    examples = [(k, bool(label)) for c in courts for k, label in zip(c.keys, c.labels, strict=True)]
    context = sf.context_counts(examples)
    clear: dict[str, int] = defaultdict(int)
    for table in clears:
        for word, count in table.items():
            clear[word] += count
    positives = sum(int(c.labels.sum()) for c in courts)
    total = sum(len(c.labels) for c in courts)
    return sf.Tables(context, dict(clear), positives / max(1, total))


def with_tables(court: CourtFeatures, tables: sf.Tables) -> np.ndarray:
    """``court``'s rows with the table columns filled from ``tables``."""
    rows = court.rows.copy()
    sf.fill_table_columns(rows, tables, court.lookup_keys, court.words)
    groups: dict[tuple[int, str], list[int]] = defaultdict(list)
    for r, (d, w) in enumerate(zip(court.documents, court.words, strict=True)):
        groups[(int(d), w)].append(r)
    rate = sf.COLUMN["prev1_rate"]
    for members in groups.values():
        values = rows[members, rate]
        rows[members, sf.COLUMN["doc_prev1_rate"]] = values.max()
        rows[members, sf.COLUMN["doc_prev1_rate_min"]] = values.min()
        rows[members, sf.COLUMN["doc_prev1_rate_mean"]] = values.mean()
    return rows


@dataclass
class Background:
    """In how many of ``documents`` published rulings each capitalized word occurs."""

    frequency: dict[str, int]
    documents: int

    def pad(self, df: dict[str, int], size: int) -> tuple[dict[str, int], int]:
        """A batch's document frequencies and size, padded with these rulings when it has fewer
        than :data:`BACKGROUND_BELOW` documents."""
        if size >= BACKGROUND_BELOW:
            return df, size
        padded = dict(self.frequency)
        for word, count in df.items():
            padded[word] = padded.get(word, 0) + count
        return padded, size + self.documents

    @classmethod
    def of(cls, records: Sequence[dict], documents: int = BACKGROUND_DOCUMENTS, seed: int = 0) -> Background:
        """The document frequencies of ``documents`` of ``records`` (anonymized rulings) drawn at random."""
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(records), min(documents, len(records)), replace=False) if records else []
        return cls(sf.batch_document_frequency([records[i]["text"] for i in sorted(chosen)]), len(chosen))


def padded(df: dict[str, int], size: int, background: Background | None) -> tuple[dict[str, int], int]:
    return background.pad(df, size) if background is not None else (df, size)


def alone_shares(words: Sequence[str], background: Background | None) -> np.ndarray:
    """The batch feature of a ruling's candidate ``words`` with the ruling decided alone: the share
    of the background rulings and the ruling itself that hold each word ((count + 1) / (rulings +
    1)); NaN without background. Training and ``score`` compute it so, and no other ruling scored
    with it can change a ruling's answer (docs/experiments.md, "One document, one answer")."""
    if background is None or background.documents + 1 < sf.MIN_BATCH:
        return np.full(len(words), np.nan, np.float32)
    frequency, size = background.frequency, background.documents + 1
    return np.array([(frequency.get(w, 0) + 1) / size for w in words], np.float32)


class SensitivityModel:
    """Boosters fitted with different seeds (their probabilities averaged) and their tables;
    ``threshold``s from ``config``; the ``background`` rulings a small batch is padded with."""

    def __init__(self, boosters: list, tables: sf.Tables, config: dict | None = None,
                 background: Background | None = None):
        self.boosters, self.tables, self.config, self.background = list(boosters), tables, config or {}, background
        # what a public rule multiplies the probability by (0: public; recall-first: RECALL_FIRST_PUBLIC_WEIGHT)
        self.public_weight = 0.0
        # the PUBLIC_COLUMNS of the exemptions a policy switched off, read as unset: those rules lower
        # nothing, and the trees, which learnt that a seat is printed in clear, judge it as any place
        self.blank_columns: list[int] = []

    @property
    def extra_features(self) -> tuple[str, ...]:
        """The columns the boosters read after sf.FEATURES (a contextual model's probability)."""
        return tuple(self.config.get("extra_features") or ())

    def follow_exemptions(self, recall_first: bool = False, off: Sequence[str] = ()) -> None:
        """Let the public rules zero a probability (the default) or, ``recall_first``, lower it
        (:data:`RECALL_FIRST_PUBLIC_WEIGHT`); the exemptions ``off`` (names of
        :data:`EXEMPTION_COLUMNS`) a court's policy does not follow lower nothing, and the trees
        read their columns as unset."""
        self.public_weight = RECALL_FIRST_PUBLIC_WEIGHT if recall_first else 0.0
        self.blank_columns = sorted({sf.COLUMN[EXEMPTION_COLUMNS[name]] for name in off})

    def predict_rows(self, rows: np.ndarray, words: Sequence[str] | None = None,
                     documents: np.ndarray | None = None) -> np.ndarray:
        """The probabilities of ``rows``; with the candidates' ``words`` (``documents``, one number
        per candidate, None: one document) a word public in one mention is public in all of its
        document's (:func:`public_in_document`)."""
        if not len(rows):
            return np.zeros(0)
        if rows.shape[1] != sf.N + len(self.extra_features):
            raise ModelError(f"the sensitivity model reads {sf.N + len(self.extra_features)} columns "
                             f"({', '.join(self.extra_features) or 'no extra ones'} after the features), "
                             f"not {rows.shape[1]}")
        if self.blank_columns:
            rows = rows.copy()
            rows[:, self.blank_columns] = 0.0
        # whatever the trees say, PUBLIC_COLUMNS are public or no name: the deciding judges and
        # public officials, the seats of courts and authorities and landmarks, registered marks, quoted terms,
        # goods lists, cited cases' parties, cited decisions' names and cited works' authors,
        # listed abbreviations ("Abb."), countries and states (the rows blanked above: not those a policy switched off);
        # labels ("D1") and active substances ("Tadalafil") by their words
        public = rows[:, PUBLIC_COLUMNS].max(axis=1) > 0
        if words is not None:
            public |= public_in_document(rows, words, documents)
            if _ABBREVIATION not in self.blank_columns:
                public |= labels(rows, words)
            if _PUBLIC_NAME not in self.blank_columns:
                public |= substance_names(words)
        # a row's probability is its own (the trees read no other row): rows a public rule zeroes are
        # not sent through them (a tenth of a ruling's candidates)
        judged = ~public if self.public_weight == 0.0 else slice(None)
        probabilities = np.zeros(len(rows))
        if len(chosen := rows[judged]):
            probabilities[judged] = np.mean([b.predict(chosen, num_threads=1, **EARLY_STOP) for b in self.boosters],
                                            axis=0)
        probabilities[public] *= self.public_weight
        return probabilities

    def predict_court(self, court: CourtFeatures, extra: np.ndarray | None = None) -> np.ndarray:
        """``court``'s probabilities, each ruling decided alone (:func:`alone_shares`); ``extra``:
        its candidates' extra columns ([candidates, k])."""
        rows = with_tables(court, self.tables)
        rows[:, sf.COLUMN["batch_share"]] = alone_shares(court.words, self.background)
        return self.predict_rows(stacked(rows, extra), court.words, court.documents)

    def predict_texts(self, texts: Sequence[str], recognizer_hits: Sequence | None = None) -> list[dict[int, float]]:
        """Per text, element index -> probability that courts anonymize it (capitalized elements)."""
        from rulings_anon.analyzer import recognizers as rec

        out = []
        for i, text in enumerate(texts):
            hits = rec.analyze(text) if recognizer_hits is None else recognizer_hits[i]
            candidates, probabilities = self.predict_text(text, hits)
            out.append(dict(zip(candidates, (float(p) for p in probabilities), strict=True)))
        return out

    def predict_text(self, text: str, recognizer_hits, elements=None,
                     context: np.ndarray | None = None) -> tuple[list[int], np.ndarray]:
        """The candidate elements of one text (indices) and their probabilities, the text decided
        alone (:func:`alone_shares`); ``context``: every element's contextual probability, for a
        model that reads it."""
        features = sf.document_features(text, self.tables, recognizer_hits, elements=elements)
        words = [sf.core_word(features.elements[i].text) for i in features.candidates]
        features.rows[:, sf.COLUMN["batch_share"]] = alone_shares(words, self.background)
        extra = None if context is None else np.asarray(context, np.float32)[features.candidates].reshape(-1, 1)
        return features.candidates, self.predict_rows(stacked(features.rows, extra), words)

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        for i, booster in enumerate(self.boosters):
            booster.save_model(str(directory / booster_file(i)))
        for stale in directory.glob("model-*.txt"):  # of an earlier save with more boosters
            if stale.name not in {booster_file(i) for i in range(len(self.boosters))}:
                stale.unlink()
        with gzip.GzipFile(directory / "tables.json.gz", "wb", mtime=0) as raw:
            raw.write(json.dumps(self.tables.to_json(), ensure_ascii=False, sort_keys=True).encode("utf-8"))
        config = {"format": FORMAT, "kind": SENSITIVITY, "features": list(sf.FEATURES), **self.config,
                  "boosters": len(self.boosters)}
        if self.background is not None:
            config["background"] = self.background.documents
            with gzip.GzipFile(directory / "background.json.gz", "wb", mtime=0) as raw:
                raw.write(json.dumps(self.background.frequency, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        (directory / "config.json").write_text(json.dumps(config, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def labels(rows: np.ndarray, words: Sequence[str]) -> np.ndarray:
    """Per row: a label of letters and a number (:func:`~rulings_anon.analyzer.common_words.label_shaped`:
    "D1", "E1a"), no name, unless a legal form follows it ("die K2 GmbH"). A rule after the trees,
    as the public rules are, under the policy's ``abbreviations`` exemption. Only words with a
    digit (the ``digit`` column) are matched: the rest of a ruling's candidates cost no regex."""
    out = np.zeros(len(rows), bool)
    for k in np.flatnonzero((rows[:, sf.COLUMN["digit"]] > 0) & (rows[:, sf.COLUMN["next_legal_form"]] == 0)):
        out[k] = label_shaped(words[k])
    return out


def public_in_document(rows: np.ndarray, words: Sequence[str], documents: np.ndarray | None = None) -> np.ndarray:
    """Per row: whether another mention of its word in its document is public by a rule of
    :data:`DOCUMENT_PUBLIC_COLUMNS`, or by the seat rule where the word is a known place and the
    seat of a court or a landmark (:data:`~rulings_anon.analyzer.sensitivity.SEAT_OF_COURT_OR_LANDMARK`)."""
    source = rows[:, DOCUMENT_PUBLIC_COLUMNS].max(axis=1) > 0
    documents = np.zeros(len(rows), int) if documents is None else documents
    source |= (rows[:, _SEAT] == sf.SEAT_OF_COURT_OR_LANDMARK) & (rows[:, _PLACE_COLUMNS].max(axis=1) > 0)
    if not source.any():
        return source
    public = {(int(d), w) for d, w, s in zip(documents, words, source, strict=True) if s}
    return np.fromiter(((int(d), w) in public for d, w in zip(documents, words, strict=True)), bool, len(rows))


def stacked(rows: np.ndarray, extra: np.ndarray | None) -> np.ndarray:
    """``rows`` with the ``extra`` columns (one row per row) after them."""
    if extra is None:
        return rows
    return np.concatenate([rows, np.asarray(extra, np.float32).reshape(len(rows), -1)], axis=1)


def booster_file(i: int) -> str:
    return "model.txt" if i == 0 else f"model-{i}.txt"


def fit(courts: dict[str, CourtFeatures], clears: dict[str, dict[str, int]], rounds: int = PARAMS["rounds"],
        seed: int = 0, boosters: int = BOOSTERS, weights: dict[str, float] | None = None,
        extra: dict[str, np.ndarray] | None = None, extra_features: Sequence[str] = (CONTEXT_FEATURE,),
        records: dict[str, Sequence[dict]] | None = None) -> SensitivityModel:
    """Fit on ``courts`` (name -> features with gold labels), their table columns cross-fitted:
    ``boosters`` boosters with seeds ``seed``, ``seed + 1``, ... (each its own negatives, hidden
    batch features, bagging), whose probabilities the model averages; ``weights``: a court's
    rows count this many times (reviewed rulings among weak labels), 1 where not given. ``extra``:
    per court its candidates' ``extra_features`` columns stacked after the features (missing, NaN,
    for a court it does not name), and config.json lists them. ``records``: per court its anonymized
    rulings, the background rulings (:class:`Background`) of the model and, cross-fitted, of each
    court's rows' batch feature (:func:`alone_shares`; a court without them sees all of them)."""
    names = sorted(courts)
    backgrounds = _backgrounds(records, names)
    extra_features = tuple(extra_features) if extra is not None else ()
    fitted = [_fit_booster(courts, clears, rounds, seed + i, weights or {}, extra, extra_features,
                           backgrounds=backgrounds) for i in range(boosters)]
    tables = build_tables([courts[n] for n in names], [clears[n] for n in names])
    config = {"courts": names, "rounds": rounds} | ({"extra_features": list(extra_features)} if extra_features else {})
    return SensitivityModel(fitted, tables, config, backgrounds.get(None))


def _backgrounds(records: dict[str, Sequence[dict]] | None, names: Sequence[str]) -> dict:
    """The background of all ``records`` (key None) and of each court's rows: the other courts'."""
    if not records:
        return {}
    courts = [c for c in sorted(records) if c in names]
    every = Background.of([r for c in courts for r in records[c]])
    return {None: every} | {n: Background.of([r for c in courts if c != n for r in records[c]])
                            for n in names if n in records}


def _fit_booster(courts: dict[str, CourtFeatures], clears: dict[str, dict[str, int]], rounds: int, seed: int,
                 weights: dict[str, float], extra: dict[str, np.ndarray] | None = None,
                 extra_features: tuple[str, ...] = (), backgrounds: dict | None = None):
    import lightgbm

    names = sorted(courts)
    parts, labels, scales = [], [], []
    rng = np.random.default_rng(seed)
    for name in names:
        others = [n for n in names if n != name]
        tables = build_tables([courts[n] for n in others], [clears[n] for n in others])
        rows = with_tables(courts[name], tables)
        background = (backgrounds or {}).get(name, (backgrounds or {}).get(None))
        rows[:, sf.COLUMN["batch_share"]] = alone_shares(courts[name].words, background)
        hidden = rng.random(int(courts[name].documents.max()) + 1 if len(rows) else 0) < BATCH_DROPOUT
        if len(rows):
            rows[hidden[courts[name].documents], sf.COLUMN["batch_share"]] = np.nan
        kept = courts[name].labels | (rng.random(len(rows)) < NEGATIVE_SHARE)
        if extra_features:
            missing = np.full((len(rows), len(extra_features)), np.nan, np.float32)
            rows = stacked(rows, extra.get(name, missing))
        parts.append(rows[kept])
        labels.append(courts[name].labels[kept])
        scales.append(np.full(int(kept.sum()), weights.get(name, 1.0), np.float32))
    columns = list(sf.FEATURES) + list(extra_features)
    params = {k: v for k, v in PARAMS.items() if k != "rounds"} | {
        "seed": seed, "monotone_constraints": [(MONOTONE | MONOTONE_EXTRA).get(f, 0) for f in columns]}
    y = np.concatenate(labels)
    sample_weights = np.where(y, 1.0, 1.0 / NEGATIVE_SHARE).astype(np.float32) * np.concatenate(scales)
    dataset = lightgbm.Dataset(np.concatenate(parts), y.astype(np.float32), weight=sample_weights,
                               feature_name=columns, categorical_feature=list(sf.CATEGORICAL), free_raw_data=True)
    return lightgbm.train(params, dataset, num_boost_round=rounds)


def load_model(directory: str | Path | None = None) -> SensitivityModel:
    """The model stored in ``directory`` (default ``rulings_anon/data/scorer``); :class:`ModelError` naming what
    is missing or from another version."""
    from rulings_anon.analyzer.saved_trees import load_trees
    from rulings_anon.data import path as data_path

    directory = Path(directory) if directory is not None else Path(data_path("scorer"))
    for name in ("config.json", "model.txt", "tables.json.gz"):
        if not (directory / name).exists():
            raise ModelError(f"{directory}: missing {name}; not a sensitivity model directory")
    config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    if config.get("format") != FORMAT:
        raise ModelError(f"{directory}: sensitivity model format {config.get('format')} cannot be read "
                         f"(this version reads format {FORMAT})")
    if config.get("features") != list(sf.FEATURES):
        stored = config.get("features") or []
        missing = [f for f in sf.FEATURES if f not in stored]
        unknown = [f for f in stored if f not in sf.FEATURES]
        raise ModelError(f"{directory}: the sensitivity model was fitted on other features than this version "
                         f"computes (not in the model: {', '.join(missing) or 'none'}; not in this version: "
                         f"{', '.join(unknown) or 'none'}); refit it with rulings-anon train-scorer")
    unknown_extra = [f for f in config.get("extra_features") or () if f not in EXTRA_FEATURES]
    if unknown_extra:
        raise ModelError(f"{directory}: the sensitivity model reads columns this version cannot compute "
                         f"({', '.join(unknown_extra)}); refit it with rulings-anon train-scorer")
    boosters = []
    for i in range(int(config.get("boosters", 1))):
        if not (directory / booster_file(i)).exists():
            raise ModelError(f"{directory}: missing {booster_file(i)} (config.json names {config['boosters']} boosters)")
        boosters.append(load_trees(directory / booster_file(i)))
    with gzip.open(directory / "tables.json.gz", "rt", encoding="utf-8") as handle:
        tables = sf.Tables.from_json(json.load(handle))
    background = None
    if config.get("background"):
        if not (directory / "background.json.gz").exists():
            raise ModelError(f"{directory}: missing background.json.gz (config.json names {config['background']} "
                             "background rulings)")
        with gzip.open(directory / "background.json.gz", "rt", encoding="utf-8") as handle:
            background = Background(json.load(handle), int(config["background"]))
    return SensitivityModel(boosters, tables, config, background)


def is_sensitivity_directory(model_dir) -> bool:
    """Whether ``model_dir`` holds a sensitivity model (``model.txt`` beside a ``config.json`` that
    lists features)."""
    directory = Path(model_dir)
    if not (directory / "model.txt").exists() or not (directory / "config.json").exists():
        return False
    try:
        return "features" in json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False


DEFAULT_RULE, RECALL_FIRST_RULE = "default_rule", "recall_first_rule"
# the recall-first rule's threshold chosen on probabilities the public rules lower rather than zero
# (a model without it: the rule's threshold among "thresholds")
RECALL_FIRST_THRESHOLDS = "recall_first_thresholds"
CONTEXT_MODEL = "context_model"


def context_model_dir(model_dir) -> Path | None:
    """The contextual model directory ``model_dir``'s ``config.json`` names (train-scorer
    --context-model), or None; a relative one is taken from ``model_dir``."""
    directory = Path(model_dir)
    try:
        named = json.loads((directory / "config.json").read_text(encoding="utf-8")).get(CONTEXT_MODEL)
    except (OSError, ValueError):
        return None
    return None if not named else directory / named


def threshold_of(config: dict, recall_first: bool = False) -> float:
    """The threshold a model's ``config`` names for the default or the recall-first rule."""
    rule = config[RECALL_FIRST_RULE if recall_first else DEFAULT_RULE]
    if recall_first and rule in (config.get(RECALL_FIRST_THRESHOLDS) or {}):
        return float(config[RECALL_FIRST_THRESHOLDS][rule])
    return float(config["thresholds"][rule])


def stored_threshold(model_dir, recall_first: bool = False) -> float:
    """The threshold ``model_dir``'s ``config.json`` names for the default or the recall-first rule."""
    directory = Path(model_dir)
    try:
        return threshold_of(json.loads((directory / "config.json").read_text(encoding="utf-8")), recall_first)
    except (OSError, ValueError, KeyError, TypeError):
        which = "recall-first" if recall_first else "default"
        raise ModelError(f"{directory}/config.json names no {which} threshold") from None


class SensitivityElementModel:
    """The sensitivity model as an element model (``evaluate --method none``, ``score``): every
    capitalized element gets its probability, every other element 0. Each document is judged
    alone (:func:`alone_shares`): its probabilities are the same whatever is scored with it."""

    kind = SENSITIVITY
    # probabilities() takes the texts' elements and recognizer hits from the caller (evidence.observe)
    reads_recognizer_hits = True

    def __init__(self, model_dir=None, progress: bool = False, context=None):
        """``context``: the element model (``probabilities(documents)``) of the contextual model
        whose probability the model reads, for a model fitted with one (:func:`context_model_dir`)."""
        self.model = load_model(model_dir)
        self.model_dir = Path(model_dir) if model_dir is not None else None
        if self.model.extra_features and context is None:
            raise ModelError(f"{self.model_dir}: this sensitivity model reads a contextual model's probability "
                             "(config.json's context_model); run it with `rulings-anon score --model`, which "
                             "loads that model (needs the extra train)")
        self.context = context

    def probabilities(self, documents, candidates=None, elements=None, recognizer_hits=None) -> list[np.ndarray]:
        """Per document, each element's probability.

        :param elements: per document ``split_elements(text)``, when the caller has them already.
        :param recognizer_hits: per document ``recognizers.analyze(text)``, when the caller has it.
        """
        from rulings_anon.analyzer import recognizers as rec
        from rulings_anon.document import count_elements

        if candidates is not None:
            raise ModelError("the sensitivity model classifies unmasked elements only (method none)")
        texts = [d.text for d in documents]
        context = self.context.probabilities(documents) if self.context is not None else None
        result = []
        for i, text in enumerate(texts):
            hits = rec.analyze(text) if recognizer_hits is None else recognizer_hits[i]
            own = None if elements is None else elements[i]
            candidates, probabilities = self.model.predict_text(text, hits, elements=own,
                                                                context=None if context is None else context[i])
            values = np.zeros(count_elements(text) if own is None else len(own), np.float32)
            if candidates:
                values[candidates] = probabilities
            result.append(values)
        return result
