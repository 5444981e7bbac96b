"""Surrogates for values with a fixed format: licence plates, phone numbers, e-mail addresses, IBANs.

A reader notices a pseudonym that breaks the format of what it replaces (a plate turned into bare
digits, an e-mail address into a URL), so each value keeps its layout: a plate stays a plate
("M-AB 1234" -> "K-XY 5678", another district), a phone number keeps its prefix and grouping, an
e-mail address stays an address of the same shape, an IBAN keeps its country, length and grouping
and gets a valid ISO 13616 checksum. A surrogate never equals its original.
"""

from __future__ import annotations

import random
import re
import string

PLATE = re.compile(r"^(?P<district>[A-ZÄÖÜ]{1,3})(?P<gap>[- ])(?P<letters>[A-Z]{1,2})(?P<space> ?)"
                   r"(?P<digits>[1-9]\d{0,3})(?P<suffix>[EH]?)$")
PHONE = re.compile(r"^(?:\+\d{2}|\(?0)[\d\s/()\-.]*\d$")
EMAIL = re.compile(r"^(?P<local>[\w.+-]+)@(?P<domain>[\w-]+(?:\.[\w-]+)*)\.(?P<tld>[a-zA-Z]{2,})$")
IBAN = re.compile(r"^(?P<country>[A-Z]{2})\d{2}(?: ?[A-Z0-9]){11,30}$")

# District codes of German plates a surrogate draws from (large towns: no rare code points to a place).
DISTRICTS = ("A", "B", "BN", "D", "DO", "DU", "E", "F", "H", "HH", "K", "KA", "KI", "KS", "L", "M", "MA",
             "MZ", "N", "OS", "R", "S", "WI", "WÜ")
# Mail providers many people share: kept, as they say nothing about the person.
PROVIDERS = frozenset({"web.de", "gmx.de", "gmx.net", "t-online.de", "posteo.de", "gmail.com", "outlook.de",
                       "outlook.com", "yahoo.de", "freenet.de", "mailbox.org", "icloud.com", "aol.com"})
_LETTERS = string.ascii_uppercase
# Local parts that name a function, not a person: kept ("info@..." stays "info@...").
GENERIC_LOCAL = frozenset({"info", "kontakt", "post", "poststelle", "mail", "office", "service", "kanzlei", "buero"})
_ASCII = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "é": "e", "è": "e"})


def kind_of(value: str) -> str | None:
    """``plate``, ``phone``, ``email`` or ``iban`` for a value of that format, else None."""
    value = value.strip()
    if EMAIL.match(value):
        return "email"
    if IBAN.match(value) and iban_valid(value):
        return "iban"
    if PLATE.match(value):
        return "plate"
    if PHONE.match(value) and sum(c.isdigit() for c in value) >= 6:
        return "phone"
    return None


def iban_valid(iban: str) -> bool:
    """Whether ``iban``'s check digits are right (ISO 13616: the number mod 97 is 1)."""
    compact = iban.replace(" ", "")
    return _mod97(compact[4:] + compact[:4]) == 1


def _mod97(text: str) -> int:
    return int("".join(str(int(c, 36)) for c in text)) % 97


def _digits(rng: random.Random, count: int, first_nonzero: bool = False) -> str:
    digits = [str(rng.randint(0, 9)) for _ in range(count)]
    if first_nonzero and digits:
        digits[0] = str(rng.randint(1, 9))
    return "".join(digits)


def _plate(value: str, rng: random.Random) -> str:
    m = PLATE.match(value)
    district = rng.choice([d for d in DISTRICTS if d != m.group("district")])
    letters = "".join(rng.choice(_LETTERS) for _ in m.group("letters"))
    digits = _digits(rng, len(m.group("digits")), first_nonzero=True)
    return f"{district}{m.group('gap')}{letters}{m.group('space')}{digits}{m.group('suffix')}"


def _phone(value: str, rng: random.Random) -> str:
    # The country code ("+49") or the trunk "0" stays, every other digit is drawn; the
    # separators stay where they were.
    kept = 3 if value.startswith("+") else value.index("0") + 1
    return value[:kept] + "".join(str(rng.randint(0, 9)) if c.isdigit() else c for c in value[kept:])


def _name_word(names, rng: random.Random) -> str:
    return rng.choice(names).lower().translate(_ASCII)


def _email(value: str, rng: random.Random, first_names, surnames) -> str:
    m = EMAIL.match(value)
    pieces = re.split(r"([._+-])", m.group("local"))
    local, words = [], 0
    for piece in pieces:
        if not piece or piece in "._+-":
            local.append(piece)
        elif piece.lower() in GENERIC_LOCAL:
            local.append(piece)
        elif piece.isdigit():
            local.append(_digits(rng, len(piece)))
        else:
            local.append(_name_word(first_names if words == 0 and len(pieces) > 1 else surnames, rng))
            words += 1
    domain = f"{m.group('domain')}.{m.group('tld')}"
    if domain.lower() not in PROVIDERS:
        domain = f"{_name_word(surnames, rng)}.{m.group('tld')}"
    return "".join(local) + "@" + domain


def _iban(value: str, rng: random.Random) -> str:
    compact = value.replace(" ", "")
    country = compact[:2]
    bban = "".join(str(rng.randint(0, 9)) if c.isdigit() else rng.choice(_LETTERS) for c in compact[4:])
    check = 98 - _mod97(bban + country + "00")
    new = f"{country}{check:02d}{bban}"
    if " " in value:
        return " ".join(new[i:i + 4] for i in range(0, len(new), 4))
    return new


def formatted_surrogate(value: str, rng: random.Random, first_names=(), surnames=()) -> str | None:
    """A value of the same format as ``value`` and never ``value`` itself, or None when ``value``
    has none of the formats (:func:`kind_of`). ``first_names`` and ``surnames`` make the words of
    an e-mail address."""
    kind = kind_of(value)
    if kind is None:
        return None
    stripped = value.strip()
    for _ in range(20):
        if kind == "plate":
            new = _plate(stripped, rng)
        elif kind == "phone":
            new = _phone(stripped, rng)
        elif kind == "iban":
            new = _iban(stripped, rng)
        else:
            new = _email(stripped, rng, first_names or ("anna",), surnames or ("weber",))
        if new != stripped:
            return value.replace(stripped, new)
    return None
