from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ConflictStatus, EpisodeKind, FactStatus, Source


class FactFields(BaseModel):
    id: str
    subject: str
    predicate: str
    object_: str = Field(alias="object")
    object_kind: str = Field(alias="objectKind")
    text: str
    confidence: float
    source: Source
    status: FactStatus
    valid_from: Optional[Any] = Field(alias="validFrom")
    valid_to: Optional[Any] = Field(alias="validTo")
    recorded_at: Any = Field(alias="recordedAt")
    retracted_at: Optional[Any] = Field(alias="retractedAt")
    asserted_by: Optional[str] = Field(alias="assertedBy")
    ended_by: Optional[str] = Field(alias="endedBy")
    reason: Optional[str]
    open_conflicts: list[str] = Field(alias="openConflicts")


class ConflictFields(BaseModel):
    id: str
    status: ConflictStatus
    subject: str
    predicate: str
    created_at: Any = Field(alias="createdAt")
    resolved_at: Optional[Any] = Field(alias="resolvedAt")
    reason: Optional[str]
    kept: Optional[str]
    candidates: list["ConflictFieldsCandidates"]


class ConflictFieldsCandidates(FactFields):
    pass


class EpisodeFields(BaseModel):
    id: str
    external_id: Optional[str] = Field(alias="externalId")
    session_id: Optional[str] = Field(alias="sessionId")
    seq: int
    kind: EpisodeKind
    actor: Optional[str]
    content: str
    occurred_at: Any = Field(alias="occurredAt")


class ReceiptFields(BaseModel):
    id: str
    scope: str
    counts: list["ReceiptFieldsCounts"]
    remaining_nodes: int = Field(alias="remainingNodes")
    remaining_searchable: int = Field(alias="remainingSearchable")
    verified: bool


class ReceiptFieldsCounts(BaseModel):
    kind: str
    count: int


class SummaryFields(BaseModel):
    id: str
    session_id: Optional[str] = Field(alias="sessionId")
    level: int
    text: str
    stale: bool


FactFields.model_rebuild()
ConflictFields.model_rebuild()
EpisodeFields.model_rebuild()
ReceiptFields.model_rebuild()
SummaryFields.model_rebuild()
