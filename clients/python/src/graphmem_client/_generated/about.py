from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .fragments import FactFields


class About(BaseModel):
    entity: Optional["AboutEntity"]


class AboutEntity(BaseModel):
    facts_out: list["AboutEntityFactsOut"] = Field(alias="factsOut")
    facts_in: list["AboutEntityFactsIn"] = Field(alias="factsIn")


AboutEntityFactsOut = FactFields
AboutEntityFactsIn = FactFields
About.model_rebuild()
AboutEntity.model_rebuild()
