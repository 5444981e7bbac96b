"""evaluate and score with a real tiny model trained for a few steps on the toy language.

The toy rule (tests/models_toy_data.py): the element after "Herr" or "Frau" is a placeholder.
The model is barely trained, so the tests pin what the evaluation does with its probabilities
(counts against an independent count, agreement of evaluate and score, outputs), not its quality.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from models_toy_data import write_tiny_bert, write_toy_data

from rulings_anon.analyzer.decisions import Settings
from rulings_anon.cli import main
from rulings_anon.document import Document, Span, element_labels, split_elements
from rulings_anon.evaluation.evaluate import evaluate
from rulings_anon.evaluation.metrics import Confusion, random_candidate_precision
from rulings_anon.jsonl import read_jsonl, write_jsonl
from rulings_anon.scoring.prediction import ElementModel

# Handcrafted gold in the toy language: the element after "Herr"/"Frau" is sensitive.
GOLD = [
    ("d1", "wort1 wort2 Herr Kemper wort3 wort4 Frau Lange wort5 wort6 wort7 wort8.", ["Kemper", "Lange"]),
    ("d2", "wort9 wort10 wort11 Herr Kemper wort12 wort13 wort14 Herr Lange.", ["Kemper", "Lange."]),
    ("d3", "wort20 wort21 wort22 wort23 wort24 wort25 Frau Isenberg wort26 wort27.", ["Isenberg"]),
]


def gold_documents():
    documents = []
    for doc_id, text, names in GOLD:
        spans, pos = [], 0
        for name in names:
            start = text.index(name, pos)
            spans.append(Span(start, start + len(name), name, "person"))
            pos = start + len(name)
        documents.append(Document(doc_id, text, spans=spans))
    return documents


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    from rulings_anon.models.optimization import OptimizerConfig
    from rulings_anon.models.training import Trainer, TrainOptions

    root = tmp_path_factory.mktemp("evaluation")
    data = write_toy_data(root / "data", "bert", train=48)
    encoder = write_tiny_bert(root / "encoder")
    options = TrainOptions(data=data, variant="Dense", out=root / "model", bert_handle=str(encoder), epochs=1,
                           optimizer=OptimizerConfig(warmup_lr=1e-2, initial_lr=1e-2), width_divisor=16,
                           progress=False)
    Trainer(options).run()
    gold = root / "gold.jsonl"
    write_jsonl(gold, (d.to_record() for d in gold_documents()))
    model = ElementModel(root / "model")
    probabilities = model.probabilities(gold_documents())
    # A threshold inside the range of the model's probabilities, so some elements are flagged.
    threshold = float(np.median(np.concatenate(probabilities)))
    return {"root": root, "data": data, "model": model, "model_dir": root / "model", "gold": gold,
            "probabilities": probabilities, "threshold": threshold}


def test_evaluate_none_matches_an_independent_count(workspace):
    threshold = workspace["threshold"]
    tp = fp = tn = fn = 0
    for (_, text, names), probs in zip(GOLD, workspace["probabilities"], strict=True):
        words = text.split()
        positive = {i + 1 for i, w in enumerate(words[:-1]) if w in ("Herr", "Frau")}
        assert [words[i] for i in sorted(positive)] == names
        for i, p in enumerate(probs):
            tp += i in positive and p >= threshold
            fn += i in positive and p < threshold
            fp += i not in positive and p >= threshold
            tn += i not in positive and p < threshold
    result = evaluate(gold_documents(), workspace["model"], "none", Settings(threshold, consistency=False),
                      recognizers=False)
    m = result["metrics"]
    assert (m["tp"], m["fp"], m["tn"], m["fn"]) == (tp, fp, tn, fn)
    assert result["elements"] == tp + fp + tn + fn == 32 and result["positives"] == 5
    assert result["per_type"] == {"person": {"elements": 5, "found": tp, "recall": tp / 5}}
    assert 0 < tp + fp < 32  # the threshold splits the elements


def test_evaluate_random_counts_the_masked_candidates_only(workspace):
    threshold = workspace["threshold"]
    result = evaluate(gold_documents(), workspace["model"], "random", Settings(threshold), seed=7)
    m = result["metrics"]
    assert m["tp"] + m["fn"] == 5  # every positive is a candidate
    assert result["candidates"] == m["tp"] + m["fp"] + m["tn"] + m["fn"] < 32
    # The same candidates, masked, through the model directly.
    rng = np.random.default_rng(7)
    documents = gold_documents()
    masked, expected = {}, Confusion()
    for document in documents:
        elements = split_elements(document.text)
        gold = element_labels(elements, document.spans)
        drawn = rng.random(len(elements)) < 0.025
        masked[document.id] = {i for i in range(len(elements)) if gold[i] or drawn[i]}
    probabilities = workspace["model"].probabilities(documents, masked)
    for document, probs in zip(documents, probabilities, strict=True):
        gold = element_labels(split_elements(document.text), document.spans)
        chosen = sorted(masked[document.id])
        expected = expected + Confusion.count([gold[i] for i in chosen], [probs[i] >= threshold for i in chosen])
    assert (m["tp"], m["fp"], m["tn"], m["fn"]) == (expected.tp, expected.fp, expected.tn, expected.fn)
    assert result["a2_precision"] == pytest.approx(random_candidate_precision(expected, 27))


def test_evaluate_ner_method_with_recognizer_candidates(workspace):
    text = "wort1 Herr Kemper zahlte auf DE91 1000 0000 0123 4567 89 und schrieb an kemper@example.de heute."
    iban = text.index("DE91")
    document = Document("r1", text, spans=[Span(11, 17, "Kemper", "person"),
                                           Span(iban, iban + 27, None, "account")])
    # Threshold 1.0: the model never says "sensitive", so only standalone hits are found.
    result = evaluate([document], workspace["model"], "ner", Settings(1.0, consistency=False), ner=None)
    # The IBAN (6 elements) and "Kemper" after "Herr" are standalone hits.
    assert result["per_type"] == {"account": {"elements": 6, "found": 6, "recall": 1.0},
                                  "person": {"elements": 1, "found": 1, "recall": 1.0}}
    assert result["ner"]["candidate_recall"] == 1.0
    assert result["ner"]["detected_recall"] == pytest.approx(7 / 7)
    assert result["metrics"]["fp"] == 1  # the e-mail address is sensitive but not in this gold
    assert result["ner"]["candidates"] == 8


def test_evaluate_none_agrees_with_a_count_over_score_spans(workspace, tmp_path, capsys):
    threshold = str(workspace["threshold"])
    model = str(workspace["model_dir"])
    texts = tmp_path / "texts.jsonl"
    write_jsonl(texts, ({"id": d.id, "text": d.text} for d in gold_documents()))
    assert main(["score", "--model", model, "--no-ner", str(texts), "--output", str(tmp_path / "spans.jsonl"),
                 "--threshold", threshold]) == 0
    assert main(["evaluate", "--model", model, "--test", str(workspace["gold"]), "--method", "none",
                 "--threshold", threshold, "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)["metrics"]
    counted = Confusion()
    spans = {r["id"]: r["spans"] for r in read_jsonl(tmp_path / "spans.jsonl")}
    for document in gold_documents():
        elements = split_elements(document.text)
        found = [Span.from_dict(s, document.text) for s in spans[document.id]]
        counted = counted + Confusion.count(element_labels(elements, document.spans), element_labels(elements, found))
    assert (reported["tp"], reported["fp"], reported["tn"], reported["fn"]) == (
        counted.tp, counted.fp, counted.tn, counted.fn)


def test_score_writes_spans_anonymized_and_pseudonymized_texts(workspace, tmp_path, capsys):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": "a", "text": GOLD[0][1]}, {"id": "empty", "text": ""},
                       {"id": "big", "text": " ".join(["wort1 wort2 wort3 wort4 wort5"] * 10_000)}])
    out = tmp_path / "spans.jsonl"
    code = main(["score", "--model", str(workspace["model_dir"]), "--no-ner", str(docs), "--output", str(out),
                 "--threshold", "0.0", "--no-consistency", "--show", "--anonymize", str(tmp_path / "anon.jsonl"),
                 "--pseudonymize", str(tmp_path / "pseudo")])
    assert code == 0
    records = {r["id"]: r for r in read_jsonl(out)}
    assert set(records) == {"a", "empty", "big"} and records["empty"]["spans"] == []
    # At threshold 0 every element is sensitive: neighbours merge into one span, the names that
    # follow "Herr"/"Frau" (standalone hits) with the flagged words next to them.
    text = GOLD[0][1]
    assert [(s["start"], s["end"]) for s in records["a"]["spans"]] == [(0, len(text) - 1)]
    assert len(records["big"]["spans"]) == 1 and records["big"]["spans"][0]["end"] == 10_000 * 30 - 1
    anonymized = {r["id"]: r["text"] for r in read_jsonl(tmp_path / "anon.jsonl")}
    assert anonymized["empty"] == "" and anonymized["a"].endswith(".") and "Kemper" not in anonymized["a"]
    pseudo = (tmp_path / "pseudo" / "a.txt").read_text(encoding="utf-8")
    assert pseudo != text and "Kemper" not in pseudo
    shown = capsys.readouterr().out
    assert "== a (1 spans)" in shown and "«wort1 wort2 Herr Kemper wort3" in shown
    assert not (tmp_path / ".spans.jsonl.partial").exists()


def test_no_sensitive_spans_is_an_empty_list_and_runs_resume(workspace, tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": "a", "text": GOLD[0][1]}, {"id": "b", "text": GOLD[1][1]}])
    out = tmp_path / "spans.jsonl"
    # A partial file of another run (here: no run key) is not resumed: the run starts over.
    write_jsonl(tmp_path / ".spans.jsonl.partial", [{"id": "a", "spans": [{"start": 0, "end": 5}]}])
    assert main(["score", "--model", str(workspace["model_dir"]), "--no-ner", str(docs), "--output", str(out),
                 "--threshold", "1.0", "--no-recognizers"]) == 0
    assert list(read_jsonl(out)) == [{"id": "a", "spans": []}, {"id": "b", "spans": []}]
    assert not (tmp_path / ".spans.jsonl.partial").exists()


def test_report_with_validation_table(workspace, tmp_path, capsys):
    report = tmp_path / "report.md"
    args = ["evaluate", "--model", str(workspace["model_dir"]), "--test", str(workspace["gold"]), "--report",
            str(report), "--threshold", "0.5"]
    assert main(args + ["--method", "none", "--validation", str(workspace["data"])]) == 0
    assert main(args + ["--method", "random"]) == 0
    printed = capsys.readouterr().out
    assert "recall" in printed and "appendix A.2" in printed
    markdown = report.read_text(encoding="utf-8")
    assert "(Table 6.2)" in markdown and "(Table 6.4)" in markdown and "(Table 7.1)" in markdown
    assert "| BERT | Dense | YES | M7 | 1 | 0.5 |" in markdown
    rows = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert [r["method"] for r in rows] == ["none", "random"]
    from rulings_anon.evaluation.validation import validation_metrics

    # exactly the counts and rates of the validation data at the threshold given
    assert rows[0]["validation"] == validation_metrics(workspace["model"], workspace["data"], 0.5)


def test_bad_models_and_inputs_end_in_one_line(workspace, tmp_path, capsys):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": "a", "text": "wort1"}])
    score = ["score", str(docs), "--output", str(tmp_path / "o.jsonl"), "--no-ner", "--model"]
    assert main(score + [str(tmp_path / "missing")]) == 2
    assert "no such model directory" in capsys.readouterr().err
    other = tmp_path / "other"
    other.mkdir()
    config = json.loads((workspace["model_dir"] / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, "model_format": 99}))
    assert main(score + [str(other)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "model format 99" in err
    (other / "config.json").write_text(json.dumps(config))
    assert main(score + [str(other)]) == 2
    assert "missing weights/model.index" in capsys.readouterr().err
    assert main(["evaluate", "--model", str(workspace["model_dir"]), "--test", str(workspace["gold"]),
                 "--method", "ner", "--no-ner"]) == 2
    assert "--method ner needs the NER" in capsys.readouterr().err
    assert main(["evaluate", "--test", str(workspace["gold"]), "--method", "ner", "--ner", str(tmp_path)]) == 2
    assert "NER model directory" in capsys.readouterr().err
    write_jsonl(docs, [{"id": "a", "text": "x"}, {"id": "a", "text": "y"}])
    assert main(score + [str(workspace["model_dir"])]) == 2
    assert "two input documents have the id 'a'" in capsys.readouterr().err


def test_evaluate_and_score_with_a_trained_ner(workspace, tmp_path, capsys):
    from rulings_anon.analyzer.candidates import propose_candidates
    from rulings_anon.ner import train_ner

    corpus = tmp_path / "ner.jsonl"
    records = [{"id": f"n{i}", "text": f"wort{i} Der Kläger Thilo Kemper wohnt in Kehl. Herr Kemper zahlt.",
                "spans": [], "entities": [{"start": 18 + len(str(i)), "end": 30 + len(str(i)), "type": "PER"}]}
               for i in range(6)]
    write_jsonl(corpus, records)
    overrides = {"word_dim": 8, "char_dim": 4, "char_filters": 8, "hidden": 8, "window": 16, "predict_window": 32,
                 "predict_margin": 4}
    tagger = train_ner([corpus], tmp_path / "ner", epochs=1, batch_size=4, steps_per_epoch=2, overrides=overrides,
                       progress=False)
    model, gold = str(workspace["model_dir"]), str(workspace["gold"])
    assert main(["evaluate", "--model", model, "--test", gold, "--method", "ner", "--ner", str(tmp_path / "ner"),
                 "--combine", "model", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    proposed = sum(sum(element_labels(split_elements(d.text), propose_candidates(d.text, tagger)))
                   for d in gold_documents())
    assert result["method"] == "ner" and result["ner"]["candidates"] == proposed
    texts = tmp_path / "texts.jsonl"
    write_jsonl(texts, ({"id": d.id, "text": d.text} for d in gold_documents()))
    assert main(["score", "--model", model, str(texts), "--ner", str(tmp_path / "ner"), "--combine", "model", "--output",
                 str(tmp_path / "spans.jsonl"), "--threshold", "0.0", "--no-consistency"]) == 0
    spans = [s for r in read_jsonl(tmp_path / "spans.jsonl") for s in r["spans"]]
    # At threshold 0 every proposed reference is sensitive, each span names who proposed it.
    assert len(spans) == len([c for d in gold_documents() for c in propose_candidates(d.text, tagger)])
    assert all(s["source"].endswith("+model") or s["source"] in ("iban", "email", "salutation_name") for s in spans)
    # --combine ner: the NER's scores alone decide; no contextual model is loaded or needed.
    assert main(["score", str(texts), "--ner", str(tmp_path / "ner"), "--combine", "ner", "--output",
                 str(tmp_path / "ner-spans.jsonl"), "--threshold", "0.0", "--no-consistency"]) == 0
    alone = [s for r in read_jsonl(tmp_path / "ner-spans.jsonl") for s in r["spans"]]
    assert [(s["start"], s["end"]) for s in alone] == [(s["start"], s["end"]) for s in spans]
    assert not any(s["source"].endswith("+model") for s in alone)
    assert main(["evaluate", "--test", gold, "--method", "ner", "--ner", str(tmp_path / "ner"), "--combine", "ner",
                 "--threshold", "0.0", "--no-consistency", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["combination"] == "ner" and result["ner"]["candidates"] == proposed
    # Every other combination and method needs the model, and says so in one line.
    capsys.readouterr()
    assert main(["score", str(texts), "--ner", str(tmp_path / "ner"), "--combine", "min", "--output",
                 str(tmp_path / "x.jsonl")]) == 2
    assert "--model MODEL is needed" in capsys.readouterr().err
    # ... and a model the NER-alone decision would ignore is refused, not silently dropped.
    assert main(["evaluate", "--model", model, "--test", gold, "--method", "ner", "--ner", str(tmp_path / "ner"),
                 "--validation", str(workspace["data"])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--model is not used with --combine ner" in err
    assert main(["evaluate", "--test", gold, "--method", "none"]) == 2
    assert "--model MODEL is needed with method none" in capsys.readouterr().err
    assert main(["score", str(texts), "--no-ner", "--output", str(tmp_path / "x.jsonl")]) == 2
    assert "--model MODEL is needed with --no-ner" in capsys.readouterr().err
    # Without --ner the bundled NER proposes, and no model is needed.
    assert main(["score", str(texts), "--output", str(tmp_path / "bundled.jsonl")]) == 0
    assert [r["id"] for r in read_jsonl(tmp_path / "bundled.jsonl")] == [d.id for d in gold_documents()]


class _ConstantPredictor:
    """The real model's predictor with every logit replaced by ``logit`` (all elements positive or
    all negative), so that validation_metrics' counts follow from the data alone."""

    def __init__(self, real, logit: float):
        self.config, self._real, self._logit = real.config, real.model, logit

    def model(self, inputs, training=False):
        import tensorflow as tf

        return tf.fill(tf.shape(self._real(inputs, training=False)), self._logit)


