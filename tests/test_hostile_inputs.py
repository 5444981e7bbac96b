"""Nothing stale, nothing overwritten, nothing unbounded: real files, real processes.

Each test names the case of the issue it pins. Commands run as subprocesses where what matters is
what a user sees (exit code, one line on stderr, no traceback, no file left behind) or a signal.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from command_line import ROOT, assert_one_line_error, cli, leftovers
from partial_runs import wait_for_saved

from rulings_anon import data
from rulings_anon.cli import main
from rulings_anon.jsonl import read_jsonl, write_jsonl

PORTAL = Path(__file__).resolve().parent / "fixtures" / "portal"


def bsg_documents(count: int) -> list[dict]:
    """The first ``count`` rulings of the bundled (anonymized) BSG corpus as ``{"id", "text"}``."""
    records = list(read_jsonl(data.ler_corpus_files(["bsg"])[0]))[:count]
    return [{"id": r["id"], "text": r["text"][:4000]} for r in records]


# -- 1 and 9: a killed score run resumes only its own work, also after a torn write ---------------

# score as a user runs it, but one document per chunk and a pause after each, so that a kill lands
# half-way through the run whatever the speed of the machine.
SLOW_SCORE = ("import sys, time, rulings_anon.scoring.score_run as s; s.CHUNK_ELEMENTS = 1; score = s.Scorer.score\n"
              "s.Scorer.score = lambda self, chunk: (time.sleep(0.15), score(self, chunk))[1]\n"
              "from rulings_anon.cli import main; sys.exit(main(sys.argv[1:]))")


SAME = ("--threshold", "0.99", "--no-batch-vocabulary", "--combine", "ner")  # the NER-alone scorer


@pytest.fixture(scope="module")
def killed_run(tmp_path_factory):
    """A real ``score --threshold 0.99 --no-batch-vocabulary --combine ner`` process killed (SIGKILL) after some of its 16 documents
    (the first 4,000 characters of bundled BSG rulings) were saved."""
    folder = tmp_path_factory.mktemp("killed")
    docs = folder / "docs.jsonl"
    write_jsonl(docs, bsg_documents(16))
    out = folder / "spans.jsonl"
    partial = folder / ".spans.jsonl.partial"
    child = subprocess.Popen([sys.executable, "-c", SLOW_SCORE, "score", str(docs), "--output", str(out),
                              *SAME], cwd=ROOT, stderr=subprocess.PIPE)
    wait_for_saved(child, partial, 4)  # the key and 3 documents
    child.send_signal(signal.SIGKILL)
    child.wait()
    saved = [json.loads(line) for line in partial.read_bytes().splitlines() if line.endswith(b"}")]
    assert 4 <= len(saved) < 17 and not out.exists()
    return folder, docs, partial.read_bytes()


def _rerun(killed_run, tmp_path, *options, torn: bytes = b"") -> tuple[Path, str]:
    folder, docs, partial = killed_run
    (tmp_path / ".spans.jsonl.partial").write_bytes(partial + torn)
    out = tmp_path / "spans.jsonl"
    done = cli("score", docs, "--output", out, *options)
    assert done.returncode == 0, done.stderr
    assert leftovers(tmp_path) == []
    return out, done.stderr


def _reference(killed_run, tmp_path, *options) -> list[dict]:
    out = tmp_path / "reference.jsonl"
    assert main(["score", str(killed_run[1]), "--output", str(out), *options]) == 0
    return list(read_jsonl(out))


def test_case1_a_killed_run_rerun_with_other_options_starts_over(killed_run, tmp_path):
    out, err = _rerun(killed_run, tmp_path, "--threshold", "0.1")
    assert "resumed" not in err and "discarded" in err
    assert list(read_jsonl(out)) == _reference(killed_run, tmp_path, "--threshold", "0.1")


def test_case1_a_changed_text_or_option_of_the_output_is_scored_again(killed_run, tmp_path):
    folder, docs, partial = killed_run
    saved = [json.loads(line) for line in partial.splitlines()[1:] if line.endswith(b"}")]
    changed = tmp_path / "docs.jsonl"
    records = list(read_jsonl(docs))
    records[0]["text"] = "Der Kläger Herr Thomas Wimmer wohnt in Aichach."  # scored before the kill
    assert records[0]["id"] == saved[0]["id"]
    write_jsonl(changed, records)
    (tmp_path / ".spans.jsonl.partial").write_bytes(partial)
    out = tmp_path / "spans.jsonl"
    done = cli("score", changed, "--output", out, *SAME)
    assert done.returncode == 0 and f"{len(saved) - 1} resumed" in done.stderr
    first = next(read_jsonl(out))
    assert {s["text"] for s in first["spans"]} >= {"Thomas Wimmer"}
    # adding --anonymize changes what is kept per document: the run starts over and writes it
    (tmp_path / ".spans.jsonl.partial").write_bytes(partial)
    done = cli("score", docs, "--output", out, *SAME, "--anonymize", tmp_path / "anon.jsonl")
    assert done.returncode == 0 and "resumed" not in done.stderr
    assert len(list(read_jsonl(tmp_path / "anon.jsonl"))) == 16


def test_case9_a_run_killed_in_the_middle_of_a_write_resumes(killed_run, tmp_path):
    # The kill tore the last line inside a two-byte character ("ä" is b"\xc3\xa4").
    torn = b'{"id": "x", "spans": [{"start": 1, "end": 9, "text": "Kl\xc3'
    out, err = _rerun(killed_run, tmp_path, *SAME, torn=torn)
    saved = killed_run[2].count(b"\n") - 1
    assert f"{saved} resumed" in err
    assert list(read_jsonl(out)) == _reference(killed_run, tmp_path, *SAME)


# -- 2: one safe, distinct file per id -------------------------------------------------------------

IDS = ["a/b", "a_b", ".hidden", "x" * 300, "A", "a", "../up", "plain-1", "plain-1-0123456789"]


def test_case2_file_names_are_unique_safe_and_bounded_for_any_id():
    from rulings_anon.filenames import file_stems

    stems = file_stems(IDS)
    assert len(set(stems)) == len(IDS) and len({s.casefold() for s in stems}) == len(IDS)
    assert all(not s.startswith(".") and "/" not in s and len(s.encode()) <= 120 for s in stems)
    assert stems[1] == "a_b" and stems[7] == "plain-1"  # plain short ids stay as they are
    assert stems[0] != "a_b" and stems[0].startswith("a_b-")
    assert stems[8] != "plain-1-0123456789"  # looks hashed, so it is hashed itself
    with pytest.raises(ValueError, match="given twice"):
        file_stems(["a", "a"])


def test_case2_score_writes_one_file_per_document_whatever_its_id(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": i, "text": f"Herr Kemper zahlt an Frau Maier, Nummer {n}."} for n, i in enumerate(IDS)])
    done = cli("score", docs, "--output", tmp_path / "spans.jsonl", "--anonymize", tmp_path / "anon",
               "--pseudonymize", tmp_path / "pseudo")
    assert done.returncode == 0, done.stderr
    for folder in ("anon", "pseudo"):
        files = sorted((tmp_path / folder).iterdir())
        index = list(read_jsonl(tmp_path / folder / "index.jsonl"))
        assert [r["id"] for r in index] == IDS and len(files) == len(IDS) + 1
        assert not any(f.name.startswith(".") for f in files)
        for record, n in zip(index, range(len(IDS))):
            assert (tmp_path / folder / record["file"]).read_text(encoding="utf-8").endswith(f"Nummer {n}.")
    assert leftovers(tmp_path) == []


def test_case2_split_archives_hold_one_safe_member_per_id_and_read_back_whole(tmp_path):
    import tarfile

    from rulings_anon.inputs import read_documents

    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": i, "court": "AG X" if n % 2 else "AG Y", "text": f"Der Kläger K. zahlt {n}."}
                       for n, i in enumerate(IDS)])
    done = cli("split", docs, "--out", tmp_path / "split", "--holdout-court", "AG X")
    assert done.returncode == 0, done.stderr
    names, back = [], {}
    for side in ("train", "test"):
        with tarfile.open(tmp_path / "split" / f"{side}.tar.gz") as archive:
            names += [m.name for m in archive.getmembers() if m.name.startswith("texts/")]
        back |= {d.id: d.text for d in read_documents([tmp_path / "split" / f"{side}.tar.gz"])}
    assert len(set(names)) == len(IDS) and all(len(n) < 130 and "/." not in n for n in names)
    assert back == {i: f"Der Kläger K. zahlt {n}." for n, i in enumerate(IDS)}


# -- 3: ids unique across one input ----------------------------------------------------------------

def test_case3_same_file_name_in_two_folders_is_an_error_not_a_dropped_ruling(tmp_path):
    for folder, party in (("a", "K."), ("b", "M.")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "urteil.txt").write_text(f"Der Kläger {party} verlangt Zahlung.", encoding="utf-8")
    done = cli("fetch", "--source", "files", tmp_path / "a", tmp_path / "b", "--out", tmp_path / "corpus")
    assert_one_line_error(done, "'urteil'", "a/urteil.txt", "b/urteil.txt")
    done = cli("detect-placeholders", tmp_path / "a", tmp_path / "b", "--output", tmp_path / "spans.jsonl")
    assert_one_line_error(done, "'urteil'")
    assert not (tmp_path / "spans.jsonl").exists() and leftovers(tmp_path) == []
    # the same file named twice (itself and its folder) is one ruling, not a conflict
    done = cli("detect-placeholders", tmp_path / "a", tmp_path / "a" / "urteil.txt", "--output", tmp_path / "s.jsonl")
    assert done.returncode == 0 and [r["id"] for r in read_jsonl(tmp_path / "s.jsonl")] == ["urteil"]
    # score too: one document, scored once, and its batch vocabulary counts it once
    done = cli("score", tmp_path / "a", tmp_path / "a" / "urteil.txt", "--output", tmp_path / "twice.jsonl")
    assert done.returncode == 0, done.stderr
    once = cli("score", tmp_path / "a", "--output", tmp_path / "once.jsonl")
    assert once.returncode == 0, once.stderr
    assert [r["id"] for r in read_jsonl(tmp_path / "twice.jsonl")] == ["urteil"]
    assert list(read_jsonl(tmp_path / "twice.jsonl")) == list(read_jsonl(tmp_path / "once.jsonl"))


def test_case3_detect_placeholders_refuses_two_lines_of_one_id(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": "x", "text": "Herr K. zahlt."}, {"id": "x", "text": "Frau M. zahlt."}])
    done = cli("detect-placeholders", docs, "--output", tmp_path / "spans.jsonl")
    assert_one_line_error(done, "two input documents have the id 'x'")
    assert list(tmp_path.iterdir()) == [docs]


# -- 4: ZIP bombs stop early -----------------------------------------------------------------------

# The command's peak memory in KB: VmHWM of its own address space (ru_maxrss would count the
# memory of the forking pytest process too).
PEAK_MEMORY = ("import re, sys; from rulings_anon.cli import main; main(sys.argv[1:]); "
               "print(re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1])")


def zip_of_zeros(path: Path, megabytes: int, name: str = "bomb.xml") -> Path:
    """A ZIP holding one entry of ``megabytes`` MB of zeros (about 1,000 times smaller on disk)."""
    block = b"\0" * (1 << 20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, archive.open(name, "w", force_zip64=True) as entry:
        for _ in range(megabytes):
            entry.write(block)
    return path


def test_case4_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path):
    bomb = zip_of_zeros(tmp_path / "bomb.zip", 200)
    assert bomb.stat().st_size < 1 << 20
    done = cli("detect-placeholders", bomb, "--output", tmp_path / "spans.jsonl")
    assert_one_line_error(done, "bomb.xml", "ZIP bomb")
    measured = subprocess.run([sys.executable, "-c", PEAK_MEMORY, "detect-placeholders", str(bomb), "--output",
                               str(tmp_path / "spans.jsonl")], capture_output=True, text=True, cwd=ROOT)
    assert int(measured.stdout) < 150_000  # kilobytes: the 200 MB were never held
    # an entry within the size bound that inflates a thousand times its compressed size
    ratio_bomb = zip_of_zeros(tmp_path / "ratio.zip", 8)
    done = cli("fetch", "--source", "files", ratio_bomb, "--out", tmp_path / "corpus")
    assert_one_line_error(done, "inflates more than 200 times")
    assert not (tmp_path / "corpus").exists() and not (tmp_path / "spans.jsonl").exists()


def test_case4_a_portal_answer_is_bounded_too(tmp_path):
    """A server that sends (or declares) more than a ruling can be: the download stops early."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from rulings_anon.fetcher.client import MAX_RESPONSE_BYTES, FetchError, PoliteClient, Politeness

    class Endless(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            if self.path == "/robots.txt":
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            if self.path == "/declared":
                self.send_header("Content-Length", str(10 * MAX_RESPONSE_BYTES))
                self.end_headers()
                return
            self.send_header("Transfer-Encoding", "chunked")  # no length: more and more zeros
            self.end_headers()
            block = b"\0" * (1 << 20)
            try:
                for _ in range(2 * (MAX_RESPONSE_BYTES >> 20)):
                    self.wfile.write(f"{len(block):x}\r\n".encode() + block + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Endless)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        client = PoliteClient(f"http://127.0.0.1:{httpd.server_address[1]}", Politeness(delay=0, retries=0),
                              log=lambda message: None)
        with pytest.raises(FetchError, match="declares 671,088,640 bytes"):
            client.get("/declared")
        with pytest.raises(FetchError, match="more than 67,108,864 bytes: download stopped"):
            client.get("/endless")
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_case4_a_gzip_bomb_of_jsonl_stops_at_the_first_overlong_line(tmp_path):
    import gzip

    bomb = tmp_path / "docs.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as handle:
        handle.write(b'{"id": "a", "text": "')
        for _ in range(100):
            handle.write(b" " * (1 << 20))  # 100 MB of one line
    assert bomb.stat().st_size < 1 << 20
    done = subprocess.run([sys.executable, "-c", PEAK_MEMORY, "detect-placeholders", str(bomb), "--output",
                           str(tmp_path / "spans.jsonl")], capture_output=True, text=True, cwd=ROOT)
    assert "docs.jsonl.gz:1: line longer than 64 MB" in done.stderr and "Traceback" not in done.stderr
    assert int(done.stdout) < 250_000  # KB: the line was not read whole


# -- 5: no tracebacks, no partial files ------------------------------------------------------------

def test_case5_bad_output_paths_end_in_one_line_before_any_work(tmp_path):
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": "a", "text": "Herr Kemper zahlt."}])
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    cases = [
        (["--output", tmp_path / "folder"], "--output names a folder"),
        (["--output", tmp_path / "o.jsonl", "--anonymize", tmp_path / "file.txt"], "--anonymize names a file"),
        (["--output", tmp_path / "file.txt" / "o.jsonl"], "is a file"),
        (["--output", tmp_path / "o.jsonl", "--pseudonymize", tmp_path / "folder"], None),  # a folder is fine
    ]
    for options, message in cases:
        done = cli("score", docs, *options)
        if message is None:
            assert done.returncode == 0, done.stderr
        else:
            assert_one_line_error(done, message)
        assert leftovers(tmp_path) == []
    for options in (["--output", "-"], ["--output", tmp_path / "p.jsonl", "--anonymize", "-"]):
        done = cli("score", docs, *options, cwd=tmp_path)  # "-" is no standard output: refused, no file "-"
        assert_one_line_error(done, f"{options[-2]} -: outputs are files")
        assert not (tmp_path / "-").exists() and not (tmp_path / "p.jsonl").exists()
    done = cli("pipeline", "--config", tmp_path / "folder")
    assert_one_line_error(done, "is a folder, not a JSON file")
    done = cli("detect-placeholders", docs, "--output", tmp_path / "folder")
    assert_one_line_error(done, "--output names a folder")


def test_case5_an_unforeseen_os_error_is_one_line(tmp_path, monkeypatch, capsys):
    import rulings_anon.placeholders.detector as placeholders

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path / "x"))

    monkeypatch.setattr(placeholders.PlaceholderDetector, "detect", refuse)
    docs = tmp_path / "docs.jsonl"
    write_jsonl(docs, [{"id": "a", "text": "Herr K. zahlt."}])
    assert main(["detect-placeholders", str(docs), "--output", str(tmp_path / "o.jsonl")]) == 1
    assert capsys.readouterr().err.strip() == f"rulings-anon detect-placeholders: error: Permission denied: {tmp_path / 'x'}"
    assert leftovers(tmp_path) == []


