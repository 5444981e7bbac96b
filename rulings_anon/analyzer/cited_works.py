"""An author cited before a journal whose name is written out: "Kulosa, Der Betrieb 2014, 972",
"von Lersner, Deutsches Steuerrecht - DStR - 2012, 1673", "Heuermann in Deutsches Steuerrecht
2017, 1749"; and the first author of a document cited by its label, as patent proceedings list
their prior art: "D6 Bourgeat, Klinger; ..." (:func:`without_document_authors`, the
``document_author`` mark); and the scholars of a commentary or a tribute cited without commas, as
BAG and BGH cite them: "Osterloh / Nußberger in Sachs GG 7. Aufl.", "Basedow in: Münch. Komm. z.
BGB, 7. Aufl.", "Wißmann FS Bepler", "Grunsky Freundesgabe für Söllner"
(:func:`without_commentary_names`, the ``commentary_name`` mark). In the six LER courts' rulings 60
words stand so and are no author the public rules know, none a placeholder.

A finance court writes its journals out where other courts abbreviate them ("DB", "DStR"), and
the public names' rules (:func:`rulings_anon.analyzer.public_names.is_work_author`) know only the
abbreviations, so the model flags such an author as it would a party (0.2 to 0.6). In the six LER
courts' rulings 421 words stand so, none a placeholder. As a public rule (a feature the trees read)
the cue gained BFH 0.8 points of precision, and the refit it needed lowered the inner folds'
thresholds and cost BSG 4.7 (docs/experiments.md, "Cited authors before a journal written out");
as a decision rule it needs no refit: the word is weighed down (times :data:`CITED_AUTHOR_WEIGHT`),
so the default leaves it and ``--recall-first`` still reaches it. The measured decision reads the
same test, kept per candidate when the features are computed (the ``journal_author`` mark of
:data:`rulings_anon.analyzer.sensitivity_model.MARKS`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rulings_anon.analyzer.public_names import (
    IN_WORDS,
    before_written_journal,
    cited_document_author,
    commentary_name,
    commentary_reach,
)
from rulings_anon.analyzer.thing_names import weighed
from rulings_anon.document import Element

# whether score's decision applies the rule (the benchmark switches it off to compare)
JOURNAL_AUTHORS = True
DOCUMENT_AUTHORS = True
COMMENTARY_NAMES = True
CITED_AUTHOR_WEIGHT = 0.1


def without_journal_authors(elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`CITED_AUTHOR_WEIGHT` for each author cited before a journal
    written out (:func:`~rulings_anon.analyzer.public_names.before_written_journal`)."""
    probabilities = np.asarray(probabilities)
    if not JOURNAL_AUTHORS:
        return probabilities
    # a name's comma after it, or "in" ("Heuermann in Deutsches Steuerrecht")
    ends = [i for i in np.flatnonzero(probabilities > 0).tolist() if elements[i].text.endswith(",")
            or (i + 1 < len(elements) and elements[i + 1].text in IN_WORDS)]
    return weighed(elements, probabilities, ends, before_written_journal, CITED_AUTHOR_WEIGHT)


def without_document_authors(elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`CITED_AUTHOR_WEIGHT` for each first author of a document cited
    by its label (:func:`~rulings_anon.analyzer.public_names.cited_document_author`: "D6 Bourgeat,
    Klinger; ...")."""
    probabilities = np.asarray(probabilities)
    if not DOCUMENT_AUTHORS:
        return probabilities
    # a label's element opens with a capital and ends with its number or its colon ("D6", "D15:")
    after = [i + 1 for i, e in enumerate(elements[:-1])
             if e.text[:1].isupper() and (e.text[-1:].isdigit() or e.text.endswith(":"))]
    return weighed(elements, probabilities, after, cited_document_author, CITED_AUTHOR_WEIGHT)


def without_commentary_names(text: str, elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`CITED_AUTHOR_WEIGHT` for each scholar of a commentary or a
    tribute cited without commas (:func:`~rulings_anon.analyzer.public_names.commentary_name`:
    "Osterloh / Nußberger in Sachs GG 7. Aufl.", "FS Bepler"), asked only near an edition or a
    tribute (:func:`~rulings_anon.analyzer.public_names.commentary_reach`)."""
    probabilities = np.asarray(probabilities)
    if not COMMENTARY_NAMES:
        return probabilities
    return weighed(elements, probabilities, commentary_reach(text, elements), commentary_name, CITED_AUTHOR_WEIGHT)
