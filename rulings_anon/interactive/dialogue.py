"""The questions on the terminal for one document (thesis 5.5.1 and 5.5.2).

Each question shows the context with the element highlighted, the detector's suggestion and a
progress line; single keys answer it. Enter accepts the suggestion, so a reviewer who agrees
with the detector only presses Enter. After the last placeholder the document corrections are
offered one by one.
"""

from __future__ import annotations

from rulings_anon.entity_types import TYPE_KEYS as _LETTER_KEYS
from rulings_anon.entity_types import TYPES
from rulings_anon.escapes import printable
from rulings_anon.placeholders.review_units import Unit

from .session import DocumentSession
from .terminal import ENTER, ESCAPE, Terminal

# Keys of the ten types: a letter (p for person, l for "location" = place, x for other) or the
# type's position 1..9, 0.
TYPE_KEYS = dict(_LETTER_KEYS)
TYPE_KEYS.update({str((i + 1) % 10): kind for i, kind in enumerate(TYPES)})
_LETTER_OF = {kind: key for key, kind in TYPE_KEYS.items() if key.isalpha()}

CONTEXT_BEFORE = 300
CONTEXT_AFTER = 200

HELP = """
Keys
  Is the highlighted text a placeholder?
    Enter   accept the suggestion shown (placeholder or not, its type and replacement)
    y       yes, a placeholder: choose its type next
    n       no, ordinary text
    + / -   the placeholder goes on over the next element / one element less
    u       undo the last decision in this document
    q       stop here: everything decided is saved, run the same command again to resume
    ?       this help
  Type: the letter in brackets or its number, Enter for the suggested type, Escape to go back.
  Replacement: Enter accepts, r draws another, t lets you type one, Escape goes back.
  Corrections: Enter or y applies the correction, n leaves the text as it is.
The same placeholder gets the same replacement everywhere in the document.
Press any key to go on.
"""


class Quit(Exception):
    """The user pressed q: stop and save."""


