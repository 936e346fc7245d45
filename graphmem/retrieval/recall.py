"""recall: the one read an agent makes each turn — what it needs to answer, within a budget.

Layers, in order, each run only when a rule says so (the ``plan`` records every decision):
1. the session's summary, when a session is given and it has one that is not stale (a stale
   one may still say what was since corrected, retracted or erased);
2. the facts that bear on the question (``recall_facts``): about the entities it names and
   whom "I" stands for (``first_person``), scored against it (``relevance``). A disputed
   fact says so, with the claims it is disputed against: an agent must never read two values
   of a one-value predicate as both true. The facts a user pinned (always remember) are
   offered every turn, first among equals, and marked so;
3. episodic search, only when the query refers to a time ("last Tuesday"), asks for detail
   ("what did I say", "exactly", "when did"), or the facts do not answer all it asks in their
   own words (one word of it met leaves the rest to the turns).
Pieces are added layer by layer while they fit the token budget (counted by a real
tokenizer); when turns were searched, the facts take at most half of it before them and the
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
_DETAIL = re.compile(r"\b(what did (i|we|you) (say|tell|mention|write)|exactly|word for word|"
                     r"quote|when did|remember when|told you|mentioned|last time|details?)\b",
                     re.IGNORECASE)


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
    # A time or a request for detail decides the episode layer before the facts are known:
    # then the layers are independent reads and run at once (an agent waits for recall).
    early_reason = _asks_for_episodes(text, result.time_range)
    summary, (facts, linked, answered), early = await _at_once(
        _summary_layer(db, ns, query.session_id) if as_of is None else _no_summary_then(),
        _facts_layer(db, ns, question),
        _episodes_layer(db, ns, episodic, early_reason, embedder) if early_reason
        else _no_layer())
    if early is not None:
        episodes = early
    elif not answered:
        episodes = await _episodes_layer(db, ns, episodic, "no facts answer all the question "
                                         "asks in their own words: searching the episodes",
                                         embedder)
    else:
        episodes = Layer(Step("episodes", False,
                              "facts answer all it asks; no time or detail asked"))
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


async def _no_layer() -> None:
    return None


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


async def _facts_layer(db: Database, ns: Namespace,
                       question: recall_facts.Question) -> tuple[Layer, list[Entity], bool]:
    """The facts that bear on the question, best first (``recall_facts``); with the linked
    entities, and whether they answer all it asks in their own words (if not, the episodes
    are searched)."""
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
