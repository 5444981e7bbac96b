"""Runs of neighbouring elements that name no one, read around a candidate.

A letter or initial is often no placeholder because of the elements around it: it belongs to a
known abbreviation ("a. a. O."), stands in a quotation, in a run of initials of a citation ("W. - R.
Schenke"), a run of names in clear (a judges' signature), letters joined by slashes ("D / P / M"), a
range of letters ("A bis D"), a statute's name ("LandesVO L. K."), or the letters after a case
number ("4146/12 E, U, F"). Each question here needs only the element texts and their forms, no
document state; :mod:`rulings_anon.placeholders.context_rules` combines the answers.
"""

from __future__ import annotations

import re

from rulings_anon import signatures
from rulings_anon.faker_names import shipped_lists
from rulings_anon.lexicon import COMMON_NOUN, GERMAN_LETTERS, PERSON_NAME, noun_bits
from rulings_anon.word_frequency import ENGLISH_MARGIN, zipf

from .forms import Forms
from .word_lists import RARE_ZIPF, shipped


def abbreviation_indices(forms: Forms, texts: list[str], candidates: list[int]) -> set[int]:
    """Indices of elements that belong to a known abbreviation like "a. a. O."

    Every listed abbreviation starts with a one- or two-letter element, which is always a
    candidate, so only candidates need to be tried as starts.
    """
    p = forms.p
    inside: set[int] = set()
    for i in candidates:
        if i in inside:
            continue
        options = p.abbreviations.get(forms.core(texts[i]))
        for words in options or ():
            n = len(words)
            # the words in order, no comma inside ("K., O., J." are three initials, not "K. O.")
            # the last period may be missing ("m. w. N)")
            if i + n <= len(texts) and all(
                (forms.core(texts[i + k]) == words[k]
                 or (k == n - 1 > 0 and forms.core(texts[i + k]) + "." == words[k]))
                and (k == n - 1 or not texts[i + k].endswith((",", ";")))
                for k in range(n)
            ):
                inside.update(range(i, i + n))
                break
    return inside


