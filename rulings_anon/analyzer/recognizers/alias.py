"""Aliases and user names in quotes: "Thomas Wimmer, genannt „Kalle“", "mit dem Benutzernamen
„Schattenwolf88“", "unter dem Künstlernamen „Lola Blau“", "alias »Der Pate«".

A nickname, an artist's name or an account's user name identifies a party as well as the name it
stands for, and criminal and media rulings quote it right after a word that says it is one. The
span is the whole quoted text (at most 40 characters, on one line), whatever its case or digits, so
that a lower-case user name the model never takes for a name counts too. The cues: "genannt"
(not "sogenannt", "so genannt", the adjective "genannte" nor a defined term's "nachfolgend genannt
„Käuferin“"), "alias", and the nouns Spitzname, Rufname, Künstlername, Pseudonym, Deckname,
Kampfname, Nickname, Nutzername, Benutzername, Profilname, Accountname, Chatname and Username in
their inflections and compounds ("Instagram-Profilname"), and the account's holder or the account
right before the quote ("der Nutzer „schlumpf_77“", "der Facebook-Account „lola.blau“": Nutzer,
Benutzer, User, Account, with their inflections and compounds); an article or possessive ("genannt der
„Dicke“"), a colon or "lautet(e)"/"war"/"ist" may stand between cue and quote. "unter dem Namen
„Kö-Bogen“" names products and marks, so a bare "Name" is no cue. A list of quoted names after one
cue ("„Kalle“ oder „Kalli“") gives a span each.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .base import Pattern, Recognizer

_SPACE = r"[^\S\n]"
_NOUN = (r"(?:(?:Spitz|Ruf|Künstler|Deck|Kampf|Nick|(?:Be)?[Nn]utzer|Profil|Account|Chat|User)-?[Nn]ame(?:ns?|s)?"
         r"|Pseudonym(?:s|e|en)?)")
# an account's holder or the account itself, named by the quote right after it ("der Nutzer „xyz“")
_ACCOUNT = r"(?:(?:Be)?[Nn]utzer(?:in|innen|s)?|(?<![a-zäöüß])User(?:in|innen|s)?|(?<![a-zäöüß])Accounts?)"
_CUE = rf"(?:(?<![\w-])genannt|(?<![\w-])[Aa]lias|{_NOUN}|{_ACCOUNT})(?![\w-])"
# At least a blank before the quote: a quote right after the cue closes a quoted cue ('"alias" und "X"').
_BETWEEN = (rf":?(?:{_SPACE}+(?:lautet|lautete|war|ist|der|die|das|den|dem|des|ein|eine|einen|einem|"
            rf"sein|seine|seinen|seinem|ihr|ihre|ihren|ihrem))?{_SPACE}+")
# An opening quote and its closing ones; the text inside holds none of them and no line break, and
# neither begins nor ends with a blank (a closing quote then an opening one: '" und "').
_QUOTES = (("„", "“”"), ('"', '"'), ("»", "«"), ("«", "»"), ("‚", "‘’"), ("'", "'"), ("“", "”“"), ("‘", "’"))
_MOST = 40
_QUOTED = "|".join(rf"{re.escape(o)}(?P<q{i}>(?!\s)[^{re.escape(o + c)}\n]{{1,{_MOST}}}(?<!\s))[{re.escape(c)}]"
                   for i, (o, c) in enumerate(_QUOTES))
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")
# A further quoted name of a list after the first.
_LISTED = re.compile(rf"{_SPACE}*(?:,|und|oder|bzw\.|sowie){_SPACE}*(?:{_QUOTED})")
# Words before "genannt" that make it a reference back or a defined term, not an alias.
_NOT_ALIAS_BEFORE = re.compile(
    rf"(?<![\w-])(?:so|oben|unten|zuvor|vorstehend|nachstehend|nachfolgend|folgend|Folgenden|kurz|eingangs|"
    rf"bereits){_SPACE}+$")


def _inside(match: re.Match) -> tuple[int, int] | None:
    """The quoted text's range; None where it holds no letter or digit."""
    group = next(name for name, value in match.groupdict().items() if name.startswith("q") and value is not None)
    return match.span(group) if _LETTER_OR_DIGIT.search(match.group(group)) else None


class AliasRecognizer(Recognizer):
    name = "alias"
    entity_type = "ALIAS"
    REQUIRES = ("genannt", "lias", "ame", "Pseudonym", "utzer", "User", "Account")
    PATTERNS = (Pattern("after_cue", rf"{_CUE}{_BETWEEN}(?:{_QUOTED})", 0.85),)

    def candidates(self, text: str) -> Iterator[tuple[Pattern, int, int]]:
        for pattern, regex in self._compiled:
            for match in regex.finditer(text):
                if match.group().startswith("genannt") and _NOT_ALIAS_BEFORE.search(
                        text, max(0, match.start() - 20), match.start()):
                    continue
                at = match.end()
                inside = _inside(match)
                while inside is not None:
                    yield pattern, *inside
                    listed = _LISTED.match(text, at)
                    if listed is None:
                        break
                    at = listed.end()
                    inside = _inside(listed)
