"""The court's policy a review follows (``review --policy FILE``, default the shipped one).

The policy is read by ``score``'s reader (:func:`rulings_anon.replacement.policy.load_policy`)
and decides what ``score --policy`` decides: the details counted alone and the exemptions of the
suggestions, the names its allow and deny lists take out and add, and, with the export's
``policy`` output, the operator of each type. The review file keeps the policy's bytes with its
file name and digest (meta ``policy``): a resumed review and its export follow the policy the
suggestions were made with, even where the file has moved or changed since; a resumed review
given a policy of other contents is refused. A review file written without this record follows
the shipped policy.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rulings_anon.errors import InputError

# The export's outputs: each type as the court's policy says, or one operator for every span
# (rulings_anon.engine.OPERATOR_NAMES; named here so that the command line loads no engine).
POLICY_OPERATOR = "policy"
REVIEW_OPERATORS = (POLICY_OPERATOR, "placeholder", "pseudonym", "tag")


@dataclass(frozen=True)
class ReviewPolicy:
    """A policy file's bytes and where they were read from (``shipped`` for the shipped policy)."""

    raw: bytes
    file: str
    shipped: bool

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()

    @property
    def policy(self):
        """The :class:`~rulings_anon.replacement.policy.Policy` of these bytes."""
        return _parsed(self.raw, self.file)

    def record(self) -> str:
        """What the review file's meta ``policy`` keeps."""
        try:
            content = {"text": self.raw.decode("utf-8")}
        except UnicodeDecodeError:  # a JSON policy in UTF-16, say
            content = {"base64": base64.b64encode(self.raw).decode("ascii")}
        return json.dumps({"file": self.file, "shipped": self.shipped, "digest": self.digest, **content},
                          ensure_ascii=False)


@lru_cache(maxsize=8)
def _parsed(raw: bytes, file: str):
    from rulings_anon.replacement.policy import read_policy

    return read_policy(raw, file)


def given_policy(path: Path | None) -> ReviewPolicy:
    """The policy of ``--policy`` (None: the shipped one); a missing or malformed file is one line naming it."""
    from rulings_anon.replacement.policy import policy_bytes, read_policy

    raw, file = policy_bytes(path)  # score's reader: its one-line errors
    read_policy(raw, file)  # a malformed policy is refused before any work
    return ReviewPolicy(raw, str(file if path is None else file.resolve()), path is None)


def stored_policy(database) -> ReviewPolicy:
    """The policy a review file was started with (the shipped one for a file without the record)."""
    found = database.meta("policy")
    if found is None:
        return given_policy(None)
    try:
        record = json.loads(found)
        raw = record["text"].encode("utf-8") if "text" in record else base64.b64decode(record["base64"])
        return ReviewPolicy(raw, record["file"], bool(record.get("shipped")))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError("the review file's policy record is damaged", database.path) from None


def check_policy(database, given: ReviewPolicy | None, path: Path | None = None) -> ReviewPolicy:
    """The policy a resumed review follows: the one it was started with. A ``given`` policy (read
    from ``path``) of other contents is refused: the suggestions were made with the stored one."""
    stored = stored_policy(database)
    if given is not None and given.digest != stored.digest:
        started = "the shipped policy" if stored.shipped else f"the policy {stored.file}"
        raise InputError(f"this review was started with {started}, of other contents; leave out --policy to "
                         "resume it with that one, or give another --db", path or given.file)
    return stored
