from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Action, EpisodeKind, Sensitivity, Source


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


class EpisodeWhere(BaseModel):
    """Filters for `episodes`; all are optional and combine with AND."""

    session_id: Optional[str] = Field(alias="sessionId", default=None)
    "Only this session."
    occurred_from: Optional[Any] = Field(alias="occurredFrom", default=None)
    "Occurred at or after."
    occurred_to: Optional[Any] = Field(alias="occurredTo", default=None)
    "Occurred before."
    kinds: Optional[list[EpisodeKind]] = None
    "Any of these."
    actor: Optional[str] = None
    "Exactly this actor."
    text_contains: Optional[str] = Field(alias="textContains", default=None)
    "Case-insensitive substring of the content."


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
    confidence: float = 1
    "0..1."
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


class FactWhere(BaseModel):
    """Filters for `facts`; all optional, combined with AND."""

    subject: Optional[str] = None
    "Subject name or alias."
    predicate: Optional[str] = None
    "e.g. works_at."
    object_: Optional[str] = Field(alias="object", default=None)
    "Object name or literal."
    source: Optional[Source] = None
    "Only this source."
    min_confidence: Optional[float] = Field(alias="minConfidence", default=None)
    "At least this confidence."


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


class RetentionPolicyInput(BaseModel):
    """A retention policy; one per (kind, sensitivity) pair."""

    max_age_days: float = Field(alias="maxAgeDays")
    "Keep episodes this many days."
    action: Action
    "delete or redact."
    kind: Optional[EpisodeKind] = None
    "null: any kind."
    sensitivity: Optional[Sensitivity] = None
    "null: any sensitivity (e.g. HEALTH for health data)."


class SummaryInput(BaseModel):
    """A summary to store, with exactly what it covers and cites."""

    text: str
    "The summary text."
    covers: list[str]
    "The episodes (ids or externalIds) or summaries (ids) it summarises (at least one)."
    cites: list[str] = Field(default_factory=lambda: [])
    "Ids of the facts it relies on."
    session_id: Optional[str] = Field(alias="sessionId", default=None)
    "Its session, if any."
    scope: str = "session"
    "session, user, day, …"
    level: int = 1
    "1 over episodes, 2 over summaries."
    producer: Optional[str] = None
    "Who wrote it."


FactInput.model_rebuild()
