"""The recall fact cache: hits while an entity is unchanged, misses once any write touches
one of its facts (through either end), and never serves a fact past its validity."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.facts import changes as fact_changes
from graphmem.facts import entity_merge
from graphmem.facts import store as facts
from graphmem.facts.model import Fact, FactStatus, Source
from graphmem.retrieval.fact_cache import TTL, FactCache
from graphmem.retrieval.recall import RecallQuery, recall


async def known(db: Database, ns: Namespace, cache: FactCache, query: str) -> list[str]:
    """What recall's facts layer says, as subject/predicate/object (current names)."""
    found = await recall(db, ns, RecallQuery(query), cache=cache)
    return sorted(f"{p.fact.subject} {p.fact.predicate} {p.fact.object}"
                  for p in found.pieces if p.fact)


async def test_cache_hits_until_a_write_touches_the_entity(db: Database, ns: str) -> None:
    space, cache = Namespace(ns), FactCache()
    await facts.assert_facts(db, space, [facts.NewFact("Dana", "likes", "jazz")])
    assert await known(db, space, cache, "what does Dana like?") == ["Dana likes jazz"]
    assert await known(db, space, cache, "tell me about Dana") == ["Dana likes jazz"]
    assert (cache.hits, cache.misses) == (1, 1)

    await facts.assert_facts(db, space, [facts.NewFact("Bob", "knows", "Dana")])  # as object
    assert await known(db, space, cache, "Dana?") == ["Bob knows Dana", "Dana likes jazz"]
    assert cache.misses == 2

    page = await facts.page(db, space, facts.FactFilter(subject="Dana"), 10, None)
    await fact_changes.retract(db, space, page.items[0][1].id, "wrong", "test")
    assert await known(db, space, cache, "Dana?") == ["Bob knows Dana"]


async def test_a_merge_next_door_invalidates(db: Database, ns: str) -> None:
    space, cache = Namespace(ns), FactCache()
    await facts.assert_facts(db, space, [facts.NewFact("Dana", "knows", "B. Jones"),
                                         facts.NewFact("Bob Jones", "likes", "tea")])
    assert await known(db, space, cache, "Dana") == ["Dana knows B. Jones"]
    await entity_merge.merge_entities(db, space, into="Bob Jones", merged="B. Jones")
    assert await known(db, space, cache, "Dana") == ["Dana knows Bob Jones"]


def test_entries_expire_when_a_fact_stops_being_valid() -> None:
    cache, now = FactCache(), datetime.now(UTC)
    ending = Fact(id="f", namespace="n", subject="Dana", predicate="visiting",
                        object="Rome", object_kind="entity", text="Dana visiting Rome",
                        confidence=1.0, source=Source.USER_STATEMENT,
                        status=FactStatus.ACTIVE, valid_from=None,
                        valid_to=now + timedelta(seconds=5), recorded_at=now,
                        retracted_at=None, asserted_by=None, reason=None)
    cache.put("n", "e", 1, now, ([ending], []))
    assert cache.get("n", "e", 1, now + timedelta(seconds=4)) is not None
    assert cache.get("n", "e", 1, now + timedelta(seconds=5)) is None
    cache.put("n", "e", 1, now, ([], []))
    assert cache.get("n", "e", 1, now + TTL) is None
    assert cache.get("n", "e", 2, now) is None  # another version: a miss
