from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import EpisodeKind, Sensitivity, Source


class EpisodeInput(BaseModel):
    """An episode to record. Give `externalId` to make retries safe."""

    content: str
    "The full content (never truncated)."
    kind: EpisodeKind
    "What it records."
    occurred_at: Any = Field(alias="occurredAt")
    "When it happened; must carry a timezone."
    external_id: Optional[str] = Field(alias="externalId", default=None)
    "Idempotency key: recording it again is a no-op."
    session_id: Optional[str] = Field(alias="sessionId", default=None)
    "Session to append to."
    actor: Optional[str] = None
    "Who produced it."
    metadata: Optional[Any] = None
    "A JSON object."
    importance: Optional[float] = None
    "0..1."
    sensitivity: Sensitivity = Sensitivity.PERSONAL
    "Sensitivity class."


class FactInput(BaseModel):
    """A fact to assert. Give `object` (an entity name) or `value` (a literal), not both."""

    subject: str
    "The subject entity's name (resolved exactly by normalised name or alias)."
    predicate: str
    "A lower-case word like `works_at`."
    object_: Optional[str] = Field(alias="object", default=None)
    "The object entity's name."
    value: Optional["LiteralInput"] = None
    "A literal object."
    confidence: Optional[float] = None
    "0..1. Left out: 1.0 for a new fact; restating a fact memory holds keeps its confidence (README: *Confidence*)."
    source: Source = Source.AGENT_ASSERTION
    "Who said it."
    valid_from: Optional[Any] = Field(alias="validFrom", default=None)
    "True from."
    valid_to: Optional[Any] = Field(alias="validTo", default=None)
    "True until."
    evidence: list[str] = Field(default_factory=lambda: [])
    "Episode ids or externalIds it was taken from."
    subject_type: Optional[str] = Field(alias="subjectType", default=None)
    "e.g. person."
    object_type: Optional[str] = Field(alias="objectType", default=None)
    "e.g. organisation."


class LiteralInput(BaseModel):
    """A typed literal object: set exactly one field."""

    string: Optional[str] = None
    "A free string."
    number: Optional[float] = None
    "A number."
    boolean: Optional[bool] = None
    "A boolean."
    date: Optional[Any] = None
    "A calendar date."


FactInput.model_rebuild()