# -- 6: evaluate needs gold ------------------------------------------------------------------------

def test_case6_evaluate_refuses_a_test_set_without_gold(tmp_path):
    (tmp_path / "ruling.txt").write_text("Herr Kemper zahlt.", encoding="utf-8")
    write_jsonl(tmp_path / "nogold.jsonl", [{"id": "a", "text": "Herr Kemper zahlt.", "spans": []},
                                           {"id": "b", "text": "Frau Maier zahlt."}])
    for test in ("ruling.txt", "nogold.jsonl"):
        done = cli("evaluate", "--test", tmp_path / test, "--method", "ner", "--report", tmp_path / "r.md")
        assert_one_line_error(done, "no gold 'spans'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nogold.jsonl", "ruling.txt"]


# -- 7: surrogates keep their kind -----------------------------------------------------------------

STREETS = ["Hauptstraße 4", "Hauptstr. 4a", "Bahnhofstraße 12-14", "Unter den Linden 5", "Kaiser-Wilhelm-Straße 7"]


@pytest.mark.parametrize("street", STREETS)
def test_case7_a_pseudonymized_street_stays_a_street_with_its_house_number(street):
    from rulings_anon.document import Span
    from rulings_anon.replacement.operators import pseudonymize_references as pseudonymize

    text = f"Er wohnt in der {street} in Aichach."
    new, spans = pseudonymize(text, [Span(16, 16 + len(street), street, type="street")], "d")
    value = new[spans[0]["start"]:spans[0]["end"]]
    assert spans[0]["type"] == "street" and new.endswith(" in Aichach.")
    assert value.split()[0] not in street
    head, number = value.rsplit(" ", 1)
    assert head.endswith(("straße", "str.")) and number.isdigit(), value


