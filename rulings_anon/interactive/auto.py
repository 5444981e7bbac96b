"""``replace --auto``: pseudonymize without questions (a whole corpus in one command).

Every placeholder the detector finds is accepted, its type inferred from the context
(:func:`rulings_anon.replacement.type_inference.infer_type`), its replacement drawn from the seeded table; every other
non-plain element is recorded as "not a placeholder". Document corrections are only reported
(written to ``corrections.jsonl`` with ``"accepted": false``), never applied.
"""

from __future__ import annotations

from .session import DocumentSession


def pseudonymize_document(session: DocumentSession, vocabulary) -> dict:
    """Decide every pending unit of ``session`` as the detector suggests; returns the gold record.

    ``vocabulary()`` gives the word counts that corrections are checked against.
    """
    for unit in session.pending():
        if unit.detected:
            session.decide(unit, True, session.suggestion(unit).type)
        else:
            session.decide(unit, False)
    for correction in session.pending_corrections(vocabulary()):
        session.decide_correction(correction, False)
    return session.finish()
