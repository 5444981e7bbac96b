"""The reference types of sensitive spans and every name they go by, defined once as data.

Three vocabularies meet in a span's ``type``: our ten types (what the surrogate generator draws,
the review offers, a policy chooses operators for and the terminal tool asks about), the LER
corpus's tags of the placeholders the courts left ("PER", "UN", ...; the legal NER tags them too)
and the recognizers' own types ("IBAN", "PHONE", ...). The tables below say what each is and what it
maps to; every mapping the other modules use is derived from them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EntityType:
    """One of our types. ``style`` is the court-style placeholder (``initials``: "T. K.";
    ``company``: "M-GmbH"; ``filler``: "..."); ``affixes``: its values are names that titles,
    salutations or legal forms stand around ("Dr. Griesmann", "Meyer GmbH"); ``label`` is the
    German word of a numbered tag ("[Person 1]"); ``key`` the terminal tool's letter for it."""

    name: str
    description: str
    style: str
    affixes: bool
    label: str
    key: str
    aliases: tuple[str, ...] = ()


ENTITY_TYPES: tuple[EntityType, ...] = (
    EntityType("person", "a natural person", "initials", True, "Person", "p"),
    EntityType("organization", "an association, foundation, authority or other organization", "company", True,
               "Organisation", "o", ("organisation",)),
    EntityType("company", "a company, with or without its legal form", "company", True, "Firma", "c"),
    EntityType("place", "a town, city or region", "filler", True, "Ort", "l"),
    EntityType("street", "a street, perhaps with its house number", "filler", False, "Straße", "s"),
    EntityType("date", "a date, such as a birth date", "filler", False, "Datum", "d"),
    EntityType("number", "a phone, file, vehicle, contract, patent or other number", "filler", False, "Nummer", "n"),
    EntityType("account", "a bank account or IBAN", "filler", False, "Konto", "a", ("iban",)),
    EntityType("email/url", "an e-mail or web address", "filler", False, "Adresse", "e",
               ("email", "e-mail", "url", "e-mail/url")),
    EntityType("other", "any other reference", "filler", True, "Angabe", "x"),
)
PLACEHOLDER_STYLES = ("initials", "company", "filler")


@dataclass(frozen=True)
class LerTag:
    """A tag of the LER corpus (Leitner et al.). ``anonymized``: the courts replace it by a
    placeholder (our ``type`` then); ``grows``: a fragment of it grows into a whole reference
    across a name's particles ("von", "an der")."""

    tag: str
    description: str
    type: str | None = None
    anonymized: bool = False
    grows: bool = False


LER_TAGS: tuple[LerTag, ...] = (
    LerTag("PER", "person", "person", anonymized=True, grows=True),
    LerTag("RR", "judge", "person", grows=True),
    LerTag("AN", "lawyer", "person", anonymized=True, grows=True),
    LerTag("LD", "country"),
    LerTag("ST", "city", "place", anonymized=True, grows=True),
    LerTag("STR", "street", "street", anonymized=True),
    LerTag("LDS", "landscape", "place", anonymized=True),
    LerTag("ORG", "organization", "organization", anonymized=True),
    LerTag("UN", "company", "company", anonymized=True),
    LerTag("INN", "institution"),
    LerTag("GRT", "court"),
    LerTag("MRK", "brand"),
    LerTag("GS", "law"),
    LerTag("VO", "ordinance"),
    LerTag("EUN", "European norm"),
    LerTag("VS", "regulation"),
    LerTag("VT", "contract"),
    LerTag("RS", "court decision"),
    LerTag("LIT", "legal literature"),
)

# The type of an ``unknown_word`` candidate: a word no dictionary calls a noun, a name or a place,
# so it grows to a name reference and to a place reference alike.
UNKNOWN_TYPE = "UNKNOWN"

