"""A small learned judge over the placeholder rules.

The rules of :mod:`rulings_anon.placeholders.detector` were written court by court, from the errors seen on
the bundled courts; a new court brings letter shapes they never saw ("Kontaktfedern B, C, Z",
"Stromausgabebefehlswert S", "Bogner B / Barbie B"). Here the rules' judgements become *features*
of a logistic regression over the (predecessor, candidate, successor) window, together with what a
court's reader looks at: the candidate's letter shape, the word classes and endings of its
neighbours (an article or a person noun before a name; a designator noun before a label), letter
lists and ranges ("A bis D", "B, C, Z"), and citation contexts (a year, a "/" of a case name, "in"
after an author). The weights are fitted on the LER gold corrected by the hand-checked labels
(``rulings_anon/data/checked``) and stored as data (``rulings_anon/data/placeholder_model.json``): detection needs no
TensorFlow, only a dictionary look-up per feature.

Every candidate element (one whose form the rules call obvious or potential) is scored; an
element that is no candidate is never a placeholder.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from rulings_anon.data import path as data_path
from rulings_anon.lexicon import COMMON_NOUN, COMPOUND, OTHER_PROPER, PERSON_NAME, PLACE_NAME, noun_bits

MODEL_FILE = "placeholder_model.json"

_YEAR = re.compile(r"^\(?(?:19|20)\d\d\)?[,;.:)]*$")
_LETTER = re.compile(r"^[„\"‚(]?[A-ZÄÖÜ][a-zäöü]?\.?[“\"‘)]?[,;:]?$")
_RANGE_WORDS = frozenset({"bis", "und", "oder", "bzw.", "sowie", "-", "–", "/", "u."})
_SHAPE_TABLE = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜabcdefghijklmnopqrstuvwxyzäöüß0123456789",
    "A" * 29 + "a" * 30 + "9" * 10,
)


def shape(word: str) -> str:
    """The letter shape of a word, runs cut at three: "Sch." -> "Aaa.", "M-GmbH" -> "A-AaaA"."""
    out = []
    for ch in word.translate(_SHAPE_TABLE)[:12]:
        if len(out) >= 3 and out[-1] == out[-2] == out[-3] == ch:
            continue
        out.append(ch)
    return "".join(out)


def compound_head(word: str) -> str | None:
    """The common noun a capitalized compound ends in, from the lexicon: "Kontaktfedern" ->
    "federn", "Stromausgabebefehlswert" -> "wert" (None for a word not built so)."""
    from rulings_anon.lexicon import DEFAULT, sorted_lexicon

    table = sorted_lexicon(DEFAULT)
    for split in range(len(word) - 4, 2, -1):
        head = word[split].upper() + word[split + 1:]
        if table.get(head, 0) & COMMON_NOUN:
            return head.lower()
    return word.lower() if table.get(word, 0) & COMMON_NOUN else None


def _lex_class(word: str) -> str:
    """Coarse dictionary class of a capitalized word (the shipped Wiktionary noun lexicon)."""
    bits = noun_bits(word)
    if bits & PERSON_NAME:
        return "name"
    if bits & PLACE_NAME:
        return "place"
    if bits & COMMON_NOUN:
        return "noun"
    if bits & COMPOUND:
        return "compound"
    if bits & OTHER_PROPER:
        return "proper"
    return "unknown"


class WindowFeatures:
    """Feature strings of a candidate element and its neighbours, read with a detector's forms."""

    def __init__(self, detector):
        self.forms = detector.forms
        self.p = self.forms.p
        self._word_cache: dict[str, tuple[str, ...]] = {}

    def word(self, raw: str | None) -> tuple[str, ...]:
        """Classes of a neighbour element (cached per string)."""
        if raw is None:
            return ("none",)
        cached = self._word_cache.get(raw)
        if cached is not None:
            return cached
        p, forms = self.p, self.forms
        core = forms.core(raw)
        lower = core.lower()
        out = []
        if not core:
            out.append("punct:" + raw[:2])
        elif lower in p.function_words:
            out.append("fw")
        if lower in p.person_triggers:
            out.append("trigger")
        if lower in p.reference_words:
            out.append("refword")
        if forms.designator(lower):
            out.append("designator")
        if forms.public_body(core):
            out.append("publicbody")
        if core in p.legal_forms or core.rstrip(".") in p.legal_forms:
            out.append("legal")
        if core in p.street_words:
            out.append("street")
        if core in p.amount_units:
            out.append("unit")
        if core in p.month_names:
            out.append("month")
        if core in p.section_followers or raw in p.section_followers:
            out.append("section")
        if core in p.court_codes:
            out.append("courtcode")
        if _YEAR.match(raw):
            out.append("year")
        elif p.shape["number"].match(core):
            out.append("number")
        if core in p.roman_numerals or core.rstrip(".") in p.roman_numerals:
            out.append("roman")
        if raw.endswith((".", ":", ";", "!", "?")) and len(core) > 3:
            out.append("sentend")
        if raw.endswith(","):
            out.append("comma")
        if raw.startswith("("):
            out.append("openbr")
        if raw.endswith(")") or raw.endswith("),") or raw.endswith(")."):
            out.append("closebr")
        if raw[:1] in "„\"‚»":
            out.append("openq")
        if raw.rstrip(".,;:")[-1:] in "“\"‘«":
            out.append("closeq")
        if core in ("/",):
            out.append("slash")
        if core in ("-", "–"):
            out.append("dash")
        if core in ("&", "+"):
            out.append("amp")
        if lower in ("in", "in:"):
            out.append("in")
        if core.isalpha() and core[:1].isupper() and len(core) > 2:
            out.append("cap:" + _lex_class(core))
            out.append("suf:" + lower[-4:])
            head = compound_head(core)
            if head is not None:
                out.append("head:" + head)
        elif core.isalpha() and core.islower() and len(core) > 2:
            out.append("low")
            out.append("suf:" + lower[-4:])
        if _LETTER.match(raw):
            out.append("letter")
        if "..." in raw or "…" in raw:
            out.append("ellipsis")
        if 1 < len(core) <= 30:
            out.append("w:" + lower)
        result = tuple(out) if out else ("other",)
        if len(self._word_cache) < 100_000:
            self._word_cache[raw] = result
        return result

    def features(self, texts: list[str], i: int, form: tuple[str, str | None], in_abbreviation: bool,
                 verdict: str | None, rejections: tuple[str, ...], letters: frozenset[str] = frozenset(),
                 ) -> list[str]:
        """The feature strings of candidate ``i`` of a paragraph's element texts."""
        kind, pattern = form
        raw = texts[i]
        core = self.forms.core(raw)
        pat = pattern or kind
        feats = ["bias", "pat:" + pat, "shape:" + shape(core), "rule:" + (verdict or "reject")]
        feats += ["rej:" + r for r in rejections]
        feats += [f"pat:{pat}|rule:{verdict or 'reject'}"]
        if in_abbreviation:
            feats.append("abbr")
        if raw != core:
            lead = raw[: len(raw) - len(raw.lstrip(self.p.strip_leading))]
            trail = raw[len(raw.rstrip(self.p.strip_trailing + ".")):] if not raw.endswith("...") else ""
            if lead:
                feats.append("lead:" + lead[:1])
            if trail:
                feats.append("trail:" + trail[:2])
        if core.endswith(".") and not core.endswith("..."):
            feats.append("period")
        feats.append("cand:" + core if len(core) <= 3 else "cand:long")
        n = len(texts)
        pred = texts[i - 1] if i > 0 else None
        succ = texts[i + 1] if i + 1 < n else None
        pred2 = texts[i - 2] if i > 1 else None
        succ2 = texts[i + 2] if i + 2 < n else None
        for name, word in (("p", pred), ("s", succ)):
            for c in self.word(word):
                feats.append(f"{name}:{c}")
                if not c.startswith(("w:", "suf:")):
                    feats.append(f"{name}:{c}|{pat}")
        for name, word in (("p2", pred2), ("s2", succ2)):
            for c in self.word(word):
                if not c.startswith("suf:"):
                    feats.append(f"{name}:{c}")
        # pairs of neighbour classes: "der [B] ist", "Kontaktfeder [B] und"
        pc = self.word(pred)[0]
        sc = self.word(succ)[0]
        feats.append(f"ps:{pc}|{sc}")
        # letter lists and ranges: "A bis D", "B, C, Z", "G und K"
        letter_before = pred2 is not None and bool(_LETTER.match(pred2)) and (
            self.forms.core(pred) in _RANGE_WORDS) or (pred is not None and pred.endswith(",") and bool(_LETTER.match(pred)))
        letter_after = succ2 is not None and bool(_LETTER.match(succ2)) and (
            self.forms.core(succ) in _RANGE_WORDS) or (raw.endswith(",") and succ is not None and bool(_LETTER.match(succ)))
        if letter_before:
            feats.append("list:before")
        if letter_after:
            feats.append("list:after")
        # citation context: a year or a case-name slash nearby, "in" after an author, "et al."
        lo, hi = max(0, i - 4), min(n, i + 5)
        window = texts[lo:hi]
        if any(_YEAR.match(w) for w in window):
            feats.append("near:year")
        if any(w in ("/", "./.") for w in window):
            feats.append("near:slash")
        if any(w.startswith(("GRUR", "NJW", "BStBl", "BFH/NV", "EU:", "ECLI")) for w in window):
            feats.append("near:journal")
        if "et" in window and "al." in " ".join(window):
            feats.append("near:etal")
        if any(w in ("=", "x", "×", "<", ">", "+", "≤", "≥") for w in texts[max(0, i - 2):i + 3]):
            feats.append("near:math")
        # labels come in alphabetical series ("A und B", "Kontaktfedern B, C"); initials of names do not
        letter = core.rstrip(".")
        if len(letter) == 1 and letter.isupper() and (
                chr(ord(letter) - 1) in letters or chr(ord(letter) + 1) in letters):
            feats.append("alpha:series")
        return feats


