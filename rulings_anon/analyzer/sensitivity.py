"""Which capitalized words of a new ruling courts anonymize: features that carry across courts.

The NER's "do courts anonymize this?" score is learnt from five courts' habits and carries over
poorly to a court it never saw. This module describes every capitalized element of a
text by evidence that does not depend on one court's conventions, for a gradient-boosted
classifier (:mod:`rulings_anon.analyzer.sensitivity_model`):

* the word's form (length, an initial, capitals, digits, a hyphen), and whether it is a listed
  abbreviation ("Abb.", ``rulings_anon/data/abbreviations/spacy-de.txt``);
* how common it is in German and English (``wordfreq``), what the German Wiktionary's noun list
  says it is (``rulings_anon/data/lexicon/de-nouns.tsv.gz``: common noun, name, place), and the population of
  a German, Austrian or Swiss place of that name (GeoNames, ``rulings_anon/data/scorer/places.tsv.gz``): a big
  city is rarely anonymized, a village often; the first steps of its Brown cluster path (spaCy's
  German word clusters, ``rulings_anon/data/scorer/clusters.tsv.gz``): surnames, first names and towns sit in
  branches of their own, also those no list has; how much its letters look like a name's
  (:mod:`rulings_anon.analyzer.name_shape`: "-berger", "-feld" against "-ung", "-oxid"), for the
  names and compounds no list knows; a compound ending in a common noun is looked
  up by its first part ("Artner-Fonds" as "Artner");
* its neighbours: salutations (military ranks, role nouns such as "Zeuge", "Arzt" and relatives
  such as "Ehefrau" counted with them), titles, roles, judges' roles, public offices, court designations
  and legal forms around it (``rulings_anon/data/name_affixes.json``), the rate at which courts anonymized the
  capitalized word after or before the same context word (learnt from the training courts, only
  from context words that are not themselves sensitive), quotes, the start of a sentence, the
  places of a cited author ("Nacke in Littmann / Bitz", "Graefe, DStR 2017");
  whether an article or another determiner stands before a common noun, in this mention and in the
  document's ("der Keller" is the noun, "Mitangeklagten Keller" and "an Kaufmann" the surname);
* the document and the batch: how often the word occurs, where first, in how many of the documents
  scored together, and the strongest person or company cue any of its occurrences has;
* how often the training courts' published (anonymized) rulings print the word in clear;
* the rule-based recognizers' hits;
* the conventions that make a name public: the deciding judges and public officials, the seats of
  courts and authorities, registered marks, quoted terms under discussion, lists of goods, the
  parties of cited European cases, the names of cited decisions and the authors of cited works
  (:mod:`rulings_anon.analyzer.public_names`), countries and states; the model gives them
  probability 0.

Never used as evidence: the surrogate generator's name lists (faker), whose names the training
texts carry, and the foreign lists the test sets draw from (``rulings_anon.replacement.surrogates``).
"""

from __future__ import annotations

import gzip
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from rulings_anon import word_frequency
from rulings_anon.analyzer.common_words import abbreviation_shaped, abbreviations
from rulings_anon.analyzer.exemptions import case_countries, regions
from rulings_anon.analyzer.name_shape import name_shape
from rulings_anon.analyzer.public_names import IN_WORDS, JOURNAL, NAME_PARTICLES, public_names
from rulings_anon.analyzer.recognizers.land_parcel import PARCEL_ABBREVIATION
from rulings_anon.analyzer.seat_words import INSTITUTION_ENDINGS, is_court_or_landmark, is_seat_word
from rulings_anon.data import path as data_path
from rulings_anon.document import WORD_PUNCTUATION, Element, split_elements
from rulings_anon.jsonl import read_json
from rulings_anon.lexicon import (
    COMMON_NOUN,
    COMPOUND,
    OTHER_PROPER,
    PERSON_NAME,
    PLACE_NAME,
    SortedLexicon,
    noun_bits,
)

_INITIAL = re.compile(r"^[A-ZÄÖÜ][a-zäöü]?\.$")
_QUOTES = "„“”‚‘’\"'«»"
_SENTENCE_END = (".", "!", "?", ":")
# the fewest documents scored together for their shared vocabulary to count
MIN_BATCH = 10
CONTEXT_SLOTS = ("prev1", "prev2", "next1")
CONTEXT_PRIOR = 20.0  # pseudo-count of the smoothed context rates
# how many first steps of a word's cluster path are features (surnames, first names, towns and big
# cities part within the first six to eight)
CLUSTER_DEPTHS = (4, 6, 8)


def core_word(element_text: str) -> str:
    """The word of an element without brackets, quotes, commas, and a sentence period ("K." keeps
    its period, "Kemper." loses it)."""
    word = element_text.strip(WORD_PUNCTUATION)
    if word.endswith(".") and not _INITIAL.match(word):
        word = word.rstrip(".").rstrip(WORD_PUNCTUATION)  # "(Käfer-Klinik)." -> "Käfer-Klinik"
    return word


