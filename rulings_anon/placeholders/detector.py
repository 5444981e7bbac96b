"""Rule-based placeholder detection (thesis 5.3.2, appendix A.1): the weak labels.

Courts replace every sensitive reference by a placeholder ("Herr K.", "die M-GmbH",
"in ... wohnhaft", "Xxxxx"). The detector finds them with a sliding window over whitespace text
elements: each element is classified from itself (the *candidate*) and its *predecessor* and
*successor*.

* **Obvious** placeholders are marked as such by their form ("K." in quotes, "Xxxxx",
  "...-Straße"): placeholders wherever they stand.
* **Potential** placeholders ("K.", "N", "...", "M-GmbH") are placeholders unless the context
  says otherwise: an abbreviation ("a. a. O.", "i. V. m."), a page, margin number or appendix
  reference ("S. 24", "Rn. 12", "Anlage A 34"), a case number ("5 C 40.84", "IX ZB 72/08"),
  a statute reference ("§ 35 a", "SGB V", "LandesVO L. K."), an omission inside a quotation,
  the first initial of a name in clear (a judge's signature, a cited author), and what the
  issue's gold does not count: a court's or authority's seat ("Amtsgericht P."), an amount or a
  date left out ("von X €", "vom ... Januar 1984").

Citations name no one anonymized: case names with "/" ("Hutchinson / U. K."), cited authors'
initials ("W. - R. Schenke, in:"); and letters a document hands out in alphabetical order after
one noun are labels ("Kanal A ... Kanal B").

This module composes the parts, each in its own module: what an element looks like on its own
(:mod:`~rulings_anon.placeholders.forms`, with the patterns and word lists of
``rulings_anon/data/placeholder_patterns.json``), the rules that reject a potential placeholder from its window
(:mod:`~rulings_anon.placeholders.context_rules`, over the runs of
:mod:`~rulings_anon.placeholders.element_runs`), and what the rules know of the whole document
(:mod:`~rulings_anon.placeholders.document_state`), made once per document and passed along.

Two views of the result: :meth:`PlaceholderDetector.label_elements` says, per element, whether
it is a placeholder (the labels models train on); :meth:`PlaceholderDetector.detect` returns
spans where a placeholder of several elements ("Herr K. B." -> "K. B.", "R. straße 4",
"M-GmbH & Co. KG") is one span, with offsets into the input text.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rulings_anon.document import Element, Span, keeps_period, split_elements

from .context_rules import ContextRules
from .document_state import DocumentState
from .element_runs import abbreviation_indices
from .forms import Forms, Patterns, load_patterns
from .local_conventions import numbered_placeholders
from .paragraphs import extract_paragraphs

__all__ = ["SOURCE", "Judgement", "Patterns", "PlaceholderDetector", "load_patterns"]

SOURCE = "placeholder-rules"


@dataclass(frozen=True)
class Judgement:
    """The rules' judgement of one candidate element: what the learned judge reads."""

    index: int
    form: tuple[str, str | None]  # (kind, potential pattern) of :meth:`Forms.form`
    in_abbreviation: bool  # inside a listed abbreviation ("a. a. O."): no placeholder
    verdict: str | None  # the rules' kind, None when they reject the candidate
    rejections: tuple[str, ...]  # the context groups that reject a potential placeholder


