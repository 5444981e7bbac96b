"""E-mail addresses ("user@example.org")."""

from __future__ import annotations

from .base import Pattern, Recognizer


class EmailRecognizer(Recognizer):
    name = "email"
    entity_type = "EMAIL"
    REQUIRES = ("@",)
    PATTERNS = (
        # Local part, "@", dot-separated domain labels and a top-level domain of letters.
        Pattern(
            "address",
            r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b",
            0.95,
        ),
    )
