"""recall: the one read an agent makes each turn — what it needs to answer, within a budget.

Layers, in order, read at once (an agent waits for recall; the ``plan`` records why each
ran or did not):
1. the session's summary, when a session is given and it has one that is not stale (a stale
   one may still say what was since corrected, retracted or erased);
2. the facts that bear on the question (``recall_facts``): about the entities it names and
   whom "I" stands for (``first_person``), scored against it (``relevance``). A disputed
   fact says so, with the claims it is disputed against: an agent must never read two values
   of a one-value predicate as both true. The facts a user pinned (always remember) are
   offered every turn, first among equals, and marked so;
3. episodic search, always: the turns that match fill what the facts leave of the budget.
   When the facts answer all the question asks in their own words, the turns that state a
   value memory has since replaced are left out (the evidence of a superseded or retracted
   fact with an offered fact's subject and predicate, or a turn naming its value: "I work at
   Zalando" once "Sam works at Acme" answers "Where do I work?"). Turns used to be searched
   only when the query named a time, asked for detail or met words no fact did, which kept
   such turns out but also the turns that answer whenever a fact met every word ("Melanie
   likes camping trips" for "Where has Melanie camped?"), and left the budget unused: on the
   LoCoMo dev split recall delivered 0.844 of the evidence within 1,000 tokens, and 0.858
   with the turns always searched; with LoCoMo's observations as facts, 0.799 and 0.857.
Pieces are added layer by layer while they fit the token budget (counted by a real
tokenizer); when turns were found, the facts take at most half of it before them and the
rest after them. What did not fit is counted in the plan, not silently dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from graphmem.core.config import DEFAULT_SEARCH_WEIGHTS, SearchWeights
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.core.time_expressions import TimeRange, find_time_range
from graphmem.core.timeutil import require_aware
from graphmem.db.database import Database
from graphmem.episodes.store import Episode
from graphmem.facts.entities import Entity
from graphmem.facts.model import Fact, FactStatus
from graphmem.observability import metrics
from graphmem.retrieval import recall_facts, tokens
from graphmem.retrieval.at_once import at_once as _at_once
from graphmem.retrieval.embeddings import Embedder
from graphmem.retrieval.fact_cache import FactCache
from graphmem.retrieval.search import Kind, SearchQuery, search
from graphmem.summaries import store as summaries
from graphmem.summaries.store import Summary

MIN_BUDGET, MAX_BUDGET = 50, 16_000
EPISODE_CANDIDATES = 40  # turns the episode layer offers, best first; the budget trims further
FACTS_SHARE = 0.5  # of the budget, what facts take before the turns when turns are searched


@dataclass(frozen=True)
class RecallQuery:
    """What a recall is asked (as ``SearchQuery`` is what a search is asked)."""

    text: str  # the question, 1-1000 characters
    session_id: str | None = None  # its summary is offered first
    reference_time: datetime | None = None  # for "last month" (default: as_of, else now)
    token_budget: int = 1_000  # MIN_BUDGET-MAX_BUDGET
    min_similarity: float = 0.2  # cosine; weaker vector matches are dropped
    weights: SearchWeights = DEFAULT_SEARCH_WEIGHTS
    speaker: str | None = None  # whom "I", "me" and "my" stand for; None resolves it
    as_of: datetime | None = None  # recall as memory stood then


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

    def offer(self, layer: Layer, within: int | None = None) -> list[Piece]:
        """Add the layer's pieces, in order, while they fit the budget; with ``within``, only
        while the layer's own pieces take at most that many tokens of it, and return the
        rest, to be offered after the next layer (``offer_rest``)."""
        step = layer.step
        self.plan.append(step)
        for i, piece in enumerate(layer.candidates):
            if within is not None and step.tokens + piece.tokens > within:
                return layer.candidates[i:]
            self._add(step, piece)
        return []

    def offer_rest(self, layer: Layer, rest: list[Piece]) -> None:
        for piece in rest:
            self._add(layer.step, piece)

    def _add(self, step: Step, piece: Piece) -> None:
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


async def recall(db: Database, ns: Namespace, query: RecallQuery,
                 embedder: Embedder | None = None, cache: FactCache | None = None) -> Recall:
    """``query.speaker``: whom "I", "me" and "my" in the question stand for; None resolves
    it (see ``first_person``). ``query.as_of``: recall as memory stood then: the facts it
    believed and that were valid at that instant, the turns that occurred before it, no
    summary."""
    _check(query)
    text, as_of = query.text, query.as_of
    now = query.reference_time or as_of or datetime.now(UTC)
    question = recall_facts.Question(text, query.session_id, query.speaker, as_of, embedder,
                                     query.weights, query.min_similarity, cache)
    result = Recall(token_budget=query.token_budget, time_range=find_time_range(text, now))
    episodic = SearchQuery(text=text, limit=EPISODE_CANDIDATES, kinds=(Kind.EPISODE,),
                           reference_time=now, end=as_of, min_similarity=query.min_similarity,
                           weights=query.weights)
    summary, (facts, linked, answered), episodes = await _at_once(
        _summary_layer(db, ns, query.session_id) if as_of is None else _no_summary_then(),
        _facts_layer(db, ns, question),
        _episodes_layer(db, ns, episodic, _why_episodes(result.time_range), embedder))
    if answered:
        await _leave_out_replaced(db, ns, episodes, facts)
    result.entities = linked
    result.offer(summary)
    # Facts first, but while turns wait they take at most FACTS_SHARE of the budget, the
    # rest after the turns: facts that each meet a word of the question (an LLM pipeline
    # writes hundreds) filled all of it and left out the turns that answer.
    share = int(query.token_budget * FACTS_SHARE) if episodes.candidates else None
    rest = result.offer(facts, share)
    result.offer(episodes)
    result.offer_rest(facts, rest)
    return result


def _check(query: RecallQuery) -> None:
    if not query.text.strip() or len(query.text) > 1_000:
        raise InvalidInput("query must be 1-1000 characters", field="query")
    if not MIN_BUDGET <= query.token_budget <= MAX_BUDGET:
        raise InvalidInput(f"tokenBudget must be {MIN_BUDGET}-{MAX_BUDGET}", field="tokenBudget")
    if query.as_of is not None:
        require_aware(query.as_of, "asOf")


async def _no_summary_then() -> Layer:
    return Layer(Step("summary", False, "asOf: a summary tells the session as it is now"))


def _why_episodes(time_range: TimeRange | None) -> str:
    if time_range is not None:
        return f"the query refers to a time: {time_range.expression!r}; its turns fill " \
               "what the facts leave"
    return "the turns that match fill what the facts leave"


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


async def _facts_layer(db: Database, ns: Namespace,
                       question: recall_facts.Question) -> tuple[Layer, list[Entity], bool]:
    """The facts that bear on the question, best first (``recall_facts``); with the linked
    entities, and whether they answer all it asks in their own words."""
    found = await recall_facts.find(db, ns, question)
    if found.reason is None:
        return Layer(Step("facts", False, "the query names no known entity and no fact "
                                          "meets its words")), found.linked, False
    lines = _fact_lines(found.facts)
    return Layer(Step("facts", True, found.reason), [
        Piece("facts", lines[f.id], tokens.count(lines[f.id]), fact=f) for f in found.facts]), \
        found.linked, found.answered


async def _episodes_layer(db: Database, ns: Namespace, query: SearchQuery, reason: str,
                          embedder: Embedder | None) -> Layer:
    found = await search(db, ns, query, embedder)
    lines = [(h.episode, _episode_line(h.episode)) for h in found.hits if h.episode]
    return Layer(Step("episodes", True, "; ".join((reason, *found.priors))), [
        Piece("episodes", line, tokens.count(line), episode=episode) for episode, line in lines])


async def _leave_out_replaced(db: Database, ns: Namespace, episodes: Layer,
                              facts: Layer) -> None:
    """The facts answer: the turns that state a value memory has since replaced for an
    offered fact's subject and predicate (its evidence, or a turn naming it: a fact asserted
    by an agent has no evidence) leave ``episodes``, counted in its reason, so an agent does
    not read the old value beside the new one."""
    offered = [p.fact for p in facts.candidates if p.fact is not None]
    turns = [p.episode for p in episodes.candidates if p.episode is not None]
    if not offered or not turns:
        return
    [row] = await db.read("retrieval/recall/replaced_turns", ns=ns,
                          episode_ids=[e.id for e in turns], fact_ids=[f.id for f in offered])
    believed = {f.object.casefold() for f in offered}
    values = [re.compile(rf"(?<!\w){re.escape(value)}(?!\w)", re.IGNORECASE)
              for value in row["objects"] if value.casefold() not in believed]
    replaced = {e.id for e in turns
                if e.id in row["evidence"] or any(v.search(e.content) for v in values)}
    if replaced:
        episodes.candidates = [p for p in episodes.candidates
                               if p.episode is None or p.episode.id not in replaced]
        episodes.step.reason += (f"; {len(replaced)} left out: they state what memory has "
                                 "since replaced, and the facts answer")


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
    at = episode.occurred_at  # the day in words: each digit costs the tokenizer a token
    return f"[{at.day} {at:%B %Y}] {episode.actor or episode.kind}: " \
           f"{episode.content}"
