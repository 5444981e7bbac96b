"""A name's parts and common nouns after an article (:mod:`rulings_anon.analyzer.name_parts`) on a
court's feature rows, for :mod:`rulings_anon.analyzer.decision_metrics`.

The rows keep no text, so the gap between two neighbouring candidates is read from what they
keep: nothing but spaces between them and no paragraph break (``CourtFeatures.joined``, as the
text version's pairs ask), no sentence period or line break after the first (``period_after``,
``sentence_start`` of the second), no semicolon, no quote opening the second.
"""

from __future__ import annotations

import numpy as np

from rulings_anon.analyzer import cited_works, role_names, signed_judges, subject_names, word_compounds
from rulings_anon.analyzer import name_parts as parts
from rulings_anon.analyzer import sensitivity as sf
from rulings_anon.analyzer import sensitivity_model as sm
from rulings_anon.analyzer import thing_names as things
from rulings_anon.analyzer.common_words import AFTER_ELIDED

# which rules the measured decision applies (the benchmark switches them off to compare)
RULES = {"name_parts": True, "nouns": parts.NOUNS_AFTER_ARTICLES, "full_names": parts.FULL_NAMES,
         "companies": parts.COMPANY_NAMES, "places": parts.PLACE_NAMES, "roles": role_names.ROLE_NAMES,
         "institutions": role_names.INSTITUTION_NAMES, "word_surnames": parts.WORD_SURNAMES,
         "districts": parts.TOWN_DISTRICTS, "spread_parts": parts.SPREAD_PARTS,
         "party_roles": role_names.PARTY_ROLE_NAMES, "coordinated": parts.COORDINATED_NAMES,
         "relatives": role_names.RELATIVE_FIRST_NAMES, "listed_nouns": parts.LISTED_NOUNS,
         "comma_lists": parts.LISTED_WITH_COMMAS,
         "things": things.THING_NAMES, "acronyms": things.ACRONYM_COMPOUNDS, "fixed_things": things.FIXED_THINGS,
         "quoted_signs": things.QUOTED_SIGNS, "word_compounds": word_compounds.WORD_COMPOUNDS,
         "journal_authors": cited_works.JOURNAL_AUTHORS, "document_authors": cited_works.DOCUMENT_AUTHORS,
         "commentary_names": cited_works.COMMENTARY_NAMES, "signed_judges": signed_judges.SIGNED_JUDGES,
         "hyphenated_companies": parts.HYPHENATED_COMPANIES,
         "unknown_first": parts.UNKNOWN_FIRST_NAMES,
         "subjects": subject_names.SUBJECT_NAMES}

