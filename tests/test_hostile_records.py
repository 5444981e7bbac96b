"""Hostile records, run as a user runs the commands: names never in an error message, control
characters never raw on the terminal, odd JSON refused in one line instead of a traceback or a
silent surprise, UTF-16 text read as such.

The cases: a span whose text does not match the document (the name must not reach stderr);
``score --show`` and the error messages with escape sequences and bidi overrides from a ruling, an
id or a file name; a lone surrogate, a key given twice, an id that is true, a number of 5,000
digits or a very long string, a span score that is a string, a split archive whose metadata names
its file as a list, a pipeline stage whose command is no list; a UTF-16 file with and without a
byte-order mark.
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest
from command_line import ROOT, assert_one_line_error, cli

from rulings_anon.escapes import printable
from rulings_anon.jsonl import read_jsonl

TEXT = "Der Kläger Meyer verlangt von der Beklagten M-GmbH Zahlung."

# Every command that reads rulings, with the options that make it run; {doc} is the input, {out} a
# fresh folder.
COMMANDS = {
    "score": ["score", "{doc}", "--output", "{out}/spans.jsonl"],
    "detect-placeholders": ["detect-placeholders", "{doc}", "--output", "{out}/spans.jsonl"],
    "replace": ["replace", "{doc}", "--out", "{out}/review", "--auto"],
    "fetch": ["fetch", "--source", "files", "{doc}", "--out", "{out}/corpus"],
    "split": ["split", "{doc}", "--out", "{out}/split"],
}


def run(command: str, doc: Path, tmp_path: Path):
    out = tmp_path / "out"
    done = cli(*[a.format(doc=doc, out=out) for a in COMMANDS[command]])
    return done, out


def write_line(path: Path, line: str) -> Path:
    path.write_text(line + "\n", encoding="utf-8")
    return path


# -- names never in an error message ----------------------------------------------------------

MISMATCHES = {
    "text that differs": {"start": 11, "end": 16, "text": "Müller", "type": "person"},
    "no start": {"end": 16, "text": "Müller"},
    "a name as start": {"start": "Müller", "end": 16},
    "a name as type": {"start": 11, "end": 16, "type": ["Müller"]},
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("span", MISMATCHES.values(), ids=MISMATCHES)
def test_a_wrong_gold_span_is_refused_naming_line_and_span_never_the_names(command, span, tmp_path):
    doc = write_line(tmp_path / "gold.jsonl", json.dumps({"id": "a", "text": TEXT, "spans": [span]}))
    done, out = run(command, doc, tmp_path)
    assert_one_line_error(done, "gold.jsonl:1: span 1: ")
    assert "Müller" not in done.stderr and "Meyer" not in done.stderr
    assert not out.exists()


def test_a_mismatching_span_text_says_which_offsets_differ(tmp_path):
    doc = write_line(tmp_path / "gold.jsonl", json.dumps({"id": "a", "text": TEXT,
                                                          "spans": [MISMATCHES["text that differs"]]}))
    assert_one_line_error(cli("evaluate", "--test", doc, "--method", "ner"),
                          "gold.jsonl:1: span 1: [11, 16): its 'text' differs from the document's text there")


# -- control characters never raw on the terminal ---------------------------------------------

CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"  # OSC 52: write the clipboard
CLEAR = "\x1b[2J"
RAW = ("\x1b", "\x07", "\u202e", "\u200b", "\x9b")


def test_score_show_prints_escape_sequences_and_bidi_overrides_escaped(tmp_path):
    text = f"Der Kläger K. {CLIPBOARD}verlangt {CLEAR}von Herrn \u202eWimmer\u200b Zahlung\x9b."
    doc = write_line(tmp_path / "docs.jsonl", json.dumps({"id": f"a{CLEAR}b\u202e", "text": text}))
    done = cli("score", doc, "--output", tmp_path / "spans.jsonl", "--show")
    assert done.returncode == 0, done.stderr
    assert not any(c in done.stdout for c in RAW), done.stdout
    assert "\\x1b]52;c;cm0gLXJmIH4=\\x07verlangt \\x1b[2Jvon" in done.stdout
    # the marks around the placeholder are shown escaped; the normalized text lets score find it too
    assert "== a\\x1b[2Jb\\u202e (" in done.stdout and "\\u202e«Wimmer»\\u200b" in done.stdout


def test_an_error_naming_a_file_shows_its_control_characters_escaped(tmp_path):
    folder = tmp_path / f"x{CLEAR}\u202e"
    folder.mkdir()
    empty = write_line(folder / "empty.jsonl", "")
    done = cli("detect-placeholders", empty, "--output", tmp_path / "o.jsonl")
    assert_one_line_error(done, "x\\x1b[2J\\u202e/empty.jsonl: holds no documents")
    assert not any(c in done.stderr for c in RAW)


def test_a_file_name_with_a_newline_still_gives_one_line(tmp_path):
    folder = tmp_path / "a\nb"
    folder.mkdir()
    empty = write_line(folder / "empty.jsonl", "")
    done = cli("detect-placeholders", empty, "--output", tmp_path / "o.jsonl")
    assert_one_line_error(done, "a\\nb/empty.jsonl: holds no documents")


def test_fetch_reports_a_dropped_ruling_with_its_id_escaped(tmp_path):
    record = {"id": f"k{CLIPBOARD}", "text": "Die Klage ist begründet."}
    doc = write_line(tmp_path / "docs.jsonl", json.dumps(record))
    done = cli("fetch", "--source", "files", doc, "--out", tmp_path / "corpus")
    assert done.returncode == 0, done.stderr
    assert f"dropped k{printable(CLIPBOARD)}: no anonymization placeholders found" in done.stderr
    assert not any(c in done.stderr for c in RAW)


class _Screen:
    """What the terminal tool's dialogue writes, styles marked as [[ ]]."""

    def __init__(self):
        self.written = []

    def write(self, text):
        self.written.append(text)

    def style(self, text, name):
        return f"[[{text}]]"

    def clear(self):
        pass