def is_candidate(word: str) -> bool:
    """A capitalized word: the elements the model judges (nearly every sensitive element of the
    six courts' rulings is one, 2,962 of 3,007)."""
    return word[:1].isupper()


@lru_cache(maxsize=1)
def _affixes() -> dict[str, frozenset[str]]:
    table = read_json(data_path("name_affixes.json"))
    lists = {key: frozenset(value) for key, value in table.items() if isinstance(value, list)}
    lists["legal_forms"] = frozenset(form.split()[0] for form in table["legal_forms"])
    # ranks, role nouns and relatives stand before a private person's name as a salutation does
    # ("Oberstleutnant Putz", "Leitender Arzt Bolnbach", "seiner Ehefrau (Eisner)"); the training
    # courts have too few for a feature of their own
    lists["addresses"] = lists["salutations"]  # the salutations proper ("Herr", "Frau")
    lists["salutations"] = lists["salutations"] | lists["person_roles"] | lists["relatives"]
    return lists


@lru_cache(maxsize=1)
def places() -> dict[str, int]:
    """Place name -> population of the biggest German, Austrian or Swiss place of that name."""
    table = {}
    with gzip.open(data_path("scorer", "places.tsv.gz"), "rt", encoding="utf-8") as handle:
        for line in handle:
            name, _, population = line.rstrip("\n").partition("\t")
            table[name] = int(population)
    return table


@lru_cache(maxsize=1)
def clusters() -> SortedLexicon:
    """Capitalized word -> its Brown cluster (``rulings_anon/data/scorer/clusters.tsv.gz``, from spaCy's German
    lookups): the path in a tree of words used alike, lowest bit first. Searched by bisection in the
    sorted file: a dict of its 600,000 words takes 0.3 s to build, more than one ruling's features."""
    return SortedLexicon(gzip.decompress(Path(data_path("scorer", "clusters.tsv.gz")).read_bytes()))


@lru_cache(maxsize=200_000)
def cluster_prefixes(word: str) -> tuple[int, ...]:
    """The first :data:`CLUSTER_DEPTHS` steps of ``word``'s cluster path, -1 each without a cluster."""
    cluster = clusters().get(word)
    if cluster is None:
        return (-1,) * len(CLUSTER_DEPTHS)
    return tuple(cluster & ((1 << depth) - 1) for depth in CLUSTER_DEPTHS)


@lru_cache(maxsize=200_000)
def _zipf(word: str, lang: str) -> float:
    """``wordfreq.zipf_frequency(word, lang)`` (:mod:`rulings_anon.word_frequency`), cached: words recur."""
    return word_frequency.zipf(word, lang)


@dataclass
class Tables:
    """What the training courts teach beyond the model's trees: context rates and clear counts.

    ``context[slot][word]`` is ``(positives, count)`` of the capitalized elements with ``word``
    (lower-cased) in that slot; ``clear[word]`` how often the courts' anonymized rulings print a
    capitalized ``word`` outside their placeholders; ``prior`` the share of positive candidates.
    """

    context: dict[str, dict[str, tuple[int, int]]] = field(default_factory=lambda: {s: {} for s in CONTEXT_SLOTS})
    clear: dict[str, int] = field(default_factory=dict)
    prior: float = 0.01

    def to_json(self, min_count: int = 3) -> dict:
        return {"prior": self.prior, "clear": {w: c for w, c in self.clear.items() if c >= 2},
                "context": {slot: {w: list(pc) for w, pc in table.items() if pc[1] >= min_count}
                            for slot, table in self.context.items()}}

    @classmethod
    def from_json(cls, record: dict) -> Tables:
        return cls({slot: {w: tuple(pc) for w, pc in table.items()} for slot, table in record["context"].items()},
                   dict(record["clear"]), float(record["prior"]))


def clear_counts(records: Sequence[dict], seats: bool = True) -> dict[str, int]:
    """Capitalized words printed in clear by anonymized rulings (``{"text", "spans"}``, the spans
    their placeholders): how often each occurs outside every placeholder; without ``seats``, not
    counting a word right after a court or an authority ("Sozialgericht Cottbus", "Finanzamt
    Aurich"): a court prints its seats in clear whatever it does with the town elsewhere."""
    counts: Counter = Counter()
    for record in records:
        spans = sorted((s["start"], s["end"]) for s in record.get("spans") or [])
        j = 0
        previous = ""
        for element in split_elements(record["text"]):
            while j < len(spans) and spans[j][1] <= element.start:
                j += 1
            word = core_word(element.text)
            if not (j < len(spans) and spans[j][0] < element.end) and is_candidate(word) and \
                    (seats or not is_seat_word(previous)):
                counts[word] += 1
            previous = word
    return dict(counts)


