"""Proposed references whose NER score must not decide: words, units and the deciding judges.

The NER's sensitivity carries over badly to a court it never saw (docs/experiments.md, "The threshold").
These generic cases are told apart by the text around the reference instead:

* one common word ("Rampen", "Bauwerken"): a capitalized word the dev courts' rulings use outside
  every entity (:mod:`rulings_anon.analyzer.common_words`), not before a legal form ("Christen GmbH"). Not
  its inflected forms: stripping endings gained 0.5 points of precision on a court the NER never
  saw and turns towns into nouns ("Geldern"). A reference of several words loses the common words
  at its edges, and is one of these when nothing else is left (:func:`without_common_edges`);
* a unit letter after a degree sign ("780 ° C");
* a cited author: a name right before "et al." ("McMillan et al., Glass-Ceramics") or ", in:"
  ("Külpmann, in: Ernst/Zinkahn/Bielenberg"). Parties are never cited so; on the dev rulings the
  NER had not seen, all four "et al." references it proposed were authors of the prior art;
* a judge of the deciding panel, named in clear: a list of names and titles right after a judge's
  role ("unter Mitwirkung des Vorsitzenden Richters Dr. Strößner sowie der Richter Merzbach,
  Dr. Meiser und Schödel"), also with a federal court after the role ("die Richter am
  Bundesverwaltungsgericht Dr. Decker und Dr. Külpmann"). A judge of another court ("die
  Richterin am LSG Dr. W.") is not covered: a lower court's name stops the list, and courts do
  anonymize such judges;
* a country ("in Russland geboren"), or the place in a lower court's name ("Landessozialgericht
  Berlin-Brandenburg", ``court_designations`` in ``rulings_anon/data/name_affixes.json``);
* a public official named after the office ("Ministerpräsident Müller", "Oberbürgermeister Dr.
  Lindner", the offices of ``rulings_anon/data/name_affixes.json``);
* a name in the judges' signatures, a run of names without connectors or punctuation ("Prof. Dr.
  Rubel Dr. Decker Dr. Külpmann", "Mayen Dr. Karczewski Lehmann Dr. Brockmöller").

A contextual model may still judge these references (combinations ``model``, ``min``, ``mean``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from functools import lru_cache

from rulings_anon import signatures
from rulings_anon.analyzer.common_words import common_words as dev_common_words
from rulings_anon.data import path as data_path
from rulings_anon.document import WORD_PUNCTUATION, Span
from rulings_anon.jsonl import read_json
from rulings_anon.references import before_legal_form

_AFFIXES = read_json(data_path("name_affixes.json"))
JUDGE_ROLES = frozenset(_AFFIXES["judge_roles"])
FEDERAL_COURTS = frozenset(_AFFIXES["federal_courts"])


def _inflected(words, endings: str) -> re.Pattern:
    """A whole word of ``words`` (longest first) with one of the ``endings`` or none."""
    return re.compile("^(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + f")(?:{endings})?$")


# A court's designation, also inflected ("den Verwaltungsgerichten Schwerin und Greifswald").
_COURT_DESIGNATION = _inflected(_AFFIXES["court_designations"], "e|en|es|s")
# The words between a judge's role and a federal court: "Richter am BGH", "Richterin beim BSG".
_COURT_LINKS = frozenset({"am", "beim", "des", "der"})
# The words an academic title starts with ("Dr.", "Prof.", "Dipl.-Ing."): a title in a run of names.
_TITLE_STARTS = frozenset(t.split()[0] for t in _AFFIXES["academic_titles"] if t.split()[0].endswith("."))
# A piece of a title as printed between roles and names: "Dr.", "Dipl.", "Geophys.", "med.", "-".
_TITLE_PIECE = re.compile(r"^(?:[A-ZÄÖÜ][a-zäöü]{0,8}\.|[a-z]{1,4}\.|-|h\.c\.)$")
_TITLE_PIECES = frozenset(piece for title in _AFFIXES["academic_titles"] for piece in title.split())
_NAME = re.compile(r"^[A-ZÄÖÜ][\w'’-]*$")
_CONNECTORS = frozenset({"und", "sowie", ","})
_NOT_NAMES = frozenset(_AFFIXES["not_name_words"])
_PUBLIC_OFFICE = _inflected(_AFFIXES["public_offices"], "in|innen|en|n|s|r")
# a compound whose head is an office ("Verteidigungsministerin", "US-Präsidenten"), lower-cased
_OFFICE_COMPOUND = re.compile("^(.+?)-?(?:" + "|".join(_AFFIXES["public_office_heads"]) + ")(?:in|innen|en|n|s)?$")
_NOT_OFFICE_MODIFIERS = tuple(_AFFIXES["not_office_modifiers"])
_CITED = re.compile(r"[\s,]*et\s*al\b|,\s*in:")
# How far back a list of judges may reach: roles, titles, names and connectors only.
MAX_LIST = 16


def unscored(text: str, start: int, end: int, common_words) -> bool:
    """Whether the reference ``text[start:end]`` (without its punctuation) is one of the cases above."""
    word = text[start:end]
    if " " not in word and word in common_words and not before_legal_form(text, end):
        return True
    unit = word.lstrip("° ")
    if len(unit) == 1 and (unit != word or text[:start].rstrip().endswith("°")):
        return True
    if cited_author(text, end):
        return True
    if word in regions() or after_court_designation(text, start):
        return True
    return judge_named(text, start, end)


@lru_cache(maxsize=1)
def countries() -> frozenset[str]:
    """The German names of the world's countries (faker's de_DE list, the short forms of
    ``countries`` in ``rulings_anon/data/name_affixes.json``) and their genitives: in the six LER courts'
    rulings none of 905 mentions is anonymized ("in Russland geboren")."""
    from rulings_anon.faker_names import shipped_lists

    return _with_genitives(set(shipped_lists()["countries"]) | set(_AFFIXES["countries"]))


@lru_cache(maxsize=1)
def regions() -> frozenset[str]:
    """The countries and the German and Austrian states that are no city (``states`` in
    ``rulings_anon/data/name_affixes.json``), with their genitives: none of the 895 countries' and 568 states'
    mentions in the six LER courts' rulings is anonymized ("Verfassung des Freistaats Thüringen")."""
    return countries() | _with_genitives(_AFFIXES["states"])


