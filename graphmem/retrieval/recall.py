"""recall: the one read an agent makes each turn — what it needs to answer, within a budget.

Layers, in order, each run only when a rule says so (the ``plan`` records every decision):
1. the session's summary, when a session is given and it has one that is not stale (a stale
   one may still say what was since corrected, retracted or erased);
2. the current facts about the entities the query names (exact names or aliases, found in
   the query's word n-grams; "I"/"me"/"my" name the ``speaker``, by default the entity
   ``user``). A disputed fact says so, with the claims it is disputed against: an agent must
   never read two values of a one-value predicate as both true. The facts a user pinned
   (always remember) are offered every turn, first among equals, and marked so;
3. episodic search, only when the query refers to a time ("last Tuesday"), asks for detail
   ("what did I say", "exactly", "when did"), or no facts were found.
Pieces are added layer by layer while they fit the token budget (counted by a real
tokenizer); what did not fit is counted in the plan, not silently dropped.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphmem.core.config import DEFAULT_SEARCH_WEIGHTS, SearchWeights
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes.store import Episode
from graphmem.facts import entities, provenance
from graphmem.facts.entities import Entity
from graphmem.facts.model import Fact, FactStatus
from graphmem.observability import metrics
from graphmem.retrieval import tokens
from graphmem.retrieval.embeddings import Embedder
from graphmem.retrieval.fact_cache import FactCache, FactsAbout
from graphmem.retrieval.search import Kind, SearchQuery, search
from graphmem.retrieval.time_expressions import TimeRange, find_time_range
from graphmem.summaries import store as summaries
from graphmem.summaries.store import Summary

MIN_BUDGET, MAX_BUDGET = 50, 16_000
MAX_NGRAM = 4
RECALL_PER_ENTITY = 50  # the newest current facts per named entity; the budget trims further
PINNED_IN_RECALL = 20  # the newest pins, offered every turn (the budget trims further)
EPISODE_CANDIDATES = 40  # turns the episode layer offers, best first; the budget trims further
_DETAIL = re.compile(r"\b(what did (i|we|you) (say|tell|mention|write)|exactly|word for word|"
                     r"quote|when did|remember when|told you|mentioned|last time|details?)\b",
                     re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(i|me|my|mine|myself)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Piece:
    layer: str  # summary, facts or episodes
    text: str
    tokens: int
    summary: Summary | None = None
    fact: Fact | None = None
    episode: Episode | None = None


@dataclass
class Step:
    layer: str
    ran: bool
    reason: str
    items: int = 0  # pieces added
    left_out: int = 0  # found but over budget
    tokens: int = 0


@dataclass
class Recall:
    pieces: list[Piece] = field(default_factory=list)
    plan: list[Step] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    time_range: TimeRange | None = None
    token_budget: int = 0
    tokenizer: str = tokens.TOKENIZER

    @property
    def tokens_used(self) -> int:
        return sum(p.tokens for p in self.pieces)

    def offer(self, layer: Layer) -> None:
        """Add the layer's pieces, in order, while they fit the budget."""
        step = layer.step
        self.plan.append(step)
        for piece in layer.candidates:
            if self.tokens_used + piece.tokens <= self.token_budget:
                self.pieces.append(piece)
                metrics.RETRIEVAL_HITS.labels(f"recall:{step.layer}").inc()
                step.items += 1
                step.tokens += piece.tokens
            else:
                step.left_out += 1


@dataclass
class Layer:
    """One layer's decision and what it found, best first, before the budget is applied."""

    step: Step
    candidates: list[Piece] = field(default_factory=list)


