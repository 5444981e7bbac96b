"""A ruling's spans are its own: the same scored alone, among the other rulings of its case, or
among copies of itself (the bundled model, ``rulings-anon score`` and the Python API)."""

from __future__ import annotations

import unicodedata

import pytest

from rulings_anon.cli import main
from rulings_anon.engine import Analyzer, decision_settings
from rulings_anon.jsonl import read_jsonl, write_jsonl

# Six fictitious rulings of one case: the same parties, the same town.
CASE = [
    "Der Kläger Thomas Wimmer wohnt in Pfaffenhofen. Er begehrt von der Beklagten, der Brandl Bau GmbH, "
    "die Zahlung von Werklohn. Herr Wimmer hatte die Beklagte beauftragt, sein Haus in Pfaffenhofen, "
    "Hauptstraße 4, zu sanieren. Die Beklagte, vertreten durch ihren Geschäftsführer Josef Brandl, "
    "hält die Arbeiten für mangelhaft. Das Landgericht hat die Klage abgewiesen.",
    "In dem Rechtsstreit Wimmer gegen Brandl Bau GmbH hat der Kläger Thomas Wimmer aus Pfaffenhofen "
    "Berufung eingelegt. Er rügt, das Landgericht habe die Zeugin Maria Wimmer nicht gehört. Josef Brandl "
    "habe die Mängel in Pfaffenhofen selbst besichtigt.",
    "Der Senat hat Beweis erhoben durch Vernehmung der Zeugin Maria Wimmer. Sie hat bekundet, Herr Brandl "
    "sei im März in Pfaffenhofen gewesen und habe die Risse gesehen. Der Kläger Thomas Wimmer hat dies "
    "bestätigt.",
    "Der Sachverständige Dr. Huber hat das Haus des Klägers Wimmer in Pfaffenhofen besichtigt. Er hat "
    "festgestellt, dass die Arbeiten der Brandl Bau GmbH den Regeln der Technik nicht entsprechen. "
    "Josef Brandl hat dem widersprochen.",
    "Die Beklagte hat gegen das Urteil Revision eingelegt. Sie meint, Thomas Wimmer habe die Abnahme in "
    "Pfaffenhofen erklärt. Der Geschäftsführer Josef Brandl habe Herrn Wimmer die Rechnung übergeben.",
    "Die Kosten des Verfahrens trägt die Brandl Bau GmbH. Der Kläger Thomas Wimmer aus Pfaffenhofen "
    "erhält seine Auslagen erstattet; die Zeugin Maria Wimmer wird entschädigt.",
]
# the last ruling's words that a batch used to take away (among the case, or among twelve copies)
LOST_IN_A_BATCH = {"Pfaffenhofen", "Brandl"}


@pytest.fixture(scope="module")
def analyzer():
    return Analyzer()


def _spans(spans) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.text) for s in spans]


def _words(spans) -> set[str]:
    return {word for s in spans for word in s[2].split()}


def test_the_rulings_of_one_case_have_the_same_spans_alone_and_together_through_score(tmp_path):
    together = tmp_path / "case.jsonl"
    write_jsonl(together, ({"id": f"r{n}", "text": text} for n, text in enumerate(CASE)))
    assert main(["score", str(together), "--output", str(tmp_path / "together-spans.jsonl"), "--quiet"]) == 0
    found = {r["id"]: [(s["start"], s["end"], s["text"]) for s in r["spans"]]
             for r in read_jsonl(tmp_path / "together-spans.jsonl")}
    for n in (1, 5):  # the two a batch used to change (the API's test below takes all six)
        alone, text = tmp_path / f"r{n}.jsonl", CASE[n]
        write_jsonl(alone, [{"id": f"r{n}", "text": text}])
        assert main(["score", str(alone), "--output", str(tmp_path / f"r{n}-spans.jsonl"), "--quiet"]) == 0
        (record,) = read_jsonl(tmp_path / f"r{n}-spans.jsonl")
        assert [(s["start"], s["end"], s["text"]) for s in record["spans"]] == found[f"r{n}"]
    assert all("Pfaffenhofen" in _words(spans) for spans in found.values())  # the shared town, everywhere
    assert LOST_IN_A_BATCH <= _words(found["r5"])


def test_the_rulings_of_one_case_have_the_same_spans_alone_and_together_through_the_api(analyzer):
    together = [_spans(s) for s in analyzer.analyze_batch(CASE)]
    alone = [_spans(analyzer.analyze(text)) for text in CASE]
    assert together == alone
    assert LOST_IN_A_BATCH <= _words(together[5])
    # the batch vocabulary, asked for, may take spans away but never adds one
    with_vocabulary = Analyzer(batch_vocabulary=True).analyze_batch(CASE)
    assert all(set(_spans(v)) <= set(a) for v, a in zip(with_vocabulary, alone, strict=True))


def test_a_ruling_among_twelve_copies_of_itself_keeps_all_its_spans(analyzer):
    alone = _spans(analyzer.analyze(CASE[5]))
    assert LOST_IN_A_BATCH <= _words(alone)
    assert [_spans(s) for s in analyzer.analyze_batch([CASE[5]] * 12)] == [alone] * 12


def test_the_batch_vocabulary_of_an_nfd_text_is_that_of_its_nfc_text():
    """Decomposed letters (as Mac and PDF tools write them) are counted as the analyzer reads them."""
    text = " ".join(CASE) + " Die Ärztekammer Görlitz hat die Überweisung geprüft."
    words = {form: decision_settings(0.5, batch_vocabulary=True,
                                     texts=[unicodedata.normalize(form, text)] * 10).common_words
             for form in ("NFC", "NFD")}
    assert words["NFD"] == words["NFC"]
    assert {"Ärztekammer", "Görlitz", "Überweisung", "Pfaffenhofen"} <= words["NFC"]
    assert "Pfaffenhofen" not in decision_settings(0.5, batch_vocabulary=True, texts=[text] * 9).common_words


def _court(court: str, name: str, town: str, n: int = 6) -> list[dict]:
    records = []
    for d in range(n):
        text = f"Der Kläger {name} wohnt in {town}. Die Behörde in {town} schrieb an Herrn {name} am {d + 1}. Mai."
        spans = [{"start": i, "end": i + len(w)} for w in (name, town)
                 for i in (text.index(w), text.rindex(w))]
        records.append({"id": f"{court}-{d}", "text": text, "spans": spans})
    return records


def test_training_and_scoring_compute_the_batch_feature_alike():
    """A fit with the courts' anonymized rulings stores them as its background; a court's rows,
    extracted as one batch, get the probabilities each of its texts gets scored alone."""
    from rulings_anon.analyzer import sensitivity as sf
    from rulings_anon.analyzer import sensitivity_model as sm

    courts = {"a": _court("a", "Kemper", "Aurach"), "b": _court("b", "Lindner", "Borken"),
              "c": _court("c", "Maurer", "Celle")}
    features = {c: sm.extract_court(r) for c, r in courts.items()}
    model = sm.fit(features, {c: sf.clear_counts(r) for c, r in courts.items()}, rounds=5, boosters=1,
                   records=courts)
    assert model.background.documents == 18 and model.background.frequency["Kläger"] == 18
    held_out = _court("d", "Wimmer", "Dachau")
    rows = model.predict_court(sm.extract_court(held_out))
    alone = [p for r in held_out for p in model.predict_texts([r["text"]])[0].values()]
    assert len(rows) == len(alone) and rows.tolist() == pytest.approx(alone)
    shares = sm.alone_shares(["Wimmer", "Kläger"], model.background)
    assert shares.tolist() == pytest.approx([1 / 19, 19 / 19])
