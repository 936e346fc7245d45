from typing import Optional

from .base_model import BaseModel
from .enums import SearchKind
from .fragments import EpisodeFields, FactFields, SummaryFields


class Search(BaseModel):
    search: "SearchSearch"


class SearchSearch(BaseModel):
    hits: list["SearchSearchHits"]


class SearchSearchHits(BaseModel):
    kind: SearchKind
    score: float
    episode: Optional["SearchSearchHitsEpisode"]
    fact: Optional["SearchSearchHitsFact"]
    summary: Optional["SearchSearchHitsSummary"]
    entity: Optional["SearchSearchHitsEntity"]


SearchSearchHitsEpisode = EpisodeFields
SearchSearchHitsFact = FactFields
SearchSearchHitsSummary = SummaryFields


class SearchSearchHitsEntity(BaseModel):
    id: str
    name: str


Search.model_rebuild()
SearchSearch.model_rebuild()
SearchSearchHits.model_rebuild()