async def recall(db: Database, ns: Namespace, query: str, session_id: str | None = None,
                 reference_time: datetime | None = None, token_budget: int = 1_000,
                 embedder: Embedder | None = None, min_similarity: float = 0.2,
                 cache: FactCache | None = None,
                 weights: SearchWeights = DEFAULT_SEARCH_WEIGHTS,
                 speaker: str = "user") -> Recall:
    """``speaker``: the entity "I", "me" and "my" in the query stand for (whom facts about the
    user are stored under; ``user`` unless the agent names its user otherwise)."""
    if not query.strip() or len(query) > 1_000:
        raise InvalidInput("query must be 1-1000 characters", field="query")
    if not MIN_BUDGET <= token_budget <= MAX_BUDGET:
        raise InvalidInput(f"tokenBudget must be {MIN_BUDGET}-{MAX_BUDGET}", field="tokenBudget")
    now = reference_time or datetime.now(UTC)
    result = Recall(token_budget=token_budget, time_range=find_time_range(query, now))
    episodic = SearchQuery(text=query, limit=EPISODE_CANDIDATES, kinds=(Kind.EPISODE,),
                           reference_time=now, min_similarity=min_similarity, weights=weights)
    # A time or a request for detail decides the episode layer before the facts are known:
    # then the layers are independent reads and run at once (an agent waits for recall).
    asked = _asks_for_episodes(query, result.time_range)
    summary, (facts, linked, relevant), early = await _at_once(
        _summary_layer(db, ns, session_id), _facts_layer(db, ns, query, cache, speaker),
        _episodes_layer(db, ns, episodic, asked, embedder) if asked else _no_layer())
    if early is not None:
        episodes = early
    elif relevant == 0:
        episodes = await _episodes_layer(
            db, ns, episodic, "no fact bears on the question: searching the episodes", embedder)
    else:
        episodes = Layer(Step("episodes", False, "facts answer it; no time or detail asked"))
    result.entities = linked
    for layer in (summary, facts, episodes):
        result.offer(layer)
    return result


async def _no_layer() -> None:
    return None


async def _at_once(*reads: Awaitable[Any]) -> list[Any]:
    """The reads' results, run concurrently; the first failure cancels the others (they would
    read on for a request that has already failed) and is raised as it is."""
    tasks = [asyncio.ensure_future(read) for read in reads]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        raise


def _asks_for_episodes(query: str, time_range: TimeRange | None) -> str | None:
    """Why the query needs the episode layer whatever the facts say, if it does."""
    if time_range is not None:
        return f"the query refers to a time: {time_range.expression!r}"
    if _DETAIL.search(query):
        return "the query asks for detail"
    return None


async def _summary_layer(db: Database, ns: Namespace, session_id: str | None) -> Layer:
    if session_id is None:
        return Layer(Step("summary", False, "no session given"))
    summary = await summaries.latest(db, ns, session_id)
    if summary is None:
        return Layer(Step("summary", False, f"session {session_id!r} has no summary yet"))
    if summary.stale:  # its text may still say what was corrected, retracted or erased
        return Layer(Step("summary", False, f"session {session_id!r} has only stale "
                                            "summaries (something they cite or cover "
                                            "changed): left out until one is written again"))
    return Layer(Step("summary", True, "the session's freshest summary"),
                 [Piece("summary", summary.text, tokens.count(summary.text), summary=summary)])


async def _facts_layer(db: Database, ns: Namespace, query: str, cache: FactCache | None,
                       speaker: str) -> tuple[Layer, list[Entity], int]:
    """The linked entities' current facts and the pinned ones (a user asked to always
    remember them), those that bear on the query (share a word stem with its predicate or
    object) first, pinned first among equals; with the entities, and how many facts bear on
    the query."""
    linked, pinned = await _at_once(_link_entities(db, ns, query, speaker),
                                    _pinned(db, ns))
    if not linked and not pinned:
        return Layer(Step("facts", False, "the query names no known entity")), [], 0
    about = await _facts_about(db, ns, linked, cache) if linked else []
    found: dict[str, Fact] = {f.id: f for f in pinned}
    for outgoing, incoming in about:
        for fact in sorted(outgoing + incoming, key=lambda f: -f.confidence):
            found.setdefault(fact.id, fact)
    lines = _fact_lines(list(found.values()))
    candidates = sorted((Piece("facts", lines[f.id], tokens.count(lines[f.id]), fact=f)
                         for f in found.values()),
                        key=lambda p: p.fact is None or p.fact.pinned_at is None)
    words = _stems(query)
    relevant = [p for p in candidates if p.fact and _stems(
        f"{p.fact.predicate.replace('_', ' ')} {p.fact.object}") & words]
    about_whom = "current facts about " + ", ".join(e.name for e in linked) if linked \
        else "pinned facts"
    step = Step("facts", True, about_whom + f" ({len(relevant)} bear on the question"
                + (f"; {len(pinned)} pinned)" if pinned else ")"))
    return (Layer(step, relevant + [p for p in candidates if p not in relevant]), list(linked),
            len(relevant))


