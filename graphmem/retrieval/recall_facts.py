"""recall's facts layer: which facts an agent is shown for a question, best first.

Candidates: the current facts (or, ``as_of``, those then believed and valid) of the entities
the question names (names and aliases in its word n-grams) and of whom "I" stands for
(``first_person``); the pinned facts; and, when the question names nobody (not even "I"),
the facts search finds for it (``search`` over facts) that contain all its words. Each is scored
against the question (``relevance``); those that do not bear on it are left out when others
do. One hop further: a fact that bears on the question and names an entity ("Sam sister
Ana" for "What's my sister's job?") brings that entity's facts, scored against the rest of
the question ("job"): the best of them follow it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from graphmem.core.config import SearchWeights
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.facts import entities, provenance
from graphmem.facts import store as fact_store
from graphmem.facts.entities import Entity
from graphmem.facts.model import Fact, FactStatus
from graphmem.retrieval import first_person, relevance
from graphmem.retrieval.at_once import at_once
from graphmem.retrieval.embeddings import Embedder
from graphmem.retrieval.fact_cache import FactCache, FactsAbout
from graphmem.retrieval.relevance import Scored
from graphmem.retrieval.search import Kind, SearchQuery, search

MAX_NGRAM = 4
RECALL_PER_ENTITY = 50  # the newest current facts per named entity; the budget trims further
PINNED_IN_RECALL = 20  # the newest pins, offered every turn (the budget trims further)
SEARCHED_FACTS = 10  # facts search offers when the question names nobody
MAX_HOPS = 3  # facts that bear on the question whose object's facts are read too
EVIDENCE_PER_FACT = 3  # turns of a fact's evidence its words are read in


@dataclass(frozen=True)
class Question:
    """One recall's question and how to read it."""

    text: str
    session_id: str | None = None
    speaker: str | None = None  # whom "I" stands for; None: resolve it
    as_of: datetime | None = None  # facts believed and valid then (default: now)
    embedder: Embedder | None = None
    weights: SearchWeights = field(default_factory=SearchWeights)
    min_similarity: float = 0.2
    cache: FactCache | None = None


@dataclass
class Found:
    facts: list[Fact] = field(default_factory=list)  # to offer, best first
    answered: bool = False  # their own words meet every word the question asks (not names)
    linked: list[Entity] = field(default_factory=list)
    reason: str | None = None  # None: the layer did not run (nothing to offer)


async def find(db: Database, ns: Namespace, q: Question) -> Found:
    (me, linked), pinned = await at_once(_link(db, ns, q), _pinned(db, ns, q.as_of))
    asked = relevance.stems(q.text)
    candidates = await _candidates(db, ns, q, linked, pinned, asked)
    every = sorted(linked, key=lambda e: e.name)
    if not candidates:
        return Found(reason=None, linked=every)
    names = [n for e in linked for n in (e.name, *e.aliases)]
    keys = {entities.entity_key(n) for n in names}
    relating = frozenset(f.id for f in candidates.values() if f.object_kind == "entity"
                         and {entities.entity_key(f.subject), entities.entity_key(f.object)}
                         <= keys)
    named = frozenset(stem for n in names for stem in relevance.stems(n))
    scored = await _scored(db, ns, q, q.text, asked, list(candidates.values()), relating,
                           named)
    offered, left_out = relevance.kept(scored, asks=bool(asked - named))
    offered = _with_rivals(offered, left_out)
    hops = await _hops(db, ns, q, asked - named, offered, set(candidates))
    return Found(facts=_ordered(offered, hops),
                 answered=_answered(asked - named, offered, hops), linked=every,
                 reason=_reason(me, linked, offered, left_out, hops, pinned, q.as_of))


async def _candidates(db: Database, ns: Namespace, q: Question, linked: dict[Entity, int],
                      pinned: list[Fact], asked: frozenset[str]) -> dict[str, Fact]:
    """The pinned facts and those about the linked entities; when the question links none,
    the facts search finds that contain every word of it: a fact about someone the question
    does not name must account for all it asks ("user lives in Valencia" does not answer
    "Where does Tomasz live?", where Tomasz is no entity, only a name in some turns)."""
    candidates = {f.id: f for f in pinned}
    for outgoing, incoming in await _facts_about(db, ns, linked, q) if linked else []:
        for fact in outgoing + incoming:
            candidates.setdefault(fact.id, fact)
    for fact in await _searched(db, ns, q) if not linked else []:
        if asked and relevance.share(asked, relevance.stems(fact.text)) == 1:
            candidates.setdefault(fact.id, fact)
    return candidates