def inside_quote(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether element ``i`` lies inside a quotation (German or straight quotes)."""
    p = forms.p
    before = " ".join(texts[:i])
    depth = sum(before.count(q) for q in p.open_quotes) - sum(before.count(q) for q in p.close_quotes)
    return depth > 0 or before.count('"') % 2 == 1


def initial_run(forms: Forms, texts: list[str], i: int) -> tuple[int, int]:
    """First and last index of the run of initials element ``i`` belongs to ("W. - R.", "U. K.")."""
    p = forms.p

    def initial(k: int) -> bool:
        return (0 <= k < len(texts) and bool(p.shape["run_initial"].match(texts[k]))
                and texts[k] not in p.two_letter_abbreviations)
    start = i
    dashes = p.dashes
    while initial(start - 1) or (start > 0 and texts[start - 1] in dashes and initial(start - 2)):
        start -= 1 if initial(start - 1) else 2
    end = i
    while initial(end + 1) or (end + 1 < len(texts) and texts[end + 1] in dashes and initial(end + 2)):
        end += 1 if initial(end + 1) else 2
    return start, end


def before_journal(forms: Forms, texts: list[str], end: int) -> bool:
    """Whether initials ending at ``end`` open a journal's abbreviated title with the year of the
    article after it ("J. Am. Ceram. Soc. 1987", "Z. Kristallogr. 2011"): a cited journal, no one's
    name. The title's words are capitalized words cut short that no list of the detector knows
    ("Str." after an initial is a street)."""
    p = forms.p
    k = end + 1
    while k < len(texts) and p.shape["word_abbreviation"].match(texts[k]) and texts[k] not in p.listed_abbreviations:
        k += 1
    return k > end + 1 and k < len(texts) and bool(p.shape["citation_year"].match(texts[k]))


# a claim's features numbered by letter and digit ("A1 ... B1 ... B3"), looked for this far on each side
FEATURE_REACH, FEATURE_LABELS = 40, 2
# how many letters with numbered features must stand near a feature's bare letter that has none, and
# how far past the last of them in the alphabet it may lie ("A1 ... B3 ... D2 ..., F eine Sensorik")
FEATURE_LETTERS, FEATURE_GAP = 2, 2
_LABEL_BEFORE_ELLIPSIS = re.compile(r"^([A-ZÄÖÜ])(\d{1,2})(?:\.{3,}|…)$")
_LABEL = re.compile(r"^([A-ZÄÖÜ])(\d{1,2})$")
_EXCLAIMED_LETTER = re.compile(r"^[„\"‚»«(]?[A-ZÄÖÜ][!¡]")


class ParagraphWords:
    """What the letter rules look up across a whole paragraph, found once per paragraph (the rules
    are asked of every letter in it): where it numbers features ("A1", "B3") and where it speaks
    of letters ("Buchstaben", "Vokal")."""

    _last: ParagraphWords | None = None

    def __init__(self, forms: Forms, texts: list[str]):
        self.forms, self.texts = forms, texts
        self._labels: list[tuple[int, str]] | None = None
        self._letter_words: list[int] | None = None

    @classmethod
    def of(cls, forms: Forms, texts: list[str]) -> ParagraphWords:
        last = cls._last
        if last is None or last.texts is not texts or last.forms is not forms:
            last = cls._last = cls(forms, texts)
        return last

    def labels(self) -> list[tuple[int, str]]:
        """(index, label) of each feature label: a capital and one or two digits, not a kind code
        after a patent's number ("DE 10 2004 A1")."""
        if self._labels is None:
            texts, core = self.texts, self.forms.core
            self._labels = [(k, label) for k, t in enumerate(texts) if t[:1].isupper() and len(t) <= 4
                            for label in [core(t)]
                            if len(label) in (2, 3) and label[1:].isdigit() and not (k and texts[k - 1][-1:].isdigit())]
        return self._labels

    def letter_words(self) -> list[int]:
        """Indices of the words that speak of letters as letters or sounds."""
        if self._letter_words is None:
            norm, lower = self.forms.norm, " ".join(self.texts).lower()
            self._letter_words = [k for k, t in enumerate(self.texts)
                                  for word in [norm(t)] if word.endswith(_SPOKEN_ENDINGS)
                                  or any(stem in word for stem in _LETTER_STEMS)] \
                if any(stem in lower for stem in _LETTER_STEMS + ("laute",)) else []
        return self._letter_words


def numbered_feature(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a bare letter is the label of a claim's feature group whose features the text near it
    numbers ("A1 einen von einer Kraftmaschine angetriebenen A Generator, B1 eine ... Schaltung"):
    its own letter with a digit and at least one more such label stand within reach, or the labels
    near it number the features of at least two other letters and it lies among them or just after
    them in the alphabet ("B3 ... Schaltung, C eine zur Messung ..., D1 ...": a feature without
    sub-features). A kind code after a patent's number ("DE 10 2004 A1") is no feature's label and
    does not count."""
    letter = forms.core(texts[i])
    if len(letter) != 1 or "." in texts[i]:
        return False
    near = {label for k, label in ParagraphWords.of(forms, texts).labels() if abs(k - i) <= FEATURE_REACH}
    if len(near) < FEATURE_LABELS:
        return False
    letters = {label[0] for label in near}
    return letter in letters or (len(letters) >= FEATURE_LETTERS
                                 and min(letters) < letter <= chr(ord(max(letters)) + FEATURE_GAP))


def exclaimed_sign(raw: str, pred: str | None) -> bool:
    """Whether a letter belongs to a sign that writes an "I" as an exclamation mark ("„W! R S! ND
    DABE!“", "W¡ R."): the letter itself ends in "!" or "¡", or the letter before it does. No
    court writes a name's placeholder with an exclamation mark."""
    return bool(_EXCLAIMED_LETTER.match(raw) or (pred and _EXCLAIMED_LETTER.match(pred)))


def label_range(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a label before an ellipsis opens a range of labels of one letter ("I1… I4 Eingänge",
    "Q1… Q2"): the next element is the same letter with a higher number. A number left out after a
    letter ("W1…", "M1… Corp.") is followed by anything else."""
    match = _LABEL_BEFORE_ELLIPSIS.match(forms.core(texts[i]))
    if not match or i + 1 >= len(texts):
        return False
    after = _LABEL.match(forms.core(texts[i + 1]))
    return bool(after) and after.group(1) == match.group(1) and int(after.group(2)) > int(match.group(2))


def in_letter_range(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a letter is an end of a range of letters ("Hauptteile A bis D"): labels are
    ranged, names are not."""
    p = forms.p

    def letter(k: int) -> bool:
        return 0 <= k < len(texts) and bool(p.potential["single_letter"].match(forms.core(texts[k])))
    return ((i + 2 < len(texts) and texts[i + 1] in p.range_words and letter(i + 2))
            or (i >= 2 and texts[i - 1] in p.range_words and letter(i - 2)))


def in_name_list(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether the initial stands in a run of names in clear, as in a signature line
    ("Schmidt Treber K. Schmidt Hayen Fritz"): two bare capitalized words on each side
    (or the paragraph's edge) that are neither articles nor person triggers."""
    if not (0 < i < len(texts) - 1):
        return False
    return all(k < 0 or k >= len(texts) or forms.name_like(texts[k]) for k in (i - 2, i - 1, i + 1, i + 2))


def in_statute_name(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether initials follow a statute's or agreement's name ("LandesVO L. K.", "MTV H")."""
    p = forms.p
    k = i - 1
    while k >= 0 and p.shape["first_initial"].match(texts[k]) and len(texts[k]) == 2:
        k -= 1
    return k >= 0 and texts[k].lstrip(p.strip_leading).endswith(p.statute_word_endings)


def middle_initial(forms: Forms, pred: str | None, succ: str | None) -> bool:
    """Whether an initial stands between a first name and a surname in clear: "Peter J.
    Tettinger", "Dr. Gerald B. Brock". The first name is one the noun lexicon lists (and no common
    noun) or one of faker's German given names."""
    p = forms.p
    if not (pred and succ and p.shape["plain_word"].match(pred) and forms.name_like(succ.rstrip(".,;:"))):
        return False
    bits = noun_bits(pred)
    return (bool(bits & PERSON_NAME) or pred in shipped_lists()["first_names"]) and not bits & COMMON_NOUN


def in_slash_run(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a letter is one of three or more joined by slashes ("D / P / M")."""
    p = forms.p

    def letter(k: int) -> bool:
        return 0 <= k < len(texts) and bool(p.shape["letter_in_slash_run"].match(texts[k]))
    start = i
    while letter(start - 2) and texts[start - 1] == "/":
        start -= 2
    end = i
    while letter(end + 2) and texts[end + 1] == "/":
        end += 2
    return (end - start) // 2 + 1 >= 3


def in_signature(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a first-name initial stands in the judges' signature after a sentence: a run of
    at least four names and initials, three of them names in clear, the initial before a name
    ("Fischermeier Spelge Krumbiegel M. Jostes D. Reidelbach")."""
    p = forms.p
    if i + 1 >= len(texts) or not forms.name_like(texts[i + 1]):
        return False

    def name_or_initial(word: str) -> bool:
        return forms.name_like(word) or bool(p.shape["first_initial"].match(word))
    return signatures.in_run(texts, i, name_or_initial, 4, forms.name_like, 3)


def cited_author(forms: Forms, raw: str, pred: str | None, succ: str | None, after_succ: str) -> bool:
    """Whether an initial is a cited author's first name before a surname in clear: after
    the "/" of an editor's name ("Schiek / M. Schmidt") or before "in" and a commentary
    ("K. Schneider in Littmann")."""
    p = forms.p
    if not (p.shape["first_initial"].match(raw) and succ and forms.name_like(succ.rstrip(","))):
        return False
    return (pred is not None and pred.endswith("/")) or after_succ == "in"


def after_case_number(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a letter continues a comma list that follows a case number ("4146/12 E, U, F")."""
    p = forms.p
    k = i - 1
    while k >= 0 and p.shape["letter_in_list"].match(texts[k]):
        k -= 1
    return k < i - 1 and k >= 0 and bool(p.shape["case_number_tail"].match(texts[k]))


def in_catchword(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a letter opens or continues the catchword a cited decision is known by, after its
    case number or page and a dash ("29 W (pat) 48/10 – E ARCHIV", "BlPMZ 2012, 283 – B & P", "123/16
    - F. C. von BAYERN MÜNCHEN GbR"): the name of a mark or of a published case, no one anonymized."""
    p = forms.p
    k = i - 1
    while k >= 0 and (texts[k] == "&" or bool(p.shape["first_initial"].match(texts[k]))
                      or bool(p.potential["single_letter"].match(forms.core(texts[k])))):
        k -= 1
    return (k >= 1 and texts[k] in p.dashes
            and bool(p.shape["case_number_tail"].match(texts[k - 1]) or p.shape["bare_number"].match(texts[k - 1])))


def roman_one(forms: Forms, raw: str, pred_norm: str, succ_core: str) -> bool:
    """Whether a bare "I" is the roman numeral one ("München I", "BStBl I", "(I.)").

    It names a company or person only after an article, a preposition or a person
    trigger ("die I GmbH", "in I und S", "der Angeklagte I.") or before a legal form.
    """
    p = forms.p
    if raw.startswith("("):
        return True
    return not (pred_norm in p.function_words or pred_norm in p.person_triggers
                or succ_core in p.legal_forms or succ_core in p.street_words)


# words that speak of letters as sounds or as written ("der „K“ -Laute", "Schreibweise „K“ statt
# „C“", "wie „K“ artikuliert", "Vokalumlaute wie „Ä“"): the endings of a sound's plural ("laut"
# alone is the preposition, "Lauterkeit" no sound) and stems found anywhere in a word
_SPOKEN_ENDINGS = ("laute", "lauten", "lautes")
# a bare letter, unquoted, needs a word of letters themselves: "sprechen" also means to talk ("teilte P
# mit, er habe ... gesprochen", "wurde S freigesprochen"), a "Schreibweise" may be a quotation's
_LETTER_STEMS = ("aussprache", "vokal", "konsonant", "buchstab", "umlaut", "phonet")
# a quoted letter is spoken of with these too: words of speech and spelling
_SPOKEN_STEMS = _LETTER_STEMS + ("ausgesproch", "gesproch", "artikul", "intonier", "schreibweise")
_SPOKEN_AS = frozenset({"gesprochen", "ausgesprochen"})  # "gesprochen als Ä", "(AE werde gesprochen Ä)"
SPOKEN_REACH = 12  # elements looked at on each side, within the sentence
_SENTENCE_END = (".", "!", "?")


def spoken_letter(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a quoted or bare letter is spoken of as a letter, the way a trademark ruling compares signs:
    a word of sound or spelling near it in its sentence ("die Anfangsvokale "i" und "E"", "der
    „K“ -Laute") or the quoted word it is a letter of right after it ("das „O“ von „STEREO“")."""
    raw = texts[i]
    if raw[:1] not in forms.p.open_quotes + '"':
        return bare_letter_spoken(forms, texts, i)
    letter = forms.core(raw)
    if i + 2 < len(texts) and texts[i + 1] in ("von", "in") and texts[i + 2][:1] in forms.p.open_quotes + '"' \
            and letter in forms.core(texts[i + 2]):
        return True
    for step in (-1, 1):
        k = i + step
        while 0 <= k < len(texts) and abs(k - i) <= SPOKEN_REACH:
            if step < 0 and texts[k].endswith(_SENTENCE_END):
                break
            word = forms.norm(texts[k])
            if word.endswith(_SPOKEN_ENDINGS) or any(stem in word for stem in _SPOKEN_STEMS):
                return True
            if step > 0 and texts[k].endswith(_SENTENCE_END):
                break
            k += step
    return False


def bare_letter_spoken(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether an unquoted capital letter is spoken of as a letter: after "gesprochen (als)" or with
    a word of letters themselves in its sentence ("Buchstaben E ... anstelle A"). An initial keeps
    its period and a letter after "Herr" is a name."""
    raw = texts[i]
    if len(forms.core(raw)) != 1 or "." in raw or not i or forms.norm(texts[i - 1]) in forms.p.person_triggers:
        return False
    if forms.norm(texts[i - 1]) in _SPOKEN_AS or (i > 1 and texts[i - 1] == "als" and forms.norm(texts[i - 2]) in _SPOKEN_AS):
        return True
    for k in ParagraphWords.of(forms, texts).letter_words():
        if abs(k - i) <= SPOKEN_REACH and not any(t.endswith(_SENTENCE_END) for t in texts[min(i, k):max(i, k)]):
            return True
    return False


# two of the next three words after a letter English rather than German (ENGLISH_MARGIN)
# make it a letter of an English text ("A method for", "B is to")
ENGLISH_REACH, ENGLISH_WORDS = 3, 2


def english_word(word: str) -> bool:
    """Whether a lower-case word is English rather than German ("method", "for", "is"; not "hat",
    "in", "war"): a word of German letters by the shipped list, any other by wordfreq's lists."""
    if not (word.isalpha() and word.islower()):
        return False
    if GERMAN_LETTERS.match(word):
        return word.casefold() in shipped()["english"]
    return zipf(word, "en") > zipf(word, "de") + ENGLISH_MARGIN


def in_english(forms: Forms, texts: list[str], i: int) -> bool:
    """Whether a letter opens or stands in an English phrase: a claim or title quoted in the language
    of the proceedings ("1. A method for using", "„A plant for transmitting", "great toe B is to be
    straightened"). There "A" is the article and a letter a figure's label; a German court's
    placeholder is followed by German."""
    following = [forms.core(t) for t in texts[i + 1:i + 1 + ENGLISH_REACH]]
    return sum(english_word(word) for word in following) >= ENGLISH_WORDS


def surname_in_clear(word: str) -> bool:
    """Whether a word after initials is a surname printed in clear ("R. E. Loehman", "Jay B.
    Saoud"): the lexicon lists it as a name and no common noun, or not at all and German rarely
    writes it; not a word that starts the next sentence after a placeholder's period ("der H.
    Soweit", "in L. Jedoch", "nach F.. Dort") nor a compound ("des N. Unternehmensgegenstand")."""
    word = word.rstrip(".")
    bits = noun_bits(word)
    if bits:
        return bool(bits & PERSON_NAME) and not bits & COMMON_NOUN
    lower = word.lower()
    if GERMAN_LETTERS.match(lower):
        return lower.casefold() not in shipped()["german"]
    return zipf(lower, "de") < RARE_ZIPF
