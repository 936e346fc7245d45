from pydantic import Field

from .base_model import BaseModel
from .enums import Outcome
from .fragments import FactFields


class CorrectFact(BaseModel):
    correct_fact: "CorrectFactCorrectFact" = Field(alias="correctFact")


class CorrectFactCorrectFact(BaseModel):
    outcome: Outcome
    fact: "CorrectFactCorrectFactFact"


CorrectFactCorrectFactFact = FactFields
CorrectFact.model_rebuild()
CorrectFactCorrectFact.model_rebuild()
