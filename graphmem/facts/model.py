"""The vocabulary of facts shared by storage, resolution and the API: sources, statuses,
and what an assertion did."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from graphmem.core.pagination import time_cursor
from graphmem.core.timeutil import maybe_datetime, parse_stored_datetime
from graphmem.db.database import Row


class Source(StrEnum):
    """Who said it, highest priority first (conflict resolution ranks by this order)."""

    USER_CORRECTION = "user_correction"
    USER_STATEMENT = "user_statement"
    AGENT_ASSERTION = "agent_assertion"
    EXTRACTION = "extraction"
    INFERENCE = "inference"
    IMPORT = "import"


# Who may not assert again what a user asked memory to forget: everyone but the user.
MACHINE_SOURCES = frozenset({Source.AGENT_ASSERTION, Source.EXTRACTION, Source.INFERENCE,
                             Source.IMPORT})


class FactStatus(StrEnum):
    """Where belief in a fact stands now (its world validity is separate: valid_from/to)."""

    ACTIVE = "active"
    DISPUTED = "disputed"
    SUPERSEDED = "superseded"
    RETRACTED = "retracted"


CURRENT = (FactStatus.ACTIVE, FactStatus.DISPUTED)


class Outcome(StrEnum):
    CREATED = "created"
    EVIDENCE_ADDED = "evidence_added"  # the same current fact existed: no duplicate
    DISPUTED = "disputed"  # stored; the policy could not decide against a believed value
    SUPERSEDED = "superseded"  # stored as history: a stronger believed fact covers it
    FORGOTTEN = "forgotten"  # not stored: the user asked memory to forget this fact


@dataclass(frozen=True)
class Fact:
    id: str
    namespace: str
    subject: str
    predicate: str
    object: str
    object_kind: str  # "entity" or a literal datatype
    text: str
    confidence: float
    source: Source
    status: FactStatus
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    retracted_at: datetime | None
    asserted_by: str | None
    reason: str | None  # why belief in it ended
    ended_by: str | None = None  # who ended it (retraction, correction, resolution)
    stated_valid_from: datetime | None = None  # the validity as asserted, before resolution
    stated_valid_to: datetime | None = None
    pinned_at: datetime | None = None  # "always remember": exempt from pruning and retention
    pinned_by: str | None = None
    forgotten_at: datetime | None = None  # "forget this": machines may not assert it again
    last_used_at: datetime | None = None  # when an answer last returned it (usage log)

    @classmethod
    def from_row(cls, row: Row) -> Fact:
        return cls(
            id=row["id"], namespace=row["ns"], subject=row["subject"],
            predicate=row["predicate"], object=row["object"], object_kind=row["object_kind"],
            text=row["text"], confidence=row["confidence"], source=Source(row["source"]),
            status=FactStatus(row["status"]), valid_from=maybe_datetime(row.get("valid_from")),
            valid_to=maybe_datetime(row.get("valid_to")),
            recorded_at=parse_stored_datetime(row["recorded_at"]),
            retracted_at=maybe_datetime(row.get("retracted_at")),
            asserted_by=row.get("asserted_by"), reason=row.get("reason"),
            ended_by=row.get("ended_by"),
            stated_valid_from=maybe_datetime(row.get("stated_valid_from")),
            stated_valid_to=maybe_datetime(row.get("stated_valid_to")),
            pinned_at=maybe_datetime(row.get("pinned_at")), pinned_by=row.get("pinned_by"),
            forgotten_at=maybe_datetime(row.get("forgotten_at")),
            last_used_at=maybe_datetime(row.get("last_used_at")))

    @property
    def cursor(self) -> str:
        return time_cursor(self.recorded_at, self.id)


# A predicate reads as a verb phrase when it ends in a preposition ("works_at",
# "allergic_to"), begins with a verb that joins ("is_a", "has_pet"), or its first word is a
# verb form: third person ("likes", not "hobbies"), past ("married") or "-ing" ("visiting").
_PREPOSITIONS = frozenset({"at", "in", "to", "of", "for", "with", "from", "on", "by", "as",
                           "about", "into", "near", "after", "before", "like", "than"})
_JOINING = frozenset({"is", "was", "are", "were", "be", "been", "has", "had", "have", "can",
                      "does", "did", "do", "will", "would", "should", "born", "knows"})


# A predicate that names a state reads with "is" ("Sam is allergic to peanuts"): it starts
# with an adjective (told by its ending: "allergic", "afraid", "responsible", "working") or
# with one of the participles that name states ("-ed" alone cannot tell "married to" from
# "moved to").
_STATE_ENDINGS = ("ic", "aid", "ful", "ous", "ive", "able", "ible", "ing")
_STATE_PARTICIPLES = frozenset({
    "married", "engaged", "related", "interested", "involved", "located", "based", "employed",
    "obsessed", "scared", "excited", "tired", "known", "devoted", "addicted", "attached"})


def sentence(subject: str, predicate: str, object_text: str) -> str:
    """A fact as people read it: "Sam works at Acme" when the predicate is a verb phrase,
    "Sam is allergic to peanuts" when it names a state, "Sam was born in Porto", and "Sam's
    sister is Mia" or "Sam's age is 34" when it names a relation or an attribute."""
    words = predicate.split("_")
    if words[0] == "born":
        return f"{subject} was {' '.join(words)} {object_text}"
    if _reads_as_state(words):
        return f"{subject} is {' '.join(words)} {object_text}"
    if _reads_as_verb(words):
        return f"{subject} {' '.join(words)} {object_text}"
    verb = "are" if words[-1].endswith("ies") else "is"  # "Sam's hobbies are climbing"
    return f"{subject}'s {' '.join(words)} {verb} {object_text}"


def _reads_as_state(words: list[str]) -> bool:
    """"allergic_to", "married_to", "working_at", "visiting"; not "married" alone (a verb:
    "Sam married Tom") nor "works_at"."""
    if len(words) == 1:
        return words[0].endswith("ing")
    return words[-1] in _PREPOSITIONS and (words[0].endswith(_STATE_ENDINGS)
                                           or words[0] in _STATE_PARTICIPLES)


def _reads_as_verb(words: list[str]) -> bool:
    first = words[0]
    return (words[-1] in _PREPOSITIONS or first in _JOINING or first.endswith(("ed", "ing"))
            or (first.endswith("s") and not first.endswith(("ss", "ies", "us", "is"))))


def literal_text(datatype: str | None, key: str) -> str:
    """A literal value as people read it: an integral number without ".0" (``Sam's age is
    34``, not ``34.0``). Its key (``repr`` of the float) is left as stored: it is its identity."""
    if datatype == "number":
        number = float(key)
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
    return key