async def _pinned(db: Database, ns: Namespace) -> list[Fact]:
    rows = await db.read("facts/pinned", ns=ns, now=datetime.now(UTC), limit=PINNED_IN_RECALL)
    return [Fact.from_row(row) for row in rows]


async def _episodes_layer(db: Database, ns: Namespace, query: SearchQuery, reason: str,
                          embedder: Embedder | None) -> Layer:
    found = await search(db, ns, query, embedder)
    lines = [(h.episode, _episode_line(h.episode)) for h in found.hits if h.episode]
    return Layer(Step("episodes", True, "; ".join((reason, *found.priors))), [
        Piece("episodes", line, tokens.count(line), episode=episode) for episode, line in lines])


async def _link_entities(db: Database, ns: Namespace, query: str,
                         speaker: str) -> dict[Entity, int]:
    """Entities named in the query (word n-grams against names and aliases, and the speaker
    for "I", "me", "my"), with versions."""
    words = re.findall(r"[\w'.-]+", query)
    keys = {entities.entity_key(" ".join(words[i:i + n]).strip(".,'"))
            for n in range(1, MAX_NGRAM + 1) for i in range(len(words) - n + 1)}
    if _FIRST_PERSON.search(query):
        keys.add(entities.entity_key(speaker))
    rows = await db.read("entities/link", ns=ns, keys=sorted(k for k in keys if k))
    linked = {Entity.from_row(row["entity"], row["aliases"]): row["version"] for row in rows}
    return dict(sorted(linked.items(), key=lambda item: item[0].name))


async def _facts_about(db: Database, ns: Namespace, linked: dict[Entity, int],
                       cache: FactCache | None) -> list[FactsAbout]:
    """Current facts per linked entity, from the cache when the entity has not changed."""
    now = datetime.now(UTC)
    found: dict[str, FactsAbout] = {}
    for entity, version in linked.items():
        cached = cache.get(ns, entity.id, version, now) if cache else None
        if cached is not None:
            found[entity.id] = cached
    missing = [e for e in linked if e.id not in found]
    if missing:
        fresh = await provenance.facts_about(db, ns, [e.id for e in missing],
                                             per_entity=RECALL_PER_ENTITY)
        for entity, pair in zip(missing, fresh, strict=True):
            found[entity.id] = pair
            if cache:
                cache.put(ns, entity.id, linked[entity], now, pair)
    return [found[e.id] for e in linked]


_STOP = {"what", "where", "when", "which", "who", "whom", "does", "did", "have", "about",
         "with", "from", "that", "this", "there", "your", "mine", "tell", "know", "now"}


def _stems(text: str) -> set[str]:
    """Four-letter word stems, so "live" meets "lives_in" and "worked" meets "works_at"."""
    return {w[:4] for w in re.findall(r"\w+", text.casefold())
            if len(w) >= 4 and w not in _STOP}


def _fact_lines(facts: list[Fact]) -> dict[str, str]:
    """Each fact as a line: since when it holds, and, when disputed, that it is and what else
    is claimed for the same subject and predicate (the conflict still open)."""
    claims: dict[tuple[str, str], list[Fact]] = {}
    for fact in facts:
        if fact.status is FactStatus.DISPUTED:
            claims.setdefault((fact.subject, fact.predicate), []).append(fact)
    lines = {}
    for fact in facts:
        since = f" (since {fact.valid_from:%Y-%m-%d})" if fact.valid_from else ""
        disputed = ""
        if fact.status is FactStatus.DISPUTED:
            others = sorted({f.object for f in claims[(fact.subject, fact.predicate)]
                             if f.id != fact.id})
            disputed = " [disputed, not settled" + (
                f"; also claimed: {', '.join(others)}]" if others else "]")
        pinned = " [pinned: always remember]" if fact.pinned_at else ""
        lines[fact.id] = f"{fact.text}{since}{disputed}{pinned}"
    return lines


def _episode_line(episode: Episode | None) -> str:
    assert episode is not None
    return f"[{episode.occurred_at:%Y-%m-%d %H:%M}] {episode.actor or episode.kind}: " \
           f"{episode.content}"