def context_counts(examples: Sequence[tuple[list[str | None], bool]]) -> dict[str, dict[str, tuple[int, int]]]:
    """``(positives, count)`` per slot and context word from ``(context keys, label)`` examples."""
    tables: dict[str, dict[str, list[int]]] = {slot: defaultdict(lambda: [0, 0]) for slot in CONTEXT_SLOTS}
    for keys, label in examples:
        for slot, key in zip(CONTEXT_SLOTS, keys, strict=True):
            if key is not None:
                cell = tables[slot][key]
                cell[0] += int(label)
                cell[1] += 1
    return {slot: {k: (v[0], v[1]) for k, v in table.items()} for slot, table in tables.items()}


FEATURES = (
    "length", "initial", "all_caps", "digit", "hyphen", "period_after", "zipf_de", "zipf_en",
    "lex_common", "lex_name", "lex_place", "lex_other", "lex_compound", "lex_none",
    "place_pop", "place_pop_pair", "sentence_start", "quoted", "prev_cap", "next_cap",
    "prev_zipf", "next_zipf", "next_legal_form", "salutation_before", "title_before", "judge_before",
    "office_before", "court_before", "prefix_before", "particle_before", "country",
    "prev1_rate", "prev1_count", "prev2_rate", "prev2_count", "next1_rate", "next1_count",
    "clear_count", "doc_count", "doc_first", "position", "batch_share",
    "recognizer", "standalone",
    "doc_salutation", "doc_title", "doc_legal_form", "doc_prev1_rate", "doc_sentence_start", "doc_standalone",
    "doc_judge", "institution_before", "citation_near", "prev_noun", "prev_person_noun",
    "doc_prev1_rate_min", "doc_prev1_rate_mean", "doc_institution", "doc_citation", "doc_prev_person_noun",
    "in_list", "judge_list", "cluster4", "cluster6", "cluster8",
    "cited_author", "abbreviation", "part1_zipf", "part1_cluster6", "part1_name", "part1_common", "part2_zipf", "part2_common",
    "seat", "public_name", "name_shape", "determiner_before", "doc_determiner",
)
CATEGORICAL = ("recognizer", "cluster4", "cluster6", "cluster8", "part1_cluster6")
N = len(FEATURES)
COLUMN = {name: i for i, name in enumerate(FEATURES)}
_DOC_AGGREGATES = (("doc_salutation", "salutation_before", max), ("doc_title", "title_before", max),
                   ("doc_legal_form", "next_legal_form", max), ("doc_prev1_rate", "prev1_rate", max),
                   ("doc_sentence_start", "sentence_start", None), ("doc_standalone", "standalone", max),
                   ("doc_judge", "judge_before", max), ("doc_institution", "institution_before", None),
                   ("doc_citation", "citation_near", None), ("doc_prev_person_noun", "prev_person_noun", max),
                   ("doc_determiner", "determiner_before", None))
# how far back a public office may stand before its holder's name, and the institutions an office
# belongs to ("Präsident des Bundesnachrichtendienstes", "Minister der Verteidigung" is no institution)
OFFICE_REACH = 8
_OFFICE_INSTITUTION_ENDINGS = INSTITUTION_ENDINGS + ("dienst", "dienstes", "tag", "tages", "tags", "rat", "rates",
                                                      "rats", "bank", "kommission", "parlaments", "republik")
_ABBREVIATION = re.compile(r"^[A-ZÄÖÜ]{2,6}s?$")
# no seat follows the end of a sentence, nor a semicolon
_SEAT_BREAKS = _SENTENCE_END + (";",)
# cited case names and authors ("EGMR, Varga u. a. v. Ungarn", "vgl. Knopp, in: ...")
_CITATION_WORDS = frozenset({"v.", "vs.", "c.", "./.", "in:", "et", "vgl.", "rn.", "a.a.o.", "aao", "hrsg.", "s.",
                             "auflage", "aufl.", "kommentar", "band", "bd."})
# A common noun heads a phrase with an article or another determiner before it, maybe adjectives or a
# number between ("der Keller", "im Sommer", "der 1940 geborenen Kaufmann"); a surname mostly stands
# without one ("Mitangeklagten Keller", "an Kaufmann", "lebte Kaufmann"). The share of a word's
# mentions with one (doc_determiner) tells a surname that is also a noun from the noun; for other
# words both are unset.
_DETERMINERS = frozenset(
    "der die das des dem den ein eine einer eines einem einen kein keine keiner keines keinem keinen "
    "mein meine meiner meines meinem meinen dein deine deiner deines deinem deinen sein seine seiner seines "
    "seinem seinen ihr ihre ihrer ihres ihrem ihren unser unsere unserer unseres unserem unseren euer eure "
    "dieser diese dieses diesem diesen jener jene jenes jenem jenen jeder jede jedes jedem jeden welcher welche "
    "welches welchem welchen derselbe dieselbe dasselbe desselben demselben denselben im am vom zum zur beim "
    "ins ans aufs durchs fürs ums übers alle aller allen viele vieler vielen einige einiger einigen mehrere "
    "mehrerer mehreren manche mancher manchen solche solcher solchen beide beider beiden".split())
