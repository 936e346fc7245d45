from pydantic import Field

from .base_model import BaseModel
from .fragments import FactFields


class RetractFact(BaseModel):
    retract_fact: "RetractFactRetractFact" = Field(alias="retractFact")


RetractFactRetractFact = FactFields
RetractFact.model_rebuild()