# The recognizers' own types (rulings_anon/analyzer/recognizers; "PER" and "STR" are LER tags)
# -> ours. Unknown words and trademarks get "number" as every upper-case type without a type of
# its own always has. An alias ("genannt „Kalle“") is a person's name: its court style is
# initials ("K."), its pseudonym a name, its tag "[Person 1]".
RECOGNIZER_TYPES = {"IBAN": "account", "ACCOUNT": "account", "EMAIL": "email/url", "URL": "email/url",
                    "BIRTH_DATE": "date", "PHONE": "number", "PATENT": "number", "TRADEMARK": "number",
                    "PERMIT": "number", "VEHICLE": "number", "CONTRACT": "number", UNKNOWN_TYPE: "number",
                    "POSTCODE": "place", "LAND_PARCEL": "number", "ROAD": "number", "HOUSE_NUMBER": "street",
                    "FILE_NUMBER": "number", "ALIAS": "person", "SEAT": "place"}


@dataclass(frozen=True)
class Detail:
    """A detail that identifies a party with the rest of a ruling: what a court's policy may count
    on its own (``[alone]``), whatever the contextual model says. ``type`` is the recognizer's type."""

    name: str
    description: str
    type: str


DETAILS: tuple[Detail, ...] = (
    Detail("birth_date", 'a date of birth ("geb. am 14.03.1978")', "BIRTH_DATE"),
    Detail("postcode", 'a postcode with its town ("86150 Augsburg", "D-86150")', "POSTCODE"),
    Detail("land_parcel", 'a land-parcel number ("Flurstück 123/4", "Fl.Nr. 123/4") or land-register sheet '
                          '("Grundbuch von Pullach Blatt 1234")', "LAND_PARCEL"),
    Detail("road_number", 'a road\'s number ("an der B 12", "Staatsstraße 2045", "Kreisstraße MN 15")', "ROAD"),
    Detail("house_number", 'the house number after a street found or flagged ("Kirchstraße 12")', "HOUSE_NUMBER"),
    Detail("file_number", 'the file number of a party\'s proceeding before an authority ("Landratsamt, Az.: 3-12/19")',
           "FILE_NUMBER"),
    Detail("alias", 'a person\'s alias or user name in quotes ("genannt „Kalle“", "Benutzernamen „schattenwolf88“")',
           "ALIAS"),
    Detail("authority_seat", 'the seat of an authority that would locate a party ("Landratsamt Rosenheim", '
                             '"Staatsanwaltschaft Traunstein", "Polizeiinspektion Bad Aibling"; not a court\'s)', "SEAT"),
)
DETAIL_NAMES: tuple[str, ...] = tuple(d.name for d in DETAILS)

# --- derived: what the other modules read ---------------------------------------------------

TYPES: tuple[str, ...] = tuple(t.name for t in ENTITY_TYPES)
_BY_NAME = {t.name: t for t in ENTITY_TYPES}
# The LER tags of the placeholders the courts left -> our types.
LER_TYPES: dict[str, str] = {t.tag: t.type for t in LER_TAGS if t.anonymized}
ANONYMIZED_LER_TAGS: tuple[str, ...] = tuple(LER_TYPES)
TYPE_ALIASES: dict[str, str] = {alias: t.name for t in ENTITY_TYPES for alias in t.aliases}
# Our types, the courts' LER tags and the recognizers' types -> placeholder style, for the styles
# that are not "...".
STYLE_OF_TYPE: dict[str, str] = {
    **{t.name: t.style for t in ENTITY_TYPES if t.style != "filler"},
    **{tag: _BY_NAME[kind].style for tag, kind in LER_TYPES.items() if _BY_NAME[kind].style != "filler"},
    **{kind: _BY_NAME[ours].style for kind, ours in RECOGNIZER_TYPES.items() if _BY_NAME[ours].style != "filler"},
}
AFFIXED_TYPES = frozenset(t.name for t in ENTITY_TYPES if t.affixes)
TAG_LABELS: dict[str, str] = {t.name: t.label for t in ENTITY_TYPES}
TYPE_KEYS: dict[str, str] = {t.key: t.name for t in ENTITY_TYPES}
# Our types for a natural person (a missed one reveals who a ruling is about).
PERSON_TYPES = frozenset({"person"})
# Types whose fragments grow into a whole name or place reference across particles.
NAME_GROWING_TYPES = frozenset({"person"} | {t.tag for t in LER_TAGS if t.grows and t.type == "person"})
PLACE_GROWING_TYPES = frozenset({"place"} | {t.tag for t in LER_TAGS if t.grows and t.type == "place"})
