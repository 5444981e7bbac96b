"""The legal NER: data preparation, a tiny real training run, save/reload, candidates, CLI errors."""

from __future__ import annotations

import argparse
import gzip
import json

import numpy as np
import pytest

from rulings_anon.analyzer.candidates import propose_candidates
from rulings_anon.analyzer.recognizers import is_standalone_hit
from rulings_anon.data import ler_corpus_files
from rulings_anon.errors import InputError, ModelError
from rulings_anon.evaluation import ner_commands
from rulings_anon.jsonl import read_jsonl
from rulings_anon.ner import load_ner, train_ner
from rulings_anon.ner.dataset import dev_corpus_files, pseudonymize_corpus, read_corpus, tag_record, windows
from rulings_anon.ner.tags import decode_bio, default_tagset
from rulings_anon.ner.tokens import tokenize

SAMPLE_TEXT = ("Der Kläger Thilo von Schmiedeberg wohnt in Angermünde. Die Meyer GmbH zahlte an Herrn Kemper "
               "nach § 45 SGB X auf das Konto DE91 1000 0000 0123 4567 89.")


def _tiny_records(n_chars: int = 4000):
    """Three dev-court records cut to their first ``n_chars`` (entities and spans inside them)."""
    records = read_corpus(dev_corpus_files(), max_docs=3)
    cut = []
    for r in records:
        keep = [e for e in r["entities"] if e["end"] <= n_chars]
        cut.append({**r, "text": r["text"][:n_chars], "entities": keep,
                    "spans": [s for s in r["spans"] if s["end"] <= n_chars]})
    return cut


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "tiny.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for r in _tiny_records():
            handle.write(json.dumps(r, ensure_ascii=False) + "\n")
    return path