@lru_cache(maxsize=1)
def case_countries() -> frozenset[str]:
    """The countries a cited European case names after "v.", "c." or "gegen": :func:`countries`,
    the English and French names of the Council of Europe's states (``case_countries`` in
    ``rulings_anon/data/name_affixes.json``: "Findlay v. the United Kingdom", "Bayrak c. Turquie") and the first
    word of every name of more than one word ("Vereinigtes" of "Vereinigtes Königreich", "United"
    of "United Kingdom"), since a case's country is looked up by the word after the "v."."""
    names = countries() | frozenset(_AFFIXES["case_countries"])
    return names | frozenset(name.split()[0] for name in names)


def _with_genitives(names) -> frozenset[str]:
    """``names`` and their regular genitives ("Russlands"; not after "s" or "z")."""
    return frozenset(names) | frozenset(n + "s" for n in names if n[-1] not in "sz")


def after_court_designation(text: str, start: int) -> bool:
    """Whether a lower court's designation stands right before ``start``: the place after it is
    part of the court's name ("des Landessozialgerichts Berlin-Brandenburg", "LSG Bayern")."""
    before = text[max(0, start - 40):start].split()
    return bool(before) and is_court_designation(before[-1])


def is_court_designation(word: str) -> bool:
    """Whether ``word`` is a lower court's designation, also inflected ("Verwaltungsgerichten", "LSG")."""
    return _COURT_DESIGNATION.match(word) is not None


def cited_author(text: str, end: int) -> bool:
    """Whether the name ending at ``end`` is a cited author: "et al." or ", in:" follows it."""
    return _CITED.match(text, end) is not None


