"""The terminal tool: court staff replace the placeholders of anonymized rulings (thesis 5.5.1-5.5.2).

* :mod:`rulings_anon.replacement.surrogates`: realistic replacement values (faker de_DE) and whole-document
  pseudonymization from typed spans; other stages import it to build pseudonymized test sets.
* :mod:`interactive.commands`: the ``replace`` subcommand.
"""
