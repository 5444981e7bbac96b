"""The public API as a user calls it: ``from rulings_anon import Anonymizer`` gives ``score``'s spans.

The spans of :class:`rulings_anon.Analyzer` are compared with what the real ``score`` command
writes for the same rulings and options, so the API and the command cannot drift apart.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulings_anon.cli import main
from rulings_anon.jsonl import read_jsonl, write_jsonl

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RULING = ("Der Kläger Thomas Wimmer wohnt in Aichach, Hauptstraße 4. Er verlangt von der Beklagten "
          "Zahlung. Herr Wimmer ist bei der Beklagten beschäftigt. Seine IBAN lautet DE89 3704 0044 0532 0130 00.")


@pytest.fixture(scope="module")
def anonymizer():
    from rulings_anon import Anonymizer

    return Anonymizer()


def _span_tuples(spans) -> list[tuple]:
    return [(s["start"], s["end"], s["text"], s.get("type"), s.get("source")) if isinstance(s, dict)
            else (s.start, s.end, s.text, s.type, s.source) for s in spans]


def _scored(tmp_path, records, *options) -> list[list[tuple]]:
    source = tmp_path / "in.jsonl"
    write_jsonl(source, records)
    out = tmp_path / "spans.jsonl"
    assert main(["score", str(source), "--output", str(out), *options]) == 0
    return [_span_tuples(r["spans"]) for r in read_jsonl(out)]


def test_importing_the_package_loads_neither_numpy_nor_the_model():
    code = ("import sys, rulings_anon; assert 'numpy' not in sys.modules, 'numpy'; "
            "assert 'rulings_anon.engine' not in sys.modules; from rulings_anon import Anonymizer; "
            "assert 'rulings_anon.engine' in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_analyze_gives_the_spans_score_writes_for_one_ruling(anonymizer, tmp_path):
    for text in (RULING, (FIXTURES / "made_up_criminal_ruling.txt").read_text(encoding="utf-8")):
        expected = _scored(tmp_path, [{"id": "a", "text": text}])[0]
        assert _span_tuples(anonymizer.analyze(text)) == expected
        assert expected  # the comparison is about real spans, not two empty lists


def test_analyze_batch_gives_the_spans_score_writes_for_a_batch(tmp_path):
    from rulings_anon import Analyzer

    texts = [RULING, *(p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("made_up_*.txt")))]
    expected = _scored(tmp_path, [{"id": f"d{n}", "text": t} for n, t in enumerate(texts)], "--recall-first")
    found = Analyzer(recall_first=True).analyze_batch(texts)
    assert [_span_tuples(spans) for spans in found] == expected


def test_anonymize_replaces_every_span_by_the_operator_chosen(anonymizer):
    from rulings_anon import Anonymizer

    result = anonymizer.anonymize(RULING)
    assert [s.text for s in result.spans][:2] == ["Thomas Wimmer", "Aichach"]  # a name's parts together
    for operator in ("placeholder", "pseudonym", "tag"):
        text = Anonymizer(operator, analyzer=anonymizer.analyzer).anonymize(RULING).text
        assert "Wimmer" not in text and "Aichach" not in text and "0532 0130" not in text, (operator, text)
        assert "Thomas" not in text and text.startswith("Der Kläger ")
    assert result.text.startswith("Der Kläger T. W. wohnt") and "Herr W." in result.text and str(result) == result.text
    assert "Herr <person>" in Anonymizer("tag", analyzer=anonymizer.analyzer).anonymize(RULING).text


def test_pseudonyms_are_consistent_and_depend_on_the_seed(anonymizer):
    from rulings_anon import Anonymizer

    first = Anonymizer("pseudonym", analyzer=anonymizer.analyzer, seed=1).anonymize(RULING).text
    again = Anonymizer("pseudonym", analyzer=anonymizer.analyzer, seed=1).anonymize(RULING).text
    other = Anonymizer("pseudonym", analyzer=anonymizer.analyzer, seed=2).anonymize(RULING).text
    assert first == again and first != other
    first_name, surname = first.split("Der Kläger ")[1].split()[:2]
    assert first_name != "Thomas" and f"Herr {surname} ist" in first  # the same person, the same surrogate


def test_the_threshold_options_order_the_spans(anonymizer):
    from rulings_anon import Analyzer

    text = (FIXTURES / "made_up_federal_ruling.txt").read_text(encoding="utf-8")
    loose = Analyzer(recall_first=True)
    assert loose.threshold < anonymizer.analyzer.threshold < 1.0
    strict, default, recall_first = (_covered(a.analyze(text)) for a in (Analyzer(threshold=1.0), anonymizer, loose))
    assert strict and strict < default <= recall_first  # what a stricter threshold flags, a looser one flags too


def _covered(spans) -> set[int]:
    return {i for span in spans for i in range(span.start, span.end)}


@pytest.mark.parametrize("options, words", [
    ({"operator": "blackout"}, "unknown operator 'blackout'"),
    ({"threshold": 1.5}, "threshold must be in 0..1"),
    ({"skip_recognizers": "nonesuch"}, "--skip-recognizers"),
])
def test_bad_options_are_one_clear_error(options, words):
    from rulings_anon import Anonymizer
    from rulings_anon.errors import InputError

    with pytest.raises(InputError, match=words):
        Anonymizer(**options)


def test_a_text_that_is_no_string_is_refused(anonymizer):
    with pytest.raises(TypeError, match="str, not bytes"):
        anonymizer.analyze(RULING.encode("utf-8"))