class _Progress:
    def progress(self):
        return {"elements_done": 0, "elements_left": 3, "questions_done": 0, "questions": 1}


def test_the_terminal_tool_shows_a_ruling_and_its_id_escaped():
    from rulings_anon.interactive.dialogue import Dialogue

    screen = _Screen()
    dialogue = Dialogue(screen, _Progress(), f"id{CLEAR} (document 1 of 1)")
    text = f"Der Kläger {CLIPBOARD}K. verlangt\u202e Zahlung.\n\nZweiter Absatz."
    dialogue._header()
    dialogue._context(text, text.index("K."), text.index("K.") + 2)
    shown = "".join(screen.written)
    assert not any(c in shown for c in RAW), shown
    assert "id\\x1b[2J (document 1 of 1)" in shown
    assert f"Der Kläger {printable(CLIPBOARD)}[[K.]] verlangt\\u202e Zahlung." in shown


def test_printable_keeps_text_and_layout_and_escapes_controls():
    assert printable("Müller, „Kläger“\n\tZeile\r\n") == "Müller, „Kläger“\n\tZeile\r\n"
    assert printable("a\rb\x00\x7f\u2066\u2069\ufeff\u2028") == "a\\rb\\x00\\x7f\\u2066\\u2069\\ufeff\\u2028"
    assert printable("a\nb\tc", one_line=True) == "a\\nb\\tc"


# -- odd JSON: one line, never a traceback or a silent surprise ---------------------------------

def _tar_with_metadata(path: Path, metadata: dict) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, content in (("metadata.jsonl", json.dumps(metadata) + "\n"), ("a.txt", TEXT)):
            raw = content.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size = len(raw)
            archive.addfile(info, io.BytesIO(raw))
    return path


