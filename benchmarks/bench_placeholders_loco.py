"""Leave one court out: the placeholder detector measured as if every court were new.

For each of the six bundled courts the classifier over the rules' judgements
(:mod:`rulings_anon.placeholders.judge`) is fitted on the other five courts only (their LER gold,
corrected by their hand-checked labels ``rulings_anon/data/checked/<court>.jsonl``) and measured on the left-out
court against its hand-checked labels, element by element. Printed per court and as the mean, next
to the rules alone. The rules themselves and their word lists are hand-written and the same in
every fold (they were written reading BAG, BGH, BVerfG and BSG errors; the rules-alone rows of
those courts are therefore no held-out figures).

    .venv/bin/python benchmarks/bench_placeholders_loco.py [--json OUT] [--save-model PATH]

The fit on all six courts is the one ``rulings-anon train-placeholder-judge`` makes (the shipped
``rulings_anon/data/placeholder_model.json`` is its output, see that command's help); the benchmark
says whether the shipped weights are still what it gives, and ``--save-model`` writes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rulings_anon.confusion import Confusion
from rulings_anon.inputs import read_documents
from rulings_anon.placeholders.detector import PlaceholderDetector
from rulings_anon.placeholders.judge import PlaceholderModel
from rulings_anon.preprocessing.detector_validation import validate_documents
from rulings_anon.preprocessing.placeholder_training import (
    COURTS,
    Examples,
    court_checked,
    court_documents,
    train,
)

# The real portal rulings of tests/fixtures/portal, hand-checked: none holds a placeholder (every
# candidate element in them is a margin number, outline label, abbreviation or citation). The fold
# measuring one leaves out the bundled court it comes from.
PORTAL = {"tests/fixtures/portal/bayern_ruling_Y-300-Z-BECKRS-B-2018-N-29496.xml": None,
          "tests/fixtures/portal/bayern_zip_with_trailing_junk.zip": None,
          "tests/fixtures/portal/rii_ruling_KVRE427811801.xml": "bverfg"}


def measure(detector, documents, checked) -> Confusion:
    return validate_documents(documents, detector, checked=checked)[0]


def rates(c: Confusion) -> dict:
    return {"recall": c.tp / max(1, c.tp + c.fn), "precision": c.tp / max(1, c.tp + c.fp),
            "tp": c.tp, "fp": c.fp, "fn": c.fn}


def portal_false_placeholders(examples: Examples, rules) -> dict:
    """Placeholders found in the real portal rulings, which hold none (each a false one)."""
    out = {}
    for name, court in PORTAL.items():
        model = train(examples, [c for c in COURTS if c != court])
        (document,) = read_documents([name])
        counts = {"elements": len(document.text.split())}
        for key, detector in (("rules", rules), ("learned", PlaceholderDetector(judge=model))):
            counts[key] = sum(detector.document_element_labels(document.text)[1])
        out[name] = counts
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", help="also write the results to this JSON file")
    parser.add_argument("--save-model", type=Path, help="fit on all six courts and write the model here")
    args = parser.parse_args(argv)
    examples = Examples()
    rules = PlaceholderDetector()
    results = {}
    for court in COURTS:
        documents = court_documents(court)
        checked = court_checked(court)
        model = train(examples, [c for c in COURTS if c != court])
        results[court] = {"rules": rates(measure(rules, documents, checked)),
                          "learned": rates(measure(PlaceholderDetector(judge=model), documents, checked))}
        print(f"{court} done", file=sys.stderr)
    print(f"{'left-out court':<16}{'rules R / P':>16}{'learned R / P':>18}")
    for court in COURTS:
        r, m = results[court]["rules"], results[court]["learned"]
        print(f"{court.upper():<16}{100 * r['recall']:8.1f} / {100 * r['precision']:5.1f}"
              f"{100 * m['recall']:10.1f} / {100 * m['precision']:5.1f}")
    mean = {k: {m: sum(results[c][k][m] for c in COURTS) / len(COURTS) for m in ("recall", "precision")}
            for k in ("rules", "learned")}
    print(f"{'mean':<16}{100 * mean['rules']['recall']:8.1f} / {100 * mean['rules']['precision']:5.1f}"
          f"{100 * mean['learned']['recall']:10.1f} / {100 * mean['learned']['precision']:5.1f}")
    results["mean"] = mean
    results["portal"] = portal_false_placeholders(examples, rules)
    for name, counts in results["portal"].items():
        print(f"portal {Path(name).name}: {counts['elements']:,} elements, no placeholder; false placeholders: "
              f"rules {counts['rules']}, learned {counts['learned']}")
    full = train(examples, COURTS)
    shipped = PlaceholderModel.load()
    fitted, stored = full.to_json(), shipped.to_json()
    same = fitted == stored
    differing = sum(fitted["weights"].get(f) != stored["weights"].get(f)
                    for f in set(fitted["weights"]) | set(stored["weights"]))
    print("shipped judge (rulings_anon/data/placeholder_model.json): " + (
        "the fit on all six courts" if same else f"differs from the fit on all six courts ({differing} "
        "weights); rebuild it with train-placeholder-judge"))
    results["shipped_model_current"] = same
    if args.save_model:
        full.save(args.save_model)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
