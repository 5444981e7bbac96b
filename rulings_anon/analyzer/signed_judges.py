"""A judge named after the role's abbreviation, as a ruling's signatures say why a judge of the
panel does not sign: "Becker RiBGH Dr. Tiemann befindet sich im Urlaub und ist gehindert zu
unterschreiben", "Stresemann RinBGH Prof. Dr. Schmidt-Räntsch ist infolge Krankheit gehindert".

The judges of the deciding panel are named in clear (:mod:`rulings_anon.analyzer.exemptions`), but
the signatures' run of names (:func:`rulings_anon.analyzer.exemptions.in_signature_run`) ends at the
abbreviation, so the model flags the name after it as it would a party's (0.4 to 1.0). In the six
LER courts' rulings 5 words stand so (BGH's), none a placeholder. A decision rule: the trees do not
read it, so it needs no refit; the word is weighed down (times :data:`SIGNED_JUDGE_WEIGHT`), so the
default leaves it and ``--recall-first`` still reaches it, as an exemption may only lower a score.
The measured decision reads the same test, kept per candidate when the features are computed (the
``judge_abbreviation`` mark of :data:`rulings_anon.analyzer.sensitivity_model.MARKS`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rulings_anon.analyzer.exemptions import after_judge_abbreviation, judge_abbreviation_reach
from rulings_anon.analyzer.thing_names import weighed
from rulings_anon.document import Element

# whether score's decision applies the rule (the benchmark switches it off to compare)
SIGNED_JUDGES = True
SIGNED_JUDGE_WEIGHT = 0.1


def without_signed_judges(text: str, elements: Sequence[Element], probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`SIGNED_JUDGE_WEIGHT` for each judge named after the role's
    abbreviation (:func:`~rulings_anon.analyzer.exemptions.after_judge_abbreviation`)."""
    probabilities = np.asarray(probabilities)
    if not SIGNED_JUDGES:
        return probabilities
    return weighed(elements, probabilities, judge_abbreviation_reach(text, elements), after_judge_abbreviation,
                   SIGNED_JUDGE_WEIGHT)
