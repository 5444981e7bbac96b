"""The courts' placeholders: the rule-based detector, the paragraphs it reads, the units the terminal tool asks about.

:mod:`rulings_anon.placeholders.detector` finds placeholders ("Herr K.", "M-GmbH", "...") in
:mod:`rulings_anon.placeholders.paragraphs`, composing an element's form (``forms``), the context
rules over its window (``context_rules``, ``element_runs``) and the document's state
(``document_state``); :mod:`rulings_anon.placeholders.review_units` groups a document's elements into
the units ``replace`` reviews and the TFRecord builder pseudonymizes.
"""
