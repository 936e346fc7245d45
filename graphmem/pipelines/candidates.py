"""What an extractor proposes: a fact read from one episode, not yet asserted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Candidate:
    episode_id: str
    subject: str  # an entity name (the speaker's name for first-person statements)
    predicate: str  # snake_case, e.g. works_at
    object: str  # an entity name, or the literal's text when object_is_entity is False
    object_is_entity: bool
    confidence: float
    quote: str  # the sentence it was read from (never logged)
    valid_from: datetime | None = None  # when the text says it became true ("in August")
    # "Actually, I live in Porto, not Lisbon": the believed value was wrong all along, so it
    # is replaced outright (same validity), unlike a change in the world ("I moved to Porto").
    correction: bool = False
    corrects_fact_id: str | None = None  # the believed fact it corrects, when the model said