class PlaceholderDetector:
    """Finds anonymization placeholders in paragraphs or whole documents."""

    def __init__(self, patterns: Patterns | None = None, judge=None):
        """``judge``: a :class:`rulings_anon.placeholders.judge.PlaceholderModel` that decides every
        candidate from the rules' judgements and its window (None: the rules decide alone)."""
        self.forms = Forms(patterns or load_patterns())
        self.p = self.forms.p
        self.rules = ContextRules(self.forms)
        self.judge = judge
        self._featurizer = None
        # the state of the document inside :meth:`document`, for callers that label its paragraphs
        # one by one; None: each paragraph is judged alone
        self._document: DocumentState | None = None

    # -- element level ------------------------------------------------------------------

    def core(self, element: str) -> str:
        """The element without surrounding brackets, quotes and trailing punctuation."""
        return self.forms.core(element)

    def form(self, raw: str) -> tuple[str, str | None] | None:
        """What the element looks like on its own: ``(kind, pattern)`` or None for plain text."""
        return self.forms.form(raw)

    def document_state(self, paragraphs) -> DocumentState:
        """The state of a document whose paragraphs (of :func:`extract_paragraphs`) are labelled next."""
        return DocumentState.of_paragraphs(self.forms, paragraphs)

    def paragraph_state(self, texts: list[str]) -> DocumentState:
        """The state to judge one paragraph's element texts with: its document's inside
        :meth:`document`, else the paragraph's alone."""
        return self._document or DocumentState.of_texts(self.forms, texts)

    def candidates(self, texts: list[str]) -> list[int]:
        """Indices of the element texts whose form may be a placeholder (the rest never is)."""
        form = self.forms.form
        return [i for i, t in enumerate(texts) if form(t) is not None]

    def classify(self, texts: list[str], i: int, state: DocumentState | None = None) -> str | None:
        """``"obvious"``, ``"potential"`` or None for element ``i`` of the element texts."""
        return self.rules.classify(texts, i, state or self.paragraph_state(texts))

    def rejection_groups(self, texts: list[str], i: int, pattern: str,
                         state: DocumentState | None = None) -> tuple[str, ...]:
        """Which context groups turn potential placeholder ``i`` into ordinary text, by name."""
        return self.rules.rejection_groups(texts, i, pattern, state or self.paragraph_state(texts))

    def judgements(self, texts: list[str], state: DocumentState | None = None) -> list[Judgement]:
        """The rules' judgement of every candidate of one paragraph's element texts."""
        candidates = self.candidates(texts)
        if not candidates:
            return []
        state = state or self.paragraph_state(texts)
        abbreviations = abbreviation_indices(self.forms, texts, candidates)
        out = []
        for i in candidates:
            form = self.forms.form(texts[i])
            # an element inside a listed abbreviation is none ("a. a. O.")
            verdict = None if i in abbreviations else self.rules.classify(texts, i, state)
            rejected = (self.rules.rejection_groups(texts, i, form[1], state)
                        if verdict is None and form[0] == "potential" else ())
            out.append(Judgement(i, form, i in abbreviations, verdict, rejected))
        return out

    def label_texts(self, texts: list[str], state: DocumentState | None = None) -> list[str | None]:
        """Placeholder kind (or None) for each element text of one paragraph."""
        kinds: list[str | None] = [None] * len(texts)
        candidates = self.candidates(texts)
        if not candidates:
            return numbered_placeholders(self.forms, texts, kinds)
        state = state or self.paragraph_state(texts)
        if self.judge is not None:
            return self._continued(texts, self._judged(texts, kinds, state))
        abbreviations = abbreviation_indices(self.forms, texts, candidates)
        classify = self.rules.classify
        for i in candidates:
            if i in abbreviations:
                continue
            kinds[i] = classify(texts, i, state)
        return self._continued(texts, kinds)

    def _continued(self, texts: list[str], kinds: list[str | None]) -> list[str | None]:
        """``kinds`` with a genitive "s" written apart after a placeholder labelled like it ("R. s
        Büro"), and with the numbered placeholders ("in Ort 2", "X-Straße 03")."""
        for i in range(1, len(texts)):
            if kinds[i] is None and kinds[i - 1] is not None and texts[i] in self.p.genitive_marks:
                kinds[i] = kinds[i - 1]
        return numbered_placeholders(self.forms, texts, kinds)

    def _judged(self, texts: list[str], kinds: list[str | None], state: DocumentState) -> list[str | None]:
        """``kinds`` filled in by the learned judge (imported on first use)."""
        from .judge import WindowFeatures, paragraph_candidates

        if self._featurizer is None:
            self._featurizer = WindowFeatures(self)
        for i, form, features in paragraph_candidates(self, self._featurizer, texts, state):
            if self.judge.is_placeholder(features):
                kinds[i] = form[0]
        return kinds

    def label_elements(self, text: str,
                       state: DocumentState | None = None) -> tuple[list[Element], list[bool]]:
        """Elements of ``text`` (one paragraph) and whether each is a placeholder."""
        elements = split_elements(text)
        kinds = self.label_texts([e.text for e in elements], state)
        return elements, [k is not None for k in kinds]

    # -- span level -----------------------------------------------------------------------

    def _tail_length(self, texts: list[str], j: int) -> int:
        """How many elements after a placeholder belong to the same reference."""
        n = 0
        street = False
        if j < len(texts) and self.forms.is_suffix(texts[j]):
            n = 1  # "E. -kreis"
        while j + n < len(texts):
            core = self.forms.core(texts[j + n])
            if core in self.p.legal_forms or core.rstrip(".") in self.p.legal_forms:
                n += 1
                continue
            if core in self.p.street_words:
                street = True
                n += 1
                continue
            if street and self.p.shape["house_number"].match(texts[j + n]):
                n += 1
            break
        # a trailing "&" or "+" without a following company word is not part of the name
        while n and self.forms.core(texts[j + n - 1]) in ("&", "+"):
            n -= 1
        return n

    def _lead(self, first: str) -> int:
        """Characters before the reference in its first element: brackets and quotes."""
        return len(first) - len(first.lstrip(self.p.strip_leading))

    def _trail(self, last: str) -> int:
        """Characters after the reference in its last element: punctuation, a sentence period.

        The period of an initial or abbreviation ("K.", "Co.", "str.") belongs to the reference;
        a period after a full word or number ("KG.", "4.") ends the sentence.
        """
        core = self.forms.core(last)
        cut = len(last) - last.find(core) - len(core) if core else 0
        if (core.endswith(".") and not core.endswith("...") and not keeps_period(core)
                and not self.p.potential["surname_abbreviation"].match(core)):  # "Sch." keeps its period
            cut += 1
        return min(cut, len(last) - 1)

    def paragraph_spans(self, text: str, state: DocumentState | None = None) -> list[tuple[int, int, str]]:
        """``(start, end, kind)`` of each placeholder reference in one paragraph (``state``: its
        document's, see :meth:`document_state`)."""
        texts = text.split()
        kinds = self.label_texts(texts, state)
        if not any(kinds):
            return []
        elements = split_elements(text)
        spans = []
        i = 0
        while i < len(elements):
            if kinds[i] is None:
                i += 1
                continue
            j = i
            kind = kinds[i]
            while j + 1 < len(elements) and kinds[j + 1] is not None and not texts[j].endswith((",", ";")):
                j += 1
                if kinds[j] == "obvious":
                    kind = "obvious"
            tail = self._tail_length(texts, j + 1)
            last = j + tail
            start, end = elements[i].start, elements[last].end
            spans.append((start + self._lead(texts[i]), end - self._trail(texts[last]), kind))
            i = last + 1
        return spans

    @contextmanager
    def document(self, paragraphs) -> Iterator[DocumentState]:
        """Within it, paragraphs labelled without a state of their own are judged with the state of
        the whole document (the paragraphs of :func:`extract_paragraphs`), which it yields."""
        previous, self._document = self._document, self.document_state(paragraphs)
        try:
            yield self._document
        finally:
            self._document = previous

    def detect(self, text: str) -> list[Span]:
        """Placeholder spans of a whole document, offsets into ``text``."""
        spans = []
        paragraphs = extract_paragraphs(text)
        state = self.document_state(paragraphs)
        found = [(paragraph, self.paragraph_spans(paragraph.text, state)) for paragraph in paragraphs]
        for paragraph, paragraph_spans in found:
            for start, end, kind in paragraph_spans:
                a, b = paragraph.to_document_span(start, end)
                spans.append(Span(a, b, text[a:b], kind=kind, source=SOURCE))
        return spans

    def document_element_labels(self, text: str) -> tuple[list[Element], list[bool]]:
        """Every element of the *document* text and whether the detector calls it a placeholder.

        Elements are split from the original text (not the paragraphs), so they line up with
        gold labels and decisions files that were made on the same text.
        """
        elements = split_elements(text)
        flagged: list[tuple[int, int]] = []
        paragraphs = extract_paragraphs(text)
        state = self.document_state(paragraphs)
        for paragraph in paragraphs:
            p_elements, labels = self.label_elements(paragraph.text, state)
            for element, label in zip(p_elements, labels):
                if label:
                    flagged.append(paragraph.to_document_span(element.start, element.end))
        labels = [False] * len(elements)
        j = 0
        flagged.sort()
        for i, element in enumerate(elements):
            while j < len(flagged) and flagged[j][1] <= element.start:
                j += 1
            if j < len(flagged) and flagged[j][0] < element.end:
                labels[i] = True
        return elements, labels