DETERMINER_REACH = 3  # words looked back over: adjectives and numbers between a determiner and its noun
_PERSON_NOUN_ENDINGS = ("er", "or", "in", "ent", "ant", "eur", "ist", "ling", "ter", "te", "ge")


@dataclass
class DocumentFeatures:
    """The candidates of one text: their elements' indices, context keys and feature rows."""

    elements: list[Element]
    candidates: list[int]
    keys: list[list[str | None]]  # as the text has them
    masked_keys: list[list[str | None]]  # sensitive context words (by ``positive``) hidden
    rows: np.ndarray  # [candidates, N] float32


def context_key(element_text: str) -> str | None:
    """An element as a context word of its neighbours: no punctuation around it, lower case; None
    for punctuation alone."""
    return element_text.strip(WORD_PUNCTUATION).lower() or None


def _hyphen_parts(word: str) -> tuple[str, str]:
    """The first and the last part of a hyphenated word ("Xuchberger-EWIV" -> "Xuchberger", "EWIV";
    "Max-Planck-Institut" -> "Max", "Institut"); the last is empty without a hyphen."""
    first, _, rest = word.partition("-")
    return first, rest.rpartition("-")[2]


def _part_features(word: str) -> tuple[float, ...]:
    """A hyphenated word's first and last part ("Artner-Fonds", "Käfer-Klinik", "Kö-Bogen"): the
    first part's frequency, cluster and lexicon class, the last part's frequency and whether it is a
    common noun, beside the evidence of the part that describes the word (:func:`_evidence_word`).
    Missing (NaN, -1) for a word without a hyphen."""
    first, last = _hyphen_parts(word)
    if not first or not last:
        return (math.nan, -1, math.nan, math.nan, math.nan, math.nan)
    bits, last_bits = noun_bits(first), noun_bits(last)
    return (_zipf(first, "de"), cluster_prefixes(first)[1], bool(bits & PERSON_NAME), bool(bits & COMMON_NOUN),
            _zipf(last, "de"), bool(last_bits & COMMON_NOUN))


def _evidence_word(word: str) -> str:
    """The part of a word whose frequency, lexicon class, place and cluster describe it: a
    hyphenated word that ends in a common noun, a legal form or one letter is described by its
    first part, a name's evidence carried into a compound ("Artner-Fonds", "Käfer-Klinik",
    "Mohaupt-R"); the whole compound is a word no list knows."""
    first, last = _hyphen_parts(word)
    if len(first) > 1 and first[:1].isupper() and last and (
            len(last) == 1 or noun_bits(last) & COMMON_NOUN or last in _affixes()["legal_forms"]):
        return first
    return word


@lru_cache(maxsize=300_000)
def _word_features(word: str) -> tuple[float, ...]:
    """The features of a word alone (form, frequency, lexicon, gazetteer), cached: words recur."""
    described = _evidence_word(word)
    bits = noun_bits(described)
    initial = bool(_INITIAL.match(word))
    return (len(word), initial, len(word) > 1 and word.isupper(), any(c.isdigit() for c in word), "-" in word,
            _zipf(described, "de"), _zipf(described, "en"), bool(bits & COMMON_NOUN), bool(bits & PERSON_NAME),
            bool(bits & PLACE_NAME), bool(bits & OTHER_PROPER), bits == COMPOUND, bits == 0,
            math.log10(1 + places().get(described, 0)), word in regions(), *cluster_prefixes(described),
            *_part_features(word), name_shape(described), bool(bits & COMMON_NOUN) or bits == COMPOUND)


_WORD_COLUMNS = ("length", "initial", "all_caps", "digit", "hyphen", "zipf_de", "zipf_en", "lex_common", "lex_name",
                 "lex_place", "lex_other", "lex_compound", "lex_none", "place_pop", "country",
                 "cluster4", "cluster6", "cluster8", "part1_zipf", "part1_cluster6", "part1_name", "part1_common",
                 "part2_zipf", "part2_common", "name_shape")


def _continues_sentence(element_text: str) -> bool:
    """Whether a period ends an initial or a listed abbreviation rather than a sentence: "Koch" in
    "Frau U. Koch" or "Dr. Koch" is inside the sentence, as "Koch" in "Frau Koch" is."""
    word = element_text.strip(WORD_PUNCTUATION)
    return bool(_INITIAL.match(word)) or (word.endswith(".") and word[:-1] in abbreviations())


def _before(flags: np.ndarray, width: int) -> np.ndarray:
    """Per element: whether any of the ``width`` elements before it has the flag."""
    sums = np.concatenate([[0], np.cumsum(flags)])
    index = np.arange(len(flags))
    return sums[index] - sums[np.maximum(0, index - width)] > 0


def _flags(words: list[str], members) -> np.ndarray:
    return np.fromiter((w in members for w in words), bool, len(words))


