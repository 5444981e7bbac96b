"""Judges' signatures: the run of names after a ruling's last sentence.

Courts sign with their judges' names in clear ("… abgelehnt. Sost-Scheible Roggenbuck Cierniak
Bender Feilcke", "Fischermeier Spelge Krumbiegel M. Jostes D. Reidelbach"). Both the placeholder
detector (a first initial there is no placeholder) and the scorer (a name there is no party) ask
the same question of a word: does it stand in such a run? Each says what a member of the run is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Where a signature may start: the text's start or right after a sentence ends.
SENTENCE_ENDS = ".)!?"
_ENDS = tuple(SENTENCE_ENDS)


def signature_run(words: Sequence[str], i: int, member: Callable[[str], bool], least: int,
                  name: Callable[[str], bool] | None = None, least_names: int = 0) -> tuple[int, int] | None:
    """The run ``(start, end)`` (both inclusive) of at least ``least`` consecutive words around
    ``words[i]`` that starts the words or follows a word ending a sentence, with at least
    ``least_names`` words of the run that are ``name`` (when given); None when there is none. The
    run's other words are ``member``; ``words[i]`` is taken as one."""
    start = i
    while start > 0 and member(words[start - 1]):
        start -= 1
    if start > 0 and words[start - 1][-1:] not in _ENDS:
        # a member that ends a sentence ends it, whatever its shape: "... Frankfurt am Main.
        # Schäfer Appl Krehl" ("Main." is shaped like a first name's abbreviation)
        ends = [k for k in range(start, i) if words[k][-1:] in _ENDS]
        start = ends[-1] + 1 if ends else start
    end = i
    while end + 1 < len(words) and member(words[end + 1]):
        end += 1
    if end - start + 1 < least or (start > 0 and words[start - 1][-1:] not in _ENDS):
        return None
    if name is not None and sum(name(w) for w in words[start:end + 1]) < least_names:
        return None
    return start, end


def in_run(words: Sequence[str], i: int, member: Callable[[str], bool], least: int,
           name: Callable[[str], bool] | None = None, least_names: int = 0) -> bool:
    """Whether ``words[i]`` stands in such a run (:func:`signature_run`)."""
    return signature_run(words, i, member, least, name, least_names) is not None