def test_case7_replace_auto_types_a_birth_date_as_a_date(tmp_path):
    from rulings_anon.replacement.type_inference import infer_type

    text = "Der Kläger K. wurde am ... geboren und wohnt in der Kstraße 4 in B."
    assert infer_type(text, text.index("..."), text.index("...") + 3) == "date"
    write_jsonl(tmp_path / "in.jsonl", [{"id": "x", "text": text}])
    done = cli("replace", tmp_path / "in.jsonl", "--out", tmp_path / "out", "--auto")
    assert done.returncode == 0, done.stderr
    (gold,) = read_jsonl(tmp_path / "out" / "pseudonymized.jsonl")
    kinds = {gold["text"][s["start"]:s["end"]]: s["type"] for s in gold["spans"]}
    date = next(v for v, k in kinds.items() if k == "date")
    assert f"am {date} geboren" in gold["text"] and date[:2].isdigit()
    street = next(v for v, k in kinds.items() if k == "street")
    assert street.startswith("K") and f"{street} 4 in" in gold["text"]  # the house number stays


# -- 8: the smaller ones ---------------------------------------------------------------------------

def test_case8_a_failed_fetch_leaves_no_corpus_behind(tmp_path):
    done = cli("fetch", "--source", "files", tmp_path / "missing", "--out", tmp_path / "corpus")
    assert_one_line_error(done, "no such file or directory")
    (tmp_path / "bad.jsonl").write_text("not json\n", encoding="utf-8")
    done = cli("fetch", "--source", "files", tmp_path / "bad.jsonl", "--out", tmp_path / "corpus")
    assert_one_line_error(done, "not valid JSON")
    assert not (tmp_path / "corpus").exists()