@pytest.fixture(scope="module")
def trained(tiny_corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("ner")
    overrides = {"word_dim": 16, "char_dim": 8, "char_filters": 16, "hidden": 16, "learning_rate": 0.01,
                 "window": 32, "predict_window": 48, "predict_margin": 8, "lexicon": "de-nouns"}
    tagger = train_ner([tiny_corpus], out, epochs=4, batch_size=8, steps_per_epoch=10, overrides=overrides,
                       progress=False)
    return tagger, out


def test_when_training_then_loss_decreases_and_directory_is_complete(trained):
    tagger, out = trained
    losses = tagger.config.training["loss"]
    assert len(losses) == 4 and losses[-1] < losses[0] * 0.7
    assert sorted(p.name for p in out.iterdir()) == ["chars.txt", "config.json", "vocab.txt", "weights.h5"]


def test_when_reloaded_then_same_probabilities_and_spans(trained, tmp_path):
    tagger, out = trained
    again = load_ner(out)
    tokens = [SAMPLE_TEXT[s:e] for s, e in tokenize(SAMPLE_TEXT)]
    words, chars, lexicon = tagger.vocab.encode(tokens)
    assert again.config.lexicon == "de-nouns" and lexicon.any()
    inputs = {"words": words[None], "chars": chars[None], "lexicon": lexicon[None]}
    before, after = tagger.model(inputs), again.model(inputs)
    assert tagger.config.sensitivity and set(before) == {"tags", "sensitive"}
    for name in before:
        np.testing.assert_allclose(before[name].numpy(), after[name].numpy(), rtol=1e-5)
    assert again.predict(SAMPLE_TEXT) == tagger.predict(SAMPLE_TEXT)
    again.save(tmp_path)
    assert load_ner(tmp_path).predict(SAMPLE_TEXT) == tagger.predict(SAMPLE_TEXT)


def test_when_predicting_then_spans_point_into_the_text(trained):
    tagger, _ = trained
    for span in tagger.predict(SAMPLE_TEXT * 3):
        assert (SAMPLE_TEXT * 3)[span.start:span.end] == span.text
        assert span.source == "ner" and span.type in default_tagset().types and 0 < span.score <= 1


def test_candidates_merge_ner_and_recognizers_with_their_sources(trained):
    tagger, _ = trained
    spans = propose_candidates(SAMPLE_TEXT, ner=tagger)
    # The tiny model's guesses may touch the IBAN; the merged span keeps the IBAN's source.
    iban = [s for s in spans if s.source == "iban"]
    assert len(iban) == 1 and "DE91 1000 0000 0123 4567 89" in iban[0].text and is_standalone_hit(iban[0])
    # unknown_word proposes what the tiny model missed ("Angermünde" is in no dictionary)
    assert all(s.source in ("ner", "iban", "salutation_name", "unknown_word") for s in spans)
    # A name after "Herrn" is sensitive on its own, also where the NER proposed it too.
    kemper = [s for s in spans if "Kemper" in s.text]
    assert len(kemper) == 1 and kemper[0].source == "salutation_name" and is_standalone_hit(kemper[0])
    # Without the NER, the rules alone: the name after "Herrn" and the IBAN, sensitive on their own,
    # and the words no dictionary calls nouns, grown to their references, without the legal form.
    rules = propose_candidates(SAMPLE_TEXT)
    assert [(s.text, s.source, is_standalone_hit(s)) for s in rules] == [
        ("Thilo von Schmiedeberg", "unknown_word", False), ("Angermünde", "unknown_word", False),
        ("Meyer", "unknown_word", False), ("Kemper", "salutation_name", True),
        ("DE91 1000 0000 0123 4567 89", "iban", True)]
    assert propose_candidates("", ner=tagger) == []


def test_when_model_directory_is_broken_then_clear_error(trained, tmp_path):
    with pytest.raises(ModelError, match="no config.json"):
        load_ner(tmp_path)
    _, out = trained
    (tmp_path / "config.json").write_text((out / "config.json").read_text())
    with pytest.raises(ModelError, match="weights.h5, vocab.txt, chars.txt"):
        load_ner(tmp_path)


def test_pseudonymized_training_text_has_real_names_and_kept_labels():
    record = _tiny_records()[0]
    pseudo = pseudonymize_corpus([record])[0]
    tagged = tag_record(pseudo, default_tagset())
    tags = default_tagset().tags
    assert len(tagged.tokens) == len(tagged.labels) == len(tokenize(pseudo["text"]))
    # Every entity's first token carries its B- tag, the others I- tags; its tokens are sensitive
    # exactly when the entity held a placeholder.
    for entity in pseudo["entities"]:
        first = next(i for i, (s, _) in enumerate(tagged.spans) if s >= entity["start"])
        assert tags[tagged.labels[first]] == "B-" + entity["type"]
        held = any(s["start"] < entity["end"] and entity["start"] < s["end"] for s in pseudo["spans"])
        assert tagged.sensitive[first] == (1.0 if held else 0.0)
    for span in pseudo["spans"]:  # surrogates are names, not placeholders like "K."
        assert len(pseudo["text"][span["start"]:span["end"]]) > 2


def test_only_references_the_court_anonymized_are_sensitive():
    text = "Herr Kemper aus Berlin verklagt die Meyer Bau GmbH vor dem BSG."
    record = {"text": text, "spans": [{"start": 5, "end": 11}, {"start": 36, "end": 41}],
              "entities": [{"start": 5, "end": 11, "type": "PER"}, {"start": 16, "end": 22, "type": "ST"},
                           {"start": 36, "end": 50, "type": "UN"}, {"start": 59, "end": 62, "type": "GRT"}]}
    tagset = default_tagset()
    tagged = tag_record(record, tagset)
    rows = [(token, tagset.tags[label], float(sensitive))
            for token, label, sensitive in zip(tagged.tokens, tagged.labels, tagged.sensitive, strict=True) if label]
    # The whole company is sensitive, not only its surrogate "Meyer"; the court's city is not.
    assert rows == [("Kemper", "B-PER", 1.0), ("Berlin", "B-ST", 0.0), ("Meyer", "B-UN", 1.0), ("Bau", "I-UN", 1.0),
                    ("GmbH", "I-UN", 1.0), ("BSG", "B-GRT", 0.0)]


def test_dev_corpus_never_includes_the_held_out_court():
    assert [f.name for f in dev_corpus_files()] == [f.name for f in ler_corpus_files() if "bsg" not in f.name]


def test_windows_keep_every_token_exactly_once():
    for n in (0, 5, 48, 49, 200):
        kept = [i for _, _, a, b in windows(n, 48, 8) for i in range(a, b)]
        assert kept == list(range(n))


def test_decode_bio_opens_entities_on_stray_inside_tags():
    tags = ["O", "B-PER", "I-PER", "B-ST", "I-ST"]
    ids = np.array([1, 2, 0, 4, 4, 2])
    probs = np.array([0.9, 0.7, 0.99, 0.6, 0.8, 0.5])
    assert decode_bio(ids, probs, tags) == [(0, 2, "PER", 0.8), (3, 5, "ST", 0.7), (5, 6, "PER", 0.5)]


def test_train_ner_command_reports_missing_corpus(tmp_path):
    parser = argparse.ArgumentParser()
    ner_commands.configure(parser)
    args = parser.parse_args(["--corpus", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "m")])
    with pytest.raises(InputError, match="missing.jsonl: no such corpus file"):
        ner_commands.run(args)
    args = parser.parse_args(["--out", str(tmp_path / "m"), "--entity-dropout", "1.5"])
    with pytest.raises(InputError, match="--entity-dropout must be between 0 and 1, got 1.5"):
        ner_commands.run(args)
    args = parser.parse_args(["--out", str(tmp_path / "m"), "--lexicon", "fr-nouns"])
    with pytest.raises(InputError, match=r"fr-nouns\.tsv\.gz: no such lexicon"):
        ner_commands.run(args)
    args = parser.parse_args(["--out", str(tmp_path / "m"), "--average-epochs", "0"])
    with pytest.raises(InputError, match="--average-epochs must be at least 1, got 0"):
        ner_commands.run(args)