async def _link(db: Database, ns: Namespace,
                q: Question) -> tuple[first_person.Speaker | None, dict[Entity, int]]:
    """Whom "I" stands for, if the question says "I"; the entities it names (word n-grams
    against names and aliases) or "I" names, with their versions (the cache key of their
    facts)."""
    me = await first_person.resolve(db, ns, q.session_id, q.speaker) \
        if first_person.speaks_of_self(q.text) else None
    words = re.findall(r"[\w'.-]+", q.text)
    keys = {entities.entity_key(" ".join(words[i:i + n]).strip(".,'"))
            for n in range(1, MAX_NGRAM + 1) for i in range(len(words) - n + 1)}
    keys |= {entities.entity_key(name) for name in me.names} if me else set()
    return me, dict(await entities.linked(db, ns, sorted(k for k in keys if k)))


async def _pinned(db: Database, ns: Namespace, as_of: datetime | None) -> list[Fact]:
    return await fact_store.pinned(db, ns, as_of or datetime.now(UTC), PINNED_IN_RECALL)


async def _searched(db: Database, ns: Namespace, q: Question) -> list[Fact]:
    """Facts search finds for the question: believed and valid now, or at ``as_of`` (search
    knows belief now only: it is asked for history and the rest is told apart here)."""
    found = await search(db, ns, SearchQuery(
        text=q.text, limit=SEARCHED_FACTS, kinds=(Kind.FACT,), valid_at=q.as_of,
        include_history=q.as_of is not None, min_similarity=q.min_similarity,
        weights=q.weights), q.embedder)
    facts = [h.fact for h in found.hits if h.fact is not None]
    return [f for f in facts if q.as_of is None or _held_at(f, q.as_of)]


def _held_at(fact: Fact, at: datetime) -> bool:
    """Believed and valid at ``at`` (the ``facts`` query's asOf)."""
    return (fact.recorded_at <= at and (fact.retracted_at is None or fact.retracted_at > at)
            and (fact.valid_from is None or fact.valid_from <= at)
            and (fact.valid_to is None or fact.valid_to > at))


async def _facts_about(db: Database, ns: Namespace, linked: dict[Entity, int],
                       q: Question) -> list[FactsAbout]:
    """Facts per linked entity, from the cache when the entity has not changed (and memory
    is read now: the cache holds the present only)."""
    now = datetime.now(UTC)
    cache = q.cache if q.as_of is None else None
    found: dict[str, FactsAbout] = {}
    for entity, version in linked.items():
        cached = cache.get(ns, entity.id, version, now) if cache else None
        if cached is not None:
            found[entity.id] = cached
    missing = [e for e in linked if e.id not in found]
    if missing:
        fresh = await provenance.facts_about(db, ns, [e.id for e in missing],
                                             per_entity=RECALL_PER_ENTITY, as_of=q.as_of)
        for entity, pair in zip(missing, fresh, strict=True):
            found[entity.id] = pair
            if cache:
                cache.put(ns, entity.id, linked[entity], now, pair)
    return [found[e.id] for e in linked]


async def _scored(db: Database, ns: Namespace, q: Question, text: str,
                  asked: frozenset[str], facts: list[Fact],
                  relating: frozenset[str] = frozenset(),
                  names: frozenset[str] = frozenset()) -> list[Scored]:
    similarities, evidence = await at_once(_similarities(db, ns, q.embedder, text, facts),
                                            _evidence(db, ns, facts))
    return relevance.score(asked, facts, q.weights, similarities, evidence, relating, names)


async def _similarities(db: Database, ns: Namespace, embedder: Embedder | None, text: str,
                        facts: list[Fact]) -> list[float] | None:
    """Each fact's cosine to ``text``: of the embedding the worker stored for it, or, for a
    fact still waiting, of one made now."""
    if embedder is None or not facts:
        return None
    found = await fact_store.vectors(db, ns, [f.id for f in facts])
    stored = {i: vector for i, vector in found.items() if len(vector) == embedder.dimension}
    waiting = [f for f in facts if f.id not in stored]
    [asked] = await embedder.embed_queries([text])
    made = await embedder.embed([f.text for f in waiting]) if waiting else []
    vectors = {**stored, **dict(zip((f.id for f in waiting), made, strict=True))}
    return [relevance.cosine(asked, vectors[f.id]) for f in facts]


