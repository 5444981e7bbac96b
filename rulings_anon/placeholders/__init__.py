"""The courts' placeholders: the rule-based detector, the paragraphs it reads, the units the terminal tool asks about.

:mod:`rulings_anon.placeholders.detector` finds placeholders ("Herr K.", "M-GmbH", "...") in
:mod:`rulings_anon.placeholders.paragraphs`; :mod:`rulings_anon.placeholders.review_units` groups a
document's elements into the units ``replace`` reviews and the TFRecord builder pseudonymizes.
"""
