"""Benchmark of document files in and out: a 100-page Word ruling read and written anonymized.

The ruling (built with python-docx: 100 pages of about 450 words, a bold party name in every
paragraph, a table, header and footer) is read as ``score`` reads it, then written anonymized twice:
from spans and an operator (the library call, :func:`rulings_anon.replacement.document_files.
write_anonymized`) and from the anonymized text (what ``score --anonymize FOLDER`` does, aligning
the text back onto the runs). Each step runs in a fresh process, so its peak memory (max RSS) is
its own; the fastest of ``--repeat`` runs counts.

Run: ``.venv/bin/python benchmarks/bench_documents.py [--pages 100] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SENTENCE = ("Der Kläger {name} aus Aichach trägt vor, die Beklagte habe den Vertrag vom 12. März 2018 "
            "nicht erfüllt, weshalb ihm ein Anspruch auf Zahlung von 5.000 Euro zustehe. ")
NAMES = ("Thomas Wimmer", "Erika Kemper", "Jonas Brandl", "Sabine Huber")
STEP = r"""
import json, re, resource, sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from rulings_anon import documents
from rulings_anon.document import Span
from rulings_anon.replacement.document_files import write_anonymized
from rulings_anon.replacement.operators import CourtPlaceholder, anonymize
source, out, step = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
start = time.perf_counter()
text = documents.text_map(source).text
read = time.perf_counter() - start
spans = [Span(m.start(), m.end(), m.group(), type="person") for m in re.finditer({names!r}, text)]
start = time.perf_counter()
if step == "spans":
    write_anonymized(source, spans, CourtPlaceholder(), out)
elif step == "text":
    documents.write_document_copy(out.parent, out.stem, documents.read_document(source).id, anonymize(text, spans))
written = time.perf_counter() - start
print(json.dumps({{"chars": len(text), "spans": len(spans), "read_s": read, "write_s": written,
                   "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def build(path: Path, pages: int) -> None:
    import docx

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = f"Az. 9 O 1234/18 – {NAMES[0]} ./. {NAMES[1]}"
    document.sections[0].footer.paragraphs[0].text = f"Richter am Landgericht {NAMES[2]}"
    for page in range(pages):
        for number in range(6):
            paragraph = document.add_paragraph(f"{page * 6 + number + 1}. ")
            paragraph.add_run(NAMES[number % len(NAMES)]).bold = True
            paragraph.add_run(" " + SENTENCE.format(name=NAMES[(number + 1) % len(NAMES)]) * 2)
        if page % 10 == 0:
            table = document.add_table(rows=2, cols=2)
            for row in range(2):
                table.cell(row, 0).text = "Zeuge"
                table.cell(row, 1).text = NAMES[row]
        document.add_page_break()
    document.save(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = "|".join(NAMES)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "urteil.docx"
        build(source, args.pages)
        print(f"{args.pages}-page DOCX: {source.stat().st_size / 1e6:.2f} MB")
        for step in ("read", "spans", "text"):
            runs = []
            for _ in range(args.repeat):
                out = Path(folder) / f"anonym-{step}.docx"
                done = subprocess.run([sys.executable, "-c", STEP.format(root=str(ROOT), names=names),
                                       str(source), str(out), step], capture_output=True, text=True, check=True)
                runs.append(json.loads(done.stdout))
            best = min(runs, key=lambda r: r["read_s"] + r["write_s"])
            label = {"read": "read (score's text)", "spans": "read + write from spans",
                     "text": "read + write from text"}[step]
            print(f"{label:26s} {best['chars']:,} chars, {best['spans']} spans: read {best['read_s']:.2f} s, "
                  f"write {best['write_s']:.2f} s, peak {best['peak_mb']:.0f} MB")
            if step != "read":
                check = documents_text(out)
                assert not re.search(names, check), "a name survived"


def documents_text(path: Path) -> str:
    sys.path.insert(0, str(ROOT))
    from rulings_anon import documents

    return documents.text_map(path).text


if __name__ == "__main__":
    main()