def test_case8_latin1_text_is_read_with_and_without_the_option(tmp_path):
    (tmp_path / "urteil.txt").write_bytes("Der Kläger K. verlangt Zahlung.".encode("latin-1"))
    for command in (["fetch", "--source", "files", tmp_path / "urteil.txt", "--out", tmp_path / "c"],
                    ["split", tmp_path / "urteil.txt", "--out", tmp_path / "s"],
                    ["detect-placeholders", tmp_path / "urteil.txt", "--output", tmp_path / "o.jsonl"]):
        first = cli(*command)  # detected as Latin-1 / Windows-1252 (split then wants a second ruling)
        assert "UTF-8" not in first.stderr and "Traceback" not in first.stderr
        done = cli(*command, "--encoding", "latin-1")
        assert "--encoding" not in done.stderr and "Traceback" not in done.stderr
    assert [r["text"] for r in read_jsonl(tmp_path / "c" / "rulings.jsonl")] == ["Der Kläger K. verlangt Zahlung."]


@pytest.mark.parametrize("command", [
    ["score", "{empty}", "--output", "{out}/o.jsonl"],
    ["detect-placeholders", "{empty}", "--output", "{out}/o.jsonl"],
    ["replace", "{empty}", "--out", "{out}/r", "--auto"],
    ["evaluate", "--test", "{empty}", "--method", "ner"],
    ["preprocess", "{empty}", "--out", "{out}/data"],
    ["split", "{empty}", "--out", "{out}/split"],
    ["fetch", "--source", "files", "{empty}", "--out", "{out}/corpus"],
])
def test_case8_one_rule_for_an_empty_jsonl_refuse_it_in_one_line(command, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    out = tmp_path / "out"
    done = cli(*[a.format(empty=empty, out=out) for a in command])
    assert_one_line_error(done, "empty.jsonl: holds no documents")
    assert not out.exists()


def test_case8_an_interrupted_atomic_write_leaves_no_lasting_tmp_file(tmp_path):
    target = tmp_path / "out.jsonl"
    writer = ("import sys, time; from rulings_anon.jsonl import atomic_writer\n"
              "with atomic_writer(sys.argv[1]) as handle:\n"
              "    handle.write('half'); handle.flush(); print('writing', flush=True); time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", writer, str(target)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "writing\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert len(leftovers(tmp_path)) == 1  # the killed writer's temporary file
    alive = tmp_path / f".out.jsonl.{os.getppid()}.keepme.tmp"  # a live writer's: not touched
    alive.write_text("", encoding="utf-8")
    write_jsonl(target, [{"id": "a"}])
    assert leftovers(tmp_path) == [alive.name] and list(read_jsonl(target)) == [{"id": "a"}]


def test_case8_scores_progress_counts_elements(tmp_path, monkeypatch):
    import io

    from rulings_anon.analyzer.decisions import Settings
    from rulings_anon.document import Document, count_elements
    from rulings_anon.scoring.score_run import Scorer, ScoreRun, score_documents

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    text = "Herr Kemper zahlt an die Beklagte. " * 2_000
    documents = [Document("big", text)]
    scorer = Scorer(None, Settings(0.8, combination="ner"), ner=None, recognizers=False)
    scorer.score = lambda chunk: [[] for _ in chunk]
    run = ScoreRun(tmp_path / "spans.jsonl")
    total = count_elements(text)
    score_documents(scorer, documents, run, progress=True, elements=total)
    shown = terminal.getvalue()
    assert "elements" in shown
    assert f"{total / 1000:.1f}k/{total / 1000:.1f}k" in shown
