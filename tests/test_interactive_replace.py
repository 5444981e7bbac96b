"""The real ``replace`` program in a pseudo-terminal: keys in, decision and gold files out."""

import gzip
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT = (
    "Die Klägerin Frau A. B. wohnt in der Kstraße 5 in M. Sie arbeitet seit 2010 bei der M-GmbH.\n\n"
    "Der Zeuge K. sagte aus, dass Herr K. den Vertrag unterschrieben habe. Der Anw alt des K. widersprach.\n"
)
# The seven questions the detector raises on TEXT, in order.
QUESTIONS = ["A. B.", "Kstraße", "M.", "M-GmbH", "K.", "K.", "K."]
PROMPTS = {"placeholder": r"Placeholder\? ", "type": r"Type\? \(Enter: [\w/]+, Escape: back\) ",
           "value": r"Replacement\? ", "correction": r"Correction\? "}
ENV = dict(os.environ, PYTHONPATH=str(ROOT), TERM="dumb")


@pytest.fixture
def document(tmp_path):
    path = tmp_path / "ruling.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def spawn(document, out, preexec_fn=None):
    return pexpect.spawn(sys.executable, ["-m", "rulings_anon.interactive", "replace", str(document), "--out", str(out)],
                         env=ENV, cwd=str(ROOT), encoding="utf-8", timeout=20, dimensions=(50, 200),
                         preexec_fn=preexec_fn)


