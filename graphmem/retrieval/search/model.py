"""What a search is asked and what it answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from graphmem.core.config import DEFAULT_SEARCH_WEIGHTS, SearchWeights
from graphmem.core.time_expressions import TimeRange
from graphmem.episodes.store import Episode
from graphmem.facts.entities import Entity
from graphmem.facts.model import Fact
from graphmem.summaries.store import Summary


class Kind(StrEnum):
    EPISODE = "episode"
    FACT = "fact"
    SUMMARY = "summary"
    ENTITY = "entity"


@dataclass(frozen=True)
class Match:
    """One retriever's vote for a hit."""

    retriever: str  # bm25, vector, or graph (expanded from another hit)
    rank: int  # 1-based, within that retriever's list for this kind (graph: the source's)
    via: str | None = None  # for graph: the hit it was expanded from


@dataclass
class Hit:
    kind: Kind
    id: str
    score: float = 0.0
    matches: list[Match] = field(default_factory=list)
    episode: Episode | None = None
    fact: Fact | None = None
    summary: Summary | None = None
    entity: Entity | None = None


@dataclass(frozen=True)
class SearchQuery:
    text: str
    limit: int = 10
    kinds: tuple[Kind, ...] = tuple(Kind)
    session_id: str | None = None
    start: datetime | None = None  # episodes from (inclusive): a hard filter
    end: datetime | None = None  # episodes until (exclusive): a hard filter
    valid_at: datetime | None = None  # facts valid at (default now)
    include_history: bool = False
    reference_time: datetime | None = None  # for "last month" (default now)
    min_similarity: float = 0.2  # cosine; weaker vector matches are dropped
    retrievers: frozenset[str] = frozenset({"bm25", "vector", "graph"})  # for evaluation
    neighbours: bool = False  # an episode hit also brings the turns around it
    weights: SearchWeights = DEFAULT_SEARCH_WEIGHTS


@dataclass(frozen=True)
class SearchResult:
    hits: list[Hit]
    time_range: TimeRange | None  # read from the query: a soft prior on episodes
    actors: tuple[str, ...] = ()  # speakers the query names: a boost on their turns
    priors: tuple[str, ...] = ()  # what shaped the ranking besides the words, for people
