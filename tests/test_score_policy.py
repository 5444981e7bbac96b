"""``score --policy`` (operators per type, allow and deny lists) and ``score --mapping`` (one
surrogate for one person across the rulings of a case and between runs), run as a user does."""

import json
import os

from command_line import assert_one_line_error, cli, leftovers

JUDGMENT = """Sozialgericht Augsburg

Urteil

In dem Rechtsstreit der Frau Erika Schulze, Hauptstraße 4, 86150 Augsburg, Klägerin, gegen die Deutsche
Rentenversicherung Schwaben, Beklagte, hat die 3. Kammer durch den Richter am Sozialgericht Jonas Brandl
für Recht erkannt: Die Klage wird abgewiesen.

Die Klägerin begehrt eine Rente. Frau Schulze war bis 2019 als Verkäuferin tätig. Der Zeuge Karl Sommer
bestätigte dies. Frau Schulzes Antrag vom 12.03.2019 lehnte die Beklagte ab.
"""
APPEAL = """Landessozialgericht München

Beschluss

In dem Rechtsstreit der Frau Erika Schulze, Klägerin und Berufungsklägerin, gegen die Deutsche
Rentenversicherung Schwaben wird die Berufung zurückgewiesen. Frau Schulze trägt keine Kosten.
"""


def test_the_policy_chooses_operators_and_its_lists_decide_the_spans(tmp_path):
    ruling = tmp_path / "urteil.txt"
    ruling.write_text(JUDGMENT, encoding="utf-8")
    policy = tmp_path / "gericht.toml"
    policy.write_text('allow = ["Karl Sommer"]\ndeny = ["Jonas Brandl"]\n[operators]\nperson = "tag"\n'
                      'street = "redact"\n', encoding="utf-8")
    done = cli("score", ruling, "--output", tmp_path / "spans.jsonl", "--anonymize", tmp_path / "anon.jsonl",
               "--policy", policy)
    assert done.returncode == 0, done.stderr
    text = json.loads((tmp_path / "anon.jsonl").read_text(encoding="utf-8"))["text"]
    assert "der Frau [Person 1], ███, 86150" in text and "Frau [Person 1] war" in text
    assert "Jonas Brandl" not in text  # denied: anonymized whatever the model says of the judge
    assert "Der Zeuge Karl Sommer" in text  # allowed: kept although the model flags it
    spans = [s["text"] for s in json.loads((tmp_path / "spans.jsonl").read_text(encoding="utf-8"))["spans"]]
    assert "Jonas Brandl" in spans and "Karl Sommer" not in spans
    # the run key holds the policy's content: the same command with another policy starts over
    policy.write_text('[operators]\nperson = "redact"\n', encoding="utf-8")
    again = cli("score", ruling, "--output", tmp_path / "spans.jsonl", "--anonymize", tmp_path / "anon.jsonl",
                "--policy", policy)
    assert again.returncode == 0, again.stderr
    assert "der Frau ███" in json.loads((tmp_path / "anon.jsonl").read_text(encoding="utf-8"))["text"]


def test_a_mapping_keeps_one_surrogate_per_person_across_the_rulings_of_a_case(tmp_path):
    (tmp_path / "urteil.txt").write_text(JUDGMENT, encoding="utf-8")
    (tmp_path / "beschluss.txt").write_text(APPEAL, encoding="utf-8")
    mapping = tmp_path / "fall.mapping.jsonl"
    names = []
    for name in ("urteil", "beschluss"):  # two runs, one ruling each
        out = tmp_path / f"{name}.pseudo.jsonl"
        done = cli("score", tmp_path / f"{name}.txt", "--output", tmp_path / f"{name}.spans.jsonl",
                   "--pseudonymize", out, "--mapping", mapping)
        assert done.returncode == 0, done.stderr
        text = json.loads(out.read_text(encoding="utf-8"))["text"]
        names.append(text.split("der Frau ")[1].split(",")[0])
        assert "Schulze" not in text
    assert names[0] == names[1] and len(names[0].split()) == 2
    assert os.stat(mapping).st_mode & 0o777 == 0o600
    entries = [json.loads(line) for line in mapping.read_text(encoding="utf-8").splitlines()]
    assert {"type": "person", "original": "schulze", "surrogate": names[0].split()[1]} in entries
    assert not leftovers(tmp_path)