def document_features(text: str, tables: Tables, recognizer_hits=(), batch_df: dict[str, int] | None = None,
                      batch_size: int = 0, positive: Sequence[bool] | None = None,
                      elements: list[Element] | None = None) -> DocumentFeatures:
    """Feature rows of the capitalized elements of ``text``.

    :param recognizer_hits: the recognizers' spans of ``text`` (``source``, ``start``, ``end``,
        ``standalone`` flag via :func:`rulings_anon.analyzer.recognizers.is_standalone_hit`).
    :param batch_df: capitalized word -> in how many documents of the batch it occurs.
    :param positive: gold labels of the elements: context words that are themselves sensitive
        get no context key (so names the training texts' surrogates carry teach nothing).
    :param elements: ``split_elements(text)`` when the caller has them already.
    """
    from rulings_anon.analyzer import recognizers as rec

    affixes = _affixes()
    place_table = places()
    if elements is None:
        elements = split_elements(text)
    n = len(elements)
    raw = [e.text for e in elements]
    words = [core_word(t) for t in raw]
    candidates = [i for i, w in enumerate(words) if w[:1].isupper()]
    rows = np.zeros((len(candidates), N), dtype=np.float32)
    if not candidates:
        return DocumentFeatures(elements, candidates, [], [], rows)
    cand = np.array(candidates)
    prev_i, next_i = cand - 1, np.minimum(cand + 1, n - 1)
    has_prev, has_next = cand > 0, cand + 1 < n
    cand_words = [words[i] for i in candidates]
    prev_words = [words[i - 1] if i > 0 else "" for i in candidates]
    next_words = [words[i + 1] if i + 1 < n else "" for i in candidates]

    word_rows = np.array([_word_features(w) for w in cand_words], dtype=np.float32)
    for k, name in enumerate(_WORD_COLUMNS):
        rows[:, COLUMN[name]] = word_rows[:, k]
    period = np.fromiter((raw[i].rstrip(WORD_PUNCTUATION).endswith(".") for i in candidates), bool, len(candidates))
    rows[:, COLUMN["period_after"]] = period & (rows[:, COLUMN["initial"]] == 0)
    listed = abbreviations()
    rows[:, COLUMN["abbreviation"]] = (period & np.fromiter(
        (w.rstrip(".") in listed or bool(PARCEL_ABBREVIATION.match(raw[i].strip(WORD_PUNCTUATION)))
         for w, i in zip(cand_words, candidates, strict=True)), bool, len(candidates))) | np.fromiter(
        (abbreviation_shaped(w) for w in cand_words), bool, len(candidates))
    rows[:, COLUMN["place_pop_pair"]] = [
        math.log10(1 + max(place_table.get(f"{p} {w}", 0), place_table.get(f"{w} {x}", 0)))
        for p, w, x in zip(prev_words, cand_words, next_words, strict=True)]
    ends = np.fromiter((t.endswith(_SENTENCE_END) and not _continues_sentence(t) for t in raw), bool, n)
    newline = np.fromiter(("\n" in text[elements[i - 1].end:elements[i].start] if i else True for i in range(n)), bool, n)
    rows[:, COLUMN["sentence_start"]] = ~has_prev | ends[prev_i] | newline[cand]
    opens = np.fromiter((t[:1] in _QUOTES for t in raw), bool, n)
    closes = np.fromiter((t[-1:] in _QUOTES for t in raw), bool, n)
    rows[:, COLUMN["quoted"]] = opens[cand] | (has_prev & closes[prev_i])
    capital = np.fromiter((w[:1].isupper() for w in words), bool, n)
    rows[:, COLUMN["prev_cap"]] = has_prev & capital[prev_i]
    rows[:, COLUMN["next_cap"]] = has_next & capital[next_i]
    rows[:, COLUMN["prev_zipf"]] = [_zipf(w, "de") if w else -1 for w in prev_words]
    rows[:, COLUMN["next_zipf"]] = [_zipf(w, "de") if w else -1 for w in next_words]
    rows[:, COLUMN["next_legal_form"]] = [w in affixes["legal_forms"] for w in next_words]
    for column, key, width in (("salutation_before", "salutations", 3), ("title_before", "academic_titles", 3),
                               ("judge_before", "judge_roles", 6), ("office_before", "public_offices", 3),
                               ("court_before", "court_designations", 3), ("prefix_before", "prefixes", 3)):
        rows[:, COLUMN[column]] = _before(_flags(words, affixes[key]), width)[cand]
    rows[:, COLUMN["particle_before"]] = [w in affixes["particles"] for w in prev_words]
    lowered = [w.lower() for w in words]
    institution = np.fromiter((w.endswith(INSTITUTION_ENDINGS) for w in lowered), bool, n)
    prev2_i = np.maximum(cand - 2, 0)
    rows[:, COLUMN["institution_before"]] = has_prev & (institution[prev_i] | (
        (cand > 1) & institution[prev2_i] & capital[prev_i]))
    citation = np.fromiter((t.lower().strip(",;()") in _CITATION_WORDS for t in raw), bool, n)
    sums = np.concatenate([[0], np.cumsum(citation)])
    rows[:, COLUMN["citation_near"]] = (sums[np.minimum(n, cand + 4)] - sums[np.maximum(0, cand - 4)]
                                        - citation[cand]) > 0
    rows[:, COLUMN["cited_author"]] = [_cited_author(raw, i) for i in candidates]
    prev_noun = np.array([capital[i - 1] and _word_features(words[i - 1])[-1] if i > 0 else False
                          for i in candidates], bool)
    rows[:, COLUMN["prev_noun"]] = prev_noun
    rows[:, COLUMN["prev_person_noun"]] = prev_noun & np.array(
        [w.lower().endswith(_PERSON_NOUN_ENDINGS) for w in prev_words], bool)
    # said of common nouns only: a name that is no noun ("Öztürk") is one with or without an article;
    # before a legal form the article is the company's ("die Christen GmbH"), not the word's
    rows[:, COLUMN["determiner_before"]] = [
        (_determined(raw, i) and not form) if common else np.nan
        for i, common, form in zip(candidates, rows[:, COLUMN["lex_common"]] > 0, rows[:, COLUMN["next_legal_form"]] > 0,
                                   strict=True)]
    rows[:, COLUMN["seat"]] = _seats(raw, words, cand, affixes)
    rows[:, COLUMN["public_name"]] = public_names(raw, words, candidates, case_countries())
    rows[:, COLUMN["judge_list"]] = (_in_judge_list(text, elements, words, cand)
                                     | _in_signature(text, elements, cand, capital)
                                     | _after_public_office(words, cand))
    semicolon = np.fromiter((t.endswith(";") for t in raw), bool, n)
    rows[:, COLUMN["in_list"]] = semicolon[cand] | (has_prev & semicolon[prev_i])

    keys_all = [context_key(t) for t in raw]
    keys = [[keys_all[i - 1] if i > 0 else None, keys_all[i - 2] if i > 1 else None,
             keys_all[i + 1] if i + 1 < n else None] for i in candidates]
    if positive is not None:
        masked_keys = [[None if not (0 <= j < len(positive)) or positive[j] else k
                        for k, j in zip(context, (i - 1, i - 2, i + 1), strict=True)]
                       for context, i in zip(keys, candidates, strict=True)]
    else:
        masked_keys = keys
    fill_table_columns(rows, tables, keys, cand_words)

    ids: dict[str, int] = {}
    group = np.array([ids.setdefault(w, len(ids)) for w in cand_words])
    counts = np.bincount(group)
    first = np.full(len(ids), n, dtype=np.int64)
    np.minimum.at(first, group, cand)
    n_elements = max(1, n)
    rows[:, COLUMN["doc_count"]] = np.log1p(counts[group])
    rows[:, COLUMN["doc_first"]] = first[group] / n_elements
    rows[:, COLUMN["position"]] = cand / n_elements
    if batch_df is not None and batch_size >= MIN_BATCH:
        rows[:, COLUMN["batch_share"]] = [batch_df.get(w, 0) / batch_size for w in cand_words]
    else:
        rows[:, COLUMN["batch_share"]] = np.nan
    hit_of = _hits_by_element(elements, recognizer_hits, rec)
    rows[:, COLUMN["recognizer"]] = [hit_of[i][0] if i in hit_of else -1 for i in candidates]
    rows[:, COLUMN["standalone"]] = [hit_of[i][1] if i in hit_of else 0 for i in candidates]
    aggregate(rows, group)
    return DocumentFeatures(elements, candidates, keys, masked_keys, rows)