def judge_named(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` names a judge of the deciding panel or a public official: after
    a judge's role (:func:`after_judge_role`), in the signatures (:func:`in_signature_run`), or
    right after a public office ("Ministerpräsident Müller", "Oberbürgermeister Dr. Lindner")."""
    return after_judge_role(text, start) or in_signature_run(text, start, end) or after_public_office(text, start)


def after_public_office(text: str, start: int) -> bool:
    """Whether a public office of ``rulings_anon/data/name_affixes.json`` (any inflection) stands right before
    ``start``, titles between allowed."""
    words = text[max(0, start - 120):start].split()
    i, _ = _before_titles(words)
    return i >= 0 and public_office(words[i])


@lru_cache(maxsize=65536)
def public_office(word: str) -> bool:
    """Whether ``word`` is a public office of ``rulings_anon/data/name_affixes.json``, in any inflection
    ("Ministerpräsidenten", "Präsidentin"), or a compound with such a head ("Verteidigungsministerin",
    "US-Präsident"; not a club's president, "Vereinspräsident")."""
    if _PUBLIC_OFFICE.match(word) is not None:
        return True
    compound = _OFFICE_COMPOUND.match(word.lower()) if word[:1].isupper() else None
    return compound is not None and not compound.group(1).startswith(_NOT_OFFICE_MODIFIERS)


def after_judge_role(text: str, start: int) -> bool:
    """Whether only names, titles and connectors stand between a judge's role and ``start``, the
    role maybe followed by a federal court ("Richter am Bundesverwaltungsgericht")."""
    def between(word: str, bare: str, after: str) -> bool:
        if bare in _COURT_LINKS and (after in FEDERAL_COURTS or after.removesuffix("s") in FEDERAL_COURTS):
            return True
        if word == "," or bare in _CONNECTORS or title_piece(bare):
            return True
        return bool(_NAME.match(bare)) and bare == word.rstrip(",")  # a sentence period ends the list

    return role_before(text, start, 300, MAX_LIST, lambda bare: bare in JUDGE_ROLES, between)


def role_before(text: str, start: int, reach: int, most: int, is_role, between) -> bool:
    """Whether, walking back from ``start`` over at most ``most`` words within ``reach``
    characters, a word ``is_role`` comes before any word that is not ``between(word, bare,
    after)`` (``bare``: without a trailing comma or semicolon; ``after``: the next word's bare
    form) and before a sentence ends ("des Richters Bender. Der Kläger Meyer"). The judge walks
    of this module and of the ``titled_name`` recognizer differ only in the two tests."""
    after = ""
    for word in reversed(text[max(0, start - reach):start].split()[-most:]):
        bare = word.rstrip(",;")
        if sentence_ended(word, after):
            return False
        if is_role(bare):
            return True
        if not between(word, bare, after):
            return False
        after = bare
    return False


def sentence_ended(word: str, after: str) -> bool:
    """Whether a sentence ends with ``word``: it has a period and ``after``, the next word, is a
    capitalized function word ("Bender. Der ..."; not "Dipl. - Geophys. Dr.")."""
    return word.endswith(".") and after in _NOT_NAMES


def capitalized(word: str) -> bool:
    """A bare capitalized word ("Mayen", "Harsdorf-Gebhardt"), no punctuation after it."""
    return word[:1].isupper() and word[-1:].isalpha()


def starts_title(word: str) -> bool:
    """Whether ``word`` begins an academic title ("Dr.", "Prof.", "Dipl.-Ing.")."""
    return word in _TITLE_STARTS or word.startswith(("Dipl.", "Dr.-"))


@lru_cache(maxsize=65536)
def title_piece(word: str) -> bool:
    """Whether ``word`` is a piece of a title ("Dr.", "Dipl.", "Geophys.", "-", "Professor")."""
    return bool(_TITLE_PIECE.match(word)) or starts_title(word) or word in _TITLE_PIECES


@lru_cache(maxsize=1)
def _judge_abbreviation() -> re.Pattern:
    """A judge's role abbreviated with the court's abbreviation, as signatures write it ("RiBGH",
    "RinBGH", "VRiBGH", "VorsRiBGH", "RiAG"): the courts of ``federal_courts`` and
    ``court_designations`` written in capitals, and the local and chamber courts'."""
    courts = {c for c in _AFFIXES["federal_courts"] + _AFFIXES["court_designations"] if c[:1].isupper() and c[-1:].isupper()}
    alternatives = "|".join(sorted(courts | {"AG", "KG"}, key=len, reverse=True))
    return re.compile(rf"^(?:V|Vors)?Ri(?:n|in)?(?:{alternatives})$")


def after_judge_abbreviation(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` names a judge right after the role's abbreviation, titles between:
    "Becker RiBGH Dr. Tiemann befindet sich im Urlaub", "Stresemann RinBGH Prof. Dr.
    Schmidt-Räntsch ist infolge Krankheit gehindert", as a ruling's signatures say why a judge of
    the panel does not sign. The signatures' run (:func:`in_signature_run`) ends at such a word;
    the trees do not read this test, ``score``'s decision does
    (:mod:`rulings_anon.analyzer.signed_judges`)."""
    if not raw[i][:1].isupper() or starts_title(raw[i]) or raw[i] in _TITLE_PIECES:
        return False  # a title ("Dr."), not a name; a name may end its sentence ("VorsRiOLG Hahn.")
    j = i - 1
    while j >= 0 and i - j <= 3 and title_piece(raw[j]):
        j -= 1
    return j >= 0 and bool(_judge_abbreviation().match(raw[j]))


# the role's letters of a judge's role abbreviated ("RiBGH", "VorsRiOLG"), found by one search of the text
_JUDGE_ROLE_START = re.compile(r"Ri(?:n|in)?[A-Z]")


def judge_abbreviation_reach(text: str, elements: Sequence) -> list[int]:
    """The elements of ``text`` (its ``elements``) that :func:`after_judge_abbreviation` may call a
    judge's name: the four after each role abbreviated, in order; one search of the text."""
    pattern, near = _judge_abbreviation(), set()
    for match in _JUDGE_ROLE_START.finditer(text):
        j = bisect.bisect_right(elements, match.start(), key=lambda e: e.start) - 1
        if pattern.match(elements[j].text):
            near.update(range(j + 1, min(len(elements), j + 5)))
    return sorted(near)


def _before_titles(words: list[str]) -> tuple[int, bool]:
    """The index of the last word of ``words`` before the titles that end it, and whether those
    pieces hold a title's start ("Dr.", not only "med.")."""
    i, titled = len(words) - 1, False
    while i >= 0 and title_piece(words[i]):
        titled = titled or starts_title(words[i])
        i -= 1
    return i, titled


def in_signature_run(text: str, start: int, end: int) -> bool:
    """Whether the name ``text[start:end]`` stands in a run of names without connectors or
    punctuation, as judges sign a ruling ("Dr. Milger Dr. Achilles Dr. Fetzer", "Mayen Dr.
    Karczewski Lehmann Dr. Brockmöller"): another title follows within two bare names, or a titled
    name or two bare names (no function or common words) precede its titles. A name without a
    title needs a longer run (:func:`in_untitled_signature`)."""
    words = text[max(0, start - 200):start].split()
    i, titled = _before_titles(words)
    if not titled:
        return in_untitled_signature(text, start, end)
    for word in text[end:end + 120].split()[:3]:
        if starts_title(word):
            return True
        if not capitalized(word):
            break
    bare = 0
    while i >= 0 and capitalized(words[i]):
        if words[i] in _NOT_NAMES or words[i] in dev_common_words():
            return False  # "Der Sachverständige Dr. Grill": a sentence, not a signature
        bare, i = bare + 1, i - 1
        if i >= 0 and starts_title(words[i]):
            return True
    return bare >= 2


_WORD = re.compile(r"\S+")
# A bare name in a signature: capitalized, no punctuation ("Sost-Scheible").
_BARE_NAME = re.compile(r"^[A-ZÄÖÜ][\w'’-]*[a-zäöüß]$")
# A first name's initial in a signature ("K. Schmidt", "Th. Gans", "Matth. Dipper").
_FIRST_INITIAL = re.compile(r"^[A-ZÄÖÜ][a-zäöü]{0,4}\.$")
_LEGAL_FORM_WORDS = frozenset(word for form in _AFFIXES["legal_forms"] for word in form.split())
# The least number of words a signature without titles has (BGH and BAG sign with five), and of
# bare names (no common words) among them.
MIN_UNTITLED_SIGNATURE = 4
MIN_SIGNATURE_NAMES = 3
# the particles of a judge's surname inside a signature ("Galke von Pentz Oehler Roloff")
_SIGNATURE_PARTICLES = frozenset({"von", "van", "de", "zu"})


def in_untitled_signature(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands in a run that starts a sentence, of capitalized words
    without punctuation (no function words, no legal forms) and first initials, at least four,
    three of them bare names (no common words), and no legal form after it: the judges'
    signatures of the BGH and the BAG ("… abgelehnt. Sost-Scheible Roggenbuck Cierniak Bender
    Feilcke Die Revision", "Schmidt Treber K. Schmidt Schwitzer Benrath", "Schlewing Winter
    Roloff Volz Leitz"), a judge's particle inside ("Galke von Pentz Oehler Roloff"). In the six
    LER courts' rulings 4 of the 1,976 words the scorer takes for the deciding judges are placeholders; a party list has commas ("Es kandidierten Bucher,
    Resch") or follows a word of its sentence or a colon ("Kläger: Hans Peter Josef Müller"), a
    firm's name ends in its legal form ("Vogler Christen Schön Strohmayer GmbH")."""
    def name_shaped(word: str) -> bool:
        return bool(_BARE_NAME.match(word)) and word not in _NOT_NAMES

    def bare(word: str) -> bool:
        return name_shaped(word) and word not in dev_common_words()

    def member(word: str) -> bool:
        return (name_shaped(word) and word not in _LEGAL_FORM_WORDS or bool(_FIRST_INITIAL.match(word))
                or word in _SIGNATURE_PARTICLES)

    word = text[start:end]
    if not member(word) or _FIRST_INITIAL.match(word):
        return False
    before = text[max(0, start - 300):start].split()
    # the window's start counts as the text's: a signature is never 300 characters of names
    words = before + [word] + text[end:end + 300].split()
    run = signatures.signature_run(words, len(before), member, MIN_UNTITLED_SIGNATURE, bare, MIN_SIGNATURE_NAMES)
    if run is None:
        return False
    after = run[1] + 1
    return after >= len(words) or words[after].strip(WORD_PUNCTUATION) not in _LEGAL_FORM_WORDS  # a firm's name


def without_common_edges(text: str, start: int, end: int, common_words) -> tuple[int, int] | None:
    """``[start, end)`` without the common words at its edges, and the lower-case words this
    leaves there: "Jobcenter Wallisellen" -> "Wallisellen", "Wurm Holding" -> "Wurm", "Vermögens
    von der Haidinger" -> "Haidinger". Courts anonymize the name inside an institution's name,
    not the nouns around it ("das Jobcenter W."). None when only such words are left
    ("Allgemeine Gleichbehandlungsgesetz"), unless a legal form follows: "Christen GmbH" is a
    company whatever "Christen" means."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text, start, end)]
    if len(words) < 2:
        return start, end

    def bare(i: int) -> str:
        return text[words[i][0]:words[i][1]].strip(WORD_PUNCTUATION + ".")

    def common(i: int) -> bool:
        return bare(i) in common_words

    first, last = 0, len(words) - 1
    cut_front = cut_back = False
    while first <= last and common(first):
        first, cut_front = first + 1, True
    while last >= first and common(last):
        last, cut_back = last - 1, True
    while cut_front and first <= last and bare(first)[:1].islower():
        first += 1
    while cut_back and last >= first and bare(last)[:1].islower():
        last -= 1
    if first > last:
        return (start, end) if before_legal_form(text, end) else None
    return words[first][0], words[last][1]


def span_unscored(text: str, span: Span, common_words, core) -> bool:
    """:func:`unscored` for a proposed span, cut to its ``core`` (no surrounding punctuation)."""
    s, e = core(text, span.start, span.end)
    return unscored(text, s, e, common_words)
