"""Realistic surrogates for anonymization placeholders (faker de_DE), seeded and consistent.

A placeholder the court left ("Dr. A. G.", "des K.s", "die M-GmbH", "Kstraße", "...") is replaced
by a value of its type that keeps what the placeholder shows: initials ("Dr. A. G." -> "Dr. Arnold
Griesmann"; X and Y, which courts write for a party they name by no initial, stand for any name),
titles and legal forms ("M-GmbH" -> "Meyer GmbH"), case endings ("K.s" -> "Kempers", "P-Platzes" ->
"Parkplatzes") and visible years of dates. Within one document the same placeholder
gets the same value, and the same initial of the same type the same name ("K." and "K.s" ->
"Kemper"/"Kempers"). No name drawn repeats the real name it stands for (``original``), nor a
placeholder that is a real name, ignoring case and diacritics: where the only listed name of an
initial is that name (a rare initial), another is made with the same initial.

Usage::

    from rulings_anon.replacement.surrogates import LER_TYPES, TYPES, ReplacementTable, SurrogateGenerator

    gen = SurrogateGenerator(seed=0)
    gen.surrogate("Dr. A. G.", "person")         # e.g. 'Dr. Arnold Griesmann'
    doc_gen = gen.for_document("ler-bgh-0001")   # seeded by (seed, id): order-independent
    table = ReplacementTable(doc_gen)
    table.replacement("K.", "person")            # 'Kemper', and again on every later call
    table.replacement("K.s", "person")           # 'Kempers'
    SurrogateGenerator(0, names="foreign")        # names no model here trains on (test sets)
    SurrogateGenerator(0, invented=0.7)           # 70 % of surnames and places made up (NER training)

* ``TYPES``: the ten reference types; ``LER_TYPES`` maps the LER tags of placeholders to them
  (:func:`canonical_type` accepts either); both defined in :mod:`rulings_anon.entity_types`.
* Replacing a document's placeholders with these values is the
  :class:`~rulings_anon.replacement.operators.PlaceholderSurrogate` operator
  (:func:`~rulings_anon.replacement.operators.pseudonymize`,
  :func:`~rulings_anon.replacement.operators.pseudonymize_record`).
"""

from __future__ import annotations

import functools
import random
import re
import unicodedata
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulings_anon.defaults import NAME_HALVES
from rulings_anon.entity_types import LER_TYPES, TYPE_ALIASES, TYPES

if TYPE_CHECKING:
    from faker import Faker

# Name pools by the kind of name an initial stands for: faker's de_DE lists, cleaned of entries
# that are not one plain name ("Koch II", "Hans D.", the typo "Hansestadttralsund"), plus names for
# initials faker has none of. Street stems are common street words besides surnames.
_ONE_NAME = re.compile(r"^[A-ZÄÖÜ][a-zäöüßéè]+(?:-[A-ZÄÖÜ][a-zäöüßéè]+)?$")
_PLACE_NAME = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]+(?:[ -](?:[A-ZÄÖÜ][a-zäöüß]+|am|an|der|ob|vorm))*$")
_FAKER_TYPOS = {"Hansestadttralsund", "Neustadtner Waldnaab"}
_EXTRA_SURNAMES = ("Imhof", "Ilgner", "Isenberg", "Quandt", "Quast", "Xander", "Yilmaz", "Özdemir",
                   "Öztürk", "Ünal", "Übelacker", "Ährlich")
_EXTRA_FIRST_MALE = ("Quirin", "Ömer", "Ümit")
_EXTRA_FIRST_FEMALE = ("Quirina", "Özlem", "Ülkü")
_EXTRA_CITIES = ("Xanten", "Öhringen", "Überlingen", "Ückermünde", "Ötisheim")
_STREET_STEMS = ("Ahorn", "Akazien", "Bach", "Bahnhof", "Berg", "Birken", "Blumen", "Brunnen", "Burg",
                 "Buchen", "Dorf", "Eichen", "Erlen", "Feld", "Fichten", "Friedhof", "Garten", "Hafen",
                 "Hain", "Hasel", "Heide", "Hirsch", "Hof", "Holunder", "Industrie", "Jäger", "Kastanien",
                 "Kirch", "Kloster", "Lerchen", "Linden", "Markt", "Mühlen", "Nelken", "Obst", "Park",
                 "Post", "Quellen", "Raben", "Rosen", "Sand", "Schiller", "Schloss", "Schul", "See",
                 "Sonnen", "Tannen", "Uhland", "Ulmen", "Veilchen", "Wald", "Weiden", "Wiesen", "Zeppelin")


