from pydantic import Field

from .base_model import BaseModel
from .fragments import FactFields


class AboutAt(BaseModel):
    as_subject: "AboutAtAsSubject" = Field(alias="asSubject")
    as_object: "AboutAtAsObject" = Field(alias="asObject")


class AboutAtAsSubject(BaseModel):
    nodes: list["AboutAtAsSubjectNodes"]


AboutAtAsSubjectNodes = FactFields


class AboutAtAsObject(BaseModel):
    nodes: list["AboutAtAsObjectNodes"]


AboutAtAsObjectNodes = FactFields
AboutAt.model_rebuild()
AboutAtAsSubject.model_rebuild()
AboutAtAsObject.model_rebuild()
