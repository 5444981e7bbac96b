"""`score` with its defaults (the bundled legal NER) on real rulings of courts it never trained on.

Both portal rulings (OLG München 34 Wx 105/18, BVerfG 2 BvQ 53/18) name no private party: every
name in them is an author ("Demharter", "Hügel/Kramer"), a court or a party of the state. A scorer
that flags any of it would blacken citations in every ruling of these courts.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rulings_anon.cli import main
from rulings_anon.jsonl import read_jsonl, write_jsonl

PORTAL = Path(__file__).resolve().parent / "fixtures" / "portal"


def test_real_rulings_without_private_parties_get_no_spans(tmp_path):
    out = tmp_path / "spans.jsonl"
    rulings = [PORTAL / "bayern_ruling_Y-300-Z-BECKRS-B-2018-N-29496.xml", PORTAL / "rii_ruling_KVRE427811801.xml"]
    assert main(["score", *map(str, rulings), "--output", str(out)]) == 0
    assert [(r["id"], r["spans"]) for r in read_jsonl(out)] == [
        ("Y-300-Z-BECKRS-B-2018-N-29496", []), ("KVRE427811801", [])]


def test_a_private_party_in_the_same_kind_of_text_is_found(tmp_path):
    text = ("Der Beteiligte Herr Thomas Wimmer beantragte am 5.12.2017, die Eigentümereintragung zu lfd. Nr. 2 a "
            "zu berichtigen (vgl. Demharter GBO 31. Aufl. § 71 Rn. 29). Herr Wimmer meint, seine Mutter habe das "
            "Grundstück in Aichach durch Buchersitzung erlangt.")
    texts, out = tmp_path / "texts.jsonl", tmp_path / "spans.jsonl"
    write_jsonl(texts, [{"id": "t", "text": text}])
    assert main(["score", str(texts), "--output", str(out)]) == 0
    (record,) = read_jsonl(out)
    found = {s["text"] for s in record["spans"]}
    assert {"Thomas Wimmer", "Wimmer"} <= found
    assert not found & {"Demharter", "Aichach", "GBO"}


def test_score_prints_its_summary_without_tensorflow_start_up_chatter(tmp_path):
    out = tmp_path / "spans.jsonl"
    done = subprocess.run([sys.executable, "-m", "rulings_anon", "score", str(PORTAL / "rii_ruling_KVRE427811801.xml"),
                           "--output", str(out)], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("score: 1 documents, 1,074 elements, 0 spans")
