"""Websites: "https://www.example.org/pfad", "www.example.org" and bare domains ("example.de").

Bare domains need a known top-level domain and are scored lower; a trailing period or bracket
is sentence punctuation, not part of the address. Domains of e-mail addresses are left to the
e-mail recognizer. Public sites that rulings cite (court portals, dictionaries), the
``public_domains`` option from ``rulings_anon/data/recognizers.json``, are no personal reference.
"""

from __future__ import annotations

import re

from .base import Pattern, Recognizer

_TLDS = "de|com|org|net|eu|info|biz|at|ch|io|online|shop|berlin|bayern|nrw"


class UrlRecognizer(Recognizer):
    name = "url"
    entity_type = "URL"
    PATTERNS = (
        # Scheme or "www.", then everything up to whitespace, minus trailing punctuation.
        Pattern("scheme_or_www", r"(?<![\w@./-])(?:https?://|www\.)[^\s<>\"“”„]*[^\s<>\"“”„.,;:!?)\]]", 0.9),
        # label(.label)*.tld, not inside an e-mail address or a longer dotted token.
        Pattern(
            "bare_domain",
            rf"(?<![\w@./-])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.(?:{_TLDS})(?![\w@-]|\.\w)(?:/[^\s\"“”„]*[^\s\"“”„.,;:!?)\]])?",
            0.7,
        ),
    )
    CONTEXT = ("Internet", "Website", "Webseite", "Homepage", "Domain", "abrufbar", "Internetseite")

    def __init__(self, public_domains: tuple[str, ...] = ()):
        super().__init__()
        self.public_domains = frozenset(d.lower() for d in public_domains)

    def validate_result(self, reference: str) -> bool | None:
        host = re.sub(r"^(?:https?://)?(?:www\.)?", "", reference.lower()).split("/")[0].split("?")[0]
        labels = host.split(".")
        suffixes = {".".join(labels[i:]) for i in range(len(labels) - 1)}
        return False if suffixes & self.public_domains else None
