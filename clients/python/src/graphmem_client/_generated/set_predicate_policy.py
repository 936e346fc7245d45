from pydantic import Field

from .base_model import BaseModel
from .enums import Cardinality, Strategy


class SetPredicatePolicy(BaseModel):
    set_predicate_policy: "SetPredicatePolicySetPredicatePolicy" = Field(
        alias="setPredicatePolicy"
    )


class SetPredicatePolicySetPredicatePolicy(BaseModel):
    predicate: str
    cardinality: Cardinality
    strategy: Strategy
    is_default: bool = Field(alias="isDefault")


SetPredicatePolicy.model_rebuild()
