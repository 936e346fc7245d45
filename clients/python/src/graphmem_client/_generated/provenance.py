from pydantic import Field

from .base_model import BaseModel
from .fragments import EpisodeFields, FactFields, SummaryFields


class Provenance(BaseModel):
    provenance: "ProvenanceProvenance"


class ProvenanceProvenance(BaseModel):
    fact: "ProvenanceProvenanceFact"
    evidence: list["ProvenanceProvenanceEvidence"]
    cited_by: list["ProvenanceProvenanceCitedBy"] = Field(alias="citedBy")
    supersedes: list["ProvenanceProvenanceSupersedes"]
    superseded_by: list["ProvenanceProvenanceSupersededBy"] = Field(
        alias="supersededBy"
    )


ProvenanceProvenanceFact = FactFields
ProvenanceProvenanceEvidence = EpisodeFields
ProvenanceProvenanceCitedBy = SummaryFields
ProvenanceProvenanceSupersedes = FactFields
ProvenanceProvenanceSupersededBy = FactFields
Provenance.model_rebuild()
ProvenanceProvenance.model_rebuild()