def _ignore_sigint():
    """Start the tool as a non-interactive shell starts a background job (``cmd &``): SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def answer(child, prompt, key):
    """Wait for ``prompt`` and press ``key``; returns the screen shown before the prompt."""
    child.expect(PROMPTS[prompt])
    child.send(key)
    return child.before


def marked(screen):
    return re.findall(r"\[\[(.+?)\]\]", screen)[-1]


def finish(child):
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


def gold_values(out):
    (gold,) = read_jsonl(out / "pseudonymized.jsonl")
    return gold, [(gold["text"][s["start"]:s["end"]], s["type"]) for s in gold["spans"]]


def test_decisions_types_replacements_and_correction(document, tmp_path):
    out = tmp_path / "out"
    child = spawn(document, out)
    screen = answer(child, "placeholder", "y")
    assert marked(screen) == "A. B." and "question 1 of 7" in screen
    answer(child, "type", "p")
    answer(child, "value", "\r")
    answer(child, "placeholder", "y")                      # Kstraße
    answer(child, "type", "s")
    first = re.search(r"Kstraße -> (\S+)", answer(child, "value", "r")).group(1)
    regenerated = re.search(r"Kstraße -> (\S+)", answer(child, "value", "\r")).group(1)
    answer(child, "placeholder", "y")                      # M.: typed value
    answer(child, "type", "l")
    answer(child, "value", "t")
    child.expect("Replacement: ")
    child.send("Mannheim\r")
    answer(child, "value", "\r")
    screen = answer(child, "placeholder", "\r")            # M-GmbH: accept the suggestion
    assert marked(screen) == "M-GmbH" and "type company" in screen
    answer(child, "placeholder", "y")                      # K.
    answer(child, "type", "p")
    answer(child, "value", "\r")
    screen = answer(child, "placeholder", "\r")            # the same K. is suggested the same name
    assert "type person" in screen
    answer(child, "placeholder", "n")                      # the last K. is not one
    screen = answer(child, "correction", "y")
    assert "'Anw alt' -> 'Anwalt'" in screen
    assert finish(child) == 0

    decisions = read_jsonl(out / "decisions.jsonl")
    assert [d["element"] for d in decisions] == ["A.", "B.", "Kstraße", "M.", "M-GmbH.", "K.", "K.", "K."]
    assert [d["placeholder"] for d in decisions] == [True] * 7 + [False]
    assert [d["type"] for d in decisions] == ["person", "person", "street", "place", "company", "person",
                                              "person", None]
    assert [d["by"] for d in decisions] == ["user", "user", "user", "user", "suggestion", "user", "suggestion",
                                            "user"]
    for d in decisions:
        assert TEXT[d["start"]:d["end"]] == d["element"]
    assert decisions[0]["span"] == decisions[1]["span"] == [18, 23]

    gold, values = gold_values(out)
    assert [t for _, t in values] == ["person", "street", "place", "company", "person", "person"]
    (person, _), (street, _), (place, _), (company, _), (k1, _), (k2, _) = values
    assert re.fullmatch(r"A\w+ B\w+", person)                 # initials kept
    assert street == regenerated != first and re.fullmatch(r"K\w+straße", street)
    assert place == "Mannheim"
    assert re.fullmatch(r"M\w+", company) and f"{company} GmbH" in gold["text"]  # gold: the name, not "GmbH"
    assert k1 == k2 and k1.startswith("K") and k1 != "K."     # same placeholder, same name
    assert "Der Anwalt des K. widersprach." in gold["text"]   # correction applied, undecided K. kept
    assert f"in {place}. Sie" in gold["text"]                 # the sentence period stays
    table = read_jsonl(out / "replacements.jsonl")[0]["replacements"]
    assert {"placeholder": "K.", "type": "person", "replacement": k1} in table
    assert read_jsonl(out / "corrections.jsonl")[0]["accepted"] is True


def test_undo_and_quit(document, tmp_path):
    out = tmp_path / "out"
    child = spawn(document, out)
    answer(child, "placeholder", "n")                       # A. B. wrongly "no"
    screen = answer(child, "placeholder", "u")              # at Kstraße: undo
    assert marked(screen) == "Kstraße"
    screen = answer(child, "placeholder", "\r")             # asked again, now accepted
    assert marked(screen) == "A. B." and "question 1 of 7" in screen
    screen = answer(child, "placeholder", "q")
    assert "question 2 of 7" in screen
    child.expect("Stopped")
    assert finish(child) == 0
    decisions = read_jsonl(out / "decisions.jsonl")
    assert [(d["element"], d["placeholder"]) for d in decisions] == [("A.", True), ("B.", True)]
    assert read_jsonl(out / "pseudonymized.jsonl") == []    # nothing finished yet


def test_resume_after_kill_closed_terminal_and_ctrl_c(document, tmp_path):
    out = tmp_path / "out"
    child = spawn(document, out)
    answer(child, "placeholder", "\r")
    answer(child, "placeholder", "\r")
    child.expect(PROMPTS["placeholder"])                    # at M., killed without warning
    child.kill(signal.SIGKILL)
    child.close(force=True)
    first = read_jsonl(out / "decisions.jsonl")
    assert [d["element"] for d in first] == ["A.", "B.", "Kstraße"]

    child = spawn(document, out)                            # resumes at the third question
    screen = answer(child, "placeholder", "\r")
    assert marked(screen) == "M." and "question 3 of 7" in screen
    child.expect(PROMPTS["placeholder"])                    # at M-GmbH, the terminal is closed
    child.close(force=True)
    assert len(read_jsonl(out / "decisions.jsonl")) == 4

    # Ctrl-C after one more answer, the tool started with SIGINT ignored (as a test run or a job in
    # the background starts it): the key interrupts all the same
    child = spawn(document, out, preexec_fn=_ignore_sigint)
    assert marked(answer(child, "placeholder", "\r")) == "M-GmbH"
    child.expect(PROMPTS["placeholder"])
    child.sendintr()
    child.expect("interrupted; finished work is saved")
    assert finish(child) == 130

    child = spawn(document, out)
    for expected in QUESTIONS[4:]:
        assert marked(answer(child, "placeholder", "\r")) == expected
    answer(child, "correction", "n")
    assert finish(child) == 0
    decisions = read_jsonl(out / "decisions.jsonl")
    assert [d["element"] for d in decisions] == ["A.", "B.", "Kstraße", "M.", "M-GmbH.", "K.", "K.", "K."]
    gold, values = gold_values(out)
    assert len(values) == 7
    assert values[0][0] == first[0]["replacement"]          # the value chosen before the kill
    assert values[4][0] == values[5][0] == values[6][0]
    assert "Anw alt" in gold["text"]                        # correction refused


def test_auto_on_ler_document_gives_gold_spans_at_replacements(tmp_path):
    with gzip.open(ROOT / "rulings_anon" / "data" / "ler" / "bgh.jsonl.gz", "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for _, line in zip(range(2), handle, strict=False)]
    source = tmp_path / "bgh.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "out"
    script = ("import sys; from rulings_anon.cli import main; "
              f"code = main(['replace', {str(source)!r}, '--out', {str(out)!r}, '--auto']); "
              "print('tensorflow' in sys.modules); sys.exit(code)")
    run = subprocess.run([sys.executable, "-c", script], env=ENV, cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("False")            # replace never imports TensorFlow

    from rulings_anon.placeholders.detector import PlaceholderDetector

    detector = PlaceholderDetector()
    gold = read_jsonl(out / "pseudonymized.jsonl")
    tables = {t["id"]: t["replacements"] for t in read_jsonl(out / "replacements.jsonl")}
    assert [g["id"] for g in gold] == [r["id"] for r in records]
    found = 0
    for record, doc in zip(records, gold, strict=True):
        detected = detector.detect(record["text"])
        assert len(doc["spans"]) == len(detected)
        values = {t["replacement"] for t in tables[doc["id"]]}
        for span, placeholder in zip(doc["spans"], detected, strict=True):
            value = doc["text"][span["start"]:span["end"]]
            assert value in values and value != placeholder.text
            found += 1
    assert found >= 3

    # a second run resumes: nothing asked, nothing added
    size = (out / "decisions.jsonl").stat().st_size
    rerun = subprocess.run([sys.executable, "-m", "rulings_anon.interactive", "replace", str(source), "--out", str(out), "--auto"],
                           env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert rerun.returncode == 0 and (out / "decisions.jsonl").stat().st_size == size
    assert read_jsonl(out / "pseudonymized.jsonl") == gold

    # --names foreign: a test set for models trained on the German name lists names nobody of them
    from rulings_anon.replacement.surrogates import german_pools

    listed = set().union(*(german_pools()[p] for p in ("surname", "first_male", "first_female", "city")))
    foreign = subprocess.run([sys.executable, "-m", "rulings_anon.interactive", "replace", str(source), "--out",
                              str(tmp_path / "foreign"), "--auto", "--names", "foreign"],
                             env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert foreign.returncode == 0, foreign.stderr
    person_words = [w for t in read_jsonl(tmp_path / "foreign" / "replacements.jsonl") for r in t["replacements"]
                    if r["type"] == "person" for w in r["replacement"].split() if w[:1].isupper() and len(w) > 3]
    assert person_words and not set(person_words) & listed


def test_without_terminal_or_with_bad_input_one_line_error(document, tmp_path):
    run = subprocess.run([sys.executable, "-m", "rulings_anon.interactive", "replace", str(document), "--out", str(tmp_path / "o")],
                         env=ENV, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "add --auto" in run.stderr
    missing = subprocess.run([sys.executable, "-m", "rulings_anon.interactive", "replace", str(tmp_path / "none.txt"), "--out",
                              str(tmp_path / "o"), "--auto"], env=ENV, cwd=ROOT, capture_output=True, text=True)
    assert missing.returncode == 2 and "none.txt: no such file" in missing.stderr