def _cited_author(raw: list[str], i: int) -> bool:
    """Whether element ``i`` stands as a cited author or a party of a cited case does: before "in"
    and a capitalized word ("Nacke in Littmann / Bitz"), before a comma and a journal's capitals
    and a number ("Graefe, DStR 2017"), or beside a "/" with a capitalized word on its other side
    ("Schmidt / Wacker", "Hauer / Land Rheinland-Pfalz")."""
    n = len(raw)
    nxt = raw[i + 1] if i + 1 < n else ""
    after = raw[i + 2] if i + 2 < n else ""
    if nxt in IN_WORDS and after[:1].isupper():
        return True
    if raw[i].endswith(",") and JOURNAL.match(nxt.strip(WORD_PUNCTUATION)) and after[:1].isdigit():
        return True
    before = raw[i - 2] if i > 1 else ""
    return (nxt == "/" and after[:1].isupper()) or (i > 0 and raw[i - 1] == "/" and before[:1].isupper())


def _determined(raw: list[str], i: int) -> bool:
    """Whether a determiner stands before element ``i`` in its sentence, only adjectives or numbers
    between (:data:`_DETERMINERS`)."""
    for j in range(i - 1, max(-1, i - 1 - DETERMINER_REACH), -1):
        token = raw[j]
        if token.endswith(_SENTENCE_END + (",", ";")) and not _continues_sentence(token):
            return False
        word = token.strip(WORD_PUNCTUATION)
        if word.lower() in _DETERMINERS:
            return True
        if not (word[:1].islower() and word.isalpha() and word.endswith(("e", "en", "er", "es", "em"))
                or word.replace(".", "").isdigit()):
            return False
    return False


