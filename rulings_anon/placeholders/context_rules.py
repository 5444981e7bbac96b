"""The context rules: when a potential placeholder is ordinary text, judged from its neighbours.

A potential placeholder ("K.", "N", "...", "M-GmbH") is one unless the elements around it say
otherwise: an omission in a quotation, an abbreviation or a designation ("Steuerklasse I"), a
citation ("Hutchinson / U. K.", "H. Maurer, Verwaltungsrecht, 2011"), a label handed out in order
("Kanal A ... Kanal B"), a letter whose neighbours make it a list item, a court's seat, a statute's
name or a signature, a reference ("S. 24", "5 C 40.84", "SGB V"), or a first initial before a name
in clear ("K. Schmidt"). Each rule reads a :class:`Window` (predecessor, candidate, successor and
the document's state); the rules are grouped by name so that the learned judge can read which ones
rejected a candidate (:meth:`ContextRules.rejection_groups`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .document_state import DocumentState, letter_head, list_head
from .element_runs import (
    after_case_number,
    before_journal,
    cited_author,
    exclaimed_sign,
    in_catchword,
    in_english,
    in_letter_range,
    in_name_list,
    in_signature,
    in_slash_run,
    in_statute_name,
    initial_run,
    inside_quote,
    label_range,
    middle_initial,
    numbered_feature,
    roman_one,
    spoken_letter,
    surname_in_clear,
)
from .forms import Forms, is_common_noun
from .local_conventions import (
    no_placeholder,
    number_slot,
    placeholder_slot,
    quoted_name,
    sentence_end_ellipsis,
)

# words that point to a section of the ruling before or after ("vgl. oben A.)", "siehe unten B)")
ABOVE_BELOW = frozenset({"oben", "unten"})


@dataclass(frozen=True)
class Window:
    """A potential placeholder with its neighbours, as the context rules read them."""

    texts: list[str]
    i: int
    core: str  # the element without surrounding punctuation
    pattern: str  # the potential pattern it matched
    raw: str
    pred: str | None
    succ: str | None
    pred_norm: str
    succ_core: str
    after_succ: str  # the element after the successor, "" at the end
    state: DocumentState  # what the rules know of the whole document

    @classmethod
    def at(cls, texts: list[str], i: int, core: str, pattern: str, forms: Forms,
           state: DocumentState) -> Window:
        pred = texts[i - 1] if i > 0 else None
        succ = texts[i + 1] if i + 1 < len(texts) else None
        return cls(texts, i, core, pattern, texts[i], pred, succ, forms.norm(pred),
                   forms.core(succ) if succ else "", texts[i + 2] if i + 2 < len(texts) else "", state)


class ContextRules:
    """The rejection rules over a candidate's window, read with one set of forms."""

    def __init__(self, forms: Forms):
        self.forms = forms
        self.p = forms.p

    def classify(self, texts: list[str], i: int, state: DocumentState) -> str | None:
        """``"obvious"``, ``"potential"`` or None for element ``i`` of the element texts."""
        form = self.forms.form(texts[i])
        if form is None:
            return None
        kind, pattern = form
        if kind == "potential" and self.rejected(texts, i, self.forms.core(texts[i]), pattern, state):
            return None
        if kind == "obvious" and label_range(self.forms, texts, i):
            return None  # "I1… I4 Eingänge": a range of labels, no number left out
        return kind

    def rejected(self, texts: list[str], i: int, core: str, pattern: str, state: DocumentState) -> bool:
        """The context rules that turn a potential placeholder into ordinary text, in groups: an
        omission, abbreviations and designations, hyphenated letter words, the contexts of single
        letters and initials, references, and a letter before a word in clear."""
        w = Window.at(texts, i, core, pattern, self.forms, state)
        if pattern == "simple_ellipsis":
            return self._omission(w)
        if core in self.p.two_letter_abbreviations:
            return True
        if placeholder_slot(self.forms, texts, i, core):
            return False  # "Landratsamt K.", "Fl.Nr. X": a seat or a number the court shortened
        if no_placeholder(self.forms, texts, i, core):
            return True  # "Klassen B und C1E", "U. v. 29.3.2017", "an der B …"
        if w.pred_norm in self.p.unit_words and self.p.unknown_letters.match(core):
            return False  # "Abteilung X des BND", "Referat XY": a unit left unnamed
        if pattern == "surname_abbreviation":
            return self._abbreviation(w)
        if core in self.p.listed_abbreviations and w.succ and w.succ[0].isupper() \
                and w.succ_core.lower() not in self.p.function_words:
            return True  # "St. Petersburg", "Bd. II"; "St. habe" is a name cut short
        if pattern in ("single_letter", "initials", "two_letters") and self.forms.is_suffix(w.succ):
            return False  # "Landratsamt E. -kreis": an initial before a hyphenated suffix names a place
        if self._abbreviation_or_designation(w) or self._citation(w) or self._label(w):
            return True
        if pattern in ("letter_suffix", "hyphen_initials"):
            # "M-GmbH", "H-Stadt", "M-R" are placeholders; "E-Shop", "A-Öffner" are words
            rest = core.split("-", 1)[1].rstrip(".")
            stem = self.p.shape["genitive_ending"].sub("", rest)  # genitive: "A-Vereins", "K-Konzerns"
            return not (rest in self.p.letter_suffix_words or stem in self.p.letter_suffix_words
                        or rest[:1].upper() + rest[1:] in self.p.letter_suffix_words  # "E.-kreis"
                        or rest in self.p.legal_forms
                        or self.p.potential["hyphen_initials"].match(core)
                        or self.p.shape["hyphen_initials_rest"].match(rest))
        if self._letter_in_context(w) or self._reference(w) or self._before_word_in_clear(w):
            return True
        if pattern == "single_lower_letter" and self.p.shape["lower_initial"].match(core) and core not in self.p.name_particles \
                and w.succ_core.endswith(".") and self.forms.is_initial(w.succ_core):
            return True  # "d. R.", "i. G.": a lower-case abbreviation completed by a capital one
        if pattern == "single_lower_letter":
            # "a", "b" are list items or abbreviations unless a name or legal form is next to them
            name_next = w.succ is not None and (
                w.succ_core in self.p.legal_forms or self.forms.is_initial(w.succ_core)
            )
            return not (w.pred_norm in self.p.person_triggers or name_next)
        return False

    def rejection_groups(self, texts: list[str], i: int, pattern: str,
                         state: DocumentState) -> tuple[str, ...]:
        """Which of :meth:`rejected`'s context groups turn potential placeholder ``i`` into
        ordinary text, each by name (the learned judge reads them as features)."""
        w = Window.at(texts, i, self.forms.core(texts[i]), pattern, self.forms, state)
        if pattern == "simple_ellipsis":
            return ("omission",) if self._omission(w) else ()
        if no_placeholder(self.forms, texts, i, w.core) and not placeholder_slot(self.forms, texts, i, w.core):
            return ("convention",)
        groups = (("designation", self._abbreviation_or_designation), ("letter_context", self._letter_in_context),
                  ("reference", self._reference), ("before_clear", self._before_word_in_clear),
                  ("citation", self._citation), ("label", self._label))
        return tuple(name for name, rule in groups if rule(w))

    def _abbreviation(self, w: Window) -> bool:
        """Whether a shortened word ("Sch.", "St.", "Abb.") is an abbreviation, not a surname cut short.

        A surname cut short stands where a name is expected: after a person word or an initial
        the detector keeps ("Herrn Sch.", "an E. Sch."), and, unless a resource lists it as an
        abbreviation or it is a word of the noun lexicon ("St.", "Abb.", "Uhr."), also after an
        article or preposition or a noun that heads a place's or firm's name ("in Sch.", "Stadtkreis
        Sch.", "Betrieb Sch.")."""
        core, pred = w.core, w.pred
        if core.lower() in self.p.reference_words or core in self.p.legal_forms:
            return True  # "von Art. 3", "T Inc."
        if (w.pred_norm in self.p.person_triggers and w.pred_norm not in self.p.function_words) \
                or self._initial_before(w):
            return False
        if core in self.p.listed_abbreviations:
            return True
        name_slot = pred is not None and pred.isalpha() and (
            w.pred_norm in self.p.function_words or w.pred_norm.endswith(self.p.name_head_endings))
        if not name_slot or (w.succ and w.succ[0].isupper() and w.succ_core.lower() not in self.p.function_words):
            return True  # "der Nds. MasterVO": an abbreviation before its noun
        return is_common_noun(core.rstrip(".")) or self._reference(w)

    def _citation(self, w: Window) -> bool:
        """Initials in a citation: a case name with "/" ("Hutchinson / U. K.", "G. R. / Niederlande",
        "Bogner B / Barbie B") or a cited author's first initials before a surname in clear that a
        citation continues ("W. - R. Schenke, in:", "H. Maurer, Verwaltungsrecht, 2011") or after a
        surname before "in" ("Claßen A. in Lademann")."""
        if w.pattern not in ("single_letter", "initials", "two_letters"):
            return False
        texts = w.texts
        start, end = initial_run(self.forms, texts, w.i)
        before = texts[start - 1] if start > 0 else ""
        after = texts[end + 1] if end + 1 < len(texts) else ""
        if (before == "/" and start > 1 and self.forms.name_like(texts[start - 2].rstrip(",;"))) or (
                after == "/" and end + 2 < len(texts)
                and self.forms.name_like(self.forms.core(texts[end + 2]).rstrip("."))):
            return True  # a case name: "Hutchinson / U. K.", "G. R. / Niederlande"
        if before and self.forms.name_like(before) and start > 1 and texts[start - 2] == "/":
            return True  # "Bogner B / Barbie B": the second party's letter
        if self._author_of_a_work(texts, start, end):
            return True  # "Boolell, M., et al.", "Kuemmerle, H. - P. (Hrsg.)", "W. Höland et al."
        if before_journal(self.forms, texts, end):
            return True  # "J. Am. Ceram. Soc. 1987", "Z. Kristallogr. 2011"
        if not w.core.endswith("."):
            return False  # a cited author's first name is written with a period: "H. Maurer"
        if (before and self.forms.name_like(before) and after in self.p.citation_in_words
                and end + 2 < len(texts) and self.forms.name_like(texts[end + 2].rstrip(",;"))):
            return True  # "Claßen A. in Lademann"
        # the surname as written before its comma, or before the quote a title opens: "R. E. Loehman,“ Crystallization"
        if not (after and self.forms.name_like(after.rstrip(self.p.close_quotes + '"').rstrip(","))):
            return False
        k = end + 2  # after the surname
        if (self.forms.norm(before) not in self.p.person_triggers and surname_in_clear(self.forms.core(after))
                and self.classify(texts, end + 1, w.state) is None
                and (k >= len(texts) or self.forms.core(texts[k]) not in self.p.legal_forms)):
            return True  # "R. E. Loehman 2012", "Dr. Jay B. Saoud aus": a name in clear
        if k < len(texts) and texts[k] in self.p.citation_in_words:
            return True  # "W. - R. Schenke, in:", "K. Schneider in Littmann"
        if not after.endswith(",") or self.forms.norm(before) in self.p.person_triggers:
            return False
        for word in texts[k:k + 8]:  # "H. Maurer, Allgemeines Verwaltungsrecht, 2011"
            if self.p.shape["citation_year"].match(word):
                return True
            if word.endswith((".", ";", ":")) and not word.rstrip(".").isdigit():
                return False
        return False

    def _label(self, w: Window) -> bool:
        """A letter used as a label: after a roman numeral ("Zone III A"), beside a formula sign
        ("N = 4") or one the document writes beside one elsewhere, or after a noun that the
        document follows by letters in alphabetical sequence ("Kanal A ... Kanal B",
        "Kontaktfedern B und C"): labels are handed out in order, the initials of names are not."""
        if w.pattern != "single_letter":
            return False
        pred, succ = w.pred, w.succ
        if pred is not None and len(pred) > 1 and pred in self.p.roman_numerals:
            return True
        if (succ is not None and succ in self.p.formula_signs) or (pred is not None and pred in self.p.formula_signs):
            return True
        if w.core.rstrip(".") in w.state.variables:
            return True  # the document writes it in a formula: "N = 2", later "dass N im Bereich"
        if numbered_feature(self.forms, w.texts, w.i):
            return True  # "A1 ... angetriebenen A Generator, B1 ...": a feature group's letter
        if w.core.endswith("."):
            return False  # a letter with a period is an initial
        designators = w.state.designators
        return bool(designators) and letter_head(self.forms, w.texts, w.i) in designators

    def _omission(self, w: Window) -> bool:
        """Whether an ellipsis is an omission: "(...)", "[...]", "...“", "..." inside a quotation or
        after a sentence or clause end; a placeholder ellipsis follows a word ("in ... wohnhaft")."""
        texts, i, raw, pred, succ, succ_core = w.texts, w.i, w.raw, w.pred, w.succ, w.succ_core
        # a name or place left out at a sentence end ("zur Straße ...."), a number left out after its
        # noun ("Fl.Nr. …", "(Az.: …)", "Kennzeichen: …"), or the rest of a name written with an
        # asterisk ("B* …")
        if (sentence_end_ellipsis(raw, pred) and not inside_quote(self.forms, texts, i)) \
                or quoted_name(self.forms, texts, i):
            return False
        if not self.p.shape["bracketed_omission"].match(raw) and (
                number_slot(self.forms, pred) or (pred is not None and pred.endswith("*")
                                                  and self.classify(texts, i - 1, w.state) is not None)):
            return False
        # After a capital letter it continues that placeholder ("die Firma B ... GmbH",
        # "der Zeuge W ...,"), also in a quotation.
        if (pred is not None and self.p.potential["single_letter"].match(pred)
                and raw[0] not in self.p.strip_leading and self.classify(texts, i - 1, w.state) is not None):
            return False
        # an amount or a date left out ("in Höhe von ... €", "vom ... Januar 1984") is no name;
        # nor is an omission before a new sentence, a section or a closing quote ("gezahlt wird
        # ... Sie endet", "für die Beschäftigten ... § 2", "auf 5% ... “")
        # a name left out after a noun keeps the comma after it ("zum Standort ..., wo"); other
        # punctuation around an ellipsis marks an omission
        # (a capitalized word that starts a sentence may be no noun: "Vorsorglich ...,")
        after_noun = (raw[-1] in ",;" and raw[:-1] == w.core and pred is not None and i > 1
                      and bool(self.p.shape["plain_word"].match(pred)) and texts[i - 2][-1] not in ".:;!?")
        return (bool(self.p.shape["bracketed_omission"].match(raw)) or inside_quote(self.forms, texts, i)
                or (raw != w.core and not after_noun)
                or pred is None or pred[-1] in ".,;:!?)" or (succ is not None and self.p.shape["number"].match(succ_core))
                or succ_core.rstrip(".") in self.p.amount_units or succ_core in self.p.month_names  # "... €."
                or (succ is not None and (succ[0] in "§" + self.p.close_quotes + '"'
                                          or (succ[0].isupper() and succ_core.lower() in self.p.function_words))))

    def _abbreviation_or_designation(self, w: Window) -> bool:
        """"D. h.", "S-Bahnhof"; "Steuerklasse I", "Hilfsantrag A", "Vorschlagsliste „C“",
        "Merkzeichen "G", "B" und "H"" (a designator before the letter or at the head of its list)."""
        if w.core in self.p.two_letter_abbreviations or w.core.rstrip(".") in self.p.letter_compounds:
            return True
        if w.succ is not None and w.succ_core in self.p.label_verbs:
            return True  # "mit B bezeichneten Kontaktfedern": a reference sign
        return self.forms.designator(w.pred_norm) or (
            (k := list_head(self.forms, w.texts, w.i)) is not None
            and (self.forms.designator(head := self.forms.norm(w.texts[k])) or head in self.p.reference_words)
        )

    def _letter_in_context(self, w: Window) -> bool:
        """Single letters and initials that the words around them make no placeholder: list items,
        seats of courts and authorities, statute names, case numbers, outline labels, middle
        initials, codes, amounts, signatures, cited authors, section references."""
        texts, i, raw, pred, succ, pattern = w.texts, w.i, w.raw, w.pred, w.succ, w.pattern
        pred_norm, succ_core, after_succ = w.pred_norm, w.succ_core, w.after_succ
        if pattern == "same_lower_letters" and (
            raw.startswith("(") or raw.rstrip(",.;:").endswith(")") or w.core.rstrip(".") in self.p.lower_roman_items
            or (pred is not None and self.p.shape["enumeration_label"].match(pred))
        ):
            return True  # list items "aaa)", "(bbb)", "bb aaa (1)", "Buchst. iii"
        if w.core.rstrip(".") == "I" and roman_one(self.forms, raw, pred_norm, succ_core):
            return True
        if pattern in ("single_letter", "initials") and in_name_list(self.forms, texts, i):
            return True
        if pattern in ("single_letter", "two_letters") and (
            in_signature(self.forms, texts, i) or cited_author(self.forms, raw, pred, succ, after_succ)
        ):
            return True  # "Krumbiegel M. Jostes D. Reidelbach", "Schiek / M. Schmidt", "K. Schneider in Littmann"
        if pattern != "single_letter":
            return False
        return (
            # after a lower-case abbreviation a capital initial completes it: "i. G.", "d. R."; not after
            # a name particle ("v. M.")
            (pred is not None and bool(self.p.shape["lower_initial"].match(pred)) and pred not in self.p.name_particles)
            # a second part joined by a hyphen to an abbreviation in clear: "Schl. - H."
            or (pred in self.p.dashes and i > 1 and bool(self.p.shape["word_abbreviation"].match(texts[i - 2]))
                and self.classify(texts, i - 2, w.state) is None)
            # "Amtsgericht P.", "Amtsgericht - Familiengericht - O.", "Finanzamt X"
            or (pred is not None and (
                self.forms.public_body(pred)
                or (pred in self.p.dashes and i > 1 and self.forms.public_body(texts[i - 2]))))
            or in_statute_name(self.forms, texts, i)  # "LandesVO L. K.", "MTV H"
            or in_letter_range(self.forms, texts, i)  # "Hauptteile A bis D"
            # the register letter of a case number: "13 A 1994 / 17. A", "3d A 317 / 11. O"
            or (i > 1 and texts[i - 2] == "/" and bool(self.p.shape["day_or_year"].match(texts[i - 1])))
            # an outline label before its roman subsection: "B. I. Die Verfassungsbeschwerde"
            or (raw.endswith(".") and succ in self.p.roman_labels and (pred is None or pred[-1] in ".:;"))
            or (raw.endswith(".") and middle_initial(self.forms, pred, succ))  # "Peter J. Tettinger"
            # a designation or file number: "BTX / A", "II / A", "UN Doc. E / CN. 4"
            or (pred == "/" and i > 1 and bool(self.p.shape["code_or_roman"].match(texts[i - 2])))
            or (succ == "/" and bool(self.p.shape["code_or_roman"].match(after_succ)))
            # "zum Preis von X €", "< Y > EUR", "Krämer in D / P / M"
            or succ_core in self.p.amount_units
            or (succ == ">" and self.forms.core(after_succ) in self.p.amount_units)
            or in_slash_run(self.forms, texts, i)
            or in_english(self.forms, texts, i)  # "1. A method for using", "great toe B is to be"
            or exclaimed_sign(raw, pred)  # "„W! R S! ND DABE!“": a sign's letters
            # "K § 7 RdNr 237", "Anlage A Nr. 12", "BT-Drs. V / 1009", "Quartal I / 2009"
            or succ in self.p.section_followers
            or (succ == "/" and bool(self.p.shape["number"].match(self.forms.core(after_succ))))
            # tax-type letters of a finance court case number "2 K 2039/15 E, G, U"
            or after_case_number(self.forms, texts, i)
            or in_catchword(self.forms, texts, i)  # "48/10 – E ARCHIV", "2012, 283 – B & P"
            # a letter spoken of as a letter ("Schreibweise „K“ statt „C“"); one before a prime or an
            # apostrophe that closes no single quote it opened: a claim feature's label ("B ‘ bei
            # dem"), an elision ("„P ‘ TIT FILOU“", "„L ’ invention"), not "die Serie ‚D ‘"
            or spoken_letter(self.forms, texts, i)
            or (succ in ("‘", "’", "′", "'") and raw[:1] not in "‚'")
            # a UN document's symbol: "UN Doc. E / C. 12 / GC / 21", "UN Doc E / CN. 4"
            or pred_norm in ("doc.", "doc")
            # the Crown in an English case's name: "R v Sussex Justices, ex parte McCarthy"
            or (w.core == "R" and succ in ("v", "v."))
        )

    def _reference(self, w: Window) -> bool:
        """A letter or numeral of a reference: page, margin number, appendix, exhibit and statute
        references ("S. 24", "Anlage K 1", "§ 35 a", "Art. 3 b"), case numbers ("5 C 40.84",
        "B 12 KR 5/16 R", "V ZR 130/15"), section references ("zu C II 3 der Gründe"), statute
        books ("SGB V", "BGBl. I"); not before an amount ("das Grundstück A 12.900.000 €")."""
        texts, i, pred, succ, pattern = w.texts, w.i, w.pred, w.succ, w.pattern
        pred_norm, succ_core, after_succ = w.pred_norm, w.succ_core, w.after_succ
        amount = (bool(self.p.shape["number"].match(succ_core))
                  and self.forms.core(after_succ).rstrip(".") in self.p.amount_units)
        if succ and pattern != "initials" and not amount and (
            self.p.shape["number"].match(succ_core) or succ_core in self.p.roman_numerals
            or succ_core in self.p.court_codes
            or (self.p.shape["court_code"].match(succ_core) and succ_core.rstrip(".") not in self.p.legal_forms
                and (len(succ_core) > 1 or self.p.shape["number"].match(after_succ)))
        ):
            return True
        # "s." is "siehe" or a page, unless it is itself an initial: "die Partnerin S. R."
        if (pred_norm in self.p.reference_words and not self._initial_before(w)) \
                or pred in self.p.cross_reference_openers:
            return True
        if pred_norm in ABOVE_BELOW and w.raw.rstrip(".,;:").endswith(")"):
            return True  # "(vgl. oben A.).": a section above or below, the bracket closed after it
        # "C - 174/11" (EuGH case), "zu I der Gründe", "des I. Senats"
        if succ_core in self.p.dashes and self.p.shape["number"].match(after_succ):
            return True
        if self.forms.core(after_succ) in self.p.reference_followers:
            return True
        roman = self.p.roman_numerals
        if w.core.rstrip(".") in roman and (
            succ_core in self.p.ordinal_nouns
            or (succ_core in self.p.roman_joiners and self.forms.core(after_succ).rstrip(".") in roman)
            or (pred_norm in self.p.roman_joiners and i > 1
                and self.forms.core(texts[i - 2]).rstrip(".") in roman)
        ):
            return True  # "des I. Senats", "Nr. 2 b I bis VI", "Ziffern I bis V"
        # outline labels: "oben A II.", "unter II. D Nr. 5.3"
        if pattern == "single_letter" and (
            (succ_core.endswith(".") and len(succ_core) > 2 and succ_core.rstrip(".") in roman)
            or (pred is not None and pred.endswith(".") and len(pred) > 2 and pred.rstrip(".") in roman)
        ):
            return True
        pred_core = self.forms.core(pred).lstrip("+±") if pred else ""  # "+24 V": a unit after a signed number
        if pred and self.p.shape["bare_number"].match(pred_core if pred_core else pred):
            return True
        return bool(w.core.rstrip(".") in roman and pred and self.p.shape["all_caps_code"].match(pred_core))

    def _author_of_a_work(self, texts: list[str], start: int, end: int) -> bool:
        """Initials ``texts[start:end + 1]`` of an author that a citation's "et al.", "u. a." or
        "(Hrsg.)" closes: after the surname and its comma ("Boolell, M., et al.", "Jaehde, U. et al.
        (Hrsg.)", "Menezes, J. u. a.:") or before it ("D8 W. Höland et al."); or initials of one of
        several names in clear, each after its initial ("W. Höland und G. Beall"). An initial before a
        surname in clear is a first name, never what a court left of a name."""
        def closes(k: int) -> bool:
            word = texts[k] if k < len(texts) else ""
            following = texts[k + 1] if k + 1 < len(texts) else ""
            return (word.startswith(self.p.editor_marks) or (word == "et" and following.startswith("al"))
                    or (word == "u." and following.startswith("a.")))

        def work_follows(k: int) -> bool:
            """The initials end with a colon before the work's title ("Khalil, M. S.: International
            Research"), or with a comma before a quoted title ("Pollack, G. H., "The Fourth Phase"),
            a journal's year ("Chen, C. - S., J. Biol. Phys. 2012,") or the next author ("Tomlinson,
            J. M., und Wright, D., BMJ")."""
            last = texts[k - 1] if k > 0 else ""
            if last.endswith(":"):
                return k < len(texts) and texts[k][:1].isupper()
            if not last.endswith(",") or k >= len(texts):
                return False
            if texts[k][:1] in self.p.open_quotes + '"':
                return True
            if texts[k] in self.p.author_joins and k + 2 < len(texts) and texts[k + 1].endswith(",") \
                    and self.forms.name_like(texts[k + 1].rstrip(",")) and first_initial(k + 2):
                return True
            for word in texts[k:k + 5]:  # a journal's name and its year: "J. Biol. Phys. 2012,"
                if self.p.shape["citation_year"].match(word) and word.endswith(","):
                    return True
                if not (word[:1].isupper() or word == ","):
                    return False
            return False

        def first_initial(k: int) -> bool:  # a first name's initial has its period: "Bogner B" is a label
            core = self.forms.core(texts[k]) if 0 <= k < len(texts) else ""
            return self.forms.is_initial(core) and core.endswith(".")

        k = end + 1  # past initials the run leaves out: "N. K., et al."
        while k < len(texts) and (texts[k] in self.p.dashes or self.forms.is_initial(self.forms.core(texts[k]))):
            k += 1
        before = texts[start - 1] if start > 0 else ""
        surname = before.rstrip(",")
        # "et al." or "(Hrsg.)" closing the initials makes a surname also of a word a letter may stand
        # before, which name_like turns down ("Park, K., et al" beside "B-Park")
        if (before.endswith(",") and (self.forms.name_like(surname) or (
                closes(k) and surname in self.p.letter_suffix_words and self.p.shape["plain_word"].match(surname)))
                and (start < 2 or self.forms.norm(texts[start - 2]) not in self.p.person_triggers)
                and (closes(k) or any(work_follows(m + 1) for m in range(start, k)))):
            return True  # the initials may end before the run does: "Chen, C. - S., J. Biol. Phys. 2012"
        if not self.forms.core(texts[start]).endswith("."):
            return False  # "Bogner B", "D L (DL)" are labels
        # one of several authors, each an initial before a surname in clear: "W. Höland und G.
        # Beall", "W. Ellenberger, H. Baum, H. Dittrich & G. Münch"
        if (start >= 3 and texts[start - 1] in self.p.author_joins and self.forms.name_like(texts[start - 2])
                and first_initial(start - 3)):
            return True
        after = texts[k] if k < len(texts) else ""
        if not (after and self.forms.name_like(self.forms.core(after))):
            return False
        if closes(k + 1):
            return True
        if after.endswith(","):
            return first_initial(k + 1)
        return k + 1 < len(texts) and texts[k + 1] in self.p.author_joins and first_initial(k + 2)

    def _before_word_in_clear(self, w: Window) -> bool:
        """A section marker at a sentence start ("A. Die Revision ist unbegründet") or a first
        initial before a name in clear ("K. Schmidt"): followed by a capitalized word that is not
        itself an initial. Not when a comma follows the initial ("Dr. K., Institut für") or a title
        precedes it and a bracket or a new sentence follows ("Dr. S. (Neurologe)")."""
        pred, succ, succ_core = w.pred, w.succ, w.succ_core
        return bool(
            w.pattern in ("single_letter", "two_letters") and succ and succ_core[:1].isupper()
            and (pred is None or pred.rstrip(self.p.close_quotes + '"')[-1:] in (".", ":", ";") or w.pred_norm in ("", ))
            # a second initial before a common noun is a surname: "T. R. Physiotherapie-Partnerschaft"
            # (before a name it is another first initial: "W. F. Hammetter")
            and not (self._initial_before(w) and is_common_noun(succ_core))
            and not w.raw.endswith(",")
            and not (w.pred_norm in self.p.person_triggers
                     and (succ.startswith("(") or succ_core.lower() in self.p.function_words))
            # a person word after it: "Herrn Dr. G Herr D" names two people, G is no first initial
            and succ_core.lower() not in self.p.person_triggers
            and not self.p.potential["single_letter"].match(succ_core)
            and not self.p.potential["two_letters"].match(succ_core)
            and succ_core not in self.p.legal_forms
        )

    def _initial_before(self, w: Window) -> bool:
        """Whether the element before the candidate is a capital initial the detector keeps ("S. R.")."""
        texts, i = w.texts, w.i
        if i == 0:
            return False
        pred = self.forms.core(texts[i - 1])
        return (pred[:1].isupper() and bool(self.p.potential["single_letter"].match(pred))
                and self.classify(texts, i - 1, w.state) is not None)
