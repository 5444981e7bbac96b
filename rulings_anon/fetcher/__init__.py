"""Fetcher stage: collect published, already anonymized rulings and split them (thesis 5.1-5.2).

* the portals' file formats (XML, ZIP, HTML pages, split archives) are read by
  :mod:`rulings_anon.formats`, which every stage's input reader shares;
* :mod:`fetcher.client`: a polite HTTP client (robots.txt, rate limit, retries with back-off);
* :mod:`fetcher.bayern`, :mod:`fetcher.rii`: the two portals as sources of rulings;
* :mod:`fetcher.corpus`: the resumable corpus directory (``rulings.jsonl`` + ``metadata.jsonl``);
* :mod:`fetcher.placeholder_count`: keep only rulings anonymized with placeholders (thesis 5.2);
* :mod:`fetcher.split`: the random (or held-out court) train/test split as ``.tar.gz`` files.
"""
