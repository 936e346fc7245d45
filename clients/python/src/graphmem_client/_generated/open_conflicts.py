from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .fragments import ConflictFields


class OpenConflicts(BaseModel):
    conflicts: "OpenConflictsConflicts"


class OpenConflictsConflicts(BaseModel):
    nodes: list["OpenConflictsConflictsNodes"]
    page_info: "OpenConflictsConflictsPageInfo" = Field(alias="pageInfo")


OpenConflictsConflictsNodes = ConflictFields


class OpenConflictsConflictsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


OpenConflicts.model_rebuild()
OpenConflictsConflicts.model_rebuild()
