"""The analyzer that ``score`` and ``evaluate`` run: which spans of a text are sensitive.

The recognizers (:mod:`rulings_anon.analyzer.recognizers`) and the legal NER (:mod:`rulings_anon.ner`)
propose candidates (:mod:`rulings_anon.analyzer.candidates`), grown to whole references
(:mod:`rulings_anon.analyzer.merging`); :mod:`rulings_anon.analyzer.evidence` gathers what the
proposers and the contextual model say about a document, and :mod:`rulings_anon.analyzer.decisions`
turns that into spans at a threshold, leaving alone what :mod:`rulings_anon.analyzer.exemptions`
and :mod:`rulings_anon.analyzer.common_words` exempt.
"""