@dataclass
class PlaceholderModel:
    """Logistic regression over feature strings: ``P(placeholder) = sigmoid(sum of weights)``."""

    weights: dict[str, float]
    threshold: float = 0.5
    meta: dict = field(default_factory=dict)

    def probability(self, features: list[str]) -> float:
        w = self.weights
        z = sum(w.get(f, 0.0) for f in features)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def is_placeholder(self, features: list[str]) -> bool:
        # sigmoid(z) >= t  <=>  z >= logit(t)
        w = self.weights
        return sum(w.get(f, 0.0) for f in features) >= self._logit

    @property
    def _logit(self) -> float:
        t = self.threshold
        return math.log(t / (1 - t))

    def to_json(self) -> dict:
        return {"_about": "Weights of the placeholder classifier (rulings_anon/placeholders/judge.py): "
                          "logistic regression over feature strings of the (predecessor, candidate, "
                          "successor) window; a candidate is a placeholder when the sum of its features' "
                          "weights reaches logit(threshold).",
                "threshold": self.threshold, "meta": self.meta,
                "weights": {k: round(v, 5) for k, v in sorted(self.weights.items())}}

    def save(self, path) -> None:
        """Written atomically: an interrupted save leaves the old weights or none."""
        from rulings_anon.jsonl import atomic_writer

        with atomic_writer(path) as handle:
            json.dump(self.to_json(), handle, ensure_ascii=False, indent=0, sort_keys=False)
            handle.write("\n")

    @classmethod
    def load(cls, path=None) -> PlaceholderModel:
        with open(path or data_path(MODEL_FILE), encoding="utf-8") as handle:
            raw = json.load(handle)
        return cls({k: float(v) for k, v in raw["weights"].items()}, float(raw["threshold"]), raw.get("meta", {}))