def test_the_command_line_states_the_training_defaults():
    from rulings_anon.ner import lexicon_builder as lexicon
    from rulings_anon.ner.model import LEARNING_RATE_SCHEDULES, NerConfig

    assert ner_commands.DEFAULT_INVENTED_NAMES == NerConfig.invented_names
    assert ner_commands.DEFAULT_ENTITY_DROPOUT == NerConfig.entity_dropout
    assert ner_commands.DEFAULT_TITLED_PERSONS == NerConfig.titled_persons
    assert NerConfig.lexicon is None and ner_commands.DEFAULT_LEXICON == "none"
    parser = argparse.ArgumentParser()
    ner_commands.configure(parser)
    assert parser.parse_args(["--out", "x"]).average_epochs == NerConfig.average_epochs
    assert parser.parse_args(["--out", "x"]).learning_rate_schedule == NerConfig.learning_rate_schedule
    assert ner_commands.LEARNING_RATE_SCHEDULES == tuple(sorted(LEARNING_RATE_SCHEDULES))
    assert lexicon.lexicon_file(lexicon.DEFAULT).is_file()


def test_bundled_records_have_entities():
    first = next(read_jsonl(dev_corpus_files()[0]))
    assert first["entities"] and {"start", "end", "type"} <= set(first["entities"][0])


def test_when_name_found_once_then_every_occurrence_is_a_candidate():
    text = "Herr Kemper kam. Dann ging Kemper heim; Kempers Hund blieb."
    spans = propose_candidates(text)
    # the genitive "Kempers" is no repetition; unknown_word proposes it, as it would "Kemper" alone
    assert [(s.start, s.end, s.kind, s.source) for s in spans] == [
        (5, 11, None, "salutation_name"), (27, 33, "repeated", "salutation_name"), (40, 47, None, "unknown_word")]
    assert [(s.start, s.source) for s in propose_candidates(text, repeat=False)] == [
        (5, "salutation_name"), (27, "unknown_word"), (40, "unknown_word")]
    assert [s.start for s in propose_candidates(text, recognizers={"salutation_name"}, repeat=False)] == [5]


def test_when_corpus_has_no_text_then_input_error(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"id": "a", "text": "", "spans": [], "entities": []}\n', encoding="utf-8")
    with pytest.raises(InputError, match="no text to train on"):
        train_ner([empty], tmp_path / "model", epochs=1)


