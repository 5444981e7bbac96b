"""Evaluation stage: the thesis's evaluation methods (random, NER-chosen, no candidates),
scoring new rulings for the spans that must be anonymized, candidate NER and rule-based
recognizers."""
