"""The legal NER (thesis 9.2): a BiLSTM tagger trained on pseudonymized LER rulings.

* :func:`load_ner` reads a model directory; ``load_ner(d).predict(text)`` returns spans with the
  LER type, a score and ``source="ner"``, names without salutations or legal forms.
* :func:`train_ner` trains one (``rulings-anon train-ner``).
"""

from rulings_anon.ner.trainer import train_ner

from .tagger import NerTagger, load_ner

__all__ = ["NerTagger", "load_ner", "train_ner"]