def test_a_candidate_scores_the_probability_that_courts_anonymize_it(trained):
    tagger, _ = trained
    tags = tagger.config.tags
    probs = np.zeros((3, len(tags)), dtype=np.float32)
    probs[0, tags.index("B-PER")] = 0.9  # a name, and the model says it is not anonymized
    probs[0, 0] = 0.1
    probs[1, 0], probs[1, tags.index("B-ST")] = 0.8, 0.2  # a place just reaching the candidate threshold
    probs[2, 0] = 1.0  # an ordinary word
    ids, scores = tagger._decide(probs, np.array([0.2, 0.95, 0.99], dtype=np.float32))
    assert [tags[i] for i in ids] == ["B-PER", "B-ST", "O"]
    np.testing.assert_allclose(scores, [0.2, 0.95, 1.0])
    # Without a sensitivity output the score is the tag's probability (or the candidate types' mass).
    ids, scores = tagger._decide(probs)
    np.testing.assert_allclose(scores, [0.9, 0.2, 1.0])


def test_element_probability_is_the_highest_of_its_tokens():
    from rulings_anon.scoring.prediction import element_maximum

    text = "Herr Kemper, Berlin."
    starts = np.array([s for s, _ in tokenize(text)])  # Herr Kemper , Berlin .
    values = np.array([0.1, 0.9, 0.2, 0.3, 0.05], dtype=np.float32)
    np.testing.assert_allclose(element_maximum(text, starts, values), [0.1, 0.9, 0.3])
    assert element_maximum("", starts[:0], values[:0]).shape == (0,)


def test_the_ner_classifies_every_element_unmasked_for_method_none(trained):
    from rulings_anon.document import Document, count_elements
    from rulings_anon.scoring.prediction import NerElementModel, load_element_model

    tagger, out = trained
    model = load_element_model(out)
    assert isinstance(model, NerElementModel)
    documents = [Document("a", SAMPLE_TEXT), Document("b", ""), Document("c", "Ein Satz.\n\n" + SAMPLE_TEXT)]
    arrays = model.probabilities(documents)
    assert [len(a) for a in arrays] == [count_elements(d.text) for d in documents]
    spans, sensitive = tagger.sensitivity_many([SAMPLE_TEXT])[0]
    kemper = SAMPLE_TEXT.index("Kemper")
    token = next(i for i, (s, _) in enumerate(spans) if s == kemper)
    element = len(SAMPLE_TEXT[:kemper].split())
    assert arrays[0][element] == pytest.approx(sensitive[token])
    assert not arrays[1].size and arrays[2].max() > 0.0
    with pytest.raises(ModelError, match="unmasked elements only"):
        model.probabilities(documents, {"a": {0}})


class _Interrupted(Exception):
    pass


def _train_until_interrupted(corpus, out, run: dict, monkeypatch) -> dict:
    """Train until the process dies after the last epoch's checkpoint; the state it left."""
    import rulings_anon.ner.trainer as training

    def interrupt(*args, **kwargs):
        raise _Interrupted

    monkeypatch.setattr(training, "NerTagger", interrupt)
    with pytest.raises(_Interrupted):
        train_ner([corpus], out, **run)
    monkeypatch.undo()
    return json.loads((out / training.STATE).read_text(encoding="utf-8"))


def test_an_interrupted_run_resumes_only_on_its_own_corpus(tiny_corpus, tmp_path, monkeypatch):
    import rulings_anon.ner.trainer as training

    small = {"word_dim": 8, "char_dim": 4, "char_filters": 8, "hidden": 8, "window": 32}
    run = {"epochs": 1, "batch_size": 8, "steps_per_epoch": 2, "overrides": small, "progress": False}

    state = _train_until_interrupted(tiny_corpus, tmp_path / "m", run, monkeypatch)
    assert state["epoch"] == 1 and len(state["corpus"]) == 64
    with pytest.raises(InputError, match="unfinished run on another corpus"):
        train_ner([tiny_corpus], tmp_path / "m", seed=7, **run)  # other surrogates: another corpus
    tagger = train_ner([tiny_corpus], tmp_path / "m", **run)  # resumes: nothing left but saving
    assert tagger.config.training["loss"] == [round(x, 5) for x in state["loss"]]
    assert not (tmp_path / "m" / training.STATE).exists() and (tmp_path / "m" / "weights.h5").exists()


