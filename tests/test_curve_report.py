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