async def _evidence(db: Database, ns: Namespace, facts: list[Fact]) -> dict[str, str]:
    """The words of the turns each fact was learned from (its newest few)."""
    return await provenance.recent_evidence(db, ns, [f.id for f in facts], EVIDENCE_PER_FACT)


def _with_rivals(offered: list[Scored], left_out: list[Scored]) -> list[Scored]:
    """A disputed fact is offered with every claim it is disputed against: never one value
    of a conflict alone, as if it were settled."""
    disputed = {(s.fact.subject, s.fact.predicate) for s in offered
                if s.fact.status is FactStatus.DISPUTED}
    return offered + [s for s in left_out if s.fact.status is FactStatus.DISPUTED
                      and (s.fact.subject, s.fact.predicate) in disputed]


@dataclass(frozen=True)
class _Hop:
    via: Scored  # the fact that bears on the question and names an entity
    entity: str
    found: list[Scored]


async def _hops(db: Database, ns: Namespace, q: Question, asked: frozenset[str],
                offered: list[Scored], seen: set[str]) -> list[_Hop]:
    """For the best few facts whose own words meet the question (``asked``, without the
    names it links) and whose object is an entity: that entity's facts, scored against what
    the fact leaves of the question."""
    firsts = [s for s in offered if s.answers and s.fact.object_kind == "entity"][:MAX_HOPS]
    rests = {s.fact.id: asked - relevance.stems(relevance.phrase(s.fact)) for s in firsts}
    firsts = [s for s in firsts if rests[s.fact.id]]
    if not firsts:
        return []
    linked = await entities.linked(db, ns, sorted(
        {entities.entity_key(s.fact.object) for s in firsts}))
    objects = {e.key: (e, version) for e, version in linked}
    hops = []
    for first in firsts:
        target = objects.get(entities.entity_key(first.fact.object))
        if target is None:
            continue
        (outgoing, incoming), = await _facts_about(db, ns, {target[0]: target[1]}, q)
        facts = [f for f in outgoing + incoming if f.id not in seen]
        if not facts:
            continue
        rest = rests[first.fact.id]
        words = relevance.words_for(q.text, rest) or q.text
        scored = relevance.best_of(await _scored(db, ns, q, words, rest, facts))
        seen.update(s.fact.id for s in scored)
        hops.append(_Hop(first, target[0].name, scored))
    return hops


def _answered(asked: frozenset[str], offered: list[Scored], hops: list[_Hop]) -> bool:
    """Whether the facts offered (and their hops') meet in their own words every word the
    question asks, the names it links aside: then they answer it, and recall leaves out the
    turns that state a value they replaced. A fact between two entities the question names
    answers no more than its words do: "Sam lives in Lisbon" does not answer "Where did Sam
    live before Lisbon?"."""
    said = [s for s in (*offered, *(f for hop in hops for f in hop.found)) if s.answers]
    met = frozenset().union(*(relevance.stems(relevance.phrase(s.fact)) for s in said))
    return bool(said) and asked <= met


def _ordered(offered: list[Scored], hops: list[_Hop]) -> list[Fact]:
    """Those that bear on the question first, pinned first among equals, best first; each
    hop's facts right after the fact that led to them."""
    after = {hop.via.fact.id: [s.fact for s in hop.found] for hop in hops}
    ranked = sorted(offered, key=lambda s: (not s.bears, s.fact.pinned_at is None, -s.score))
    return [f for s in ranked for f in (s.fact, *after.get(s.fact.id, []))]


def _reason(me: first_person.Speaker | None, linked: dict[Entity, int],
            offered: list[Scored], left_out: list[Scored], hops: list[_Hop],
            pinned: list[Fact], as_of: datetime | None) -> str:
    whose = ("facts about " + ", ".join(sorted(e.name for e in linked))) if linked \
        else "facts search found"
    when = f" as of {as_of.isoformat()}" if as_of else ""
    parts = [f"{sum(s.bears for s in offered)} bear on the question"]
    dropped = [s for s in left_out if s not in offered]
    if dropped:
        parts.append(f"{len(dropped)} that do not bear on it left out")
    parts += [f"{len(hop.found)} of {hop.entity}'s, via {hop.via.fact.predicate}"
              for hop in hops if hop.found]
    if pinned:
        parts.append(f"{len(pinned)} pinned")
    return (f"{me.why}; " if me else "") + f"{whose}{when} ({'; '.join(parts)})"

