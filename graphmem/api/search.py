"""GraphQL types and resolvers for search and recall."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, TypeAlias

import strawberry

from graphmem.api.entities import Entity
from graphmem.api.facts import Fact
from graphmem.api.server.context import Context
from graphmem.api.server.fields import mirror
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.core.time_expressions import TimeRange as DomainTimeRange
from graphmem.retrieval import recall as recall_domain
from graphmem.retrieval import search as domain

if TYPE_CHECKING:
    from graphmem.api.episodes import Episode
    from graphmem.api.summaries import Summary

EpisodeRef = Annotated["Episode", strawberry.lazy("graphmem.api.episodes")]
SummaryRef = Annotated["Summary", strawberry.lazy("graphmem.api.summaries")]
# The domain enum is the GraphQL enum: strawberry.enum registers the class in place.
SearchKind: TypeAlias = domain.Kind
strawberry.enum(SearchKind, name="SearchKind", description="What a hit is.")


@strawberry.type(description="One retriever's vote for a hit.")
class Match:
    retriever: str = strawberry.field(
        description="`bm25` (Lucene fulltext), `vector` (embedding similarity) or `graph` "
                    "(expanded from another hit).")
    rank: int = strawberry.field(description="1-based rank within that retriever's list.")
    via: str | None = strawberry.field(description="For `graph`: the hit it came from.")


@strawberry.type(description="A search result: exactly one of episode, fact, summary, entity.")
class SearchHit:
    kind: SearchKind = strawberry.field(description="Which of the four it is.")
    score: float = strawberry.field(
        description="Fused score, higher first: each retriever's score normalised to 0..1 and "
                    "weighed, plus what the graph and the conversation priors add. Comparable "
                    "within one result, not across queries.")
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
        return None if found is None else mirror(cls, found)


@strawberry.type(description="Search hits, best first, and what shaped the ranking.")
class SearchResult:
    hits: list[SearchHit] = strawberry.field(description="Best first.")
    time_range: TimeRange | None = strawberry.field(
        description="Read from the query (\"last month\", \"on 3 June, 2023\") when "
                    "`from`/`to` were not given: a soft prior (turns near it rank higher), "
                    "never a filter. Only `from`/`to` filter.")
    actors: list[str] = strawberry.field(
        description="Speakers of this namespace the query names: their turns rank higher, and "
                    "their names are not matched as words (nobody says their own name).")
    priors: list[str] = strawberry.field(
        description="Everything besides the words that shaped the ranking, in plain words.")


@scoped
async def search(
    ctx: Context, ns: Namespace,
    query: Annotated[str, strawberry.argument(description="What to look for.")],
    limit: Annotated[int, strawberry.argument(description="At most this many hits (1..100).")
                     ] = 10,
    kinds: Annotated[list[SearchKind] | None, strawberry.argument(
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
    neighbours: Annotated[bool, strawberry.argument(
        description="Episode hits also bring the turns just before and after them.")
    ] = False,
) -> SearchResult:
    from graphmem.api.episodes import Episode
    from graphmem.api.summaries import Summary

    found = await domain.search(ctx.db, ns, domain.SearchQuery(
        text=query, limit=limit,
        kinds=tuple(domain.Kind(k) for k in kinds) if kinds else tuple(domain.Kind),
        session_id=session_id, start=start, end=end, valid_at=valid_at,
        include_history=include_history, reference_time=reference_time,
        min_similarity=ctx.settings.vector_min_similarity, neighbours=neighbours,
        weights=ctx.settings.search_weights), ctx.embedder)
    ctx.used(ns, facts=[h.fact.id for h in found.hits if h.fact],
             episodes=[h.episode.id for h in found.hits if h.episode])
    return SearchResult(time_range=TimeRange.of(found.time_range), actors=list(found.actors),
                        priors=list(found.priors), hits=[SearchHit(
        kind=h.kind, score=h.score,
        matches=[Match(retriever=m.retriever, rank=m.rank, via=m.via) for m in h.matches],
        episode=Episode.of(h.episode) if h.episode else None,
        fact=Fact.of(h.fact) if h.fact else None,
        summary=Summary.of(h.summary) if h.summary else None,
        entity=Entity.of(h.entity) if h.entity else None) for h in found.hits])


@strawberry.type(description="One piece of what an agent should know, from one layer.")
class RecallPiece:
    layer: str = strawberry.field(description="summary, facts or episodes.")
    text: str = strawberry.field(description="Ready to put in a prompt.")
    tokens: int = strawberry.field(description="Its length in tokens.")
    summary: SummaryRef | None = strawberry.field(description="When from the summary layer.")
    fact: Fact | None = strawberry.field(description="When from the facts layer.")
    episode: EpisodeRef | None = strawberry.field(description="When from the episodes layer.")


@strawberry.type(description="What recall decided for one layer, and why.")
class RecallStep:
    layer: str = strawberry.field(description="summary, facts or episodes.")
    ran: bool = strawberry.field(description="Whether the layer ran.")
    reason: str = strawberry.field(description="The rule that decided it.")
    items: int = strawberry.field(description="Pieces it added.")
    left_out: int = strawberry.field(description="Pieces it found that did not fit the budget.")
    tokens: int = strawberry.field(description="Tokens its pieces use.")


@strawberry.type(description="The layered read for one agent turn.")
class RecallResult:
    pieces: list[RecallPiece] = strawberry.field(description="In layer order, within budget.")
    tokens_used: int = strawberry.field(description="Sum of the pieces' tokens.")
    token_budget: int = strawberry.field(description="The budget asked for.")
    tokenizer: str = strawberry.field(description="Whose tokens are counted (llama-2).")
    plan: list[RecallStep] = strawberry.field(description="Which layers ran and why.")
    entities: list[Entity] = strawberry.field(description="Entities the query was linked to.")
    time_range: TimeRange | None = strawberry.field(description="Time read from the query.")


@scoped
async def recall(
    ctx: Context, ns: Namespace,
    query: Annotated[str, strawberry.argument(description="The user's message or question.")],
    session_id: Annotated[str | None, strawberry.argument(
        description="The conversation: for its summary, and whom \"I\" stands for (who "
                    "speaks its user turns).")] = None,
    reference_time: Annotated[datetime | None, strawberry.argument(
        description="\"Now\" for time words (default: `asOf`, else the server's now).")
    ] = None,
    token_budget: Annotated[int, strawberry.argument(
        description="At most this many tokens of pieces (50..16000).")] = 1000,
    speaker: Annotated[str | None, strawberry.argument(
        description="Whom \"I\", \"me\", \"my\" (and \"we\", \"our\") in the query stand "
                    "for: this name alone (an entity's name or alias, e.g. `user`, as the "
                    "offline extractor writes facts). Default null: resolved, as the speaker "
                    "of the session's user turns and `user` (without a session: `user`, and "
                    "the one actor of the namespace's user turns if there is exactly one).")
    ] = None,
    as_of: Annotated[datetime | None, strawberry.argument(
        description="Recall as memory stood at this instant: the facts believed and valid "
                    "then (as `facts(asOf:)`), the turns that occurred before it, no summary "
                    "(default: now).")] = None,
) -> RecallResult:
    from graphmem.api.episodes import Episode
    from graphmem.api.summaries import Summary

    asked = recall_domain.RecallQuery(
        text=query, session_id=session_id, reference_time=reference_time,
        token_budget=token_budget, min_similarity=ctx.settings.vector_min_similarity,
        weights=ctx.settings.search_weights, speaker=speaker, as_of=as_of)
    found = await recall_domain.recall(ctx.db, ns, asked, ctx.embedder, ctx.fact_cache)
    ctx.used(ns, facts=[p.fact.id for p in found.pieces if p.fact],
             episodes=[p.episode.id for p in found.pieces if p.episode])
    return RecallResult(
        pieces=[RecallPiece(layer=p.layer, text=p.text, tokens=p.tokens,
                            summary=Summary.of(p.summary) if p.summary else None,
                            fact=Fact.of(p.fact) if p.fact else None,
                            episode=Episode.of(p.episode) if p.episode else None)
                for p in found.pieces],
        tokens_used=found.tokens_used, token_budget=found.token_budget,
        tokenizer=found.tokenizer,
        plan=[RecallStep(layer=s.layer, ran=s.ran, reason=s.reason, items=s.items,
                         left_out=s.left_out, tokens=s.tokens) for s in found.plan],
        entities=[Entity.of(e) for e in found.entities],
        time_range=TimeRange.of(found.time_range))


@strawberry.type
class Query:
    search: SearchResult = strawberry.field(
        resolver=search,
        description="Hybrid search over episodes, facts, summaries and entities: BM25 and "
                    "vectors per kind, graph expansion, fusion of normalised scores; each hit "
                    "says why.")
    recall: RecallResult = strawberry.field(
        resolver=recall,
        description="The layered read for an agent's turn: session summary, current facts "
                    "that bear on the question, then the turns that match; within a token "
                    "budget, with a plan saying which layers ran and why.")
