"""What the facade takes and gives: small pydantic models, snake_case in Python.

They validate GraphQL answers by their camelCase names (``objectKind`` fills ``object_kind``),
so a generated result converts with ``Fact.model_validate(generated.model_dump(by_alias=True))``.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


# A chat role (OpenAI's and Anthropic's words) or a graphmem episode kind, to the episode kind.
_KINDS = {
    "user": "USER_MESSAGE", "assistant": "AGENT_MESSAGE", "agent": "AGENT_MESSAGE",
    "system": "OBSERVATION", "tool": "TOOL_RESULT", "tool_call": "TOOL_CALL",
    "tool_result": "TOOL_RESULT", "observation": "OBSERVATION", "error": "ERROR",
    "document": "DOCUMENT", "user_message": "USER_MESSAGE", "agent_message": "AGENT_MESSAGE",
}


class Turn(_Model):
    """One conversation turn to record, e.g. ``Turn(role="user", content="I moved to Porto")``.

    ``role`` is a chat role (user, assistant, system, tool) or an episode kind (tool_call,
    observation, document…). ``external_id`` makes re-sending it a no-op; without one,
    ``record`` derives it from the turn's session, position, role, actor, content and time. To
    resume an upload in another process, give ``occurred_at`` (or ``external_id``): a turn
    without a time is stamped when ``record`` reads it.
    """

    content: str
    role: str = "user"
    actor: str | None = None
    occurred_at: datetime | None = None
    external_id: str | None = None
    session_id: str | None = None
    metadata: dict[str, Any] | None = None
    importance: float | None = None
    sensitivity: str | None = None

    @property
    def kind(self) -> str:
        role = self.role.strip().lower()
        if role not in _KINDS:
            raise ValueError(f"unknown role {self.role!r}: use one of {sorted(_KINDS)}")
        return _KINDS[role]

    def episode(self, position: int, session_id: str | None, now: datetime) -> dict[str, Any]:
        """The ``EpisodeInput`` this turn becomes (``position``: its place in the upload)."""
        session = self.session_id or session_id
        at = self.occurred_at or now
        if at.tzinfo is None:
            at = at.replace(tzinfo=UTC)
        actor = self.actor or self.role.strip().lower()
        episode: dict[str, Any] = {
            "content": self.content, "kind": self.kind, "occurredAt": at.isoformat(),
            "sessionId": session, "actor": actor,
            "externalId": self.external_id or _derived_id(
                session, position, self.kind, actor, self.content, at),
        }
        for key, value in (("metadata", self.metadata), ("importance", self.importance),
                           ("sensitivity", self.sensitivity and self.sensitivity.upper())):
            if value is not None:
                episode[key] = value
        return episode


def _derived_id(*parts: object) -> str:
    digest = hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()
    return f"gmc_{digest[:32]}"


class RecordResult(_Model):
    """What ``record`` did: new episodes, ones already stored, their ids in input order."""

    created: int = 0
    duplicates: int = 0
    episode_ids: list[str] = Field(default_factory=list)
    batches: int = 0


class Fact(_Model):
    """A subject–predicate–object statement and where it stands: ``recorded_at`` is when
    memory started believing it, ``retracted_at`` when that ended (superseded or retracted),
    ``ended_by`` the key whose write ended it and ``reason`` why."""

    id: str
    subject: str
    predicate: str
    object: str
    object_kind: str
    text: str
    confidence: float
    source: str
    status: str
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_at: datetime | None = None
    retracted_at: datetime | None = None
    asserted_by: str | None = None
    ended_by: str | None = None
    reason: str | None = None
    open_conflicts: list[str] = Field(default_factory=list)


class Remembered(_Model):
    """What ``remember`` did: ``outcome`` is CREATED, EVIDENCE_ADDED, DISPUTED or SUPERSEDED."""

    outcome: str
    fact: Fact

    @property
    def id(self) -> str:
        return self.fact.id


class Episode(_Model):
    """One stored turn (or tool call, observation, document)."""

    id: str
    external_id: str | None = None
    session_id: str | None = None
    seq: int = 0
    kind: str
    actor: str | None = None
    content: str
    occurred_at: datetime


class Entity(_Model):
    """A person or thing: its name and the other names that resolve to it."""

    id: str
    name: str
    aliases: list[str]


class PredicatePolicy(_Model):
    """How a predicate resolves competing values: ``cardinality`` ONE or MANY, ``strategy``
    RECENCY, CONFIDENCE, SOURCE_PRIORITY or MANUAL (who wins an overlap, for ONE)."""

    predicate: str
    cardinality: str
    strategy: str
    is_default: bool


class Summary(_Model):
    id: str
    session_id: str | None = None
    level: int
    text: str
    stale: bool


class Piece(_Model):
    """One piece of recalled context: ``layer`` is summary, facts or episodes."""

    layer: str
    text: str
    tokens: int
    fact_id: str | None = None
    episode_id: str | None = None
    summary_id: str | None = None


class Recall(_Model):
    """What an agent should know for one turn; ``text`` goes into the prompt as it is."""

    text: str
    pieces: list[Piece]
    tokens_used: int
    token_budget: int


class Hit(_Model):
    """A search hit: ``kind`` (EPISODE, FACT, SUMMARY, ENTITY), its id and text, and the item."""

    kind: str
    score: float
    id: str
    text: str
    episode: Episode | None = None
    fact: Fact | None = None
    summary: Summary | None = None


class Provenance(_Model):
    """Why memory believes a fact: evidence, citing summaries, what it replaced or lost to."""

    fact: Fact
    evidence: list[Episode]
    cited_by: list[Summary]
    supersedes: list[Fact]
    superseded_by: list[Fact]


class Receipt(_Model):
    """Proof of an erasure: counts by kind, and a re-query that found nothing left."""

    id: str
    scope: str
    counts: dict[str, int]
    remaining_nodes: int
    remaining_searchable: int
    verified: bool


class PlannedFact(_Model):
    """A fact an erasure would take: its id and what it says."""

    id: str
    text: str
    status: str


class PlannedTurn(_Model):
    """A turn an erasure would erase (``action="erase"``) or redact each mention in
    (``"redact"``), with a short excerpt around its first mention."""

    id: str
    kind: str
    occurred_at: datetime
    session_id: str | None = None
    excerpt: str
    action: str


class PlannedSummary(_Model):
    """A summary an erasure would withdraw (stale, its text replaced until rebuilt)."""

    id: str
    session_id: str | None = None
    excerpt: str


class ErasurePlan(_Model):
    """What ``forget(entity=..., dry_run=True)`` says the erasure would remove; nothing was
    written. ``names`` are the words that count as mentions (its name and aliases)."""

    entity: str
    names: list[str]
    mentions: str
    facts: list[PlannedFact]
    facts_retracted: list[PlannedFact]
    turns: list[PlannedTurn]
    summaries: list[PlannedSummary]


class Conflict(_Model):
    """Facts the predicate's policy could not settle; ``resolve`` keeps one candidate."""

    id: str
    status: str
    subject: str
    predicate: str
    created_at: datetime
    resolved_at: datetime | None = None
    reason: str | None = None
    kept: str | None = None
    candidates: list[Fact]