def test_validation_figures_are_pinned_by_all_positive_and_all_negative_models(workspace):
    """Table 7.1's columns from exact counts, not a range check."""
    from types import SimpleNamespace

    from rulings_anon.evaluation.validation import validation_metrics

    real = workspace["model"].predictor
    positive = validation_metrics(SimpleNamespace(predictor=_ConstantPredictor(real, 10.0)), workspace["data"], 0.5)
    negative = validation_metrics(SimpleNamespace(predictor=_ConstantPredictor(real, -10.0)), workspace["data"], 0.5)
    p, n = positive["tp"], positive["fp"]
    assert (positive["tn"], positive["fn"]) == (0, 0) and (negative["tp"], negative["fp"]) == (0, 0)
    assert (negative["fn"], negative["tn"]) == (p, n)  # the same selected elements both times
    assert 0 < p < n
    assert positive["recall"] == 1.0 and positive["precision"] == p / (p + n) and positive["specificity"] == 0.0
    assert negative["recall"] == 0.0 and negative["specificity"] == 1.0 and negative["accuracy"] == n / (p + n)
    # the real model: evaluate --validation reports exactly validation_metrics' counts and rates
    real_figures = validation_metrics(workspace["model"], workspace["data"], 0.5)
    assert real_figures["tp"] + real_figures["fn"] == p and real_figures["fp"] + real_figures["tn"] == n
    assert real_figures["recall"] == real_figures["tp"] / p
    assert real_figures == validation_metrics(workspace["model"], workspace["data"], 0.5)  # deterministic
