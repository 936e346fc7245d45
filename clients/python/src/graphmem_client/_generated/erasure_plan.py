from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import MentionScope


class ErasurePlan(BaseModel):
    erasure_plan: "ErasurePlanErasurePlan" = Field(alias="erasurePlan")


class ErasurePlanErasurePlan(BaseModel):
    entity: str
    names: list[str]
    mentions: MentionScope
    facts: list["ErasurePlanErasurePlanFacts"]
    facts_retracted: list["ErasurePlanErasurePlanFactsRetracted"] = Field(
        alias="factsRetracted"
    )
    turns: list["ErasurePlanErasurePlanTurns"]
    summaries: list["ErasurePlanErasurePlanSummaries"]


class ErasurePlanErasurePlanFacts(BaseModel):
    id: str
    text: str
    status: str


class ErasurePlanErasurePlanFactsRetracted(BaseModel):
    id: str
    text: str
    status: str


class ErasurePlanErasurePlanTurns(BaseModel):
    id: str
    kind: str
    occurred_at: Any = Field(alias="occurredAt")
    session_id: Optional[str] = Field(alias="sessionId")
    excerpt: str
    action: str


class ErasurePlanErasurePlanSummaries(BaseModel):
    id: str
    session_id: Optional[str] = Field(alias="sessionId")
    excerpt: str


ErasurePlan.model_rebuild()
ErasurePlanErasurePlan.model_rebuild()
