"""GraphQL types and resolvers for search and recall."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import strawberry

from graphmem import search as domain
from graphmem.api.arguments import NamespaceArg
from graphmem.api.context import Info
from graphmem.api.entities import Entity
from graphmem.api.facts import Fact
from graphmem.temporal import TimeRange as DomainTimeRange

if TYPE_CHECKING:
    from graphmem.api.episodes import Episode
    from graphmem.api.summaries import Summary

EpisodeRef = Annotated["Episode", strawberry.lazy("graphmem.api.episodes")]
SummaryRef = Annotated["Summary", strawberry.lazy("graphmem.api.summaries")]
SearchKind = strawberry.enum(domain.Kind, name="SearchKind", description="What a hit is.")


@strawberry.type(description="One retriever's vote for a hit.")
class Match:
    retriever: str = strawberry.field(
        description="`bm25` (Lucene fulltext) or `graph` (expanded from another hit).")
    rank: int = strawberry.field(description="1-based rank within that retriever's list.")
    via: str | None = strawberry.field(description="For `graph`: the hit it came from.")


@strawberry.type(description="A search result: exactly one of episode, fact, summary, entity.")
class SearchHit:
    kind: SearchKind = strawberry.field(description="Which of the four it is.")
    score: float = strawberry.field(description="Reciprocal rank fusion score (higher first).")
    matches: list[Match] = strawberry.field(description="Why it matched.")
    episode: EpisodeRef | None = strawberry.field(description="When kind is episode.")
    fact: Fact | None = strawberry.field(description="When kind is fact.")
    summary: SummaryRef | None = strawberry.field(description="When kind is summary.")
    entity: Entity | None = strawberry.field(description="When kind is entity.")


@strawberry.type(description="A time range read from words in the query.")
class TimeRange:
    start: datetime = strawberry.field(description="From (inclusive).")
    end: datetime = strawberry.field(description="Until (exclusive).")
    expression: str = strawberry.field(description="The words it was read from.")

    @classmethod
    def of(cls, found: DomainTimeRange | None) -> TimeRange | None:
        return None if found is None else cls(start=found.start, end=found.end,
                                              expression=found.expression)


@strawberry.type(description="Search hits, best first, and the time range used.")
class SearchResult:
    hits: list[SearchHit] = strawberry.field(description="Best first.")
    time_range: TimeRange | None = strawberry.field(
        description="Read from the query (\"last month\") when `from`/`to` were not given; "
                    "it filters episodes.")


async def search(
    info: Info, namespace: NamespaceArg,
    query: Annotated[str, strawberry.argument(description="What to look for.")],
    limit: Annotated[int, strawberry.argument(description="At most this many hits (1..100).")
                     ] = 10,
    kinds: Annotated[list[SearchKind] | None, strawberry.argument(  # type: ignore[valid-type]
        description="Only these kinds (default: all).")] = None,
    session_id: Annotated[str | None, strawberry.argument(
        description="Episodes and summaries of this session only.")] = None,
    start: Annotated[datetime | None, strawberry.argument(
        name="from", description="Episodes from this instant.")] = None,
    end: Annotated[datetime | None, strawberry.argument(
        name="to", description="Episodes before this instant.")] = None,
    valid_at: Annotated[datetime | None, strawberry.argument(
        description="Facts valid at this instant (default now).")] = None,
    include_history: Annotated[bool, strawberry.argument(
        description="Also superseded and retracted facts.")] = False,
    reference_time: Annotated[datetime | None, strawberry.argument(
        description="\"Now\" for time words in the query (default: the server's now).")
    ] = None,
) -> SearchResult:
    from graphmem.api.episodes import Episode
    from graphmem.api.summaries import Summary

    ctx = info.context
    ns = ctx.namespace(namespace)
    found = await domain.search(ctx.db, ns, domain.SearchQuery(
        text=query, limit=limit,
        kinds=tuple(domain.Kind(k) for k in kinds) if kinds else tuple(domain.Kind),
        session_id=session_id, start=start, end=end, valid_at=valid_at,
        include_history=include_history, reference_time=reference_time))
    return SearchResult(time_range=TimeRange.of(found.time_range), hits=[SearchHit(
        kind=h.kind, score=h.score,
        matches=[Match(retriever=m.retriever, rank=m.rank, via=m.via) for m in h.matches],
        episode=Episode.of(h.episode) if h.episode else None,
        fact=Fact.of(h.fact) if h.fact else None,
        summary=Summary.of(h.summary) if h.summary else None,
        entity=Entity.of(h.entity) if h.entity else None) for h in found.hits])