@lru_cache(maxsize=2)
def load_model(path=None) -> PlaceholderModel | None:
    """The shipped model, or None when ``rulings_anon/data/placeholder_model.json`` is absent (rules alone)."""
    file = path or data_path(MODEL_FILE)
    try:
        return PlaceholderModel.load(file)
    except FileNotFoundError:
        return None


# -- training ------------------------------------------------------------------------------------

def fit_logistic(rows: list[list[str]], labels: list[bool], l2: float = 1.0, iterations: int = 300,
                 min_count: int = 2, positive_weight: float = 1.0, weights: list[float] | None = None,
                 progress=None) -> dict[str, float]:
    """Weights of an L2-regularized logistic regression fitted by full-batch Adam.

    ``rows`` are feature strings per example; features seen fewer than ``min_count`` times are
    dropped (a word seen once says nothing about a new court). Deterministic: no sampling.
    ``progress`` (if given) is called after each iteration.
    """
    counts: dict[str, int] = {}
    for row in rows:
        for f in set(row):
            counts[f] = counts.get(f, 0) + 1
    vocab = sorted(f for f, c in counts.items() if c >= min_count or f == "bias")
    index = {f: k for k, f in enumerate(vocab)}
    cols, ptr = [], [0]
    for row in rows:
        ids = sorted({index[f] for f in row if f in index})
        cols.extend(ids)
        ptr.append(len(cols))
    cols_a = np.asarray(cols, dtype=np.int64)
    ptr_a = np.asarray(ptr, dtype=np.int64)
    lengths = np.diff(ptr_a)
    row_of = np.repeat(np.arange(len(rows)), lengths)
    y = np.asarray(labels, dtype=np.float64)
    sample_w = np.where(y > 0, positive_weight, 1.0)
    if weights is not None:
        sample_w = sample_w * np.asarray(weights, dtype=np.float64)
    n = len(rows)
    w = np.zeros(len(vocab))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
    reg = np.full(len(vocab), l2 / n)
    reg[index["bias"]] = 0.0
    for t in range(1, iterations + 1):
        z = np.bincount(row_of, weights=w[cols_a], minlength=n)
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        residual = (p - y) * sample_w / n
        grad = np.bincount(cols_a, weights=residual[row_of], minlength=len(vocab)) + reg * w
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps)
        if progress is not None:
            progress(t)
    return {f: float(x) for f, x in zip(vocab, w) if abs(x) >= 1e-4 or f == "bias"}


