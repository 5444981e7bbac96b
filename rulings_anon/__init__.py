"""rulings-anon: learn to anonymize German court decisions from already anonymized ones.

The product in three lines: ``from rulings_anon import Anonymizer``, then
``Anonymizer().anonymize(text)`` gives the anonymized ruling (``.text``) and its sensitive
``.spans``; :mod:`rulings_anon.engine` holds the analyzer and the operators it applies.

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

from .version import __version__

# The public API (rulings_anon.engine), imported on first use: the console script imports this
# package too, and `rulings-anon fetch --help` must not wait for numpy and the model.
_API = ("Analyzer", "Anonymizer", "AnonymizerResult", "ElementModel")

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module 'rulings_anon' has no attribute {name!r}")