def test_a_wrong_policy_is_one_line_naming_the_file_and_nothing_is_written(tmp_path):
    ruling = tmp_path / "urteil.txt"
    ruling.write_text(APPEAL, encoding="utf-8")
    policy = tmp_path / "gericht.toml"
    policy.write_text('[operators]\nperson = "schwärzen"\n', encoding="utf-8")
    done = cli("score", ruling, "--output", tmp_path / "spans.jsonl", "--policy", policy)
    assert_one_line_error(done, str(policy), "schwärzen")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gericht.toml", "urteil.txt"]


def test_score_help_names_the_policy_the_mapping_and_the_output_formats():
    done = cli("score", "--help")
    help_text = " ".join(done.stdout.split())
    assert "--policy FILE" in help_text and "--mapping FILE.jsonl" in help_text
    assert "PDF and RTF in: .docx out" in help_text and "holds real names" in help_text


def test_a_resumed_run_keeps_the_surrogates_its_interrupted_part_chose(tmp_path):
    from rulings_anon.scoring.score_run import ScoreRun

    mapping = tmp_path / "fall.mapping.jsonl"
    mapping.write_text('{"type": "person", "original": "erika", "surrogate": "Eleonore"}\n', encoding="utf-8")
    run = ScoreRun(tmp_path / "spans.jsonl", pseudonymize=tmp_path / "p.jsonl", key="k", mapping_path=mapping)
    added = {"type": "person", "original": "schulze", "surrogate": "Seip"}
    run.partial.write_text(json.dumps({"key": "k"}) + "\n" + json.dumps(
        {"id": "urteil", "digest": "d", "spans": [], "pseudonymized": {"text": "", "spans": []},
         "mapping": [added]}) + "\n", encoding="utf-8")
    assert run.done() == {"urteil": "d"}
    assert run.mapping.get("person", "Schulze") == "Seip" and run.mapping.get("person", "erika") == "Eleonore"
    run.finish()
    assert {json.loads(line)["original"] for line in mapping.read_text(encoding="utf-8").splitlines()} == {
        "erika", "schulze"}
    assert os.stat(mapping).st_mode & 0o777 == 0o600


STATE_RULING = ("Das Landratsamt Kelheim erteilte dem Kläger die Genehmigung für das Grundstück an der B 16. "
                "Der Kläger wohnt in Saal an der Donau.")


def test_a_shipped_policy_by_name_follows_the_conventions_of_state_courts(tmp_path):
    ruling = tmp_path / "urteil.txt"
    ruling.write_text(STATE_RULING, encoding="utf-8")
    found = {}
    for name in ("default", "state-court"):
        out = tmp_path / f"{name}.jsonl"
        done = cli("score", ruling, "--output", out, "--policy", name)
        assert done.returncode == 0, done.stderr
        found[name] = [(s["start"], s["end"], s["text"]) for s in json.loads(out.read_text(encoding="utf-8"))["spans"]]
    # the authority's seat and the road's number are anonymized at state courts, printed by default
    assert set(found["state-court"]) - set(found["default"]) == {(16, 23, "Kelheim"), (88, 90, "16")}
    assert not set(found["default"]) - set(found["state-court"])


def test_an_unknown_policy_name_is_one_line_naming_the_shipped_ones(tmp_path):
    ruling = tmp_path / "urteil.txt"
    ruling.write_text(STATE_RULING, encoding="utf-8")
    done = cli("score", ruling, "--output", tmp_path / "o.jsonl", "--policy", "landgericht")
    assert_one_line_error(done, "landgericht: no such policy file, nor a shipped policy (shipped: default, state-court)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["urteil.txt"]