def _names(listed, extra=(), pattern=_ONE_NAME) -> tuple[str, ...]:
    return tuple(n for n in listed if pattern.match(n) and n not in _FAKER_TYPOS) + tuple(extra)


@functools.cache
def german_pools() -> dict[str, tuple[str, ...]]:
    """faker's German names and places (read on first use: importing faker costs a tenth of a
    second that ``score`` without replacements need not wait for)."""
    from faker.providers.address.de_DE import Provider as _Address
    from faker.providers.person.de_DE import Provider as _Person

    return {
        "surname": _names(_Person.last_names, _EXTRA_SURNAMES),
        "first_male": _names(_Person.first_names_male, _EXTRA_FIRST_MALE),
        "first_female": _names(_Person.first_names_female, _EXTRA_FIRST_FEMALE),
        "city": _names(_Address.cities, _EXTRA_CITIES, _PLACE_NAME),
        "street_stem": _STREET_STEMS + _names(_Person.last_names, _EXTRA_SURNAMES),
    }


# The names a generator draws. The NER trains on "all" (the German lists), the scorer on "world"
# (those and names of Western and Northern Europe, below). Test sets draw "foreign"
# names: German-language names of faker's Austrian and Swiss lists that the German lists lack
# ("Achleitner", "Amriswil"), so a test never rewards a name learnt by heart as a surrogate (the
# bundled NER finds 83 % of BSG's sensitive elements when their surrogates are names it knows,
# 54 % when they are not). "training" and "testing" are two disjoint halves of the German lists,
# for experiments; the common street words are no names and stay in both.


def _foreign_pools() -> dict[str, tuple[str, ...]]:
    from faker.providers.address.de_AT import Provider as _AddressAT
    from faker.providers.address.de_CH import Provider as _AddressCH
    from faker.providers.person.de_AT import Provider as _PersonAT
    from faker.providers.person.de_CH import Provider as _PersonCH

    listed = set().union(*german_pools().values())

    def new(*lists, pattern=_ONE_NAME):
        return tuple(sorted({n for names in lists for n in names if pattern.match(n) and n not in listed}))

    return {"surname": new(_PersonAT.last_names, _PersonCH.last_names),
            "first_male": new(_PersonAT.first_names_male, _PersonCH.first_names_male),
            "first_female": new(_PersonAT.first_names_female, _PersonCH.first_names_female),
            "city": new(_AddressAT.cities, _AddressCH.cities, pattern=_PLACE_NAME),
            "street_stem": german_pools()["street_stem"]}


# A second source no model trains on: names of parties whose families came from Turkey, Poland,
# Romania, Croatia, the Czech Republic, Hungary, Slovakia, Slovenia or Latvia, as faker's lists of
# those countries write them in Latin letters ("Yıldırım", "Kovačič", "Grudziądz"), which neither the
# German lists nor the Austrian and Swiss ones hold. Each country gives at most EASTERN_PER_LOCALE
# names to a pool (Slovakia alone lists 2,840 places), spread over its list; the streets stay German.
EASTERN_LOCALES = ("tr_TR", "pl_PL", "ro_RO", "hr_HR", "cs_CZ", "hu_HU", "sk_SK", "sl_SI", "lv_LV")
EASTERN_PER_LOCALE = 150
_LATIN_NAME = re.compile(r"^[A-ZÄÖÜÀ-ÖØ-ÝĀ-ž][a-zäöüßà-öø-ÿā-ž]+(?:-[A-ZÀ-ÖØ-ÝĀ-ž][a-zà-öø-ÿā-ž]+)?$")