def _in_judge_list(text: str, elements: list[Element], words: list[str], cand: np.ndarray) -> np.ndarray:
    """Per candidate: whether it stands in the list of names after a judge's role, up to the end of
    the list ("der Richterinnen Baer und Britz", "die Richter Dr. A, B, Dr. C und D"): the deciding
    panel, named in clear (:func:`rulings_anon.analyzer.exemptions.after_judge_role`; a lower court's
    judge, "Richterin am LSG Dr. W.", is not in it)."""
    from rulings_anon.analyzer.exemptions import JUDGE_ROLES, MAX_LIST, after_judge_role

    near = _before(_flags(words, JUDGE_ROLES), MAX_LIST)[cand]
    out = np.zeros(len(cand), bool)
    for k in np.flatnonzero(near):
        out[k] = after_judge_role(text, elements[cand[k]].start)
    return out


# the seat column's values: the seat of an authority, of a court or a landmark (0: no seat)
SEAT_OF_AUTHORITY = 1.0
SEAT_OF_COURT_OR_LANDMARK = 2.0


def _seats(raw: list[str], words: list[str], cand: np.ndarray, affixes: dict[str, frozenset[str]]) -> np.ndarray:
    """Per candidate: whether it is the seat of a court or an authority named right before it ("des
    Amtsgerichts Soltau", "Staatsanwaltschaft Memmingen", "Landgericht Bad Kreuznach"), which courts
    print in clear (of 1,722 such words in the six LER courts' rulings one is a placeholder, a judge:
    "die Berichterstatterin des FG P"), or the place a landmark is named after ("Fliegerhorst Büchel":
    none of 31); :data:`SEAT_OF_COURT_OR_LANDMARK` after a court or a landmark,
    :data:`SEAT_OF_AUTHORITY` after an authority (whose seat may be a party's town, which a state
    court anonymizes: "Landratsamt K."), 0 for no seat. Not after a university or a college, a
    clinic or a savings bank, whose names courts anonymize ("Universität G", "Neurologische Klinik
    B", "Sparkasse U"). Not after a judge's role ("Richter am Amtsgericht Müller": a lower court's
    judge, whom courts anonymize), nor across a sentence's end ("vor dem Sozialgericht. Müller
    erklärte")."""
    out = np.zeros(len(cand), np.float32)
    for k, i in enumerate(cand.tolist()):
        j = i - 1
        if j > 0 and words[j] in affixes["place_prefixes"]:
            j -= 1
        if j >= 0 and words[j][:1].isupper() and is_seat_word(words[j]) and not raw[j].endswith(_SEAT_BREAKS) \
                and not any(w in affixes["judge_roles"] for w in words[max(0, j - 2):j]):
            out[k] = SEAT_OF_COURT_OR_LANDMARK if is_court_or_landmark(words[j]) else SEAT_OF_AUTHORITY
    return out


def _after_public_office(words: list[str], cand: np.ndarray) -> np.ndarray:
    """Per candidate: whether it names the holder of a public office right before it, titles, a
    first name and particles between allowed ("Vizepräsidenten Ferdinand Kirchhof", "Ministerpräsident
    Dr. Müller", "Verteidigungsministerin Ursula von der Leyen"), or after the office's institution
    ("Präsident des BND Bruno Kahl"): public officials, whom courts name in clear (of the 62 such
    words in the six LER courts' rulings 2 are placeholders, BPatG's "des früheren US-Präsidenten
    John F. Kennedy"; :func:`rulings_anon.analyzer.exemptions.public_office`)."""
    from rulings_anon.analyzer.exemptions import public_office, title_piece

    office = np.fromiter((w[:1].isupper() and public_office(w) for w in words), bool, len(words))
    out = np.zeros(len(cand), bool)
    for k in np.flatnonzero(_before(office, OFFICE_REACH)[cand]):
        i = int(cand[k])
        j = i - 1
        while j >= 0 and (title_piece(words[j]) or words[j] in NAME_PARTICLES):
            j -= 1
        if j >= 1 and words[j][:1].isupper() and not office[j]:
            j -= 1  # a first name
            while j >= 0 and title_piece(words[j]):
                j -= 1
        out[k] = j >= 0 and bool(office[j]) or _after_office_institution(words, office, i)
    return out


