"""Text as it arrives -> the text the analyzer reads, with a map back to the original characters.

Rulings come out of Mac and PDF tools, word processors and portals with artefacts that hide a name
from a model trained on clean text: decomposed letters (NFD), invisible format marks and NULs
inside or beside a name, CRLF line ends, a word hyphenated across a line break ("Wim-" / "mer"),
letter-spaced words ("W i m m e r") and names in capitals ("WIMMER"). :func:`normalize` undoes
them in steps, each a list of edits; every character of the result knows the range of original
characters it came from, so a span found in the normalized text maps back to whole original
characters (:meth:`Normalized.original_span`), never ending inside a combining sequence. A text
without any of them is returned as it is (no map at all), so clean text scores exactly as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .hyphenation import joins_hyphenated

# Format characters (soft hyphen, zero-width space and joiners, direction marks, embeddings and
# overrides, word joiner, byte-order mark) and control characters that are not whitespace (NUL, ...;
# the C1 controls, which text decoded with the wrong code page carries, but NEL, a line end).
_INVISIBLE = frozenset(chr(c) for c in (*range(0x00, 0x09), *range(0x0e, 0x20), 0x7f, *range(0x80, 0x85),
                                        *range(0x86, 0xa0), 0xad, 0x61c, 0x180e,
                                        *range(0x200b, 0x2010), *range(0x202a, 0x202f), *range(0x2060, 0x2065),
                                        *range(0x2066, 0x2070), 0xfeff))
_INVISIBLE_OR_CR_CHARS = _INVISIBLE | {"\r"}
_INVISIBLE_OR_CR = re.compile("[" + "".join(re.escape(c) for c in sorted(_INVISIBLE)) + "]+|\r\n?")
_WORD = re.compile(r"\S+")
_WORD_CHAR = re.compile(r"\w")
_PUNCTUATION = ",.;:!?()[]{}\"'«»„“”‚‘’/"
# A hyphen at the end of its line, the next line's leading blanks (one line break only: a blank line
# ends a paragraph); :func:`joins_hyphenated` decides.
_HYPHEN_BREAK = re.compile(r"-[ \t]*\n[ \t]*(?=[^\W\d_])")
# Single letters, one space apart, standing alone: "W i m m e r", "W i m m e r,"; the match leaves
# out the first letter (a pattern led by a space is searched fast).
_LETTER_SPACED = re.compile(r" [^\W\d_](?: [^\W\d_])+(?!\w)")
# A word of four or more capitals (Latin letters, German and Latin Extended-A ones included).
_CAPITALS = re.compile(r"[A-ZÀ-ÖØ-Þ\u0100-\u017f][A-ZÀ-ÖØ-Þß\u0100-\u017f]{3,}(?!\w)")
_NAME_GAP = re.compile(r" (?:(?:an|am|bei|de|der|im|ob|van|von|vom|zu|zum|zur)(?: der| dem| den)? )?|-")
# Two names joined by a conjunction ("PILZ und ANDERL"): a name beside one takes its case.
_NAMES_GAP = re.compile(r" (?:und|oder|sowie) ")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_TERM = re.compile(r"[„“\"‚‘'«»]([^\W\d_]+)[“”\"‘’'«»]|\((?:\d+ )?([^\W\d_]+)\)")
_TRANSPARENT = frozenset(("", "und", "oder", "bzw", "sowie", "/", "<", ">"))
# prepositions before a place's or a person's name ("in FREIBURG", "von JUNG")
_BEFORE_NAME = frozenset(("in", "nach", "aus", "von", "bei"))
_NEAR = 40  # characters on each side of a word in capitals that hold its neighbours
_CONTEXT = 80  # characters on each side of a word in capitals that tell its line's case
_UNKNOWN_LENGTH = 5  # the least length of a word in capitals that no vocabulary knows to take a name's case
_VOWELS = set("AEIOUYÄÖÜÀÁÂÉÈÊÍÓÔÚ")
# Four consonants before a vowel, or five at the end, are no German syllable ("Ernst" is one).
_CONSONANT_RUN = re.compile(r"[^AEIOUYÄÖÜÀÁÂÉÈÊÍÓÔÚ]{4,}(?=[AEIOUYÄÖÜÀÁÂÉÈÊÍÓÔÚ])|[^AEIOUYÄÖÜÀÁÂÉÈÊÍÓÔÚ]{5,}$")
# A word no vocabulary knows may join two syllables: a coda and the next onset are at most four
# consonants ("Bernsdorff").
_JOINED_CONSONANT_RUN = re.compile(r"[^AEIOUYÄÖÜÀÁÂÉÈÊÍÓÔÚ]{5,}(?=[AEIOUYÄÖÜÀÁÂÉÈÊÍÓÔÚ])|[^AEIOUYÄÖÜÀÁÂÉÈÊÍÓÔÚ]{5,}$")
_DIGRAPHS = re.compile(r"SCH|CH|CK|PH|TH")
# Two consonants a German or Turkish name may start with; any other pair starts an acronym ("DSGVO").
_ONSETS = frozenset(("BL", "BR", "CH", "DR", "FL", "FR", "GL", "GN", "GR", "KL", "KN", "KR", "PF", "PH", "PL",
                     "PR", "SC", "SK", "SL", "SM", "SN", "SP", "ST", "SW", "SZ", "TH", "TR", "TS", "WR", "ZW"))
# Acronyms of four or more capitals that read like words.
_ACRONYMS = frozenset(("AEUV", "EMRK", "NATO", "BAFÖG", "UEFA", "OPEC", "ASEAN", "EURATOM", "UNESCO",
                       "UNICEF", "BAMF", "ELSTER", "HARTZ", "IBAN", "KITA", "SEPA"))


@dataclass(frozen=True)
class Normalized:
    """The analyzed ``text`` of ``original``; ``starts[i]``/``ends[i]`` are the original range of
    its character ``i`` (None for both when nothing changed)."""

    original: str
    text: str
    starts: np.ndarray | None = None
    ends: np.ndarray | None = None

    @property
    def changed(self) -> bool:
        return self.starts is not None

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """``[start, end)`` of the normalized text as whole original characters."""
        if self.starts is None:
            return start, end
        n = len(self.text)
        first = int(self.starts[start]) if start < n else len(self.original)
        last = int(self.ends[end - 1]) if end > start else first
        while last < len(self.original) and unicodedata.combining(self.original[last]):
            last += 1
        return first, last


def normalize(text: str, known: Callable[[str], bool] | None = None, cues: NameCues | None = None) -> Normalized:
    """``text`` normalized (see the module docstring), with its map back when anything changed.

    ``known`` says whether the analyzer's vocabulary lists a word as written ("Wimmer", "BEEG"): a
    word in capitals gets a name's case where the ruling itself writes it so elsewhere, or where the
    vocabulary knows that form and not the capitals (an acronym such as "BEEG" keeps them); with
    ``known`` also where it stands: a word the vocabulary knows in neither form in a line of small
    letters ("< JELTES >"); with ``cues`` (:class:`NameCues`) any word of a syllable's shape after a
    salutation, a title or a role, after a first name, or as a cited author ("Herr SCHMIDT", "Sabine
    HOFFMANN", "Frehse in JANSEN")."""
    current, starts, ends = text, None, None
    for step in (_invisible_and_line_ends, _composed, _hyphen_breaks, _letter_spacing, _capitals):
        edits = step(current, known, cues) if step is _capitals else step(current)
        if not edits:
            continue
        current, step_starts, step_ends = _apply(current, edits)
        if starts is None:
            starts, ends = step_starts, step_ends
        else:
            starts, ends = starts[step_starts], ends[step_ends - 1]
    return Normalized(text, current, starts, ends)


def _invisible_and_line_ends(text: str) -> list[tuple[int, int, str]]:
    if _INVISIBLE_OR_CR_CHARS.isdisjoint(text):
        return []
    return [(m.start(), m.end(), "" if m.group()[0] != "\r" else "\n") for m in _INVISIBLE_OR_CR.finditer(text)]


def _composed(text: str) -> list[tuple[int, int, str]]:
    """NFC, word by word; a starter and its combining marks become one edit, so none is split."""
    if unicodedata.is_normalized("NFC", text):
        return []
    edits = []
    for word in _WORD.finditer(text):
        if unicodedata.is_normalized("NFC", word.group()):
            continue
        base, chars = word.start(), word.group()
        cluster = 0
        for i in range(1, len(chars) + 1):
            if i == len(chars) or not unicodedata.combining(chars[i]):
                piece = chars[cluster:i]
                composed = unicodedata.normalize("NFC", piece)
                if composed != piece:
                    edits.append((base + cluster, base + i, composed))
                cluster = i
    return edits


def _hyphen_breaks(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), "") for m in _HYPHEN_BREAK.finditer(text)
            if joins_hyphenated(text[max(0, m.start() - 1):m.start() + 1], text[m.end():m.end() + 8])]


