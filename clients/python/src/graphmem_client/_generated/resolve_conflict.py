from pydantic import Field

from .base_model import BaseModel
from .fragments import ConflictFields


class ResolveConflict(BaseModel):
    resolve_conflict: "ResolveConflictResolveConflict" = Field(alias="resolveConflict")


ResolveConflictResolveConflict = ConflictFields
ResolveConflict.model_rebuild()
