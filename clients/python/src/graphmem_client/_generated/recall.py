from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Recall(BaseModel):
    recall: "RecallRecall"


class RecallRecall(BaseModel):
    pieces: list["RecallRecallPieces"]
    tokens_used: int = Field(alias="tokensUsed")
    token_budget: int = Field(alias="tokenBudget")


class RecallRecallPieces(BaseModel):
    layer: str
    text: str
    tokens: int
    fact: Optional["RecallRecallPiecesFact"]
    episode: Optional["RecallRecallPiecesEpisode"]
    summary: Optional["RecallRecallPiecesSummary"]


class RecallRecallPiecesFact(BaseModel):
    id: str


class RecallRecallPiecesEpisode(BaseModel):
    id: str


class RecallRecallPiecesSummary(BaseModel):
    id: str


Recall.model_rebuild()
RecallRecall.model_rebuild()
RecallRecallPieces.model_rebuild()