def test_entity_dropout_hides_the_words_of_entities_more_often_than_others():
    from rulings_anon.ner.dataset import drop_words
    from rulings_anon.ner.tokens import PAD, UNK

    words = np.full((200, 50), 7, dtype=np.int32)
    words[:, -5:] = PAD
    entities = np.zeros(words.shape, dtype=bool)
    entities[:, :10] = True
    dropped = drop_words(words, 0.1, np.random.default_rng(0), entities, 0.6)
    hidden = dropped == UNK
    assert hidden[:, :10].mean() == pytest.approx(0.6, abs=0.03)
    assert hidden[:, 10:45].mean() == pytest.approx(0.1, abs=0.02)
    assert (dropped[:, -5:] == PAD).all()  # padding stays padding
    # Without an entity rate the dropout is the plain one, draw for draw.
    plain = drop_words(words, 0.1, np.random.default_rng(0))
    assert np.array_equal(plain, drop_words(words, 0.1, np.random.default_rng(0), entities, 0.0))


def test_titles_go_before_sensitive_persons_only_tagged_o_and_not_sensitive():
    from rulings_anon.ner.dataset import TITLES, TaggedText, add_titles

    tags = default_tagset().tags
    per, i_per, rr = tags.index("B-PER"), tags.index("I-PER"), tags.index("B-RR")
    tokens = ["Der", "Zeuge", "Hans", "Kemper", "und", "Richter", "Milger", "und", "Dr", ".", "Lind", "."]
    labels = np.array([0, 0, per, i_per, 0, 0, rr, 0, 0, 0, per, 0], dtype=np.int32)
    sensitive = np.array([0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0], dtype=np.float32)
    text = TaggedText(tokens, [(i, i + 1) for i in range(len(tokens))], labels, sensitive)
    titled = add_titles(text, per, 1.0, np.random.default_rng(0))
    at = titled.tokens.index("Hans")
    title = tuple(titled.tokens[2:at])
    assert title in TITLES
    assert titled.tokens[at:] == tokens[2:]  # the judge and the already titled "Dr. Lind" get none
    assert titled.labels[2:at].tolist() == [0] * len(title) and titled.sensitive[2:at].tolist() == [0] * len(title)
    assert titled.labels[at:].tolist() == labels[2:].tolist()
    assert len(titled.spans) == len(titled.tokens)
    assert add_titles(text, per, 0.0, np.random.default_rng(0)) is text


def test_the_saved_model_holds_the_mean_weights_of_the_last_epochs_also_after_a_resume(tiny_corpus, tmp_path,
                                                                                          monkeypatch):
    import rulings_anon.ner.trainer as training
    from rulings_anon.ner.model import NerConfig, build_model

    small = {"word_dim": 8, "char_dim": 4, "char_filters": 8, "hidden": 8, "window": 32, "average_epochs": 2}
    run = {"epochs": 3, "batch_size": 8, "steps_per_epoch": 3, "overrides": small, "progress": False}

    state = _train_until_interrupted(tiny_corpus, tmp_path, run, monkeypatch)
    assert state["epoch"] == 3 and state["averaged"] == 2
    average = training._load_average(tmp_path / training.AVERAGE)
    last = build_model(NerConfig(**state["config"]))
    last.load_weights(str(tmp_path / training.CHECKPOINT))
    assert any(not np.allclose(a, w) for a, w in zip(average, last.get_weights(), strict=True))
    tagger = train_ner([tiny_corpus], tmp_path, **run)  # resumes: nothing left but averaging and saving
    assert tagger.config.training["averaged_epochs"] == 2
    for a, w in zip(average, load_ner(tmp_path).model.get_weights(), strict=True):
        np.testing.assert_allclose(a, w, rtol=1e-6)
    assert not (tmp_path / training.AVERAGE).exists() and not (tmp_path / training.STATE).exists()