SPAN = "docs.jsonl:1: span 1: "
ARCHIVE = "split.tar.gz:metadata.jsonl:1: "
HOSTILE = {
    # name: (file name, its line or the archive's metadata, the words of the error)
    "a lone surrogate": (
        "docs.jsonl", '{"id": "a", "text": "Der Kl\\u00e4ger \\ud800K."}',
        "docs.jsonl:1: a lone UTF-16 surrogate \\ud800 in a string: not valid text"),
    "a lone surrogate in a key": (
        "docs.jsonl", '{"id": "a", "text": "K.", "\\udc00": 1}',
        "docs.jsonl:1: a lone UTF-16 surrogate \\udc00 in a string: not valid text"),
    "the key text twice": (
        "docs.jsonl", '{"id": "a", "text": "Der Kläger K.", "text": "Der Beklagte M."}',
        "docs.jsonl:1: the key 'text' appears twice in one object: give each key once"),
    "a span key twice": (
        "docs.jsonl", '{"id": "a", "text": "K.", "spans": [{"start": 0, "end": 2, "end": 1}]}',
        "docs.jsonl:1: the key 'end' appears twice in one object"),
    "an id that is true": (
        "docs.jsonl", json.dumps({"id": True, "text": TEXT}),
        "docs.jsonl:1: docs-1: 'id' must be a string or an integer, not true/false"),
    "an id of 5,000 digits": (
        "docs.jsonl", '{"id": ' + "9" * 5000 + ', "text": "K."}',
        "docs.jsonl:1: a number of more than 4300 digits: too long to read"),
    "an id of 1,200 characters": (
        "docs.jsonl", json.dumps({"id": "x" * 1200, "text": TEXT}),
        "docs.jsonl:1: docs-1: 'id' is 1,200 characters long; an id has at most 1,000"),
    "a span score that is a string": (
        "docs.jsonl", json.dumps({"id": "a", "text": TEXT, "spans": [{"start": 0, "end": 3, "score": "hi"}]}),
        SPAN + "'score' must be a number in 0..1, not a string"),
    "a span score out of range": (
        "docs.jsonl", json.dumps({"id": "a", "text": TEXT, "spans": [{"start": 0, "end": 3, "score": 7}]}),
        SPAN + "the score 7 is not in 0..1"),
    "spans that are no list": (
        "docs.jsonl", json.dumps({"id": "a", "text": TEXT, "spans": "Meyer"}),
        "docs.jsonl:1: docs-1: 'spans' must be a list, not a string"),
    "an archive whose file is a list": (
        "split.tar.gz", {"id": "a", "file": []},
        ARCHIVE + "not a JSON object with 'file' naming a member of the archive"),
    "an archive with a wrong span": (
        "split.tar.gz", {"id": "a", "file": "a.txt", "spans": [{"start": 0, "end": "x"}]},
        ARCHIVE + "span 1: 'end' must be an integer, not a string"),
    "an archive with an id that is true": (
        "split.tar.gz", {"id": True, "file": "a.txt"},
        ARCHIVE + "a: 'id' must be a string or an integer"),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", HOSTILE.values(), ids=HOSTILE)
def test_odd_json_is_refused_in_one_line_by_every_command(command, case, tmp_path):
    name, content, words = case
    if name.endswith(".tar.gz"):
        doc = _tar_with_metadata(tmp_path / name, content)
    else:
        doc = write_line(tmp_path / name, content)
    done, out = run(command, doc, tmp_path)
    assert_one_line_error(done, words)
    assert not out.exists()


@pytest.mark.parametrize("command", ["split corpus --out split", 5, ["split", 5], [], None])
def test_a_pipeline_stage_whose_command_is_no_list_of_strings_is_refused(command, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"run_dir": str(tmp_path / "run"),
                                  "stages": [{"name": "split", "command": command}]}), encoding="utf-8")
    done = cli("pipeline", "--config", config, "--list")
    assert_one_line_error(done, "config.json: stage 'split': 'command' must be a non-empty list of strings")


