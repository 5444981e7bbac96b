"""``runs/<name>/report.md``: what a pipeline run measured, in the thesis's tables.

Sections, each from a file a stage wrote (named in the config's ``report`` entry):

* first, the product: ``score``'s decision on the held-out court, from ``evaluate --json`` of the
  sensitivity model (``scorer``; ``scorer_model`` the folder a ``train-scorer`` stage wrote), with the
  leak figures, beside the contextual model's (``contextual``, its method none);
* corpus statistics (Table 5.1) from the preprocess ``stats.json``;
* placeholder-detection validation (Table 6.1) from ``validate-placeholders --json``;
* the evaluation tables (6.2-6.4) and the validation-test gap (7.1) that ``evaluate --report``
  rendered;
* precision and recall over the score threshold (``precision-recall.png`` beside the report), from
  the curve files that ``evaluate --curve`` wrote (the report computes nothing, so an up-to-date
  run re-renders in seconds);
* the wall time of every stage.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulings_anon import data
from rulings_anon.jsonl import atomic_writer, read_json
from rulings_anon.pipeline.runner import PipelineConfig, environment_summary

_STATS_ROWS = [
    ("Document count", "documents"),
    ("Text element count", "elements"),
    ("Anonymized element count", "placeholder_elements"),
    ("Positive rate", "positive_rate"),
    ("Sequences (training / validation)", "sequences"),
]


def _expand(value, run_dir: Path):
    if isinstance(value, str):
        return value.format(run=str(run_dir), data=str(data.DATA_DIR))
    if isinstance(value, dict):
        return {k: _expand(v, run_dir) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, run_dir) for v in value]
    return value


def _figures_row(label: str, result: dict) -> str:
    m, leaks = result["metrics"], result.get("leaks") or {}
    return (f"| {label} | {100 * m['recall']:.1f} | {100 * m['precision']:.1f} | {100 * m['f1']:.1f} | "
            f"{leaks.get('missed_per_10k', float('nan')):.2f} | "
            f"{leaks.get('documents_with_missed_name', '-')} of {leaks.get('documents', '-')} |")


def _model_words(model_dir: Path | None) -> tuple[str, str]:
    """What the scorer is and its row's label: the model a ``train-scorer`` stage wrote (its
    boosters, rounds and threshold from its config), else the bundled one."""
    config_file = Path(model_dir) / "config.json" if model_dir else None
    if config_file is None or not config_file.exists():
        return ("`score` runs the sensitivity model of `rulings_anon/data/scorer` (gradient-boosted trees over every "
                "capitalized word, no NER), fitted on the five dev courts, threshold chosen by leaving courts out.",
                "sensitivity model (`rulings_anon/data/scorer`)")
    config = read_json(config_file)
    rule = config.get("default_rule", "f15")
    threshold = (config.get("thresholds") or {}).get(rule)
    chosen = f"threshold {threshold:g} ({rule})" if isinstance(threshold, (int, float)) else f"rule {rule}"
    return (f"This run trained the sensitivity model `score` runs (`train-scorer`, `{model_dir}`: "
            f"{config.get('boosters', 1)} booster(s) of {config.get('rounds', '?')} rounds over every capitalized "
            f"word, no NER), on {', '.join(c.upper() for c in config.get('courts', []))}, {chosen} chosen by "
            "leaving each court out; the evaluate and score stages use it.",
            f"sensitivity model of this run (`train-scorer`, {chosen})")


def _scorer_section(path: Path, court: str, model_dir=None, contextual=None) -> list[str]:
    """``score``'s decision on the held-out court, beside the contextual model's (method none):
    the figures a court asks for first."""
    about, label = _model_words(model_dir)
    lines = [f"## What `score` does on {court} (held out)", "", about + " The contextual models this run "
             "trained on 2 CPU cores are in the tables below; `score` does not use them by default.",
             "", "| model | recall | precision | F1 | missed per 10,000 elements | documents with a missed name |",
             "| --- | --- | --- | --- | --- | --- |", _figures_row(label, read_json(path))]
    if contextual and Path(contextual).exists():
        lines.append(_figures_row("contextual model of this run (method none)", read_json(Path(contextual))))
    return lines + [""]


def _stats_section(path: Path) -> list[str]:
    stats = read_json(path)
    lines = ["## Corpus (Table 5.1)", "", "| | |", "| --- | --- |"]
    for label, key in _STATS_ROWS:
        value = stats.get(key)
        if key == "sequences" and isinstance(value, int):
            value = f"{value:,} ({stats.get('train_sequences', '?')} / {stats.get('validation_sequences', '?')})"
        elif key == "positive_rate" and isinstance(value, float):
            value = f"{100 * value:.2f} %"
        elif isinstance(value, int):
            value = f"{value:,}"
        lines.append(f"| {label} | {value} |")
    per_tokenizer = stats.get("tokens_per_element") or {}
    if isinstance(per_tokenizer, dict):
        for tokenizer, mean in per_tokenizer.items():
            lines.append(f"| {tokenizer} average tokens per element | {mean:.2f} |")
    return lines + [""]


def _detector_section(path: Path, court: str) -> list[str]:
    metrics = json.loads(Path(path).read_text(encoding="utf-8"))
    lines = [f"## Placeholder detection on the held-out court {court} (Table 6.1)", "",
             f"{metrics['elements']:,} elements, {metrics['gold_placeholders']:,} gold placeholders "
             "(LER gold: placeholder tokens inside PER, AN, ST, STR, UN, ORG, LDS entities).", "",
             "| Metric | % |", "| --- | --- |"]
    for label, key in (("Accuracy", "accuracy"), ("Precision", "precision"), ("Recall (Sensitivity)", "recall"),
                       ("Specificity", "specificity"), ("F1 Score", "f1")):
        lines.append(f"| {label} | {100 * metrics[key]:.1f} |")
    return lines + [""]


def _curve_section(files: list, run_dir: Path) -> list[str]:
    """The curves ``evaluate --curve`` wrote, drawn and tabulated (nothing is computed here)."""
    from rulings_anon.evaluation.curve import plot_curve, read_curve

    curves = dict(read_curve(path) for path in files if Path(path).exists())
    if not curves:
        return []
    png = run_dir / "precision-recall.png"
    plot_curve(curves, png)
    lines = ["## Precision and recall over the score threshold", "", f"![precision-recall]({png.name})", ""]
    header = "| threshold | " + " | ".join(f"{m} recall | {m} precision" for m in curves) + " |"
    lines += [header, "|" + " --- |" * (1 + 2 * len(curves))]
    for i, point in enumerate(next(iter(curves.values()), [])):
        cells = [f"{point['threshold']:.2f}"]
        for points in curves.values():
            cells += [f"{100 * points[i]['recall']:.1f}", f"{100 * points[i]['precision']:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def _timings_section(path: Path) -> list[str]:
    timings = read_json(path) if path.exists() else {}
    lines = ["## Timing of each stage", "", f"Machine: {environment_summary()}.", "",
             "| stage | seconds (last run that did the work) |", "| --- | --- |"]
    total = 0.0
    for stage, info in timings.items():
        seconds = info.get("seconds")
        total += seconds or 0.0
        lines.append(f"| {stage} | {seconds if seconds is not None else '-'} |")
    lines.append(f"| total | {total:.1f} |")
    return lines + [""]


def write_report(config: PipelineConfig) -> Path:
    """Render the report of a finished run; returns its path."""
    run_dir = config.run_dir
    spec = _expand(config.extra.get("report") or {}, run_dir)
    lines = [f"# {spec.get('title', 'rulings-anon pipeline report')}", ""]
    if spec.get("intro"):
        lines += [spec["intro"], ""]
    if spec.get("scorer") and Path(spec["scorer"]).exists():
        lines += _scorer_section(Path(spec["scorer"]), spec.get("held_out_court", "?"), spec.get("scorer_model"),
                                 spec.get("contextual"))
    if spec.get("stats") and Path(spec["stats"]).exists():
        lines += _stats_section(Path(spec["stats"]))
    if spec.get("detector") and Path(spec["detector"]).exists():
        lines += _detector_section(Path(spec["detector"]), spec.get("held_out_court", "?"))
    if spec.get("evaluation") and Path(spec["evaluation"]).exists():
        body = Path(spec["evaluation"]).read_text(encoding="utf-8").splitlines()
        if body and body[0].startswith("# "):
            body = body[1:]  # its own title; the section heading below replaces it
        lines += ["## Model evaluation (Tables 6.2-6.4, 7.1)", ""]
        lines += [("#" + line) if line.startswith("#") else line for line in body] + [""]
    if spec.get("curves"):
        lines += _curve_section(spec["curves"], run_dir)
    lines += _timings_section(run_dir / "timings.json")
    path = run_dir / "report.md"
    with atomic_writer(path) as handle:
        handle.write("\n".join(lines) + "\n")
    return path
