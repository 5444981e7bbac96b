"""The entity types: every type name the project meets is defined in one module, and every
mapping from it covers what it maps."""

from __future__ import annotations

import gzip
import json
import tomllib

import pytest

from rulings_anon import entity_types as et
from rulings_anon.analyzer.recognizers import RECOGNIZERS
from rulings_anon.data import ler_corpus_files
from rulings_anon.data import path as data_path
from rulings_anon.document import Span
from rulings_anon.replacement.court_style import court_placeholder, surrogate_type
from rulings_anon.replacement.operators import NumberedTag
from rulings_anon.replacement.policy import default_policy_path
from rulings_anon.replacement.surrogates import SurrogateGenerator, canonical_type

LER_TAG_NAMES = {t.tag for t in et.LER_TAGS}


def test_every_type_a_recognizer_emits_maps_to_one_of_ours():
    emitted = {recognizer.entity_type for recognizer in RECOGNIZERS}
    assert emitted <= set(et.RECOGNIZER_TYPES) | set(et.LER_TYPES)
    assert {surrogate_type(kind) for kind in emitted} <= set(et.TYPES)
    assert set(et.RECOGNIZER_TYPES.values()) <= set(et.TYPES)


def test_the_corpus_and_the_ner_use_only_listed_ler_tags():
    entity_tags, placeholder_tags = set(), set()
    for path in ler_corpus_files():
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                entity_tags |= {e["type"] for e in record.get("entities", ())}
                placeholder_tags |= {s["type"] for s in record.get("spans", ())}
    assert entity_tags <= LER_TAG_NAMES
    # The placeholders the courts left are exactly the anonymized tags, each with a type of ours.
    assert placeholder_tags == set(et.ANONYMIZED_LER_TAGS)
    assert all(canonical_type(tag) in et.TYPES for tag in placeholder_tags)
    ner = json.loads((data_path("ner") / "config.json").read_text(encoding="utf-8"))
    assert {tag.split("-", 1)[1] for tag in ner["tags"] if tag != "O"} <= LER_TAG_NAMES
    assert set(ner["candidate_types"]) <= LER_TAG_NAMES


def test_the_shipped_policy_names_only_known_types():
    policy = tomllib.loads(default_policy_path().read_text(encoding="utf-8"))
    named = set(policy["operators"]) - {"default"}
    assert named <= set(et.TYPES) | set(et.RECOGNIZER_TYPES)
    assert set(et.TYPES) <= named | {"other"}  # the default covers the rest


def test_each_mapping_covers_every_type():
    assert len(set(et.TYPES)) == len(et.TYPES) == 10
    assert {t.style for t in et.ENTITY_TYPES} <= set(et.PLACEHOLDER_STYLES)
    assert set(et.TAG_LABELS) == set(et.TYPES)
    assert sorted(et.TYPE_KEYS.values()) == sorted(et.TYPES)  # one letter each, none shared
    assert all(canonical_type(alias) == kind for alias, kind in et.TYPE_ALIASES.items())
    assert all(canonical_type(kind) == kind for kind in et.TYPES)
    assert set(et.LER_TYPES.values()) <= set(et.TYPES)
    assert all(t.type is None or t.type in et.TYPES for t in et.LER_TAGS)
    assert len(LER_TAG_NAMES) == len(et.LER_TAGS)
    assert et.NAME_GROWING_TYPES == {"person", "PER", "AN", "RR"}
    assert et.PLACE_GROWING_TYPES == {"place", "ST"}


@pytest.mark.parametrize("kind", [*et.TYPES, *et.ANONYMIZED_LER_TAGS, *et.RECOGNIZER_TYPES])
def test_every_type_gets_a_placeholder_a_surrogate_and_a_tag(kind):
    text = "Die Klägerin Meyer Bau GmbH wohnt hier."
    span = Span(13, 27, text[13:27], type=kind)
    placeholder = court_placeholder(text, span)[2]
    assert placeholder == "M B GmbH"  # a name with a legal form is a company's, whatever the type
    assert SurrogateGenerator(0).surrogate(span.text, surrogate_type(kind))
    assert NumberedTag().operate(text, span).value.split()[0][1:] in et.TAG_LABELS.values()


def test_the_users_of_the_types_read_them_from_the_one_module():
    from rulings_anon import references
    from rulings_anon.evaluation import metrics
    from rulings_anon.interactive.dialogue import TYPE_KEYS
    from rulings_anon.preprocessing import ler
    from rulings_anon.replacement import court_style, surrogates
    from rulings_anon.review.database import SPAN_TYPES

    assert surrogates.TYPES is et.TYPES and surrogates.LER_TYPES is et.LER_TYPES
    assert SPAN_TYPES is et.TYPES
    assert court_style.STYLE_OF_TYPE is et.STYLE_OF_TYPE
    assert references.NAME_TYPES is et.NAME_GROWING_TYPES and references.PLACE_TYPES is et.PLACE_GROWING_TYPES
    assert metrics.PERSON_TYPES is et.PERSON_TYPES and ler.ANONYMIZED_LER_TAGS is et.ANONYMIZED_LER_TAGS
    assert {k: v for k, v in TYPE_KEYS.items() if k.isalpha()} == et.TYPE_KEYS