def _after_office_institution(words: list[str], office: np.ndarray, i: int) -> bool:
    """Whether an office, "des" or "der" and an institution stand before word ``i`` ("Präsident des
    BND Bruno Kahl", "Präsidenten des Bundesamtes für Verfassungsschutz"): the institution an
    abbreviation or a word with an institution's ending."""
    j = i - 1
    while j >= 1 and i - j <= OFFICE_REACH - 2 and (words[j][:1].isupper() or words[j] in ("für", "und")) \
            and not office[j]:
        j -= 1
    if not (j >= 1 and j + 1 < i and words[j] in ("des", "der") and office[j - 1]):
        return False
    institution = words[j + 1]
    return bool(_ABBREVIATION.match(institution)) or institution.lower().endswith(_OFFICE_INSTITUTION_ENDINGS)


def _in_signature(text: str, elements: list[Element], cand: np.ndarray, capital: np.ndarray) -> np.ndarray:
    """Per candidate: whether it stands in the judges' signatures at the end of a ruling, a run of
    names after a sentence ("... zu tragen. Brühler Suckow Krasshöfer Lipphaus Winzenried", "Dr.
    Milger Dr. Achilles Dr. Fetzer": :func:`rulings_anon.analyzer.exemptions.in_signature_run`);
    only candidates in a run of three or more capitalized words are looked at."""
    from rulings_anon.analyzer.exemptions import in_signature_run

    # the length of the run of capitalized words each element stands in
    edges = np.flatnonzero(np.diff(np.concatenate([[0], capital.astype(np.int8), [0]])))
    run = np.zeros(len(capital), np.int32)
    for start, end in zip(edges[::2], edges[1::2], strict=True):
        run[start:end] = end - start
    out = np.zeros(len(cand), bool)
    for k in np.flatnonzero(run[cand] >= 3):
        element = elements[cand[k]]
        start, end = element.start, element.end
        while end > start and not text[end - 1].isalnum():
            end -= 1
        out[k] = in_signature_run(text, start, end)
    return out


def fill_table_columns(rows: np.ndarray, tables: Tables, keys: Sequence[Sequence[str | None]],
                       words: Sequence[str]) -> None:
    """Fill the context-rate and clear-count columns of ``rows`` from ``tables``, per candidate its
    context ``keys`` (as the text has them) and its ``words``."""
    prior = CONTEXT_PRIOR * tables.prior
    for s, slot in enumerate(CONTEXT_SLOTS):
        table = tables.context.get(slot, {})
        cells = [table.get(k[s], (0, 0)) if k[s] is not None else (0, 0) for k in keys]
        pos = np.array([c[0] for c in cells], np.float32)
        count = np.array([c[1] for c in cells], np.float32)
        rows[:, COLUMN[f"{slot}_rate"]] = (pos + prior) / (count + CONTEXT_PRIOR)
        rows[:, COLUMN[f"{slot}_count"]] = np.log1p(count)
    rows[:, COLUMN["clear_count"]] = np.log1p(np.array([tables.clear.get(w, 0) for w in words], np.float32))


def _hits_by_element(elements: list[Element], hits, rec) -> dict[int, tuple[int, bool]]:
    """Element index -> (recognizer number, standalone) of the recognizer hit overlapping it."""
    if not hits:
        return {}
    names = rec.NAMES
    starts = [e.start for e in elements]
    import bisect

    found = {}
    for hit in hits:
        first = max(0, bisect.bisect_right(starts, hit.start) - 1)
        for i in range(first, len(elements)):
            if elements[i].start >= hit.end:
                break
            if elements[i].end > hit.start:
                found[i] = (names.index(hit.source) if hit.source in names else -1, rec.is_standalone_hit(hit))
    return found


def aggregate(rows: np.ndarray, group: np.ndarray) -> None:
    """Per word of the document (``group``: a number per word): the strongest cue any of its
    occurrences has, or the share of them that have it; the least and mean context rate."""
    size = int(group.max()) + 1 if len(group) else 0
    counts = np.maximum(np.bincount(group, minlength=size), 1)
    for target, source, how in _DOC_AGGREGATES:
        values = rows[:, COLUMN[source]]
        if how is max:
            out = np.full(size, -np.inf, np.float32)
            np.maximum.at(out, group, values)
        else:
            out = np.bincount(group, values, minlength=size) / counts
        rows[:, COLUMN[target]] = out[group]
    rate = rows[:, COLUMN["prev1_rate"]]
    low = np.full(size, np.inf, np.float32)
    np.minimum.at(low, group, rate)
    rows[:, COLUMN["doc_prev1_rate_min"]] = low[group]
    rows[:, COLUMN["doc_prev1_rate_mean"]] = (np.bincount(group, rate, minlength=size) / counts)[group]


def batch_document_frequency(texts: Sequence[str]) -> dict[str, int]:
    """Capitalized word -> in how many of ``texts`` it occurs."""
    df: Counter = Counter()
    for text in texts:
        df.update(document_candidate_words(text))
    return dict(df)


def document_candidate_words(text: str) -> set[str]:
    """The capitalized candidate words of one text, each once (what :func:`batch_document_frequency`
    counts; the Beam pipeline counts them across workers)."""
    return {w for w in (core_word(t) for t in text.split()) if is_candidate(w)}