def _locale_pools(locales, per_locale: int, listed: set[str]) -> dict[str, tuple[str, ...]]:
    """faker's surnames, first names and places of ``locales`` in Latin letters, none of ``listed``,
    at most ``per_locale`` of each country per pool, spread over its list."""
    import importlib

    pools: dict[str, set[str]] = {"surname": set(), "first_male": set(), "first_female": set(), "city": set()}
    for locale in locales:
        person = importlib.import_module(f"faker.providers.person.{locale}").Provider
        try:
            cities = importlib.import_module(f"faker.providers.address.{locale}").Provider.cities
        except (ModuleNotFoundError, AttributeError):
            cities = ()
        lists = {"surname": (*getattr(person, "last_names", ()), *getattr(person, "last_names_male", ()),
                             *getattr(person, "last_names_female", ())),
                 "first_male": getattr(person, "first_names_male", ()),
                 "first_female": getattr(person, "first_names_female", ()), "city": cities}
        for pool, names in lists.items():
            kept = sorted({n for n in names if _LATIN_NAME.match(n) and n not in listed})
            pools[pool].update(kept[::max(1, len(kept) // per_locale)][:per_locale])
    return {pool: tuple(sorted(names)) for pool, names in pools.items()}


def _eastern_pools() -> dict[str, tuple[str, ...]]:
    listed = set().union(*german_pools().values(), *_half_pools("foreign").values())
    return {**_locale_pools(EASTERN_LOCALES, EASTERN_PER_LOCALE, listed), "street_stem": german_pools()["street_stem"]}


# The training names of the sensitivity model: the German lists and, beside them, names of Western and
# Northern Europe ("Bianchi", "Jansen", "Virtanen", "Ferreira"), at most WORLD_PER_LOCALE of each
# country per pool, none of the two test sources. A model that saw German names alone as surrogates
# learnt that a word neither the lexicon nor the word clusters know is no name, and left the names
# of another language in clear ("gegen Ercegović": 0.002); these teach it that an unknown word in a
# name's place is one, without drawing a name a test draws (docs/experiments.md, "Names of other
# languages")
WORLD_LOCALES = ("it_IT", "es_ES", "fr_FR", "nl_NL", "pt_PT", "da_DK", "sv_SE", "fi_FI", "no_NO", "en_GB", "et_EE")
WORLD_PER_LOCALE = 10


def _world_pools() -> dict[str, tuple[str, ...]]:
    german = german_pools()
    listed = set().union(*german.values(), *_half_pools("foreign").values(), *_half_pools("eastern").values())
    world = _locale_pools(WORLD_LOCALES, WORLD_PER_LOCALE, listed)
    return {pool: names + world.get(pool, ()) for pool, names in german.items()}


@functools.cache
def _half_pools(half: str) -> dict[str, tuple[str, ...]]:
    if half == "all":
        return german_pools()
    if half not in NAME_HALVES:
        raise ValueError(f"unknown name half {half!r} (one of {', '.join(NAME_HALVES)})")
    if half == "foreign":
        return _foreign_pools()
    if half == "eastern":
        return _eastern_pools()
    if half == "world":
        return _world_pools()
    parity = 0 if half == "training" else 1
    return {pool: tuple(n for n in names if n in _STREET_STEMS or zlib.crc32(n.encode("utf-8")) % 2 == parity)
            for pool, names in german_pools().items()}


def _starting(names, prefix: str, memo) -> list[str]:
    """The names starting with ``prefix`` (any case), without the originals ``memo`` marks."""
    low = prefix.lower()
    found = [n for n in names if n.lower().startswith(low)] if prefix else list(names)
    if memo is None or not memo.originals:
        return found
    return [n for n in found if not memo.is_original(n)]


# Pools whose names may be invented (``SurrogateGenerator(invented=...)``), and the names that can
# be cut and joined: one word of four letters or more.
_INVENTED_POOLS = ("surname", "city")
_ONE_WORD = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]{3,}$")
_UMLAUT_BASE = str.maketrans("ÄÖÜäöü", "AOUaou")
_STREET_SUFFIXES = ("straße", "weg", "allee", "ring", "platz", "gasse")

# Courts write X and Y for a party they name by no initial ("die X-GmbH", "Herr Y"): few names
# begin with them, so a surrogate that kept the letter would be one of the same two names again, or
# a made-up word ("Xnecht-Gruppe") that no ruling holds. Any name of the pool stands for them.
GENERIC_LETTERS = frozenset({"X", "Y"})

# Which pool a lone initial of each type is drawn from (persons: see _person_group).
_INITIAL_POOL = {"company": "surname", "organization": "city", "place": "city", "other": "surname",
                 "street": "street_stem"}

# Titles, salutations, abbreviations and legal forms stay as they are; listed so that "Dr." or
# the "V." of "e. V." is not taken for an initial.
_KEPT_PATTERN = (r"e\.\s?V\.|e\.\s?K\.|&\s?Co\.(?:\s?KG(?:aA)?|\s?OHG)?|Co\.|Dr\.|Prof\.|Dipl\.-\w+\.?"
                 r"|Nr\.|Az\.|Hr\.|Fr\.|med\.|jur\.|rer\.\s?nat\.|St\.\s(?=[A-ZÄÖÜ][a-zäöü]{2})")
_TOKEN = re.compile(rf"(?P<kept>{_KEPT_PATTERN})|\S+")
LEGAL_FORMS = {"GmbH", "gGmbH", "mbH", "AG", "KG", "KGaA", "OHG", "GbR", "UG", "SE", "eG", "e.V.",
                "Ltd.", "Inc.", "PartG", "PartGmbB", "(haftungsbeschränkt)", "&", "Co.", "Co"}
# Capitalized short words that are words, not initials, when they appear inside a placeholder.
_NOT_INITIALS = {"Am", "An", "Im", "In", "Zu", "Er", "Es", "Da", "So", "Ob", "Wo", "Ab", "Um"}

_TAIL = r"(?P<tail>[,;:)\]“”\"']*)"
# "K."  "Ts."  "F…"  "K.s" (genitive)  "K's"
_INITIAL = re.compile(r"^(?P<prefix>[A-ZÄÖÜ][a-zäöü]?)(?P<mark>\.{1,3}|…)?(?P<gen>(?<=[.…])s|['’]s)?"
                      + _TAIL + "$")
# "..."  "…"  "Xxxxx"  "***"
_FILLER = re.compile(r"^(?:\.{2,}|…+|([A-Za-zÄÖÜäöü*_#])(?i:\1){2,})" + _TAIL + "$")
# "M-GmbH"  "H-Stadt"  "P-Platzes"  "...-Straße"  "-Straße"
_COMPOUND = re.compile(r"^(?P<prefix>[A-ZÄÖÜ][a-zäöü]?\.?|\.{2,}|…)?-(?P<rest>[A-ZÄÖÜa-zäöü]\S*?)" + _TAIL + "$")
# "Kstraße"  "K-Straße"  "L Straße"  "Y-Str."  "D… allee": an initial joined to a street word.
_STREET = re.compile(
    r"(?<!\S)(?P<prefix>[A-ZÄÖÜ][a-zäöü]?)?(?:\.{1,3}|…)?[-\s]?"
    r"(?P<rest>(?i:(?:stra(?:ß|ss)e|weg|platz|gasse|allee|ring|damm|ufer|chaussee|pfad|steig|markt)\w*"
    r"|str\.))")
_PLACE_WORDS = {"Stadt", "Dorf", "Ort", "Gemeinde", "Land"}
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
           "Oktober", "November", "Dezember")
_DIGIT_SLOT = re.compile(r"[xX#*…]|\.{2,}")
_FEMALE_CUE = re.compile(r"\b(?:Frau|[A-ZÄÖÜ]\w{3,}in(?:nen)?)\W*$|\bFrau\b")
_MALE_CUE = re.compile(r"\bHerrn?\b")


def canonical_type(tag: str | None) -> str:
    """The type name of ``TYPES`` for a LER tag, a type name or an alias; None -> ``other``."""
    if tag is None:
        return "other"
    if tag in LER_TYPES:
        return LER_TYPES[tag]
    name = tag.strip().lower()
    name = TYPE_ALIASES.get(name, name)
    if name not in TYPES:
        raise ValueError(f"unknown reference type {tag!r} (expected one of {', '.join(TYPES)} or a LER tag)")
    return name


def genitive(name: str) -> str:
    """German genitive of a name: "Kemper" -> "Kempers", "Fuchs" -> "Fuchs'"."""
    return name + ("'" if name[-1:] in ("s", "ß", "x", "z") else "s")


# Letters without a decomposition that still stand for a plain one: "Yılmaz" is "Yilmaz".
_PLAIN_LETTERS = str.maketrans({"ı": "i", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"})
_WORDS = re.compile(r"\s+")
_HYPHENS = re.compile(r"[-‐–]+")
# A street word ending a real street name: its stem ("Xander" of "Xanderweg") is a name too.
_STREET_END = re.compile(r"-?(?:stra(?:ß|ss)e|str\.?|weg|platz|gasse|allee|ring|damm|ufer|chaussee|pfad|steig|markt)$")


def plain_name(word: str) -> str:
    """A name as it is compared with an original: without case, diacritics and surrounding
    punctuation, so that "YILMAZ", "Yılmaz" and "Ährlich" are the same as "Yilmaz" and "Ahrlich"."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_PLAIN_LETTERS))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip(".,;:!?()[]\"'’„“”«»…")


@dataclass
class NameMemo:
    """The names already chosen in one document: ``(pool, prefix) -> name`` and names in use;
    ``originals`` holds the real names (as :func:`plain_name`) that no surrogate may repeat."""

    names: dict = field(default_factory=dict)
    used: set = field(default_factory=set)
    originals: set = field(default_factory=set)

    def avoid(self, text: str) -> None:
        """Mark ``text``, each of its words and their hyphenated parts (and the stem of a street
        name: "Xander" of "Xanderweg") as names never to return."""
        words = _WORDS.split(text.strip())
        for part in (text, *words, *(p for w in words for p in _HYPHENS.split(w))):
            plain = plain_name(part)
            for word in (plain, _STREET_END.sub("", plain)):
                if word:
                    self.originals.add(word)

    def is_original(self, name: str) -> bool:
        """Whether ``name``, or a part of it joined by a hyphen, is an original, as written or
        nearly ("Yilmaz", "Yilmaz-Kemper"; not "Bad Aussee" for "Bad Salzungen")."""
        if not self.originals:
            return False
        return plain_name(name) in self.originals or any(
            plain_name(part) in self.originals for part in _HYPHENS.split(name))


class SurrogateGenerator:
    """Draws surrogate values; everything it returns follows from ``seed`` alone."""

    def __init__(self, seed=0, names: str = "all", invented: float = 0.0):
        self.seed = seed
        self.names = names
        self.invented = invented
        self.rng = random.Random(str(seed))
        self._faker: Faker | None = None
        self._pools = _half_pools(names)

    def for_document(self, doc_id) -> SurrogateGenerator:
        """A generator for one document, seeded by this seed and the id (independent of order)."""
        return SurrogateGenerator(f"{self.seed}/{doc_id}", self.names, self.invented)

    def faker(self) -> Faker:
        """The de_DE faker, reseeded from our random state at every use (reproducible)."""
        if self._faker is None:
            from faker import Faker

            self._faker = Faker("de_DE")
        self._faker.seed_instance(self.rng.getrandbits(32))
        return self._faker

    # -- names -----------------------------------------------------------------------------------

    def name(self, pool: str, prefix: str = "", memo: NameMemo | None = None, scope: str = "",
             keep_initial: bool = True) -> str:
        """A name of ``pool`` starting with ``prefix``, the same again for the same memo and scope.

        ``scope`` (the reference type) keeps "K." the person apart from "K" the company;
        ``keep_initial`` False draws any name for the prefix (still the same again).
        """
        key = (scope, pool, prefix)
        if memo is not None and key in memo.names and not memo.is_original(memo.names[key]):
            return memo.names[key]
        names = self._pools[pool]
        if not keep_initial:
            prefix = ""
        candidates = _starting(names, prefix, memo)
        if not candidates and self.names in ("training", "testing"):  # the other half has the initial
            names = german_pools()[pool]
            candidates = _starting(names, prefix, memo)
        if not candidates:
            candidates = [self._graft(prefix, names, memo)]
        fresh = [n for n in candidates if memo is None or n not in memo.used] or candidates
        value = self.rng.choice(fresh)
        if self.invented and pool in _INVENTED_POOLS and self.rng.random() < self.invented:
            invented = self._invent(value, names)
            value = value if memo is not None and memo.is_original(invented) else invented
        if memo is not None:
            memo.names[key] = value
            memo.used.add(value)
        return value

    def _graft(self, prefix: str, names, memo: NameMemo | None) -> str:
        """A name starting with ``prefix`` where no listed one may ("Ts", "Y", or only the original
        "Yilmaz" does): the prefix grafted onto a listed name, preferably one starting like it
        ("Ä" -> "Ackermann" -> "Äckermann"), never giving an original back."""
        plain = prefix[:1].translate(_UMLAUT_BASE)
        bases = [n for n in names if len(n) > len(prefix) + 2 and " " not in n
                 and (memo is None or not memo.is_original(prefix + n[len(prefix):]))]
        base = self.rng.choice([n for n in bases if n.startswith(plain)] or bases)
        return prefix + base[len(prefix):]

    def _invent(self, name: str, names) -> str:
        """A name no list holds, with the same start: the head of ``name`` and the tail of another
        listed name ("Kemper" + "Lindner" -> "Kemdner"). Training on many such names keeps a
        tagger from learning the few hundred listed ones by heart."""
        other = self.rng.choice(names)
        if not (_ONE_WORD.match(name) and _ONE_WORD.match(other)):
            return name
        head = name[: self.rng.randint(2, len(name) - 2)]
        return head + other[self.rng.randint(1, len(other) - 2):]

    def _first_name_pool(self, context: str) -> str:
        if _FEMALE_CUE.search(context):
            return "first_female"
        if _MALE_CUE.search(context):
            return "first_male"
        return self.rng.choice(("first_male", "first_female"))

    # -- surrogates ------------------------------------------------------------------------------

    def surrogate(self, placeholder: str, type: str, before: str = "", memo: NameMemo | None = None,
                  original: str = "") -> str:
        """A realistic value for ``placeholder`` of ``type`` (a type name or LER tag).

        ``before`` is the text preceding the placeholder (it tells "Frau" from "Herr" for first
        names); ``memo`` keeps the names of one document consistent. ``original`` is the real
        value the placeholder stands for, if known: no name drawn repeats a word of it, nor of
        the placeholder itself (a span holding a real name), however few names the pools hold.
        """
        kind = canonical_type(type)
        memo = memo if memo is not None else NameMemo()
        memo.avoid(placeholder)
        memo.avoid(original)
        if kind == "date":
            return self._date(placeholder)
        if kind == "number":
            return self._number(placeholder)
        if kind == "account":
            return self.faker().iban()
        if kind == "email/url":
            faker = self.faker()
            url = "@" not in placeholder and re.search(r"www|http|\.de\b", placeholder, re.I)
            return faker.url() if url else faker.email()
        # a letter of a placeholder made from the real name is its initial, whatever the letter
        generic = frozenset() if original else GENERIC_LETTERS
        return self._names(placeholder, kind, before, memo, generic)

    def _names(self, placeholder: str, kind: str, before: str, memo: NameMemo, generic: frozenset) -> str:
        text = placeholder
        if kind == "street":
            text = _STREET.sub(lambda m: self._street_word(m, memo, generic), text)
        pieces: list[str] = []
        last = 0
        replaced = False
        tokens = list(_TOKEN.finditer(text))
        for i, match in enumerate(tokens):
            pieces.append(text[last:match.start()])
            last = match.end()
            token = match.group()
            value = None if match.group("kept") else self._token(token, kind, tokens, i, before, memo, generic)
            replaced |= value is not None
            pieces.append(token if value is None else value)
        pieces.append(text[last:])
        result = "".join(pieces)
        if replaced or text != placeholder:
            return result
        # Nothing in it looks like a placeholder: a bare legal form ("e. V.") gets a name before
        # it, anything else a name of the type with the same first letter.
        pool = _INITIAL_POOL.get(kind, "surname")
        if all(m.group("kept") or m.group() in LEGAL_FORMS for m in tokens):
            return f"{self.name('surname', '', memo, kind)} {placeholder}".strip()
        return self.name(pool, placeholder[:1].upper() if placeholder[:1].isalpha() else "", memo, kind)

    def _street_word(self, match: re.Match, memo: NameMemo, generic: frozenset) -> str:
        rest = match.group("rest")
        stem = self._placeholder_name("street_stem", match.group("prefix") or "", memo, "street", generic)
        return stem + rest[0].lower() + rest[1:]

    def _token(self, token, kind, tokens, i, before, memo, generic) -> str | None:
        """The replacement of one token of a placeholder, None to keep it."""
        m = _INITIAL.match(token)
        if m and m.group("prefix") not in _NOT_INITIALS:
            name = self._initial(m.group("prefix"), kind, tokens, i, before, memo, generic)
            return (genitive(name) if m.group("gen") else name) + m.group("tail")
        m = _FILLER.match(token)
        if m:
            if kind == "street" and i > 0:
                return str(self.rng.randint(1, 120)) + m.group("tail")  # "L-Straße ..." house number
            return self._initial("", kind, tokens, i, before, memo, generic) + m.group("tail")
        m = _COMPOUND.match(token)
        if m:
            prefix = (m.group("prefix") or "").rstrip(".…")
            prefix = "" if prefix.startswith(".") else prefix
            rest, tail = m.group("rest"), m.group("tail")
            if kind in ("place", "organization") and rest in _PLACE_WORDS:
                return self._placeholder_name("city", prefix, memo, kind, generic) + tail
            name = self._placeholder_name("city" if kind == "place" else "surname", prefix, memo, kind, generic)
            joiner = " " if rest in LEGAL_FORMS else "-"
            return name + joiner + rest + tail
        return None

    def _initial(self, prefix, kind, tokens, i, before, memo, generic) -> str:
        """The name for an initial (or a bare filler) at token ``i``."""
        if kind == "street":
            return self._placeholder_name("street_stem", prefix, memo, kind, generic) + self.rng.choice(_STREET_SUFFIXES)
        if kind != "person":
            return self._placeholder_name(_INITIAL_POOL[kind], prefix, memo, kind, generic)
        # A run of initials is one name: given names first, the surname last ("A. G.").
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if following is not None and not following.group("kept") and (
            _INITIAL.match(following.group()) or _FILLER.match(following.group())
        ):
            context = before + " " + "".join(t.group() + " " for t in tokens[:i])
            return self._placeholder_name(self._first_name_pool(context), prefix, memo, kind, generic)
        return self._placeholder_name("surname", prefix, memo, kind, generic)

    def _placeholder_name(self, pool: str, letter: str, memo: NameMemo, kind: str, generic: frozenset) -> str:
        """The name for a placeholder's letter: one with that initial, any name for a ``generic``
        letter (:data:`GENERIC_LETTERS` where the court chose the letter)."""
        return self.name(pool, letter, memo, kind, keep_initial=letter not in generic)

    def _date(self, placeholder: str) -> str:
        year = _YEAR.search(placeholder)
        y = int(year.group()) if year else self.rng.randint(1940, 2005)
        month, day = self.rng.randint(1, 12), self.rng.randint(1, 28)
        if any(name in placeholder for name in _MONTHS):
            return f"{day}. {_MONTHS[month - 1]} {y}"
        return f"{day:02d}.{month:02d}.{y}"

    def _number(self, placeholder: str) -> str:
        if _FILLER.match(placeholder) or not _DIGIT_SLOT.search(placeholder):
            return str(self.rng.randint(100, 999999))
        return _DIGIT_SLOT.sub(lambda m: "".join(str(self.rng.randint(0, 9)) for _ in m.group()), placeholder)


class ReplacementTable:
    """The replacements of one document: the same placeholder of a type gets the same value.

    Values come from the generator unless set by hand (:meth:`set`); :meth:`regenerate` draws a
    new one. :meth:`records` lists the table for the replacement-table file.
    """

    def __init__(self, generator: SurrogateGenerator):
        self.generator = generator
        self.memo = NameMemo()
        self.values: dict[tuple[str, str], str] = {}

    def replacement(self, placeholder: str, type: str, before: str = "") -> str:
        key = (canonical_type(type), placeholder)
        if key not in self.values:
            self.values[key] = self.generator.surrogate(placeholder, key[0], before, self.memo)
        return self.values[key]

    def regenerate(self, placeholder: str, type: str, before: str = "") -> str:
        """A different value for ``placeholder``: its names are drawn afresh and replace the old."""
        key = (canonical_type(type), placeholder)
        old = self.values.pop(key, None)
        for _ in range(5):
            fresh = NameMemo(used=set(self.memo.used), originals=set(self.memo.originals))
            value = self.generator.surrogate(placeholder, key[0], before, fresh)
            if value != old:
                break
        self.memo.names.update(fresh.names)
        self.memo.used |= fresh.used
        self.values[key] = value
        return value

    def set(self, placeholder: str, type: str, value: str) -> None:
        self.values[(canonical_type(type), placeholder)] = value

    def records(self) -> list[dict]:
        return [{"placeholder": p, "type": t, "replacement": v} for (t, p), v in self.values.items()]
