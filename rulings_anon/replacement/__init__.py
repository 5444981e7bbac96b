"""Replacing references: realistic surrogates and the reference type a placeholder stands for.

:mod:`rulings_anon.replacement.surrogates` draws surrogates (faker de_DE) and pseudonymizes
documents; :mod:`rulings_anon.replacement.type_inference` infers a placeholder's type from its form
and context. ``score --pseudonymize``, ``replace``, the TFRecord builder and ``build-testset`` use them.
"""