def _letter_spacing(text: str) -> list[tuple[int, int, str]]:
    """The spaces between letter-spaced letters go; one between a small and a capital letter separates
    two letter-spaced words ("S a b i n e T h a l h a m m e r" -> "Sabine Thalhammer")."""
    edits = []
    for m in _LETTER_SPACED.finditer(text):
        first = m.start() - 1  # the letter before the match, when it stands alone
        if first < 0 or not _alone(text, first):
            first = m.start() + 1
        if (m.end() - first + 1) // 2 >= 3:
            edits += [(i, i + 1, "") for i in range(first + 1, m.end(), 2)
                      if not (text[i - 1].islower() and text[i + 1].isupper())]
    return edits


def _alone(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a letter with no letter, digit or underscore before it."""
    return text[i].isalpha() and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))


def _capitals(text: str, known: Callable[[str], bool] | None,
              cues: NameCues | None = None) -> list[tuple[int, int, str]]:
    """A word in capitals that reads like a name gets the case of one ("WIMMER" -> "Wimmer"), the word
    as a whole (:func:`_name_case`) or one occurrence by its place, and so does a neighbour in capitals
    that could be a name as well ("SABINE THALHAMMER")."""
    decided: dict[str, str | None] = {}
    tokens = set(text.split())
    if not any(len(t) >= 4 and t.isupper() for t in tokens):  # the common case, without a regular expression
        return []
    words = [m for m in _CAPITALS.finditer(text) if not m.start() or not _WORD_CHAR.match(text, m.start() - 1)]
    written = {t.strip(_PUNCTUATION) for t in tokens}  # the document's words
    for m in words:
        if m.group() not in decided:
            decided[m.group()] = _name_case(m.group(), written, known)
    readable = {w: _readable(w) for w in decided}
    terms = _terms(text)
    unknown = {w: _unknown(w, known) and _readable(w, _JOINED_CONSONANT_RUN) and w not in terms
               for w in decided if not decided[w]}

    # the occurrences (by start) of words not decided as a whole that stand where a name stands
    beside = {m.start() for m in words if known is not None and cues is not None and not decided[m.group()]
              and readable[m.group()] and _beside_a_name(text, m, known, cues)}
    # a name its place showed once ("der HAMMER AG", "Herr WIMMER") is that name in the ruling's
    # other lines of small letters too ("bei HAMMER"), not in a heading
    named = {m.group() for m in words if m.start() in beside}

    def by_context(m) -> bool:  # where this occurrence stands, for a word not decided as a whole
        return known is not None and (m.group() in named and (m.start() in beside or _among_small(text, m))
                                      or unknown[m.group()] and not _beside_capitals(text, m, decided, known)
                                      and _among_small(text, m))

    cased = [decided[m.group()] or (_cased(m.group()) if by_context(m) else None) for m in words]
    # a neighbour of a name's word takes its case, along the whole name ("SANKT VEIT an der GLAN"):
    # one sweep carries it to the right, one to the left (linear in the words, a text wholly in
    # capitals included)
    for order, step in ((range(1, len(words)), -1), (range(len(words) - 2, -1, -1), 1)):
        for n in order:
            k = n + step
            if not cased[n] and cased[k] and readable[words[n].group()] \
                    and _adjacent(text, words[min(k, n)], words[max(k, n)]):
                cased[n] = _cased(words[n].group())
    return [(m.start(), m.end(), c) for m, c in zip(words, cased, strict=True) if c]


def _unknown(word: str, known: Callable[[str], bool] | None) -> bool:
    """A word of a name's shape that the vocabulary knows neither in capitals nor in a name's case."""
    return known is not None and len(word) >= _UNKNOWN_LENGTH and not known(word) and not known(_cased(word))


@dataclass(frozen=True)
class NameCues:
    """What the analyzer knows of names, for the capitals step: the words before a person's name
    (salutations, titles, roles, relatives), whether a word is a first name, whether it may be a
    part of a name. The engine passes the analyzer's; this module reads no model itself."""

    before_names: frozenset[str]
    first_name: Callable[[str], bool]
    name_part: Callable[[str], bool]
    # the first words of the legal forms ("GmbH", "AG", "KG"): a word in capitals before one is a
    # company's name ("die HAMMER AG")
    legal_forms: frozenset[str] = frozenset()


def _beside_a_name(text: str, word, known: Callable[[str], bool], cues: NameCues) -> bool:
    """Whether a word in capitals stands where a name stands: after a salutation, a title or a role
    ("Herr SCHMIDT", "Dr. KELLER", "Zeugin MAIER"), after a first name ("Sabine HOFFMANN"), as a
    cited author beside another ("Frehse in JANSEN", "EMMERICH in Staudinger"), or right before a
    legal form ("der HAMMER AG")."""
    first_name, name_part = cues.first_name, cues.name_part
    before = text[max(0, word.start() - _NEAR):word.start()].split()
    after = text[word.end():word.end() + _NEAR].split()
    if not (word.start() and text[word.start() - 1] == " "):
        before = []  # "(EMMERICH", "-MEYER": no word of its name before it
    previous = before[-1] if before else ""
    if previous in cues.before_names:
        return True
    if after and after[0].rstrip(_PUNCTUATION) in cues.legal_forms and text[word.end():word.end() + 1] == " ":
        return True  # "der HAMMER AG", "die VOGEL GmbH"
    if previous in _BEFORE_NAME and known(_cased(word.group())):
        return True  # "in FREIBURG", "von JUNG"; not an acronym, which no text writes as a name ("in GRUR")
    if previous[:1].isupper() and not previous.isupper() and first_name(previous):
        return known(_cased(word.group())) or len(word.group()) >= _UNKNOWN_LENGTH  # not "Lilly ICOS LLC"
    if previous == "in" and len(before) > 1 and name_part(before[-2].strip(_PUNCTUATION)):
        return True
    return (after[:1] == ["in"] and text[word.end():word.end() + 1] == " " and len(after) > 1
            and name_part(after[1].strip(_PUNCTUATION)))


def _terms(text: str) -> set[str]:
    """The words the document quotes („RAPAMUNE“: a mark, a word discussed) or defines as an
    abbreviation in brackets ("(USAFE)", "(702 MUNSS)")."""
    return {m.group(1) or m.group(2) for m in _TERM.finditer(text)}


def _beside_capitals(text: str, word, decided: dict[str, str | None],
                     known: Callable[[str], bool] | None = None) -> bool:
    """Whether the word before or after ``word`` (past "und", "oder", "/", "<", ">") is in capitals
    and no name: a row of abbreviations or a title ("UNICE, CEEP und EGB", "PAVIS PROMA"). A common
    noun joined to it by a hyphen is none ("DORNER-GRUPPE", "AMMANN-FONDS"; "EGB-UNICE" is)."""
    before = text[max(0, word.start() - _NEAR):word.start()].split()
    after = text[word.end():word.end() + _NEAR].split()
    if known is not None:
        if before and text[word.start() - 1:word.start()] == "-" and _noun_in_capitals(before[-1], known):
            before.pop()
        if after and text[word.end():word.end() + 1] == "-" and _noun_in_capitals(after[0], known):
            after.pop(0)
    for tokens in (reversed(before), after):
        for token in tokens:
            token = token.strip(_PUNCTUATION)
            if token in _TRANSPARENT:
                continue
            if len(token) > 1 and token.isupper() and not decided.get(token):
                return True
            break
    return False


def _noun_in_capitals(token: str, known: Callable[[str], bool]) -> bool:
    """Whether a hyphen's other part (``token``, the hyphen at its end or start) is a word in
    capitals the vocabulary knows in a name's case ("-GRUPPE"), not an acronym ("EGB-")."""
    part = token.strip(_PUNCTUATION + "-").split("-")[0 if token.startswith("-") else -1]
    return _readable(part) and known(_cased(part))


def _among_small(text: str, word) -> bool:
    """Whether ``word`` stands in a line of words in small letters, not in a heading or a text in capitals."""
    start = max(text.rfind("\n", 0, word.start()) + 1, word.start() - _CONTEXT)
    end = text.find("\n", word.end())
    end = word.end() + _CONTEXT if end < 0 else min(end, word.end() + _CONTEXT)
    small = capitals = 0
    for other in _LETTERS.finditer(text, start, end):
        if other.group().isupper():
            capitals += 1
        else:
            small += 1
    return small >= 3 and small > 2 * (capitals - 1)


def _adjacent(text: str, first, second) -> bool:
    """Two words of one name: a space or a hyphen apart, or a name's particle ("NEUBURG an der
    DONAU", "DORNER-GRUPPE"); or two names joined by a conjunction ("PILZ und ANDERL")."""
    return (_NAME_GAP.fullmatch(text, first.end(), second.start()) is not None
            or _NAMES_GAP.fullmatch(text, first.end(), second.start()) is not None)


def _readable(word: str, consonants: re.Pattern = _CONSONANT_RUN) -> bool:
    return word.replace("ß", "").isupper() and _reads_like_word(word, consonants) and len(_cased(word)) == len(word)


def _cased(word: str) -> str:
    return word[0] + word[1:].lower()


def _name_case(word: str, written: set[str], known: Callable[[str], bool] | None) -> str | None:
    """``word`` in a name's case where that is safe (see :func:`normalize`), else None; ``written``
    holds the document's words."""
    if not _readable(word, _JOINED_CONSONANT_RUN):  # two syllables may meet: "ALLENTSTEIG"
        return None
    cased = _cased(word)
    if cased in written:
        return cased
    if known is not None and known(cased) and not known(word):
        return cased
    return None


def _reads_like_word(word: str, consonants: re.Pattern = _CONSONANT_RUN) -> bool:
    """Not an acronym ("DSGVO", "EMRK"): vowels, German-like consonant clusters, not a known one."""
    if word in _ACRONYMS:
        return False
    collapsed = _DIGRAPHS.sub("C", word)
    # a final L after a consonant is a syllable of its own in the Bavarian and Austrian surnames
    # ("BRANDL", "TRINKL", "STROBL")
    vowels = sum(c in _VOWELS for c in collapsed) + (len(collapsed) > 2 and collapsed[-1] == "L"
                                                     and collapsed[-2] not in _VOWELS)
    if vowels == 0 or vowels * 5 < len(collapsed) or consonants.search(collapsed):
        return False
    return collapsed[0] in _VOWELS or collapsed[1] in _VOWELS or word[:2] in _ONSETS or word.startswith("SCH")


def _apply(text: str, edits: list[tuple[int, int, str]]) -> tuple[str, np.ndarray, np.ndarray]:
    """``text`` with sorted, non-overlapping ``edits`` made, and each result character's range in ``text``."""
    parts, starts, ends, pos = [], [], [], 0
    for start, end, replacement in edits:
        if pos < start:
            parts.append(text[pos:start])
            starts.append(np.arange(pos, start, dtype=np.int64))
            ends.append(np.arange(pos + 1, start + 1, dtype=np.int64))
        if replacement:
            parts.append(replacement)
            if len(replacement) == end - start:
                starts.append(np.arange(start, end, dtype=np.int64))
                ends.append(np.arange(start + 1, end + 1, dtype=np.int64))
            else:
                starts.append(np.full(len(replacement), start, dtype=np.int64))
                ends.append(np.full(len(replacement), end, dtype=np.int64))
        pos = end
    if pos < len(text):
        parts.append(text[pos:])
        starts.append(np.arange(pos, len(text), dtype=np.int64))
        ends.append(np.arange(pos + 1, len(text) + 1, dtype=np.int64))
    empty = np.zeros(0, dtype=np.int64)
    return "".join(parts), np.concatenate(starts or [empty]), np.concatenate(ends or [empty])


def original_spans(spans: list, normalized: Normalized) -> list:
    """``spans`` of ``normalized.text`` moved onto the original: offsets and ``text`` its own characters."""
    if not normalized.changed:
        return spans
    moved = []
    for span in spans:
        start, end = normalized.original_span(span.start, span.end)
        moved.append(replace(span, start=start, end=end,
                             text=normalized.original[start:end] if span.text is not None else None))
    return moved
