"""Active substances named by their INN ("Tadalafil", "Raltegravir") are no names: the rule after
the trees of ``rulings_anon.analyzer.substance_names``, its exemption and recall-first's weight."""

from __future__ import annotations

import pytest

from rulings_anon.analyzer import recognizers as rec
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer.substance_names import substance_name, substance_names
from rulings_anon.document import split_elements
from rulings_anon.replacement import surrogates

SUBSTANCES = ["Tadalafil", "Sildenafil", "Raltegravir", "Raltegravirs", "Adalimumab", "Pantoprazol", "Ramipril",
              "Quetiapin", "Aflibercept", "Oxaliplatin", "Rapamycin", "Tenofovir"]
# a month, towns, surnames, nouns, an acronym in capitals, a hyphenated word
NO_SUBSTANCES = ["April", "Neuruppin", "Müller", "Konzept", "Kapin", "Metformin", "Statine", "TADALAFIL",
                 "Tada-lafil", "Kläger", "Sommer", "Pirmasens", ""]


def test_substances_by_their_ending():
    assert [w for w in SUBSTANCES if substance_name(w)] == SUBSTANCES
    assert [w for w in NO_SUBSTANCES if substance_name(w)] == []
    assert substance_names(["Tadalafil", "Müller", "Ramipril"]).tolist() == [True, False, True]


@pytest.mark.parametrize("names", ["all", "foreign"])
def test_no_surrogate_name_is_a_substance(names):
    """The rule never hides a name the training or the test sets fill in."""
    pools = surrogates.german_pools() if names == "all" else surrogates._half_pools("foreign")
    assert {pool: [n for n in listed if substance_name(n)] for pool, listed in pools.items()} == \
        {pool: [] for pool in pools}


TEXT = ("Die Klägerin begehrt die Versorgung mit Tadalafil. Der Beklagte lehnte ab, weil Tadalafil "
        "nicht verordnet worden sei; Frau Achleitner legte Widerspruch ein.")


def _probability(model: sm.SensitivityModel, word: str) -> float:
    elements = split_elements(TEXT)
    candidates, probabilities = model.predict_text(TEXT, rec.analyze(TEXT))
    found = {elements[i].text.rstrip(".;"): p for i, p in zip(candidates, probabilities, strict=True)}
    return float(found[word])


def test_the_bundled_model_calls_a_substance_public_unless_the_policy_says_otherwise():
    model = sm.load_model()
    assert _probability(model, "Tadalafil") == 0.0
    assert _probability(model, "Achleitner") > 0.5
    model.follow_exemptions(off=["public_names"])
    judged = _probability(model, "Tadalafil")
    assert judged > 0.0  # the trees' own probability
    model.follow_exemptions(recall_first=True)
    assert _probability(model, "Tadalafil") == pytest.approx(judged * sm.RECALL_FIRST_PUBLIC_WEIGHT)