def test_learning_rate_schedules_start_at_the_rate_and_fall_by_their_shape():
    from rulings_anon.ner.model import NerConfig, learning_rate_at

    def config(name):
        return NerConfig(tags=[], candidate_types=[], learning_rate=0.01, learning_rate_schedule=name)

    assert learning_rate_at(config("constant"), 0.0) == learning_rate_at(config("constant"), 0.9) == 0.01
    assert learning_rate_at(config("linear"), 0.0) == pytest.approx(0.01)
    assert learning_rate_at(config("linear"), 0.25) == pytest.approx(0.0075)
    assert learning_rate_at(config("cosine"), 0.5) == pytest.approx(0.005)
    assert learning_rate_at(config("cosine"), 1.0) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ModelError, match="unknown learning rate schedule 'step'"):
        learning_rate_at(config("step"), 0.0)


def test_a_resumed_run_goes_on_where_the_schedule_was(tiny_corpus, tmp_path, monkeypatch):
    import rulings_anon.ner.trainer as training
    from rulings_anon.ner.model import learning_rate_at

    small = {"word_dim": 8, "char_dim": 4, "char_filters": 8, "hidden": 8, "window": 32,
             "learning_rate_schedule": "cosine"}
    run = {"epochs": 2, "batch_size": 8, "steps_per_epoch": 3, "overrides": small, "progress": False}
    real_tqdm = training.tqdm

    def dies_in_the_second_epoch(*args, desc="", **kwargs):
        if "epoch 2/" in desc:
            raise _Interrupted
        return real_tqdm(*args, desc=desc, **kwargs)

    monkeypatch.setattr(training, "tqdm", dies_in_the_second_epoch)
    with pytest.raises(_Interrupted):
        train_ner([tiny_corpus], tmp_path, **run)
    monkeypatch.undo()
    assert json.loads((tmp_path / training.STATE).read_text(encoding="utf-8"))["epoch"] == 1
    tagger = train_ner([tiny_corpus], tmp_path, **run)
    assert len(tagger.config.training["loss"]) == 2
    # The last batch (the 6th of 6) ran at the schedule's rate after 5/6 of the run, not at a restarted one.
    expected = learning_rate_at(tagger.config, 5 / 6)
    assert float(tagger.model.optimizer.learning_rate.numpy()) == pytest.approx(expected, rel=1e-5)
    assert expected < 0.1 * tagger.config.learning_rate
    with pytest.raises(ModelError, match="unknown learning rate schedule"):
        train_ner([tiny_corpus], tmp_path / "other", **{**run, "overrides": {**small, "learning_rate_schedule": "step"}})


def test_a_split_archive_is_a_corpus_with_the_same_records(tmp_path):
    """The GPU pipeline trains its NER on the training split: the archive's metadata keeps each
    ruling's placeholders and LER entities, so it reads as the LER file it was made from."""
    from rulings_anon.document import Document, Span
    from rulings_anon.fetcher.split import write_archive

    ler = ler_corpus_files()[0]
    records = list(read_jsonl(ler))[:3]
    documents = [Document(r["id"], r["text"], {"court": r["court"], "placeholders": len(r["spans"]),
                                                 "entities": r["entities"]},
                          [Span.from_dict(s, r["text"]) for s in r["spans"]]) for r in records]
    write_archive(tmp_path / "train.tar.gz", documents)
    assert read_corpus([tmp_path / "train.tar.gz"]) == [
        {"id": r["id"], "text": r["text"], "spans": r["spans"], "entities": r["entities"]} for r in records]
    # A portal corpus has placeholders but no entity labels: nothing to tag, said in one line.
    write_archive(tmp_path / "portal.tar.gz", [Document("a", "Herr K. kam.", {"placeholders": 1})])
    with pytest.raises(InputError, match="portal.tar.gz: ruling 'a' has no LER 'entities' list"):
        read_corpus([tmp_path / "portal.tar.gz"])
