from pydantic import Field

from .base_model import BaseModel
from .enums import Outcome
from .fragments import FactFields


class AssertFacts(BaseModel):
    assert_facts: list["AssertFactsAssertFacts"] = Field(alias="assertFacts")


class AssertFactsAssertFacts(BaseModel):
    outcome: Outcome
    fact: "AssertFactsAssertFactsFact"


AssertFactsAssertFactsFact = FactFields
AssertFacts.model_rebuild()
AssertFactsAssertFacts.model_rebuild()
