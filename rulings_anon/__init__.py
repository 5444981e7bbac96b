"""rulings-anon: learn to anonymize German court decisions from already anonymized ones.

This package holds what every pipeline stage shares: the document data model
(:mod:`rulings_anon.document`), JSONL and atomic file I/O (:mod:`rulings_anon.jsonl`), file names for document ids
(:mod:`rulings_anon.filenames`), reading
input documents in any supported format (:mod:`rulings_anon.inputs`, the portals' formats in
:mod:`rulings_anon.formats`), the name-affix rules of references (:mod:`rulings_anon.references`),
shared defaults (:mod:`rulings_anon.defaults`), errors and the ``rulings-anon`` console script
(:mod:`rulings_anon.cli`); the placeholder detector (:mod:`rulings_anon.placeholders`), the
replacement of references (:mod:`rulings_anon.replacement`), the analyzer that ``score`` runs
(:mod:`rulings_anon.analyzer`) and the legal NER (:mod:`rulings_anon.ner`). The stages themselves
live in the top-level packages ``fetcher``, ``preprocessing``, ``models``, ``evaluation`` and
``interactive``; ``pipeline`` runs them end to end.
"""

__version__ = "0.1.0"
