"""Names a ruling prints in clear because a public register or a published case carries them.

Conventions of German rulings that the training courts teach the sensitivity model poorly, since
only one or two of them write such names at all:

* **Registered marks.** A trademark court discusses the sign, not a person: "die Wortmarke
  Becker", "das Wortzeichen Limmer Kontor", "die Bezeichnung MAM Munich Asset Management". The
  name after a mark noun is what the register prints. Of the 699 capitalized words that stand
  in a sign's name after a mark noun in the six LER courts' rulings (649 of them BPatG's), none is
  a placeholder.
* **Parties of cited European cases.** The case names of the European courts are published with
  the parties' names: "Demir und Baykara v. Türkei", "Gast und Popp ./. Deutschland", "Aranyosi
  und Căldăraru, C-404/15", "- C- 544/11 - [Petersen und Petersen]", "EuGH-Urteil Barlis 06
  vom 15. September 2016 C - 516/14", "in der Rechtssache Webb-Sämann", "in der Sache Herrmann
  gegen Deutschland", "Bader und Kanbor / Schweden" ("gegen" and "/" only before a country), and
  the European Court of Human Rights' English and French names ("Findlay v. the United Kingdom",
  "Bayrak c. Turquie"). Of the 747 such words in the six courts' rulings, none is a placeholder.
* **Names of cited decisions.** German courts cite a decision with its catchword after the
  citation's dash: "BGH GRUR 2009, 949 Rn. 45 – My World", "EuGH GRUR 2015, 1198 – Nestlé /
  Cadbury [Kit Kat]" (the same place holds a file number's letters: "BGH 13. Februar 2014 - III
  ZR 311/13"). Of the 7,898 capitalized words there in the six courts' rulings, none is a
  placeholder.
* **Terms under discussion.** A word in quotes right after a noun that names a word or a term is
  talked about, not a person: "der Wortbestandteil „Reflex“", "die Zeichenkomponente „Mining“",
  "die Begriffe „Kochgeräte“ und „Kocher“", "die Wortverbindung "ÖkoStar"", and so is a cited
  decision's name in quotes after "Entscheidung", "Urteil" or "Rechtssache" ("in seiner
  Entscheidung „Eli Lilly“"). Of the 862 such words in the six courts' rulings, none is a
  placeholder.
* **Goods and services of a mark's register entry.** The list after "Klasse 20:" up to the end of
  its sentence or a closing quote ("Klasse 20: Dekorationsgegenstände aus Holz; Figuren aus Holz;
  ... Horn, Knochen, Elfenbein, Fischbein"): of its 9,401 capitalized words, none is a placeholder.
* **Authors of cited works.** A name that opens a citation ("(Eichenberger, Die richterliche
  Unabhängigkeit als staatsrechtliches Problem, 1960, S. 43)", "vgl. Häberle, Europäische
  Verfassungslehre, 7. Aufl.", "vgl. Schack Internationales Zivilverfahrensrecht 5. Aufl.") or
  stands before a title's article ("a. A. wohl Däubler, Der Streik im öffentlichen Dienst, 2.
  Aufl."), a name before "in" and an edited work ("Spelge in Groeger Arbeitsrecht 3. Aufl."), a name right
  before a journal, a year and a page ("Frey BB 2005, 1044", as BAG cites; also the court in "BGH
  GRUR 2009, 949") or before its comma ("Portner, DStR 2009, 1838", "Brehm / Schifferdecker, SGb
  2010, 331"), the author and the editors of a commentary cited with its editors ("Kuhn in
  Herrmann / Heuer / Raupach, EStG"; a law's abbreviation, an edition, a year and page or a "§"
  after them, so "in Halle / Saale" is no list of editors), the author or editor of a work cited
  before ("(Fezer aaO)", "Schmitt in Meyer-Goßner, aaO", "Kirchhof, a. a. O.") and the honoree of
  a Festschrift ("Bauer, in: Festschrift für Herbert Buchner, 2009, S. 30"), and one editor
  after "in" with an editor's mark, or with a law's abbreviation and an edition, a place and year
  or a "§" ("Budde, in: Keidel, FamFG, 19. Aufl.", "in: Hoffmann [Hrsg.]", "Lochte in Frotscher,
  EStG, Freiburg 2011", "Henckel in Jaeger InsO § 38"): of 5,005 such words,
  none is a placeholder.

A mark's name, a term under discussion and a cited case's party are public in all their mentions
in the ruling ("„Becker“ ist unterscheidungskräftig", "das Urteil Barlis"): of the 1,848, 2,142
and 418 other mentions of such words in their ruling, none is a placeholder.

All work on a text's elements (``raw``: the element texts; ``words``: their core words,
:func:`rulings_anon.analyzer.sensitivity.core_word`) and answer per candidate index.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from rulings_anon.analyzer.common_words import abbreviations, label_shaped
from rulings_anon.document import INITIAL

# Nouns that name a sign: any word ending in "marke(n)" ("Wortmarke", "Widerspruchsmarke",
# "Unionsmarke") and these. Not "Kennzeichen" (a vehicle's, which courts anonymize), nor
# "Aktenzeichen" or "Merkzeichen".
_MARK_ENDINGS = ("marke", "marken")
_MARK_NOUNS = frozenset({"zeichen", "zeichens", "wortzeichen", "wortzeichens", "bildzeichen", "bezeichnung",
                         "wortkombination", "wortfolge", "slogan", "werktitel"})
# how many capitalized words, digits or quotes a mark's name may run to after its noun
MARK_LENGTH = 5
_QUOTE_OR_DASH = frozenset({"„", "\"", "“", "»", "-", "–", "&", "+"})

# "Demir und Baykara v. Türkei", "Gast und Popp ./. Deutschland", "Findlay v. the United Kingdom",
# "Bayrak c. Turquie"
_VERSUS = frozenset({"v.", "vs.", "./.", "/.", "gg.", "c."})
# between a party and a country they name a cited European case ("Herrmann gegen Deutschland",
# "Bader und Kanbor / Schweden"); elsewhere they are no case's "v."
_VERSUS_COUNTRY = frozenset({"gegen", "/"})
# a case number of the EU's Court of Justice or General Court ("C-404/15", "C - 404/15", "T-1/99")
_EU_NUMBER = re.compile(r"^[CT]-\d+/\d+[,;.)]?$")
_NUMBER = re.compile(r"^\d+/\d+[,;.)]?$")
_PARTY_LINKS = frozenset({"und", "u.", "a.", "&", "sowie", "and", "et", "al."})
# the article before a country's English name ("v. the Netherlands")
_ARTICLES = frozenset({"the", "The"})
# how far a party's name may stand before the "v." or the case number, and how many elements a
# date between may take ("vom 15. September 2016 C - 516/14")
CASE_REACH = 6
DATE_LENGTH = 5
_MONTHS = frozenset({"Januar", "Jänner", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
                     "Oktober", "November", "Dezember"})

_DASHES = frozenset({"-", "–", "—"})
# what ends a citation before its dash: a page, a margin number, "f."/"ff.", a senate's numeral
_CITATION_END = re.compile(r"^(?:\d[\d.,;]*|f\.|ff\.|[IVX]+,?)$")
# what marks the words before the dash as a citation: a journal's or court's capitals ("GRUR",
# "NJW-RR", "BGH"), a margin number's word, "juris"
_CITATION_WORD = re.compile(r"^(?:[A-ZÄÖÜ][A-Za-zÄÖÜäöü-]{0,7}[A-ZÄÖÜ][A-Za-z-]{0,4}|Rn\.|Rdnr\.|Rdn\.|Tz\.|juris|Nr\.)[,;]?$")
# how far a decision's name may run after the dash, and how far back its citation may start
DECISION_LENGTH = 6
CITATION_REACH = 8


# Nouns that name a word or a term under discussion ("Wortbestandteil", "Zeichenkomponente",
# "Begriff", "Wortverbindung"). Not a company's name ("Firmenbezeichnung"), which is a party's.
_TERM_ENDINGS = ("bestandteil", "bestandteile", "bestandteils", "komponente", "bezeichnung", "wortverbindung",
                 "begriff", "begriffe", "begriffs", "angabe", "wort", "worte", "wörter", "ausdruck", "ausdrucks",
                 "silbe", "titel", "schlagwort", "slogan",
                 # a cited decision's name in quotes ("in seiner Entscheidung „Eli Lilly“")
                 "entscheidung", "entscheidungen", "urteil", "urteile", "urteilen", "urteils", "rechtssache",
                 "rechtssachen")
_OPENING_QUOTES = ("„", "\"", "»", "“")
_CLOSING_QUOTES = ("“", "\"", "«")
# how far into a quoted term an element may stand
TERM_LENGTH = 4

# "Klasse 20:" opens a list of goods or services, up to the end of its sentence or a closing quote
_CLASS_NUMBER = re.compile(r"^\d{1,2}:$")
# an element that ends with a period without ending a sentence: an ordinal ("20."), a short
# lower-case abbreviation ("bzw.", "vgl."); capitalized ones ("Nr.", "Abs.") are looked up in
# :func:`rulings_anon.analyzer.common_words.abbreviations`
_NO_SENTENCE_END = re.compile(r"^(?:\d+\.|[a-zäöü]{1,4}\.)$")
# how far a goods list may run
GOODS_LENGTH = 400

# what opens a citation of a work before its author's name
_CITATION_OPENERS = frozenset({"(", "vgl.", "Vgl.", "auch", "etwa", "bei", "s.", "siehe", "ferner", "auf"})
_YEAR = re.compile(r"^(?:1[89]|20)\d\d[,;)]?$")
_PAGE_WORDS = frozenset({"S.", "Rn.", "Rdnr.", "Bd.", "p."})
# a work's title after its author's comma, wherever the citation opens ("a. A. wohl Däubler, Der
# Streik im öffentlichen Dienst, 2. Aufl.")
_TITLE_OPENERS = frozenset({"Der", "Die", "Das", "Zur", "Zum", "Ein", "Eine", "Über", "Vom"})
# how far after the author's name the work's edition or year and page may stand
WORK_REACH = 14
_TRIBUTES = ("Festschrift", "FS", "Gedächtnisschrift", "Liber")
# what stands between an author and the edited work or its editors ("Spelge in Groeger", "Ekey in: Ekey")
IN_WORDS = ("in", "in:")
# a journal's capitals ("BB", "NZA-RR", "ZTR", "jM"; a law's abbreviation is written alike: "EStG");
# a year with its comma, as BAG cites an article without a comma after its author ("Frey BB 2005, 1044")
JOURNAL = re.compile(r"^(?:[A-ZÄÖÜ][A-Za-zÄÖÜäöü]{0,5}[A-ZÄÖÜ][A-Za-z]{0,3}(?:-[A-Z]{1,3})?|jM|jurisPR-[A-Za-z]+)$")
_YEAR_COMMA = re.compile(r"^(?:19|20)\d\d,$")
# "am angegebenen Ort": a work cited before, named by its author ("Fezer aaO", "Meyer-Goßner, a.a.O.",
# "Kirchhof, a. a. O.")
_AAO = re.compile(r"^(?:aaO|a\.a\.O)[.,;)]*$")
_AAO_LAST = re.compile(r"^O\.[,;)]*$")
# how many co-authors or editors a citation may list with "/" ("Rödder / Herlinghaus / van Lishaut")
AUTHORS_LENGTH = 5
# what marks a name as a work's editor ("in: Hoffmann [Hrsg.], 15 Jahre", "Müller (Hrsg.)")
_EDITOR_MARK = re.compile(r"^[(\[]Hrsg\.[)\]][,.;:]?$")
# lower-case particles inside a name ("van Lishaut", "von Raumer", "Ursula von der Leyen")
NAME_PARTICLES = frozenset({"von", "van", "de", "der", "zu", "vom", "zur"})
# what surrounds a mark or term noun in the text ("„Wortmarke“", "(Begriff),")
_NOUN_PUNCTUATION = "„“\"»«(),:;"


def is_mark_noun(element: str) -> bool:
    """A capitalized noun that names a sign ("Wortmarke", "Zeichen", "Bezeichnung")."""
    word = element.strip(_NOUN_PUNCTUATION).lower()
    return element[:1].isupper() and (word.endswith(_MARK_ENDINGS) or word in _MARK_NOUNS)


def in_mark_name(raw: Sequence[str], words: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in a sign's name right after a mark noun: up to
    :data:`MARK_LENGTH` capitalized words, digits or quotes between."""
    for j in range(i - 1, max(-1, i - 1 - MARK_LENGTH), -1):
        if is_mark_noun(raw[j]):
            return True
        if not (words[j][:1].isupper() or words[j][:1].isdigit() or raw[j] in _QUOTE_OR_DASH):
            return False
    return False


