"""The human-readable summary ``evaluate`` prints (``--json`` prints the result dict itself)."""

from __future__ import annotations


def _pct(value: float) -> str:
    return f"{100 * value:5.1f} %"


def format_result(result: dict) -> str:
    """A few aligned lines: the element metrics, then what the method adds."""
    m = result["metrics"]
    counted = "candidate elements" if result["method"] == "random" else "elements"
    lines = [
        f"evaluate: method {result['method']}, threshold {result['threshold']}, {result['documents']} documents, "
        f"{result['elements']:,} elements ({result['positives']:,} positive)",
        f"  over {m['tp'] + m['fp'] + m['tn'] + m['fn']:,} {counted}: TP {m['tp']:,}  FP {m['fp']:,}  "
        f"TN {m['tn']:,}  FN {m['fn']:,}",
        f"  recall     {_pct(m['recall'])}",
        f"  precision  {_pct(m['precision'])}",
        f"  accuracy   {_pct(m['accuracy'])}",
        f"  F1         {_pct(m['f1'])}",
    ]
    if "a2_precision" in result:
        lines.append(f"  precision if every element were classified (appendix A.2): {_pct(result['a2_precision'])} "
                     f"(negative candidates: {_pct(result['candidate_rate'])} of the negatives)")
    if "ner" in result:
        ner = result["ner"]
        lines += [f"  detected recall (Table 6.3) {_pct(ner['detected_recall'])}, candidate recall "
                  f"{_pct(ner['candidate_recall'])}, baseline precision {_pct(ner['baseline_precision'])}, "
                  f"accuracy over candidates {_pct(ner['candidate_accuracy'])}"]
    refs = result["references"]
    lines.append(f"  references found whole {refs['whole']:,} of {refs['references']:,} ({_pct(refs['recall'])}), "
                 f"in part {refs['partly']:,}, missed {refs['missed']:,}")
    if "leaks" in result:
        leaks = result["leaks"]
        lines.append(f"  leaks: {leaks['missed']:,} sensitive elements missed, {leaks['missed_per_10k']:.2f} per 10,000 "
                     f"elements; documents with a missed name {leaks['documents_with_missed_name']} of "
                     f"{leaks['documents']} ({_pct(leaks['share_with_missed_name']).strip()}), with any miss "
                     f"{leaks['documents_with_miss']} ({_pct(leaks['share_with_miss']).strip()})")
    if result["per_type"]:
        lines.append("  recall per type: " + ", ".join(
            f"{kind} {_pct(v['recall']).strip()} ({v['found']}/{v['elements']})" for kind, v in result["per_type"].items()))
    if "validation" in result:
        v = result["validation"]
        lines.append(f"  validation data: recall {_pct(v['recall'])}, precision {_pct(v['precision'])}")
    if "elements_per_second" in result:
        lines.append(f"  {result['seconds']:.1f} s, {result['elements_per_second']:,.0f} elements/s")
    return "\n".join(lines)