def test_a_pipeline_stage_whose_inputs_are_a_string_is_refused(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"run_dir": str(tmp_path / "run"), "stages": [
        {"name": "split", "command": ["split", "corpus", "--out", "split"], "inputs": "corpus"}]}),
        encoding="utf-8")
    assert_one_line_error(cli("pipeline", "--config", config, "--list"),
                          "stage 'split': 'inputs' must be a list of strings")


def test_a_config_with_a_key_twice_is_refused(tmp_path):
    config = tmp_path / "config.json"
    config.write_text('{"run_dir": "a", "run_dir": "b", "stages": []}', encoding="utf-8")
    assert_one_line_error(cli("pipeline", "--config", config, "--list"),
                          "config.json: the key 'run_dir' appears twice in one object")


# -- UTF-16 ------------------------------------------------------------------------------------

def _ruling_text() -> str:
    """The last part of the bundled example ruling: names to find, umlauts to decode."""
    return (ROOT / "rulings_anon" / "data" / "examples" / "urteil-bsg.txt").read_text(encoding="utf-8")[14000:]


def test_a_utf16_text_with_its_byte_order_mark_scores_as_its_utf8_twin(tmp_path):
    text = _ruling_text()
    spans = {}
    for encoding in ("utf-8", "utf-16", "utf-16-be", "utf-8-sig"):
        folder = tmp_path / encoding
        folder.mkdir()
        raw = text.encode(encoding)
        (folder / "urteil.txt").write_bytes(b"\xfe\xff" + raw if encoding == "utf-16-be" else raw)
        done = cli("score", folder / "urteil.txt", "--output", folder / "spans.jsonl")
        assert done.returncode == 0, done.stderr
        spans[encoding] = list(read_jsonl(folder / "spans.jsonl"))
    assert spans["utf-8"][0]["spans"], "the ruling has spans to compare"
    assert spans["utf-16"] == spans["utf-8"] == spans["utf-16-be"] == spans["utf-8-sig"]


def test_a_utf16_file_given_another_encoding_is_refused_by_its_byte_order_mark(tmp_path):
    (tmp_path / "urteil.txt").write_bytes(TEXT.encode("utf-16"))
    done = cli("detect-placeholders", tmp_path / "urteil.txt", "--output", tmp_path / "o.jsonl",
               "--encoding", "latin-1")
    assert_one_line_error(done, "urteil.txt: starts with a UTF-16 byte-order mark, so it is UTF-16 text, not "
                                "latin-1: leave out --encoding")


@pytest.mark.parametrize("text", [TEXT, "Der Klaeger K. verlangt Zahlung."], ids=["umlauts", "ascii"])
@pytest.mark.parametrize("encoding", [None, "latin-1"])
def test_utf16_without_a_byte_order_mark_is_never_advised_latin1(text, encoding, tmp_path):
    (tmp_path / "urteil.txt").write_bytes(text.encode("utf-16-le"))
    options = ["--encoding", encoding] if encoding else []
    done = cli("detect-placeholders", tmp_path / "urteil.txt", "--output", tmp_path / "o.jsonl", *options)
    if encoding is None:  # the default, UTF-8, failed: charset-normalizer tells UTF-16
        assert done.returncode == 0, done.stderr
        return
    line = assert_one_line_error(done, "(it looks like UTF-16 without a byte-order mark: "
                                       "pass --encoding utf-16-le)")
    assert "latin-1" not in line.split("urteil.txt")[1]
    done = cli("detect-placeholders", tmp_path / "urteil.txt", "--output", tmp_path / "o.jsonl",
               "--encoding", "utf-16-le")
    assert done.returncode == 0, done.stderr
    assert [r["id"] for r in read_jsonl(tmp_path / "o.jsonl")] == ["urteil"]
