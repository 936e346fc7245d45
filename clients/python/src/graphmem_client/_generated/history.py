from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .fragments import FactFields


class History(BaseModel):
    facts: "HistoryFacts"


class HistoryFacts(BaseModel):
    nodes: list["HistoryFactsNodes"]
    page_info: "HistoryFactsPageInfo" = Field(alias="pageInfo")


HistoryFactsNodes = FactFields


class HistoryFactsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


History.model_rebuild()
HistoryFacts.model_rebuild()
