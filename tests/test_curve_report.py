"""The threshold curve is an output of evaluate (--curve); the pipeline report only draws it."""

import json

from rulings_anon import data
from rulings_anon.analyzer.common_words import common_words_for
from rulings_anon.analyzer.decisions import Settings
from rulings_anon.cli import main
from rulings_anon.evaluation.curve import read_curve, threshold_curve
from rulings_anon.evaluation.testset import gold_records
from rulings_anon.inputs import read_documents
from rulings_anon.jsonl import write_jsonl
from rulings_anon.ner import load_ner
from rulings_anon.pipeline.run_report import write_report
from rulings_anon.pipeline.runner import PipelineConfig


def test_evaluate_writes_the_curve_of_what_it_measured_and_the_report_draws_it(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    write_jsonl(gold, gold_records(data.ler_corpus_files(["bsg"]), seed=0, limit=4))
    curve = tmp_path / "curve-ner-ner.json"
    assert main(["evaluate", "--test", str(gold), "--method", "ner", "--combine", "ner", "--json",
                 "--curve", str(curve)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert "curve" not in printed  # the printed result is what it was without --curve

    label, points = read_curve(curve)
    documents = list(read_documents([gold]))
    settings = Settings(0.5, True, common_words_for(d.text for d in documents), "ner")
    # the same figures as a separate pass over the test set (what the report computed before)
    assert (label, points) == ("ner (ner)", threshold_curve(documents, None, "ner", settings,
                                                            ner=load_ner(data.path("ner"))))
    assert [p["threshold"] for p in points] == [round(0.05 * i, 2) for i in range(1, 20)]
    at = next(p for p in points if p["threshold"] == 0.8)
    assert abs(at["recall"] - printed["metrics"]["recall"]) < 1e-12

    # the report reads the curve file alone: no model, NER or test set is named or loaded
    config = PipelineConfig(tmp_path, [], extra={"report": {"title": "t", "curves": [str(curve),
                                                                                     str(tmp_path / "none.json")]}})
    report = write_report(config).read_text(encoding="utf-8")
    assert "| threshold | ner (ner) recall | ner (ner) precision |" in report
    assert f"| 0.80 | {100 * at['recall']:.1f} | {100 * at['precision']:.1f} |" in report
    assert (tmp_path / "precision-recall.png").stat().st_size > 0


def test_evaluate_lists_each_missed_and_false_run_with_its_context(tmp_path, capsys):
    """--errors: the runs of elements the decision got wrong, offsets and text exact, the file only
    its owner may read (the test set's names), the printed figures the same as without it."""
    text = "Der Kläger Thomas Wimmer wohnt in Uster. Er kaufte einen Vertrag bei der Firma Mahler GmbH."
    gold = tmp_path / "gold.jsonl"
    write_jsonl(gold, [{"id": "t1", "text": text, "spans": [
        {"start": 11, "end": 24, "type": "person"},   # Thomas Wimmer: found
        {"start": 57, "end": 64, "type": "other"},    # Vertrag: a word no model flags, missed
        {"start": 79, "end": 85, "type": "company"},  # Mahler: found
    ]}])  # "Uster" is flagged and no gold span: false
    errors = tmp_path / "errors.jsonl"
    assert main(["evaluate", "--test", str(gold), "--method", "none", "--features", "--json", "-q"]) == 0
    without = json.loads(capsys.readouterr().out)
    assert main(["evaluate", "--test", str(gold), "--method", "none", "--features", "--json", "-q",
                 "--errors", str(errors)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert "errors" not in printed and printed["metrics"] == without["metrics"]
    records = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    assert [(r["kind"], r["start"], r["end"], r["text"], r["type"]) for r in records] == [
        ("false", 34, 40, "Uster.", None), ("missed", 57, 64, "Vertrag", "other")]
    assert records[0]["probability"] >= printed["threshold"] > records[1]["probability"]
    assert records[1]["context"] == text  # the whole sentence lies within 60 characters each side
    assert printed["metrics"]["fp"] == 1 and printed["metrics"]["fn"] == 1
    assert errors.stat().st_mode & 0o777 == 0o600
