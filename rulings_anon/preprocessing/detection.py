"""``detect-placeholders`` per document: what the in-process command and its Beam pipeline
(:mod:`preprocessing.beam_pipelines`) both call."""

from __future__ import annotations

from rulings_anon.document import Document, spans_record


def load_detector(args):
    """The detector that ``--patterns``, ``--judge`` and ``--judge-model`` ask for."""
    from rulings_anon.errors import InputError
    from rulings_anon.placeholders.detector import Patterns, PlaceholderDetector

    judge = None
    if args.judge == "learned" or args.judge_model:
        from rulings_anon.placeholders.judge import PlaceholderModel

        try:
            judge = PlaceholderModel.load(args.judge_model)
        except (OSError, ValueError, KeyError) as exc:
            raise InputError(f"cannot read the judge's weights ({exc})", args.judge_model or "data") from None
    return PlaceholderDetector(Patterns.load(args.patterns) if getattr(args, "patterns", None) else None, judge)


def detect_record(detector, document: Document) -> dict:
    """The spans-file record of one document: ``{"id", "spans"}`` of its placeholders."""
    return spans_record(document.id, detector.detect(document.text))