# per court's features (by id): its name-part pairs and its rows of common nouns after an article
_PAIRS: dict[tuple[int, bool, bool, bool], tuple] = {}
_NOUNS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}
_PLACES: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}
_HYPHENATED: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def name_part_pairs(court: sm.CourtFeatures) -> np.ndarray:
    """``[first row, second row]`` of each two neighbouring candidates of a document that may be
    parts of one name (:func:`rulings_anon.analyzer.name_parts.adjacent_pairs`); computed once per court."""
    key = (id(court), RULES["companies"], RULES["word_surnames"], RULES["unknown_first"])
    if key not in _PAIRS:
        rows, column = court.rows, sf.COLUMN
        first = np.arange(len(court.words) - 1)
        second = first + 1
        near = _follows(court)[first]
        near &= (rows[first, column["period_after"]] == 0) & (rows[second, column["sentence_start"]] == 0)
        near &= (rows[second, column["in_list"]] == 0) & (rows[second, column["quoted"]] == 0)
        near &= _joined(court)[first]
        is_part = np.fromiter((parts.name_part(w) for w in court.words), bool, len(court.words))
        is_given = np.fromiter((parts.given(w) for w in court.words), bool, len(court.words))
        names = near & is_part[first] & is_part[second] & (is_given[first] | is_given[second])
        if RULES["word_surnames"]:  # "Thomas Sommer": a first name before a surname that is a word
            keys = court.lookup_keys  # "Frau Anna Taucher": after a salutation or a role any capitalized word
            words = court.words  # and "des Angeklagten Teuta Denk": a first name nothing knows
            names |= near & np.fromiter(
                ((is_part[a] and parts.first_then_surname(words[a], words[a + 1]))
                 or ((is_part[a] or (RULES["unknown_first"] and parts.unknown_first_name(words[a])))
                     and parts.addressed_name(words[a], words[a + 1], keys[a][0], keys[a][1]))
                 for a in first.tolist()), bool, len(first))
        company, takes = np.zeros((0, 2), int), np.zeros(len(court.words), bool)
        if RULES["companies"] and len(first):
            members = np.fromiter((parts.company_word(w) for w in court.words), bool, len(court.words))
            joined = np.append(near, False) & members
            before_form = (rows[:, column["next_legal_form"]] > 0) & _joined(court)
            company = parts.run_pairs(parts.company_runs(members, before_form, joined), joined)
            takes = np.fromiter((parts.takes_company_flag(w) for w in court.words), bool, len(court.words))
        _PAIRS[key] = (court, np.stack([first[names], second[names]], axis=1), company, takes)
    return _PAIRS[key][1]


def person_part_rows(court: sm.CourtFeatures) -> np.ndarray:
    """Per row: whether it is one of a person's name's pairs (:func:`name_part_pairs`), whose
    word consistency spreads once a name's part flagged it."""
    out = np.zeros(len(court.words), bool)
    out[name_part_pairs(court).ravel()] = True
    if RULES["coordinated"]:  # and each a link joins to a flagged name's part
        out[coordinated_pairs(court)[:, 0]] = True
    return out


def company_pairs(court: sm.CourtFeatures) -> tuple[np.ndarray, np.ndarray]:
    """Every two rows of one company's name (:func:`rulings_anon.analyzer.name_parts.run_pairs`) and
    which rows take a company's flag; computed with :func:`name_part_pairs`."""
    name_part_pairs(court)
    _, _, company, takes = _PAIRS[(id(court), RULES["companies"], RULES["word_surnames"], RULES["unknown_first"])]
    return company, takes


def place_pairs(court: sm.CourtFeatures) -> np.ndarray:
    """``[first row, last row]`` of every two neighbouring candidates of one place's name
    (:func:`rulings_anon.analyzer.name_parts.place_link`, ``place_adjective``), the words between
    read from the last's context keys; computed once per court."""
    if id(court) not in _PLACES:
        rows, column, keys = court.rows, sf.COLUMN, court.lookup_keys
        first = np.arange(len(court.words) - 1)
        gap = court.elements[first + 1] - court.elements[first] - 1
        near = (court.documents[first] == court.documents[first + 1]) & (gap <= 2)
        near &= ((rows[first, column["period_after"]] == 0) | (gap == 0)) & (rows[first + 1, column["sentence_start"]] == 0)
        near &= (rows[first + 1, column["in_list"]] == 0) & (rows[first + 1, column["quoted"]] == 0)
        near &= _joined(court)[first]  # to the particle after it where there is one
        found = []
        for a in first[near].tolist():
            between = [keys[a + 1][1], keys[a + 1][0]][2 - gap[a]:]
            if parts.place_link(court.words[a], keys[a][0], between, court.words[a + 1]):
                found.append((a, a + 1))
                b = a + 2
                if gap[a] and parts.place_adjective(court.words[a + 1]) and _follows(court)[a + 1] \
                        and rows[a + 1, column["period_after"]] == 0 and rows[b, column["sentence_start"]] == 0:
                    found.append((a + 1, b))
        _PLACES[id(court)] = (court, np.array(found, int).reshape(-1, 2))
    return _PLACES[id(court)][1]


