"""The terminal tool: court staff replace the placeholders of anonymized rulings (thesis 5.5.1-5.5.2).

* :mod:`interactive.session`, :mod:`interactive.dialogue`: one document's questions and answers;
  the units asked about come from :mod:`rulings_anon.placeholders.review_units`, the values from
  :mod:`rulings_anon.replacement` (surrogates, type inference, the replacement operators);
* :mod:`interactive.commands`: the ``replace`` subcommand.
"""
