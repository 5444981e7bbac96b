"""``evaluate --report FILE.md``: the results in the thesis's table layout (Tables 6.2-6.4, 7.1).

Each ``evaluate`` run adds (or replaces) its row in ``FILE.json`` beside the report, keyed by model
and method, and the Markdown is rendered again from all rows: running ``evaluate`` once per model
and method fills the tables. Metric values are in %, as in the thesis.
"""

from __future__ import annotations

from pathlib import Path

from rulings_anon.errors import InputError
from rulings_anon.jsonl import atomic_writer, read_json, write_json

from .evaluate import METHODS

TITLES = {
    "random": "Evaluation results for random candidates (Table 6.2)",
    "ner": "Evaluation results for NER-chosen candidates (Table 6.3)",
    "none": "Evaluation results without candidates (Table 6.4)",
}
MODEL_COLUMNS = ("Embed", "Variant", "Cand", "Mask", "Epoc")
LEAK_COLUMNS = ("Miss/10k", "Name-Leak")
EXTRA_COLUMNS = {"random": ("A.2 Prec",), "ner": ("Comb", "Det-Rec", "Cand-Rec") + LEAK_COLUMNS,
                 "none": LEAK_COLUMNS}
LEGEND = ("'Embed', 'Cand', 'Epoc', 'Thr', 'Prec', 'Acc', 'Comb', 'Det-Rec' and 'Cand-Rec' denote 'Embedding', "
          "'Candidate', 'Training Epochs', 'Threshold' (an element is sensitive from this probability on), 'Precision', 'Accuracy', 'Combination' (how the NER's score and the "
          "model's probability are joined: model, ner, min, mean), 'Detected recall' (recall over the proposed "
          "positives) and 'Candidate recall' (share of positives proposed). 'A.2 Prec' is the appendix A.2 "
          "estimate of the precision when every element is classified. 'Miss/10k' counts the sensitive elements "
          "missed per 10,000 elements, 'Name-Leak' is the share of documents with at least one missed name (a "
          "person's). Metric values are in %, except Miss/10k.")


def model_row(model_dir) -> dict:
    """The model columns of a row, from the model directory's ``config.json`` (None: the NER alone)."""
    from rulings_anon.scoring.prediction import model_kind

    if model_dir is None:
        return {"model": "-", "Embed": "-", "Variant": "NER alone", "Cand": "YES", "Mask": "-", "Epoc": "-"}
    kind = model_kind(model_dir)
    if kind == "sensitivity":
        return {"model": str(model_dir), "Embed": "features", "Variant": "sensitivity GBM", "Cand": "NO",
                "Mask": "-", "Epoc": "-"}
    path = Path(model_dir) / "config.json"
    config = read_json(path) if path.exists() else {}
    training = config.get("training") or {}
    if kind == "ner":  # the NER as element model
        return {"model": str(model_dir), "Embed": "words+chars", "Variant": "legal NER", "Cand": "NO", "Mask": "-",
                "Epoc": training.get("epochs", "?")}
    return {
        "model": str(model_dir),
        "Embed": {"bert": "BERT", "glove": "GloVe"}.get(config.get("embedding"), config.get("embedding", "?")),
        "Variant": config.get("variant", "?"),
        "Cand": "YES" if config.get("candidates") else "NO",
        "Mask": config.get("masking") or "-",
        "Epoc": training.get("epochs_done", config.get("epochs", "?")),
    }


def result_row(model_dir, result: dict, validation: dict | None = None) -> dict:
    """A report row: model columns, the method's metrics and, when given, validation metrics."""
    metrics = result["metrics"]
    row = {**model_row(model_dir), "method": result["method"], "threshold": result["threshold"],
           "Recall": metrics["recall"], "Prec": metrics["precision"], "Acc": metrics["accuracy"],
           "F1": metrics["f1"]}
    if result["method"] == "random":
        row["A.2 Prec"] = result["a2_precision"]
    if result["method"] == "ner":
        row["Comb"] = result.get("combination") or "model"
        row["Det-Rec"] = result["ner"]["detected_recall"]
        row["Cand-Rec"] = result["ner"]["candidate_recall"]
        row["Acc"] = result["ner"]["candidate_accuracy"]
    if "leaks" in result and result["method"] != "random":
        row["Miss/10k"] = f"{result['leaks']['missed_per_10k']:.2f}"
        row["Name-Leak"] = result["leaks"]["share_with_missed_name"]
    if validation is not None:
        row["validation"] = validation
    return row


def _percent(value) -> str:
    return f"{100 * value:.1f}" if isinstance(value, (int, float)) else str(value)


def _table(columns: tuple[str, ...], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def render(rows: list[dict]) -> str:
    """The Markdown report of ``rows``."""
    lines = ["# Evaluation report", ""]
    for method in METHODS:
        chosen = [r for r in rows if r["method"] == method]
        if not chosen:
            continue
        metric_columns = ("Recall", "Prec", "Acc", "F1") + EXTRA_COLUMNS[method]
        body = [[str(r[c]) for c in MODEL_COLUMNS] + [str(r["threshold"])]
                + [str(r.get(c, "model")) if c == "Comb" else _percent(r.get(c, "")) for c in metric_columns]
                for r in chosen]
        lines += [f"## {TITLES[method]}", "", *_table(MODEL_COLUMNS + ("Thr",) + metric_columns, body), "",
                  LEGEND, ""]
    gap = [r for r in rows if r["method"] == "none" and r.get("validation")]
    if gap:
        columns = MODEL_COLUMNS[:4] + ("Tst Rec", "Tst Prec", "Val Rec", "Val Prec")
        body = [[str(r[c]) for c in MODEL_COLUMNS[:4]]
                + [_percent(r["Recall"]), _percent(r["Prec"]),
                   _percent(r["validation"]["recall"]), _percent(r["validation"]["precision"])] for r in gap]
        lines += ["## Comparison of metrics on validation and test data set (Table 7.1)", "",
                  *_table(columns, body), "",
                  "Test: without candidates on the test set. Validation: the validation TFRecords as in "
                  "training (placeholders masked, candidate elements counted). Metric values are in %.", ""]
    return "\n".join(lines)


def update_report(report: Path, row: dict) -> None:
    """Add ``row`` to the rows kept beside ``report`` (replacing the same model and method), re-render."""
    report = Path(report)
    store = report.with_suffix(".json")
    rows = read_json(store) if store.exists() else []
    if not isinstance(rows, list):
        raise InputError("not a list of report rows; delete it or choose another --report", store)
    rows = [r for r in rows if _row_key(r) != _row_key(row)] + [row]
    write_json(store, rows)
    with atomic_writer(report) as handle:
        handle.write(render(rows))


def _row_key(row: dict) -> tuple:
    """Rows of one model, method and combination replace each other (rows written before
    combinations existed judged NER candidates by the model)."""
    combination = row.get("Comb") or ("model" if row.get("method") == "ner" else None)
    return row.get("model"), row.get("method"), combination
