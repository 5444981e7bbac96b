"""rulings-anon: learn to anonymize German court decisions from already anonymized ones.

This package holds what every pipeline stage shares: the document data model
(:mod:`rulings_anon.document`), JSONL and atomic file I/O (:mod:`rulings_anon.jsonl`),
reading input documents in any supported format (:mod:`rulings_anon.inputs`), errors and
the ``rulings-anon`` console script (:mod:`rulings_anon.cli`). The stages themselves live in
the top-level packages ``fetcher``, ``preprocessing``, ``models``, ``evaluation`` and
``interactive``.
"""

__version__ = "0.1.0"
