"""One document under review: its questions, the decisions so far, undo and the outputs.

Both the terminal dialogue (:mod:`interactive.dialogue`) and ``--auto`` (:mod:`interactive.auto`)
drive a :class:`DocumentSession`; it replays the decisions an earlier run saved, so a run that
was stopped resumes at the first undecided question with the same replacements.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulings_anon.document import Document, Span
from rulings_anon.placeholders.review_units import Unit, document_units, widen
from rulings_anon.replacement.operators import pseudonymize
from rulings_anon.replacement.surrogates import ReplacementTable, SurrogateGenerator, canonical_type
from rulings_anon.replacement.type_inference import infer_type

from .corrections import Correction, apply_corrections, find_corrections
from .store import Store


@dataclass(frozen=True)
class Suggestion:
    """What the tool proposes for a unit: the detector's verdict, a type and a replacement."""

    placeholder: bool
    type: str
    replacement: str | None


class DocumentSession:
    """The review of one document; every decision goes to the store at once."""

    def __init__(self, doc: Document, detector, store: Store, seed=0, by: str = "user", names: str = "all"):
        self.doc = doc
        self.store = store
        self.by = by
        store.check(doc.id, doc.text)
        self.elements, self.units = document_units(doc.text, detector)
        self._index_at = {e.start: e.index for e in self.elements}
        self.table = ReplacementTable(SurrogateGenerator(seed, names).for_document(doc.id))
        # decided units in the order decided: (unit, placeholder, type, replacement)
        self.decided: list[tuple[Unit, bool, str | None, str | None]] = []
        self._replay(store.decisions.get(doc.id, []))

    # -- state ------------------------------------------------------------------------------

    def _replay(self, records: list[dict]) -> None:
        """Rebuild decisions and the replacement table from saved records (one group per span)."""
        groups: dict[tuple, list[dict]] = {}
        for record in records:
            groups.setdefault(tuple(record["span"]), []).append(record)
        for (start, end), group in groups.items():
            indexes = [self._index_at[r["start"]] for r in group if r["start"] in self._index_at]
            if len(indexes) != len(group):
                raise ValueError(f"saved decisions of {self.doc.id!r} do not match its elements")
            unit = Unit(start, end, min(indexes), max(indexes), any(r.get("suggested") for r in group))
            first = group[0]
            if first["placeholder"]:
                value = self.table.replacement(self.doc.text[start:end], first["type"], self._before(start))
                if value != first["replacement"]:
                    self.table.set(self.doc.text[start:end], first["type"], first["replacement"])
            self.decided.append((unit, first["placeholder"], first.get("type"), first.get("replacement")))

    def _before(self, start: int) -> str:
        return self.doc.text[max(0, start - 60):start]

    def _is_done(self, unit: Unit) -> bool:
        return any(d.first <= unit.last and unit.first <= d.last for d, *_ in self.decided)

    def pending(self) -> list[Unit]:
        """The units still to decide, in document order."""
        return [u for u in self.units if not self._is_done(u)]

    def progress(self) -> dict:
        """Elements done (decided or skipped before the next question) and left, questions asked."""
        remaining = self.pending()
        done = remaining[0].first if remaining else len(self.elements)
        return {"elements_done": done, "elements_left": len(self.elements) - done,
                "questions_done": len(self.units) - len(remaining), "questions": len(self.units)}

    # -- decisions --------------------------------------------------------------------------

    def text_of(self, unit: Unit) -> str:
        return self.doc.text[unit.start:unit.end]

    def suggestion(self, unit: Unit, type: str | None = None) -> Suggestion:
        """The detector's verdict, the inferred (or given) type and, for a placeholder, its value."""
        kind = canonical_type(type) if type else infer_type(self.doc.text, unit.start, unit.end)
        value = None
        if unit.detected or type:
            value = self.table.replacement(self.text_of(unit), kind, self._before(unit.start))
        return Suggestion(unit.detected, kind, value)

    def regenerate(self, unit: Unit, type: str) -> str:
        return self.table.regenerate(self.text_of(unit), type, self._before(unit.start))

    def set_value(self, unit: Unit, type: str, value: str) -> None:
        self.table.set(self.text_of(unit), type, value)

    def widen(self, unit: Unit, by: int) -> Unit:
        return widen(unit, self.elements, by)

    def decide(self, unit: Unit, placeholder: bool, type: str | None = None, by: str | None = None) -> None:
        """Record the decision for ``unit`` (with the table's current value when a placeholder)."""
        kind = canonical_type(type) if placeholder else None
        value = self.table.replacement(self.text_of(unit), kind, self._before(unit.start)) if placeholder else None
        records = [{
            "id": self.doc.id, "element": e.text, "start": e.start, "end": e.end,
            "placeholder": placeholder, "type": kind, "span": [unit.start, unit.end],
            "text": self.text_of(unit), "replacement": value, "suggested": unit.detected,
            "by": by or self.by,
        } for e in self.elements[unit.first:unit.last + 1]]
        self.store.append_decisions(records)
        self.decided.append((unit, placeholder, kind, value))

    def undo(self) -> Unit | None:
        """Take back the last decision of this document; returns its unit (asked again next)."""
        if not self.store.remove_last_decision(self.doc.id):
            return None
        unit, *_ = self.decided.pop()
        return unit

    # -- corrections and outputs ------------------------------------------------------------

    def replaced(self) -> tuple[str, list[dict]]:
        """The pseudonymized text and its gold spans before corrections."""
        spans = [Span(u.start, u.end, type=t) for u, yes, t, _ in self.decided if yes]
        return pseudonymize(self.doc.text, spans, self.table.generator, self.table)

    def corrections(self, vocabulary) -> list[Correction]:
        """The corrections of the replaced text that no placeholder replacement overlaps."""
        text, spans = self.replaced()
        return find_corrections(text, vocabulary, [(s["start"], s["end"]) for s in spans])

    def pending_corrections(self, vocabulary) -> list[Correction]:
        seen = {(c["start"], c["end"], c["after"]) for c in self.store.corrections.get(self.doc.id, [])}
        return [c for c in self.corrections(vocabulary) if (c.start, c.end, c.after) not in seen]

    def decide_correction(self, correction: Correction, accepted: bool, by: str | None = None) -> None:
        self.store.append_correction({"id": self.doc.id, **correction.to_dict(), "accepted": accepted,
                                      "by": by or self.by})

    def finish(self) -> dict:
        """Build the gold record and replacement table of the finished document into the store."""
        text, spans = self.replaced()
        accepted = [Correction(c["start"], c["end"], c["before"], c["after"], c["reason"])
                    for c in self.store.corrections.get(self.doc.id, []) if c["accepted"]]
        text, spans = apply_corrections(text, spans, accepted)
        gold = {"id": self.doc.id, "text": text, "spans": spans}
        table, seen = [], set()
        for unit, yes, kind, _ in self.decided:
            key = (self.text_of(unit), kind)
            if yes and key not in seen:
                seen.add(key)
                table.append({"placeholder": key[0], "type": kind,
                              "replacement": self.table.replacement(key[0], kind)})
        self.store.set_result(self.doc.id, gold, table)
        return gold