class Dialogue:
    """Asks the questions of one :class:`DocumentSession` on a :class:`Terminal`."""

    def __init__(self, terminal: Terminal, session: DocumentSession, label: str):
        self.term = terminal
        self.session = session
        self.label = label
        self.message = ""

    def review(self, vocabulary) -> dict:
        """Ask until the document is decided, then the corrections; returns the gold record.

        ``vocabulary()`` gives the word counts that corrections are checked against.
        """
        while True:
            pending = self.session.pending()
            if not pending:
                break
            self._ask(pending[0])
        for correction in self.session.pending_corrections(vocabulary()):
            self._ask_correction(correction)
        return self.session.finish()

    # -- screens ----------------------------------------------------------------------------

    def _header(self) -> None:
        p = self.session.progress()
        label = printable(self.label, one_line=True)
        self.term.clear()
        self.term.write(self.term.style(
            f"{label} | elements {p['elements_done']}/{p['elements_done'] + p['elements_left']} done, "
            f"{p['elements_left']} left | question {min(p['questions_done'] + 1, p['questions'])} "
            f"of {p['questions']}", "bold") + "\n\n")

    def _context(self, text: str, start: int, end: int) -> None:
        """The paragraph around ``[start, end)`` (at most the context sizes), the range marked."""
        paragraph_start = text.rfind("\n\n", 0, start)
        a = max(paragraph_start + 2 if paragraph_start >= 0 else 0, start - CONTEXT_BEFORE)
        paragraph_end = text.find("\n\n", end)
        b = min(paragraph_end if paragraph_end >= 0 else len(text), end + CONTEXT_AFTER)
        self.term.write(("…" if a > 0 else "") + printable(text[a:start])
                        + self.term.style(printable(text[start:end]), "mark")
                        + printable(text[end:b]) + ("…" if b < len(text) else "") + "\n\n")

    def _flash(self) -> None:
        if self.message:
            self.term.write(self.term.style(self.message, "warn") + "\n")
            self.message = ""

    def _keys(self, *pairs: tuple[str, str]) -> None:
        self.term.write("  ".join(f"[{self.term.style(k, 'key')}] {what}" for k, what in pairs) + "\n")

    def _help(self) -> None:
        self.term.clear()
        self.term.write(HELP)
        self.term.key()

    # -- questions --------------------------------------------------------------------------

    def _ask(self, unit: Unit) -> None:
        """One placeholder question; returns after a decision or an undo."""
        session = self.session
        while True:
            suggestion = session.suggestion(unit)
            self._header()
            self._context(session.doc.text, unit.start, unit.end)
            if suggestion.placeholder:
                self.term.write(f"Suggestion: placeholder, type {suggestion.type}, "
                                f"replacement {self.term.style(suggestion.replacement, 'ok')}\n")
            else:
                self.term.write("Suggestion: not a placeholder\n")
            self._flash()
            self._keys(("Enter", "accept"), ("y", "placeholder"), ("n", "not one"), ("+/-", "longer/shorter"),
                       ("u", "undo"), ("?", "help"), ("q", "quit"))
            self.term.write("Placeholder? ")
            key = self.term.key()
            if key == ENTER:
                session.decide(unit, suggestion.placeholder, suggestion.type, by="suggestion")
                return
            if key == "n":
                session.decide(unit, False)
                return
            if key == "y" and self._choose_type(unit, suggestion.type):
                return
            if key in ("+", "-"):
                unit = self._widen(unit, 1 if key == "+" else -1)
            elif key == "u":
                if session.undo() is not None:
                    return
                self.message = "Nothing to undo in this document."
            elif key == "?":
                self._help()
            elif key == "q":
                raise Quit

    def _widen(self, unit: Unit, by: int) -> Unit:
        wider = self.session.widen(unit, by)
        taken = any(d.first <= wider.last and wider.first <= d.last for d, *_ in self.session.decided)
        if taken or wider == unit:
            self.message = "The placeholder cannot grow or shrink further."
            return unit
        return wider

    def _choose_type(self, unit: Unit, suggested: str) -> bool:
        """Type menu; True once the placeholder is decided, False to go back."""
        while True:
            self._header()
            self._context(self.session.doc.text, unit.start, unit.end)
            self._flash()
            self.term.write("  ".join(f"[{self.term.style(_LETTER_OF[k], 'key')}] {k}" for k in TYPES) + "\n")
            self.term.write(f"Type? (Enter: {suggested}, Escape: back) ")
            key = self.term.key()
            if key in (ESCAPE, "b"):
                return False
            kind = suggested if key == ENTER else TYPE_KEYS.get(key.lower())
            if kind is None:
                self.message = f"No type on key {key!r}; press ? in the question for help."
                continue
            if self._choose_value(unit, kind):
                return True

    def _choose_value(self, unit: Unit, kind: str) -> bool:
        """Replacement: accept, regenerate or type one; True once decided."""
        session = self.session
        value = session.suggestion(unit, kind).replacement
        while True:
            self._header()
            self._context(session.doc.text, unit.start, unit.end)
            shown = printable(session.text_of(unit), one_line=True)
            self.term.write(f"Type {kind}: {shown} -> {self.term.style(value, 'ok')}\n")
            self._keys(("Enter", "accept"), ("r", "another"), ("t", "type one"), ("Escape", "back"))
            self.term.write("Replacement? ")
            key = self.term.key()
            if key in (ENTER, "y"):
                session.decide(unit, True, kind)
                return True
            if key == "r":
                value = session.regenerate(unit, kind)
            elif key == "t":
                typed = self.term.line("\nReplacement: ")
                if typed:
                    session.set_value(unit, kind, typed)
                    value = typed
            elif key in (ESCAPE, "b"):
                return False

    def _ask_correction(self, correction) -> None:
        text, _ = self.session.replaced()
        while True:
            self._header()
            self._context(text, correction.start, correction.end)
            self.term.write(f"Correction ({correction.reason}): {correction.before!r} -> {correction.after!r}\n")
            self._keys(("Enter/y", "apply"), ("n", "leave it"), ("q", "quit"))
            self.term.write("Correction? ")
            key = self.term.key()
            if key in (ENTER, "y", "n"):
                self.session.decide_correction(correction, key != "n")
                return
            if key == "q":
                raise Quit
