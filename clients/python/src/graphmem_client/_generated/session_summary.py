from typing import Optional

from .base_model import BaseModel
from .fragments import SummaryFields


class SessionSummary(BaseModel):
    summary: Optional["SessionSummarySummary"]


SessionSummarySummary = SummaryFields
SessionSummary.model_rebuild()