def is_term_noun(element: str) -> bool:
    """A capitalized noun that names a word or a term ("Wortbestandteil", "Begriff")."""
    word = element.strip(_NOUN_PUNCTUATION).lower()
    return element[:1].isupper() and word.endswith(_TERM_ENDINGS) and not word.startswith("firm")


def in_quoted_term(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in quotes that open right after a term noun ("der Begriff
    „Kocher“"), no closing quote before it."""
    for j in range(i, max(-1, i - 1 - TERM_LENGTH), -1):
        if raw[j][:1] in _OPENING_QUOTES:
            return (j > 0 and is_term_noun(raw[j - 1])
                    and not any(raw[m].rstrip(",.;:)").endswith(_CLOSING_QUOTES) for m in range(j, i)))
    return False


def _ends_sentence(element: str) -> bool:
    """Whether ``element`` ends a sentence: a period that is no ordinal's or abbreviation's."""
    return element.endswith((".", "!", "?")) and not _NO_SENTENCE_END.match(element) and not (
        element[:1].isupper() and element[:-1] in abbreviations())


def goods_lists(raw: Sequence[str]) -> list[bool]:
    """Per element: whether it stands in a list of goods or services after "Klasse 20:", up to
    the end of its sentence (at most :data:`GOODS_LENGTH` elements)."""
    out = [False] * len(raw)
    opened = None
    for i, element in enumerate(raw):
        out[i] = opened is not None and i - opened <= GOODS_LENGTH
        if _ends_sentence(element) or element.rstrip(",;:)").endswith("“"):
            opened = None
        if i > 0 and raw[i - 1] in ("Klasse", "Klassen") and _CLASS_NUMBER.match(element):
            opened = i
    return out


def _work_follows(raw: Sequence[str], i: int, pages: bool = True) -> bool:
    """Whether a cited work's edition ("7. Aufl.") or, with ``pages``, its year and page ("1960,
    S. 43") follows element ``i`` within :data:`WORK_REACH` elements, no sentence end between."""
    for j in range(i + 1, min(len(raw), i + 1 + WORK_REACH)):
        element = raw[j]
        if element.startswith("Aufl"):
            return True
        if pages and _YEAR.match(element) and j + 2 < len(raw) and raw[j + 1] in _PAGE_WORDS \
                and raw[j + 2][:1].isdigit():
            return True
        if _ends_sentence(element):
            return False
    return False


def _journal_year_page(raw: Sequence[str], j: int) -> bool:
    """Whether a journal's capitals, a year with its comma and a page start at element ``j`` ("BB
    2005, 1044")."""
    return (j + 2 < len(raw) and bool(JOURNAL.match(raw[j])) and bool(_YEAR_COMMA.match(raw[j + 1]))
            and raw[j + 2][:1].isdigit())


def _before_aao(raw: Sequence[str], i: int) -> bool:
    """Whether "aaO" follows element ``i``, a comma between allowed ("(Fezer aaO)", "Schmitt in
    Meyer-Goßner, aaO", "Kirchhof, a. a. O."): the author or editor of a work cited before."""
    if raw[i].endswith((".", ";", ":")) or i + 1 >= len(raw):
        return False
    return bool(_AAO.match(raw[i + 1])) or (raw[i + 1:i + 3] == ["a.", "a."] and i + 3 < len(raw)
                                             and bool(_AAO_LAST.match(raw[i + 3])))


def _before_journal(raw: Sequence[str], i: int) -> bool:
    """Whether a journal's capitals, a year and a page follow element ``i`` ("Frey BB 2005, 1044")."""
    return not raw[i].endswith((",", ".", ";", ":")) and _journal_year_page(raw, i + 1)


def is_work_author(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` names the author of a cited work: a name before a comma, right after
    what opens a citation ("(Eichenberger,", "vgl. Häberle,", "; Mett,"; a first name between) or
    before a title's article ("Däubler, Der Streik"), a work's edition or year and page after it
    (BAG leaves the comma out); a name before "in" and
    an edited work ("Spelge in Groeger Arbeitsrecht 3. Aufl."); a name right before a
    journal, a year and a page ("Frey BB 2005, 1044"), or before its comma and co-authors
    ("Portner, DStR 2009, 1838", "Brehm / Schifferdecker, SGb 2010, 331"); an author or an editor
    of a commentary cited with its editors ("Kuhn in Herrmann / Heuer / Raupach, EStG"); or the
    honoree of a Festschrift ("Festschrift für Herbert Buchner")."""
    if _before_journal(raw, i) or _before_edited_work(raw, i) or _in_editors(raw, i):
        return True
    last = _last_coauthor(raw, i)
    if _journal_after_comma(raw, last) or _before_editors(raw, last) or _before_aao(raw, last):
        return True
    for j in range(i - 1, max(-1, i - 4), -1):
        if raw[j] in ("für", "zum", "zu"):
            if j > 0 and raw[j - 1].startswith(_TRIBUTES):
                return True
            break
        if not raw[j][:1].isupper():
            break
    if raw[i].endswith(","):
        opens = _citation_opens_before(raw, i) or (i + 1 < len(raw) and raw[i + 1] in _TITLE_OPENERS)
        return opens and _work_follows(raw, i)
    # without the comma, as BAG cites: "(vgl. Schack Internationales Zivilverfahrensrecht 5. Aufl.)"
    return (not raw[i].endswith((".", ";", ":")) and i + 1 < len(raw) and raw[i + 1][:1].isupper()
            and _citation_opens_before(raw, i) and _work_follows(raw, i))


def _last_coauthor(raw: Sequence[str], i: int) -> int:
    """The last of the names joined to element ``i`` by "/" ("Brehm / Schifferdecker"), at most
    :data:`AUTHORS_LENGTH`; ``i`` itself when none follows."""
    last = i
    for _ in range(AUTHORS_LENGTH - 1):
        j = last + 2
        while j < len(raw) and raw[j] in NAME_PARTICLES:
            j += 1
        if not (raw[last + 1:last + 2] == ["/"] and j < len(raw) and raw[j][:1].isupper()):
            break
        last = j
    return last


def _journal_after_comma(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` ends with a comma before a journal, a year and a page ("Portner,
    DStR 2009, 1838"); a journal all in capitals has at most five letters ("NJW", not a title's
    "UROLOGY")."""
    if not (raw[i].endswith(",") and _journal_year_page(raw, i + 1)):
        return False
    journal = raw[i + 1]
    return not journal.isupper() or len(journal.split("-")[0]) <= 5


# the most words of a journal's name written out ("Deutsches Steuerrecht - DStR -", "Der Betrieb")
WRITTEN_JOURNAL_WORDS = 6
_DASHES = frozenset({"-", "–"})
_SALUTATIONS_BEFORE = frozenset({"Herr", "Herrn", "Frau"})


def before_written_journal(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` is an author cited before a journal written out, a year with its
    comma and a page: after the name's comma or "in", at most :data:`WRITTEN_JOURNAL_WORDS`
    capitalized words and dashes ("Kulosa, Der Betrieb 2014, 972", "von Lersner, Deutsches
    Steuerrecht - DStR - 2012, 1673", "Heuermann in Deutsches Steuerrecht 2017, 1749"); not after a
    salutation, nor over a word in capitals longer than five letters (an article's title,
    "Dittrich, UROLOGY 1999, 54"). :func:`is_work_author` reads the journals' abbreviations;
    the trees do not read this one (a feature of it moved the thresholds of a refit), ``score``'s
    decision does (:mod:`rulings_anon.analyzer.cited_works`)."""
    word = raw[i].lstrip("(„\"[")  # "(Kulosa, Der Betrieb ..."
    if not word[:1].isupper() or (i > 0 and raw[i - 1] in _SALUTATIONS_BEFORE):
        return False
    if word.endswith(","):
        j = i + 1
    elif i + 1 < len(raw) and raw[i + 1] in IN_WORDS and word[-1:].isalpha():
        j = i + 2
    else:
        return False
    title = 0
    while j + 1 < len(raw) and title <= WRITTEN_JOURNAL_WORDS:
        if _YEAR_COMMA.match(raw[j]):
            return title > 0 and raw[j + 1][:1].isdigit()
        piece = raw[j]
        if piece not in _DASHES and not (piece[:1].isupper() and piece.rstrip("-").replace("-", "").isalpha()):
            return False
        if piece.isupper() and len(piece) > 5:
            return False
        title += 1
        j += 1
    return False


# what may follow a cited document's first author beside its comma ("HLNK38 Klotz et al.")
_AFTER_FIRST_AUTHOR = frozenset({"et", "u.", "und"})


def cited_document_author(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` is the first author of a document cited by its label, as patent
    proceedings list their prior art: right after a label of letters and a number (its colon
    allowed), a capitalized word with its comma or semicolon, or before "et al." or "und" ("D6
    Bourgeat, Klinger; ...", "D15: Hammetter, ...", "HLNK38 Klotz, Tanzer, et al.", "NIK16
    Kuemmerle, Hunziker - Pauer (Hrsg.)"). In the five dev courts' anonymized rulings 43 words stand
    so, none a placeholder; the model flags them as it would a party (0.2 to 0.6). ``score``'s
    decision weighs them down (:mod:`rulings_anon.analyzer.cited_works`)."""
    if i < 1 or not raw[i][:1].isupper():
        return False
    label = raw[i - 1][:-1] if raw[i - 1].endswith(":") else raw[i - 1]
    if not label_shaped(label):
        return False
    return raw[i].endswith((",", ";")) or (i + 1 < len(raw) and raw[i + 1] in _AFTER_FIRST_AUTHOR)


# A commentary cited without commas, as BAG and BGH cite it: its edition ("7. Aufl.", BeckOK's "29.
# Ed.") after the abbreviations of its title ("GG", "TVöD / TV-L", "Münch. Komm. z. BGB,",
# "Großkomm. HGB"), at most COMMENTARY_TITLE of them
_EDITION = re.compile(r"^\d{1,2}\.$")
_EDITION_WORDS = ("Aufl", "Ed.")
_TITLE_ABBREVIATION = re.compile(r"^(?:[A-ZÄÖÜ][a-zäöüß]{2,11}\.|[a-zäöü]{1,3}\.)$")
COMMENTARY_TITLE = 6
# a tribute to a scholar, its honoree after it ("FS Bepler 2012", "Freundesgabe für Söllner"): the
# public rules' tributes and "Freundesgabe", which they lack (it would change the public_name
# column the trees read)
_TRIBUTE_WORDS = _TRIBUTES + ("Freundesgabe",)
_TRIBUTE_LINKS = frozenset({"für", "zum", "zu", "amicorum"})


def commentary_name(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` names a scholar of a work cited without commas, as BAG and BGH cite
    commentaries and tributes: an editor after "in" before the title's abbreviations and the edition
    ("in Sachs GG 7. Aufl.", "in Burger TVöD / TV-L 3. Aufl."), an author before "in" and such an
    editor or title ("Osterloh / Nußberger in Sachs GG", "Basedow in: Münch. Komm. z. BGB, 7.
    Aufl."), a title's abbreviation itself ("Münch.", "Großkomm."), a tribute's honoree ("FS Bepler",
    "Freundesgabe für Söllner") and the author before a tribute ("Grunsky Freundesgabe"). The
    comma-separated forms are :func:`is_work_author`'s; the trees do not read this one, ``score``'s
    decision does (:mod:`rulings_anon.analyzer.cited_works`)."""
    word = raw[i]
    if not word[:1].isupper() or (i > 0 and raw[i - 1] in _SALUTATIONS_BEFORE):
        return False
    if _TITLE_ABBREVIATION.match(word):
        return _in_commentary_title(raw, i)
    if word.endswith((".", ";", ":")):
        return False
    return _commentary_editor(raw, i) or _commentary_author(raw, i) or _tribute_honoree(raw, i)


# how far before a commentary's edition a name commentary_name calls one may stand (co-authors,
# "in", co-editors and the title's abbreviations: "Osterloh / Nußberger in Sachs GG 7. Aufl."), and
# how far before and after a tribute ("Grunsky Freundesgabe für Söllner")
EDITION_REACH = 40
TRIBUTE_REACH = 12
# an edition's word ("Aufl.", "Ed.") or a tribute's in the text, found by one search over it (the
# words themselves: a search that starts with a literal runs ten times as fast as one that starts
# with a lookbehind)
_ANCHORS = re.compile("|".join(map(re.escape, _EDITION_WORDS + _TRIBUTE_WORDS)))


def commentary_reach(text: str, elements: Sequence) -> list[int]:
    """The elements of ``text`` (its ``elements``) that :func:`commentary_name` may call a
    scholar's name: those shortly before a commentary's edition ("7. Aufl.") or around a tribute
    ("FS"), in order. One search of the text, so that ``score`` asks the test only where it may
    answer yes."""
    near: set[int] = set()
    for match in _ANCHORS.finditer(text):
        k = bisect.bisect_right(elements, match.start(), key=lambda e: e.start) - 1
        element = elements[k].text
        if element.startswith(_EDITION_WORDS) and k and _EDITION.match(elements[k - 1].text):
            near.update(range(max(0, k - EDITION_REACH), k))
        elif element in _TRIBUTE_WORDS:
            near.update(range(max(0, k - TRIBUTE_REACH), min(len(elements), k + 4)))
    return sorted(near)


def _commentary_title(raw: Sequence[str], j: int) -> bool:
    """Whether a commentary's title abbreviations and its edition start at element ``j``."""
    seen = False
    for k in range(j, min(len(raw) - 1, j + COMMENTARY_TITLE)):
        piece = raw[k]
        if seen and _EDITION.match(piece) and raw[k + 1].startswith(_EDITION_WORDS):
            return True
        if not (piece == "/" or _TITLE_ABBREVIATION.match(piece) or _law_abbreviation(piece)):
            return False
        seen = seen or piece != "/"
    return False


def _in_commentary_title(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in a commentary's title after "in" ("in: Münch. Komm.")."""
    for j in range(i, max(0, i - COMMENTARY_TITLE), -1):
        if raw[j - 1] in IN_WORDS:
            return _commentary_title(raw, j)
        if not (raw[j - 1] == "/" or _TITLE_ABBREVIATION.match(raw[j - 1]) or _law_abbreviation(raw[j - 1])):
            return False
    return False


def _commentary_editor(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` is an editor after "in", co-editors joined by "/", before the title's
    abbreviations and the edition ("in Schmitt EFZG 8. Aufl.")."""
    j = i
    while j > 1 and raw[j - 1] == "/" and raw[j - 2][:1].isupper():
        j -= 2
    while j > 0 and raw[j - 1] in NAME_PARTICLES:
        j -= 1
    if j < 1 or raw[j - 1] not in IN_WORDS:
        return False
    last = _last_coauthor(raw, i)
    return not raw[last].endswith((",", ".", ";", ":")) and _commentary_title(raw, last + 1)


def _commentary_author(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i``, or the co-authors "/" joins to it, stands before "in" and an editor
    or a title of a commentary cited without commas, or before a tribute ("Grunsky Freundesgabe")."""
    last = _last_coauthor(raw, i)
    if raw[last].endswith((",", ".", ";", ":")) or last + 2 >= len(raw):
        return False
    if raw[last + 1] in _TRIBUTE_WORDS:
        return True
    return raw[last + 1] in IN_WORDS and (_commentary_editor(raw, last + 2) or _commentary_title(raw, last + 2))


def _tribute_honoree(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` is the honoree after a tribute: "FS Bepler", "Freundesgabe für
    Söllner", "Festschrift für Herbert Buchner" (a first name between)."""
    j = i - 1
    if j > 0 and raw[j][:1].isupper() and raw[j] not in _TRIBUTE_WORDS and not raw[j].endswith((",", ".")):
        j -= 1  # a first name
    if j >= 0 and raw[j] in _TRIBUTE_LINKS:
        j -= 1
    return j >= 0 and raw[j] in _TRIBUTE_WORDS


def _editors_end(raw: Sequence[str], start: int) -> int | None:
    """The last editor of a list opening at element ``start`` ("Herrmann / Heuer / Raupach,
    EStG"): at least two names joined by "/", and a law's abbreviation, an edition, a year and
    page or a "§" after them; one name where an editor's mark follows it ("Hoffmann [Hrsg.]"), or
    a law's abbreviation after its comma and then an edition, a place and year of publication or
    a "§" ("Keidel, FamFG, 19. Aufl.", "Frotscher, EStG, Freiburg 2011", "Lademann, EStG, § 19";
    without the comma only right before the "§": "Jaeger InsO § 38"); None when no such list
    opens there."""
    last = _last_coauthor(raw, start)
    after = raw[last + 1:last + 4]
    if last == start:
        return last if after and (_EDITOR_MARK.match(after[0]) or _one_editor_cited(raw, last, after)) else None
    if (raw[last].endswith(",") and after and _law_abbreviation(after[0])) or "§" in after \
            or _work_follows(raw, last):
        return last
    return None


def _law_abbreviation(element: str) -> bool:
    """Whether ``element`` is a law's or a commentary's abbreviation, written like a journal's
    ("BtMG", "KStG,", "ZPO.")."""
    return bool(JOURNAL.match(element.rstrip(",.")))


def _one_editor_cited(raw: Sequence[str], last: int, after: Sequence[str]) -> bool:
    """Whether a law's abbreviation and a work's edition, a place and year of publication or a
    "§" follow the one name at element ``last`` (``after``: the three elements after it), or,
    after its comma, a title and an edition ("Ipsen, Völkerrecht, 6. Aufl.")."""
    if not _law_abbreviation(after[0]):
        return raw[last].endswith(",") and _work_follows(raw, last, pages=False)
    if not raw[last].endswith(","):
        return after[1:2] == ["§"]
    # a place and a year of publication after the abbreviation ("EStG, Freiburg 2011"); a year
    # alone may date a place ("in Leipzig, DDR, 1985")
    published = len(after) == 3 and after[0].endswith(",") and after[1][:1].isupper() and bool(_YEAR.match(after[2]))
    return "§" in after or published or _work_follows(raw, last + 1)


def _before_editors(raw: Sequence[str], i: int) -> bool:
    """Whether "in" and a list of editors follow element ``i`` ("Kuhn in Herrmann / Heuer")."""
    return (i + 2 < len(raw) and raw[i + 1] in IN_WORDS and raw[i + 2][:1].isupper()
            and _editors_end(raw, i + 2) is not None)


def _in_editors(raw: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in a list of editors after "in" ("in Körner / Patzak / Volkmer,
    BtMG")."""
    for j in range(i, max(-1, i - 3 * AUTHORS_LENGTH), -1):
        if raw[j] in IN_WORDS:
            end = _editors_end(raw, j + 1) if j + 1 < len(raw) and raw[j + 1][:1].isupper() else None
            return end is not None and end >= i
        if not (raw[j][:1].isupper() or raw[j] == "/" or raw[j] in NAME_PARTICLES):
            return False
    return False


def _before_edited_work(raw: Sequence[str], i: int) -> bool:
    """Whether "in", a capitalized word and an edited work follow element ``i`` ("Spelge in
    Groeger Arbeitsrecht 3. Aufl.", "Ekey in: Ekey / Bender, MarkenR, 3. Aufl."), or a work cited
    before ("Schmitt in Meyer-Goßner, aaO")."""
    return (i + 2 < len(raw) and raw[i + 1] in IN_WORDS and raw[i + 2][:1].isupper()
            and (_work_follows(raw, i + 1) or _before_aao(raw, _last_coauthor(raw, i + 2))))


def _opens_citation(element: str) -> bool:
    return element.startswith("(") or element in _CITATION_OPENERS or element.endswith(";")


def _citation_opens_before(raw: Sequence[str], i: int) -> bool:
    """Whether a citation opens right before element ``i`` ("(Eichenberger", "vgl. Häberle"), or
    before a capitalized first name before it ("; Herbert Buchner")."""
    if raw[i].startswith("("):
        return True
    if i == 0:
        return False
    if raw[i - 1][:1].isupper() and raw[i - 1] not in _CITATION_OPENERS:
        return i > 1 and _opens_citation(raw[i - 2])
    return _opens_citation(raw[i - 1])


def _is_eu_number(raw: Sequence[str], j: int) -> bool:
    """Whether an EU case number starts at element ``j``, in one, two or three elements
    ("C-404/15", "C- 441/14", "C - 404/15")."""
    return bool(_EU_NUMBER.match(raw[j])) or (
        raw[j] in ("C-", "T-") and j + 1 < len(raw) and bool(_NUMBER.match(raw[j + 1]))) or (
        raw[j] in ("C", "T") and j + 2 < len(raw) and raw[j + 1] == "-" and bool(_NUMBER.match(raw[j + 2])))


def _after_eu_number(raw: Sequence[str], words: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in the bracketed case name after an EU case number ("- C-
    544/11 - [Petersen und Petersen]")."""
    j = i
    while j >= 0 and j > i - CASE_REACH and not raw[j].startswith(("[", "(")):
        if j < i and raw[j].endswith(("]", ")")) or not (
                words[j][:1].isupper() or raw[j] in _PARTY_LINKS or raw[j] == "/"):
            return False
        j -= 1
    if j < 0 or not raw[j].startswith(("[", "(")) or (j < i and raw[j].endswith(("]", ")"))):
        return False
    k = j - 1
    if k >= 0 and raw[k] in _DASHES:
        k -= 1
    return k >= 0 and (_is_eu_number(raw, k) or (k >= 1 and _is_eu_number(raw, k - 1))
                       or (k >= 2 and _is_eu_number(raw, k - 2)))


def _before_dated_number(raw: Sequence[str], words: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in a case name before "vom", a date and an EU case number, as
    BFH writes them ("EuGH-Urteil Barlis 06 vom 15. September 2016 C - 516/14")."""
    n = len(raw)
    for j in range(i + 1, min(n, i + 1 + CASE_REACH)):
        if raw[j] == "vom":
            for k in range(j + 1, min(n, j + 1 + DATE_LENGTH)):
                if _is_eu_number(raw, k):
                    return True
                if not (raw[k][:1].isdigit() or raw[k].rstrip(",") in _MONTHS):
                    return False
            return False
        if raw[j - 1].endswith((",", ";", ":", ".")) and not raw[j - 1][:-1].isdigit():
            return False
        if not (raw[j] in _PARTY_LINKS or raw[j] == "/" or words[j][:1].isupper() or words[j][:1].isdigit()):
            return False
    return False


def is_case_party(raw: Sequence[str], words: Sequence[str], i: int, countries: frozenset[str]) -> bool:
    """Whether element ``i`` names a party of a cited European case: before "v." or "./." and a
    country, or before an EU case number (other parties, "und", "u. a." between; or "vom" and a
    date), in brackets after one, or right after "Rechtssache"."""
    if i > 0 and raw[i - 1] in ("Rechtssache", "Rechtssachen"):
        return True
    if _after_eu_number(raw, words, i) or _before_dated_number(raw, words, i):
        return True
    n = len(raw)
    for j in range(i + 1, min(n, i + 1 + CASE_REACH)):
        if raw[j] in _VERSUS or raw[j] in _VERSUS_COUNTRY:
            k = j + 2 if j + 2 < n and raw[j + 1] in _ARTICLES else j + 1
            return k < n and words[k] in countries
        if _is_eu_number(raw, j):
            return True
        if raw[j - 1].endswith((",", ";", ":")):
            # a comma ends the parties' names, unless the case number follows it
            return False
        if not (raw[j] in _PARTY_LINKS or words[j][:1].isupper()):
            return False
    return False


def _citation_dash(raw: Sequence[str], j: int) -> bool:
    """Whether element ``j`` is the dash after a citation ("GRUR 2009, 949 Rn. 45 –")."""
    return (raw[j] in _DASHES and j > 0 and bool(_CITATION_END.match(raw[j - 1]))
            and any(_CITATION_WORD.match(raw[k]) for k in range(max(0, j - CITATION_REACH), j)))


def in_decision_name(raw: Sequence[str], words: Sequence[str], i: int) -> bool:
    """Whether element ``i`` stands in a cited decision's name after its citation's dash: up to
    :data:`DECISION_LENGTH` capitalized words, numbers, slashes, brackets or quotes between, no
    sentence end."""
    for j in range(i - 1, max(-1, i - 1 - DECISION_LENGTH), -1):
        if raw[j] in _DASHES:
            return _citation_dash(raw, j)
        if not (words[j][:1].isupper() or words[j][:1].isdigit() or raw[j] in ("/", "[", "„", "\"")):
            return False
        if raw[j].endswith((";", ".")) and not INITIAL.match(raw[j]):
            return False
    return False


def public_names(raw: Sequence[str], words: Sequence[str], candidates: Sequence[int],
                 countries: frozenset[str]) -> list[bool]:
    """Per candidate: whether it stands in a registered mark's name or a quoted term under
    discussion (or is another mention of a word that does), names a cited case's party or a cited
    work's author, stands in a cited decision's name or a list of goods. Only candidates with a
    mark or term noun or a citation's dash shortly before, or a "v.", a case number or
    "Rechtssache" near them are looked at for those rules (a ruling has few)."""
    marks = [j for j, element in enumerate(raw) if is_mark_noun(element)]
    terms = [j for j, element in enumerate(raw) if is_term_noun(element)]
    cues = [j for j, element in enumerate(raw)
            if element in _VERSUS or element[:1] in "CT" and (element in ("C", "T", "C-", "T-") or _EU_NUMBER.match(element))
            or element.startswith("Rechtssache")
            or element in _VERSUS_COUNTRY and j + 1 < len(words) and words[j + 1] in countries]
    dashes = [j for j, element in enumerate(raw) if element in _DASHES and _citation_dash(raw, j)]
    near_mark, near_term, near_case, near_dash = set(), set(), set(), set()
    for j in marks:
        near_mark.update(range(j + 1, j + 1 + MARK_LENGTH))
    for j in terms:
        near_term.update(range(j + 1, j + 2 + TERM_LENGTH))
    for j in cues:
        near_case.update(range(j - CASE_REACH - DATE_LENGTH, j + 4 + CASE_REACH))
    for j in dashes:
        near_dash.update(range(j + 1, j + 1 + DECISION_LENGTH))
    in_mark = {i for i in candidates if i in near_mark and in_mark_name(raw, words, i)}
    in_term = {i for i in candidates if i in near_term and in_quoted_term(raw, i)}
    in_case = {i for i in candidates if i in near_case and is_case_party(raw, words, i, countries)}
    named = {words[i] for i in in_mark | in_term | in_case}
    goods = goods_lists(raw) if "Klasse" in raw or "Klassen" in raw else None
    return [i in in_mark or i in in_term or i in in_case or words[i] in named
            or (goods is not None and goods[i])
            or (i in near_dash and in_decision_name(raw, words, i))
            or is_work_author(raw, i)
            for i in candidates]
