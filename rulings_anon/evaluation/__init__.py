"""Evaluation stage: the thesis's evaluation methods (random, NER-chosen, no candidates), their
metrics, reports and threshold curves, gold test sets, and scoring new rulings for the spans that
must be anonymized. The analyzer that ``score`` and ``evaluate`` run (recognizers, the legal NER,
candidates, decisions) lives in :mod:`rulings_anon.analyzer` and :mod:`rulings_anon.ner`."""