def positive_intervals(elements, labels) -> list[tuple[int, int]]:
    return [(e.start, e.end) for e, g in zip(elements, labels) if g]


def overlaps(intervals: list[tuple[int, int]], starts: list[int], a: int, b: int) -> bool:
    """Whether ``[a, b)`` overlaps one of the sorted, disjoint ``intervals``."""
    k = bisect.bisect_right(starts, a) - 1
    for j in (k, k + 1):
        if 0 <= j < len(intervals) and intervals[j][0] < b and a < intervals[j][1]:
            return True
    return False


# -- the rules' judgements and the candidates of a paragraph ------------------------------------

def paragraph_candidates(detector, featurizer: WindowFeatures, texts: list[str], state=None):
    """``(index, form, features)`` of every candidate element of one paragraph (``state``: its
    document's, :meth:`~rulings_anon.placeholders.detector.PlaceholderDetector.document_state`;
    None: the detector's current document or the paragraph alone)."""
    judgements = detector.judgements(texts, state)
    core = featurizer.forms.core
    letters = frozenset(c for c in (core(texts[j.index]).rstrip(".") for j in judgements) if len(c) == 1)
    return [(j.index, j.form, featurizer.features(texts, j.index, j.form, j.in_abbreviation, j.verdict,
                                                  j.rejections, letters))
            for j in judgements]
