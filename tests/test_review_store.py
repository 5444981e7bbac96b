"""The review's SQLite state: decisions as rows with time and reviewer, undo, optimistic
concurrency between two connections, and nothing committed lost when the writer is killed."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from rulings_anon.errors import InputError
from rulings_anon.review.database import Conflict, ReviewDatabase

TEXT = "Der Kläger Thomas Wimmer wohnt in Aichach. Herr Wimmer klagt gegen die Stadt Aichach."


def make_review(path) -> ReviewDatabase:
    database = ReviewDatabase(path, create=True)
    with database.transaction() as c:
        database.add_ruling(c, 0, "r1", "r1.txt", TEXT, {"court": "BSG"})
        for start, end, kind in ((18, 24, "person"), (34, 41, "place"), (48, 54, "person"), (77, 84, "place")):
            database.add_suggestion(c, "r1", start, end, kind, 0.9, "model")
    return database


def states(database) -> dict[str, str]:
    return {f"{s.start}:{TEXT[s.start:s.end]}": s.state for s in database.spans("r1")}


def test_every_decision_is_a_row_with_time_and_reviewer(tmp_path):
    database = make_review(tmp_path / "r.sqlite")
    first = database.spans("r1")[0]
    database.decide("Huber", "r1", first.id, first.version, "accepted")
    aichach = database.spans("r1")[1]
    assert database.decide_mentions("Huber", "r1", aichach.id, aichach.version, "rejected") == 2
    log = database.decisions()
    assert [(d["action"], d["reviewer"]) for d in log] == [("accept", "Huber"), ("reject-all", "Huber"),
                                                           ("reject-all", "Huber")]
    assert all(d["time"].endswith("Z") and d["time"][:4].isdigit() for d in log)
    assert log[0]["before"]["state"] == "open" and log[0]["after"]["state"] == "accepted"
    assert states(database) == {"18:Wimmer": "accepted", "34:Aichach": "rejected", "48:Wimmer": "open",
                                "77:Aichach": "rejected"}


def test_undo_reverts_the_last_step_whole_and_only_the_reviewers_own(tmp_path):
    database = make_review(tmp_path / "r.sqlite")
    wimmer = database.spans("r1")[0]
    database.decide("Huber", "r1", wimmer.id, wimmer.version, "accepted")
    aichach = database.spans("r1")[1]
    database.decide_mentions("Huber", "r1", aichach.id, aichach.version, "rejected")
    database.add_span("Meier", "r1", database.ruling("r1").version, 11, 17, "person")
    assert database.undo("Huber", "r1", database.ruling("r1").version) == 2  # both Aichach, Meier's span stays
    assert states(database) == {"11:Thomas": "accepted", "18:Wimmer": "accepted", "34:Aichach": "open",
                                "48:Wimmer": "open", "77:Aichach": "open"}
    database.undo("Meier", "r1", database.ruling("r1").version)
    assert "11:Thomas" not in states(database)  # an undone addition is no longer shown, but logged
    assert [d["action"] for d in database.decisions()][-1] == "undo"


def test_added_spans_are_trimmed_and_never_overlap_a_live_span(tmp_path):
    database = make_review(tmp_path / "r.sqlite")
    version = database.ruling("r1").version
    with pytest.raises(ValueError, match="overlaps"):
        database.add_span("Huber", "r1", version, 11, 20, "person")
    with pytest.raises(ValueError, match="white space"):
        database.add_span("Huber", "r1", version, 17, 18, None)
    with pytest.raises(ValueError, match="unknown type"):
        database.add_span("Huber", "r1", version, 11, 17, "alien")
    span = database.add_span("Huber", "r1", version, 10, 18, "person")  # " Thomas " -> "Thomas"
    assert [(s.start, s.end) for s in database.spans("r1") if s.id == span] == [(11, 17)]


def test_a_stale_write_of_a_second_reviewer_is_a_conflict(tmp_path):
    path = tmp_path / "r.sqlite"
    make_review(path).close()
    huber, meier = ReviewDatabase(path), ReviewDatabase(path)
    seen_by_meier = meier.spans("r1")[0]
    seen = huber.spans("r1")[0]
    huber.decide("Huber", "r1", seen.id, seen.version, "accepted")
    with pytest.raises(Conflict, match="changed by Huber at .* reload"):
        meier.decide("Meier", "r1", seen_by_meier.id, seen_by_meier.version, "rejected")
    stale_ruling = meier.ruling("r1").version - 1
    with pytest.raises(Conflict, match="this ruling was changed"):
        meier.add_span("Meier", "r1", stale_ruling, 11, 17, "person")
    fresh = meier.spans("r1")[0]
    meier.decide("Meier", "r1", fresh.id, fresh.version, "rejected")
    assert huber.spans("r1")[0].state == "rejected"


def test_a_killed_writer_loses_no_committed_decision(tmp_path):
    path = tmp_path / "r.sqlite"
    make_review(path).close()
    writer = textwrap.dedent(f"""
        import sys
        from rulings_anon.review.database import ReviewDatabase
        db = ReviewDatabase({str(path)!r})
        n = 0
        while True:
            for span in db.spans("r1"):
                db.decide("w", "r1", span.id, span.version, "accepted" if n % 2 else "rejected")
                n += 1
                print(n, flush=True)
    """)
    process = subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE, text=True)
    committed = 0
    for line in process.stdout:
        committed = int(line)
        if committed >= 40:
            break
    process.send_signal(signal.SIGKILL)
    process.wait()
    database = ReviewDatabase(path)
    assert database.connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert len(database.decisions()) >= committed
    assert all(s.version == 1 + sum(d["span"] == s.id for d in database.decisions()) for s in database.spans("r1"))


def test_a_file_of_another_schema_or_kind_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    make_review(path).set_meta("schema_version", "99")
    with pytest.raises(InputError, match="schema 99"):
        ReviewDatabase(path)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(InputError):
        ReviewDatabase(other)
    (tmp_path / "rulings.jsonl").write_text('{"id": "a", "text": "x"}\n')
    with pytest.raises(InputError, match="not a review database"):
        ReviewDatabase(tmp_path / "rulings.jsonl")
