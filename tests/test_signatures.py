"""The shared signature-run test: a run of names after a ruling's last sentence."""

import pytest

from rulings_anon.signatures import in_run


def capitalized(word: str) -> bool:
    return word[:1].isupper() and word.isalpha()


@pytest.mark.parametrize("text, index, least, expected", [
    ("abgelehnt. Sost-Scheible Roggenbuck Cierniak Bender", 2, 4, False),  # a hyphen: no member here
    ("abgelehnt. Roggenbuck Cierniak Bender Feilcke", 2, 4, True),
    ("abgelehnt. Roggenbuck Cierniak Bender Feilcke", 2, 5, False),  # four names, five wanted
    ("Roggenbuck Cierniak Bender Feilcke", 0, 4, True),  # the text's start counts as a sentence end
    ("es kandidierten Roggenbuck Cierniak Bender Feilcke", 3, 4, False),  # after a word of its sentence
    ("Kläger: Roggenbuck Cierniak Bender Feilcke", 2, 4, False),  # a colon is no sentence end
])
def test_a_run_needs_its_length_and_a_sentence_end_before_it(text, index, least, expected):
    assert in_run(text.split(), index, capitalized, least) is expected


def test_the_word_asked_about_counts_as_a_member_and_names_are_counted():
    words = "abgelehnt. Krumbiegel M. Jostes D. Reidelbach".split()
    initial = words.index("M.")
    member = lambda w: capitalized(w) or (len(w) == 2 and w.endswith("."))  # noqa: E731
    assert in_run(words, initial, member, 4, capitalized, 3)
    assert not in_run(words, initial, member, 4, capitalized, 4)  # three names in clear, not four
    assert in_run(words, initial, capitalized, 1)  # "M." itself is taken as one


def test_a_member_that_ends_a_sentence_ends_it():
    """"Main." looks like a first name's abbreviation ("Matth."), but its period ends the sentence
    the signature follows; a run reaching back past it into the sentence starts after it."""
    words = "das Oberlandesgericht Frankfurt am Main. Schäfer Appl Krehl Eschelbach 1. Auf".split()
    member = lambda w: capitalized(w) or w == "Main."  # noqa: E731
    assert in_run(words, words.index("Krehl"), member, 4)
    assert not in_run(words, words.index("Krehl"), member, 5)  # four names after "Main.", not five
    # a run of one sentence's words without any sentence end stays none
    words = "es kandidierten Roggenbuck Cierniak Bender Feilcke".split()
    assert not in_run(words, 3, lambda w: capitalized(w) or w == "kandidierten", 4)