def with_name_parts(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with each name part beside a flagged one (at ``threshold``) flagged too,
    and each named institution ("Kitzler-Klinik") and company's one-word name ("der Christen GmbH"),
    where no rule made it public (probability 0)."""
    pairs = name_part_pairs(court)
    flagged, open_ = probabilities >= threshold, probabilities > 0
    out = probabilities
    institutions = _institutions(court)
    institutions = institutions[open_[institutions] & ~flagged[institutions]]
    if len(institutions):
        out = probabilities.copy()
        out[institutions] = threshold
        flagged = out >= threshold
    if RULES["full_names"] and len(pairs):
        full = pairs[_full(court, pairs)]
        full = full[open_[full[:, 0]] & open_[full[:, 1]]].ravel()
        if len(full):
            out = out.copy() if out is probabilities else out
            out[full] = np.maximum(out[full], threshold)
            flagged = out >= threshold
    company, takes = company_pairs(court)
    if RULES["places"]:
        pairs = np.concatenate([pairs, place_pairs(court)])
    added = parts.name_and_company_flags(pairs, company, flagged, open_, lambda: takes)
    if not len(added):
        return out
    out = out.copy() if out is probabilities else out
    out[added] = threshold
    return out


def bare_rows(court: sm.CourtFeatures) -> np.ndarray:
    """Per row: whether it stands as a name stands (:func:`rulings_anon.analyzer.name_parts.
    bare_mention`): ``determiner_before`` not set, no legal form after it (``next_legal_form``), the
    next context key no number."""
    rows, column = court.rows, sf.COLUMN
    return (rows[:, column["determiner_before"]] != 1) & (rows[:, column["next_legal_form"]] == 0) & np.array(
        [not (keys[2] or "")[:1].isdigit() for keys in court.lookup_keys], bool)


def _linked(court: sm.CourtFeatures, k: int):
    """``(partner, first, last)`` for each candidate a link ("und", "oder", "sowie") joins to row
    ``k``: the candidate two elements before or after it in its document, the link read from the
    context key before the later of the two (``first`` and ``last``: the two rows in text order)."""
    for partner, first, last in ((k - 1, k - 1, k), (k + 1, k, k + 1)):
        if 0 <= partner < len(court.words) and court.documents[partner] == court.documents[k] \
                and court.elements[last] == court.elements[first] + 2 and court.lookup_keys[last][0] in parts.LINKS:
            yield partner, first, last


_COORDINATED: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def coordinated_pairs(court: sm.CourtFeatures) -> np.ndarray:
    """``[row, partner row]`` of each candidate that a link ("und", "oder", "sowie") joins to the
    candidate two elements before or after it, and that is a person's name where that one is
    flagged (:func:`rulings_anon.analyzer.name_parts.coordinated`): the link read from the context
    keys, a line break from ``sentence_start``, a capitalized word before from ``prev_cap``,
    punctuation after the first from ``period_after`` (an initial's period kept; a comma not seen),
    a bare mention from :func:`bare_rows`, the ruling's determiners from ``doc_determiner``;
    computed once per court."""
    if id(court) not in _COORDINATED:
        rows, column, words = court.rows, sf.COLUMN, court.words
        bare = bare_rows(court)
        found = []
        for k in range(len(words)):
            if not bare[k] or not words[k][:1].isupper():
                continue
            noun_in_ruling = bool(rows[k, column["doc_determiner"]] > 0)
            for partner, first, last in _linked(court, k):
                if rows[first, column["period_after"]] > 0 and rows[first, column["initial"]] == 0 \
                        or rows[last, column["sentence_start"]] > 0 or partner > k and rows[k, column["prev_cap"]] > 0:
                    continue
                if parts.coordinated(words[k], words[partner], noun_in_ruling):
                    found.append((k, partner))
        _COORDINATED[id(court)] = (court, np.array(found, int).reshape(-1, 2))
    return _COORDINATED[id(court)][1]


def with_coordinated(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with each candidate a link joins to a flagged name's part
    (:func:`coordinated_pairs`) flagged at ``threshold`` where no rule made it public."""
    pairs = coordinated_pairs(court)
    if not len(pairs):
        return probabilities
    flagged = probabilities >= threshold
    hit = pairs[flagged[pairs[:, 1]] & ~flagged[pairs[:, 0]] & (probabilities[pairs[:, 0]] > 0), 0]
    if not len(hit):
        return probabilities
    out = probabilities.copy()
    out[hit] = threshold
    return out


_INSTITUTIONS: dict[tuple[int, bool, bool], tuple[sm.CourtFeatures, np.ndarray]] = {}


def _institutions(court: sm.CourtFeatures) -> np.ndarray:
    """The rows of ``court`` that are a named institution or a company's one-word name
    (:func:`rulings_anon.analyzer.name_parts.named_institution`, ``single_company_name``: the legal
    form read from ``next_legal_form``, a bracket before it not seen; under the companies' rule);
    computed once per court."""
    key = (id(court), RULES["companies"], RULES["districts"])
    if key not in _INSTITUTIONS:
        rows, column, words = court.rows, sf.COLUMN, court.words
        before_form = (rows[:, column["next_legal_form"]] > 0) & (rows[:, column["period_after"]] == 0) & _joined(court)
        single = []
        for k in range(len(words) if parts.SINGLE_COMPANY_NAMES and RULES["companies"] else 0):
            if not parts.single_company_name(words[k], court.lookup_keys[k][0]):
                continue
            j = k  # past compounds' first parts ("die Trieben Dienstleistungs GmbH")
            while not before_form[j] and _follows(court)[j] and rows[j, column["period_after"]] == 0 \
                    and _joined(court)[j] and parts.linking_s(words[j + 1]):
                j += 1
            if before_form[j]:
                single.append(k)
        districts = parts.town_districts(court.words, lambda k: court.lookup_keys[k][0]) if RULES["districts"] \
            else np.zeros(0, int)
        found = np.union1d(parts.named_institutions(court.words), single)
        _INSTITUTIONS[key] = (court, np.union1d(found, districts).astype(int))
    return _INSTITUTIONS[key][1]


_FULL: dict[tuple[int, bool, bool, bool], tuple[sm.CourtFeatures, np.ndarray]] = {}


def _full(court: sm.CourtFeatures, pairs: np.ndarray) -> np.ndarray:
    # the pairs name_part_pairs gives under the rules
    key = (id(court), RULES["companies"], RULES["word_surnames"], RULES["unknown_first"])
    if key not in _FULL:
        # no full name after a judge's role, a court or an office (name_parts.after_office), read
        # from the first word's features
        rows, column = court.rows, sf.COLUMN
        office = (rows[pairs[:, 0], column["judge_before"]] > 0) | (rows[pairs[:, 0], column["office_before"]] > 0) \
            | (rows[pairs[:, 0], column["court_before"]] > 0) if len(pairs) else np.zeros(0, bool)
        before = [court.lookup_keys[a][0] for a in pairs[:, 0].tolist()]
        before_previous = [court.lookup_keys[a][1] for a in pairs[:, 0].tolist()]
        _FULL[key] = (court, parts.full_names(pairs, court.words, before, RULES["word_surnames"], before_previous,
                                              RULES["unknown_first"]) & ~office)
    return _FULL[key][1]


_FOLLOWS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def _follows(court: sm.CourtFeatures) -> np.ndarray:
    """Per row: whether the next row is the next element of the same document (the last row: no);
    computed once per court."""
    if id(court) not in _FOLLOWS:
        documents, elements = court.documents, court.elements
        follows = np.zeros(len(court.words), bool)
        follows[:-1] = (documents[1:] == documents[:-1]) & (elements[1:] == elements[:-1] + 1)
        _FOLLOWS[id(court)] = (court, follows)
    return _FOLLOWS[id(court)][1]


def _joined(court: sm.CourtFeatures) -> np.ndarray:
    """``court.joined``, or every candidate joined to the next where the features keep none (made
    before they did)."""
    return court.joined if court.joined is not None else np.ones(len(court.words), bool)


_ELIDED: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}
# the words after an elided part, as context keys ("bzw.", "/")
_AFTER_ELIDED_KEYS = frozenset(w.lower() for w in AFTER_ELIDED)


def without_elided(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` with 0 for a compound's elided part (:func:`rulings_anon.analyzer.name_parts.
    without_elided`), read from the word and the next context key: before "und", "oder", ... or
    before the list's next elided part ("Sonn-, Feiertags- und"); a bracket around it is not seen."""
    if id(court) not in _ELIDED:
        elided = np.fromiter((len(w) >= 3 and w.endswith("-") and w[:1].isupper() and keys[2] is not None
                              and (keys[2] in _AFTER_ELIDED_KEYS or keys[2].endswith("-"))
                              for w, keys in zip(court.words, court.lookup_keys, strict=True)),
                             bool, len(court.words))
        _ELIDED[id(court)] = (court, elided)
    return _times(probabilities, _ELIDED[id(court)][1], 0.0)


_LISTED: dict[tuple[int, bool], tuple[sm.CourtFeatures, np.ndarray]] = {}


def without_listed_nouns(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.name_parts.LISTED_NOUN_WEIGHT` for each
    common noun a link or a comma joins to another (:func:`rulings_anon.analyzer.name_parts.
    without_listed_nouns`): the link read from the context keys, a line break from
    ``sentence_start``, punctuation after the first from ``period_after`` (a comma not seen), the
    comma from the ``comma`` mark; computed once per court."""
    if not RULES["listed_nouns"]:
        return probabilities
    key = (id(court), RULES["comma_lists"])
    if key not in _LISTED:
        rows, column, words = court.rows, sf.COLUMN, court.words
        listed = np.zeros(len(words), bool)
        for k in range(len(words)):
            if not parts.thing_noun(words[k]):
                continue
            for partner, first, last in _linked(court, k):
                if rows[first, column["period_after"]] > 0 or rows[last, column["sentence_start"]] > 0:
                    continue
                if parts.listed_with_noun(words[k], words[partner]):
                    listed[k] = True
            if RULES["comma_lists"] and "comma" in court.marks:
                for partner in _comma_partners(court, k):
                    listed[k] |= parts.listed_with_noun(words[k], words[partner])
        _LISTED[key] = (court, listed)
    return _times(probabilities, _LISTED[key][1], parts.LISTED_NOUN_WEIGHT)


def _comma_partners(court: sm.CourtFeatures, k: int) -> list[int]:
    """The rows a comma joins to row ``k`` as two items of a list a link closes: the next row where
    ``k``'s element ends with it, the row before where that one's does (the ``comma`` mark; the
    list's end from :func:`_comma_lists`)."""
    comma, follows = court.marks["comma"], _follows(court)
    out = []
    if not _comma_lists(court)[k]:
        return out
    if comma[k] and follows[k]:
        out.append(k + 1)
    if k > 0 and comma[k - 1] and follows[k - 1]:
        out.append(k - 1)
    return out


_COMMA_LISTS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def _comma_lists(court: sm.CourtFeatures) -> np.ndarray:
    """Per row: whether it is an item of a list that commas join and a link closes, the link right
    after the last item, no period there (the last item's key after and ``period_after``), at most
    :data:`rulings_anon.analyzer.name_parts.MAX_COMMA_ITEMS` items back; computed once per court."""
    if id(court) not in _COMMA_LISTS:
        comma, follows = court.marks["comma"], _follows(court)
        period = court.rows[:, sf.COLUMN["period_after"]]
        closed = np.zeros(len(court.words), bool)
        for m, keys in enumerate(court.lookup_keys):
            if keys[2] not in parts.LINKS or comma[m] or period[m] > 0:
                continue
            j = m
            while j > 0 and m - j < parts.MAX_COMMA_ITEMS and comma[j - 1] and follows[j - 1]:
                closed[j - 1] = closed[j] = True
                j -= 1
        _COMMA_LISTS[id(court)] = (court, closed)
    return _COMMA_LISTS[id(court)][1]


_THINGS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def without_thing_names(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.thing_names.THING_WEIGHT` for every
    row of a word a cue noun precedes in its document (:func:`rulings_anon.analyzer.thing_names.
    without_thing_names`): the noun read from the context key before, a gap from ``joined`` and
    ``period_after`` of the noun's row (a comma not seen); computed once per court."""
    if not RULES["things"]:
        return probabilities
    if id(court) not in _THINGS:
        rows, column, words, documents = court.rows, sf.COLUMN, court.words, court.documents
        joined = _joined(court)
        names = set()
        for k, keys in enumerate(court.lookup_keys):
            if not things.cue_noun(keys[0]) or not things.thing_word(words[k]):
                continue
            noun = k - 1  # the cue noun's own row, where it is the element before
            if noun >= 0 and _follows(court)[noun] and (not joined[noun] or rows[noun, column["period_after"]] > 0):
                continue
            names.add((int(documents[k]), words[k]))
        hit = np.fromiter(((int(d), w) in names for d, w in zip(documents, words, strict=True)), bool, len(words)) \
            if names else np.zeros(len(words), bool)
        _THINGS[id(court)] = (court, hit)
    return _times(probabilities, _THINGS[id(court)][1], things.THING_WEIGHT)


_ACRONYMS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def without_acronym_compounds(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.thing_names.THING_WEIGHT` for every row
    of an acronym's compound that no legal form follows (:func:`rulings_anon.analyzer.thing_names.
    without_acronym_compounds`); computed once per court."""
    if not RULES["acronyms"]:
        return probabilities
    if id(court) not in _ACRONYMS:
        no_form = court.rows[:, sf.COLUMN["next_legal_form"]] == 0
        hit = np.fromiter(("-" in w and things.acronym_compound(w) for w in court.words), bool, len(court.words))
        _ACRONYMS[id(court)] = (court, hit & no_form)
    return _times(probabilities, _ACRONYMS[id(court)][1], things.THING_WEIGHT)


_WORD_COMPOUNDS: dict[int, tuple[sm.CourtFeatures, np.ndarray]] = {}


def without_word_compounds(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.word_compounds.COMPOUND_WEIGHT` for every
    row of a compound of two German words that no legal form follows and no salutation, title or
    role precedes (:func:`rulings_anon.analyzer.word_compounds.without_word_compounds`); computed
    once per court."""
    if not RULES["word_compounds"]:
        return probabilities
    if id(court) not in _WORD_COMPOUNDS:
        rows = court.rows
        free = ((rows[:, sf.COLUMN["next_legal_form"]] == 0) & (rows[:, sf.COLUMN["salutation_before"]] == 0)
                & (rows[:, sf.COLUMN["title_before"]] == 0))
        hit = np.fromiter((len(w) >= word_compounds.MIN_LENGTH and word_compounds.word_compound(sf.core_word(w))
                           for w in court.words),
                          bool, len(court.words))
        _WORD_COMPOUNDS[id(court)] = (court, hit & free)
    return _times(probabilities, _WORD_COMPOUNDS[id(court)][1], word_compounds.COMPOUND_WEIGHT)


def without_fixed_things(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.thing_names.THING_WEIGHT` for every row
    of a fixed phrase's word or a chemical formula (the ``fixed_thing`` mark;
    :func:`rulings_anon.analyzer.thing_names.without_fixed_things`)."""
    if not RULES["fixed_things"] or "fixed_thing" not in court.marks:
        return probabilities
    return _times(probabilities, court.marks["fixed_thing"], things.THING_WEIGHT)


def without_quoted_signs(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.thing_names.THING_WEIGHT` for every row
    of a sign a ruling about marks quotes (the ``quoted_sign`` mark;
    :func:`rulings_anon.analyzer.thing_names.without_quoted_signs`)."""
    if not RULES["quoted_signs"] or "quoted_sign" not in court.marks:
        return probabilities
    return _times(probabilities, court.marks["quoted_sign"], things.THING_WEIGHT)


def without_journal_authors(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.cited_works.CITED_AUTHOR_WEIGHT` for
    every row of an author cited before a journal written out (the ``journal_author`` mark;
    :func:`rulings_anon.analyzer.cited_works.without_journal_authors`)."""
    if not RULES["journal_authors"] or "journal_author" not in court.marks:
        return probabilities
    return _times(probabilities, court.marks["journal_author"], cited_works.CITED_AUTHOR_WEIGHT)


def without_document_authors(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.cited_works.CITED_AUTHOR_WEIGHT` for
    every row of a cited document's first author (the ``document_author`` mark;
    :func:`rulings_anon.analyzer.cited_works.without_document_authors`)."""
    if not RULES["document_authors"] or "document_author" not in court.marks:
        return probabilities
    return _times(probabilities, court.marks["document_author"], cited_works.CITED_AUTHOR_WEIGHT)


def without_commentary_names(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.cited_works.CITED_AUTHOR_WEIGHT` for
    every row of a scholar of a commentary or a tribute cited without commas (the
    ``commentary_name`` mark; :func:`rulings_anon.analyzer.cited_works.without_commentary_names`)."""
    if not RULES["commentary_names"] or "commentary_name" not in court.marks:
        return probabilities
    return _times(probabilities, court.marks["commentary_name"], cited_works.CITED_AUTHOR_WEIGHT)


def without_signed_judges(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` times :data:`rulings_anon.analyzer.signed_judges.SIGNED_JUDGE_WEIGHT` for
    every row of a judge named after the role's abbreviation (the ``judge_abbreviation`` mark;
    :func:`rulings_anon.analyzer.signed_judges.without_signed_judges`)."""
    if not RULES["signed_judges"] or "judge_abbreviation" not in court.marks:
        return probabilities
    return _times(probabilities, court.marks["judge_abbreviation"], signed_judges.SIGNED_JUDGE_WEIGHT)


def with_subject_names(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with every row of a surname standing bare as a clause's subject (the
    ``subject`` mark and :func:`rulings_anon.analyzer.subject_names.subject_word`;
    :func:`rulings_anon.analyzer.subject_names.with_subject_names`) raised to ``threshold`` where it
    is below it and above 0."""
    if not RULES["subjects"] or "subject" not in court.marks:
        return probabilities
    rows = court.marks["subject"] & (probabilities > 0) & (probabilities < threshold)
    rows[rows] = [subject_names.subject_word(court.words[k]) for k in np.flatnonzero(rows)]
    return _raised(probabilities, rows, threshold)


def with_hyphenated_companies(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with every row of a company's name hyphenated to a legal form's abbreviation
    (:func:`rulings_anon.analyzer.name_parts.hyphenated_company`: "Danninger-KAG") raised to
    ``threshold`` where it is below it and above 0."""
    if not RULES["hyphenated_companies"]:
        return probabilities
    if id(court) not in _HYPHENATED:
        _HYPHENATED[id(court)] = (court, np.fromiter(("-" in w and parts.hyphenated_company(w) for w in court.words),
                                                     bool, len(court.words)))
    return _raised(probabilities, _HYPHENATED[id(court)][1], threshold)


def without_nouns(court: sm.CourtFeatures, probabilities: np.ndarray) -> np.ndarray:
    """``probabilities`` with 0 for the common nouns after an article
    (:func:`rulings_anon.analyzer.name_parts.common_noun_after_article`)."""
    if id(court) not in _NOUNS:
        next_cap = court.rows[:, sf.COLUMN["next_cap"]] > 0
        nouns = np.fromiter((parts.common_noun_after_article(w, keys[0], "X" if cap else "")
                             for w, keys, cap in zip(court.words, court.lookup_keys, next_cap, strict=True)),
                            bool, len(court.words))
        _NOUNS[id(court)] = (court, nouns)
    return _times(probabilities, _NOUNS[id(court)][1], 0.0)


def _raised(probabilities: np.ndarray, rows: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with those of ``rows`` (a mask) above 0 and under ``threshold`` set to it;
    the same array where none is."""
    rows = rows & (probabilities > 0) & (probabilities < threshold)
    if not rows.any():
        return probabilities
    out = probabilities.copy()
    out[rows] = threshold
    return out


def _times(probabilities: np.ndarray, rows: np.ndarray, factor: float) -> np.ndarray:
    """``probabilities`` with those of ``rows`` (a mask) above 0 times ``factor``; the same array
    where none is."""
    rows = rows & (probabilities > 0)
    if not rows.any():
        return probabilities
    out = probabilities.copy()
    out[rows] = probabilities[rows] * factor
    return out


_ROLES: dict[tuple[int, bool, bool, bool], tuple[sm.CourtFeatures, np.ndarray]] = {}


def with_role_names(court: sm.CourtFeatures, probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """``probabilities`` with each word a role or an institution's kind names (:func:`rulings_anon.analyzer.role_names.nameable`)
    raised to ``threshold`` where it is below it and above 0: the role read from the context key
    before, a line break from ``sentence_start`` (not after a role that ends with its period, "geb.
    Burger", whose next word the features start a sentence with), a period or a comma after the
    role from its row (``period_after``, the ``comma`` mark: "Steuerberater, Steuerbevollmächtigten"
    names nobody), the next word from the next row, the ruling's determiners from
    ``doc_determiner``."""
    key = (id(court), RULES["institutions"], RULES["party_roles"], RULES["relatives"])
    if key not in _ROLES:
        roles, words, column = role_names.role_keys(RULES["institutions"]), court.words, sf.COLUMN["doc_determiner"]
        parties = role_names.cue_keys("party_roles") if RULES["party_roles"] else frozenset()
        relatives = role_names.cue_keys("relatives") if RULES["relatives"] else frozenset()
        starts = court.rows[:, sf.COLUMN["sentence_start"]] > 0  # after a line break too
        period = court.rows[:, sf.COLUMN["period_after"]]
        comma = court.marks.get("comma", np.zeros(len(words), bool))
        follows = _follows(court)
        named = []
        for k, keys in enumerate(court.lookup_keys):
            if keys[0] not in roles and not (keys[0] in parties and role_names.party_nameable(words[k])) \
                    and not (keys[0] in relatives and role_names.relative_nameable(words[k])) \
                    and not role_names.prosecuted_separately(keys[0], keys[1], words[k]) \
                    or starts[k] and not keys[0].endswith("."):  # "geb. Burger": the role's own period
                continue
            if k > 0 and follows[k - 1] and (comma[k - 1] or period[k - 1] > 0):
                continue  # the role's own row: punctuation after it
            next_noun = follows[k] and period[k] == 0 and role_names.next_noun(words[k + 1])
            if role_names.nameable(words[k], keys[1], next_noun, bool(court.rows[k, column] > 0)):
                named.append(k)
        _ROLES[key] = (court, np.array(named, int))
    rows = np.zeros(len(probabilities), bool)
    rows[_ROLES[key][1]] = True
    return _raised(probabilities, rows, threshold)
