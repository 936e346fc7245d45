"""Time as data in search, over the real app and Neo4j: a turn's event time (what its words
tell of, read against when it was said), calendar spans in questions, first mentions, and a
cap per session. A small made-up conversation with dates."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from graphmem.core.config import SearchWeights, Settings
from graphmem.core.namespaces import Namespace
from graphmem.db import migration_steps
from graphmem.db.database import Database
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD

SEARCH = """
query($ns: String!, $q: String!, $ref: DateTime) {
  search(namespace: $ns, query: $q, kinds: [EPISODE], referenceTime: $ref) {
    timeRange { start end expression }
    hits { episode { externalId } }
  }
}"""
REDACT = """mutation($ns: String!, $id: ID!) {
  redactEpisode(namespace: $ns, id: $id, reason: "test") { id } }"""
TOLD = "MATCH (e:Episode {ns: $ns}) RETURN e.external_id AS id, e.event_start AS start, " \
       "e.event_end AS end ORDER BY id"
REF = "2023-09-20T12:00:00Z"
PRIORS = SearchWeights(session=0.0, event=1.0, earliest=0.5, per_session=1)


def turn(ext: str, session: str, when: str, actor: str, content: str) -> dict[str, Any]:
    return {"externalId": ext, "sessionId": session, "kind": "USER_MESSAGE", "actor": actor,
            "content": content, "occurredAt": when}


TURNS = [
    turn("a1", "s1", "2023-03-02T10:00:00Z", "Sam", "I started pottery classes on Tuesdays"),
    turn("a2", "s1", "2023-03-02T10:00:30Z", "Ada", "Pottery sounds calming"),
    turn("b1", "s2", "2023-09-01T10:00:00Z", "Sam",
         "We moved the sofa and moved the desk, everything moved around the flat"),
    turn("b2", "s2", "2023-09-01T10:00:30Z", "Sam", "More pottery classes this week"),
    turn("c1", "s3", "2023-09-10T10:00:00Z", "Sam", "Five months ago I moved to Leeds"),
    turn("c2", "s3", "2023-09-10T10:00:30Z", "Sam", "pottery classes pottery classes again"),
]


@pytest.fixture
async def weighted(settings: Settings, db: Database,
                   admin_token: str) -> AsyncIterator[GraphQLClient]:
    """The real app, its search weighing every prior these tests are about."""
    from graphmem.app import create_app

    app = create_app(settings.model_copy(update={"search_weights": PRIORS}))
    async with app.router.lifespan_context(app):
        while not app.state.runtime.ready:
            await asyncio.sleep(0.1)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://graphmem.test") as c:
            yield GraphQLClient(c, admin_token)


async def seed(gql: GraphQLClient, ns: str, db: Database) -> None:
    await gql.ok(RECORD, ns=ns, eps=TURNS)
    await embed_all_pending(db, WordLlamaEmbedder(), 256)


async def told(db: Database, ns: str) -> dict[str, tuple[str, str] | None]:
    async with db.driver.session() as session:
        rows = [r async for r in await session.run(TOLD, {"ns": ns})]
    return {r["id"]: (r["start"].isoformat()[:10], r["end"].isoformat()[:10])
            if r["start"] else None for r in rows}


async def search(gql: GraphQLClient, ns: str, q: str) -> tuple[dict[str, Any], list[str]]:
    result = (await gql.ok(SEARCH, ns=ns, q=q, ref=REF))["search"]
    return result, [h["episode"]["externalId"] for h in result["hits"]]


async def test_a_turn_stores_the_time_it_tells_of(weighted: GraphQLClient, ns: str,
                                                  db: Database) -> None:
    await seed(weighted, ns, db)
    stored = await told(db, ns)
    assert stored["c1"] == ("2023-04-01", "2023-05-01")  # "five months ago" in September
    # No time word, or only the week it was said in ("this week"): none.
    assert {k for k, v in stored.items() if v is None} == {"a1", "a2", "b1", "b2", "c2"}
    # Said in September, telling of April: "in April" finds it before the turn with more
    # of the words, said as far from April.
    result, found = await search(weighted, ns, "Where did Sam move in April 2023?")
    assert result["timeRange"]["expression"] == "in April 2023"
    assert found.index("c1") < found.index("b1")
    # Redacted, its words' time goes with its words.
    await weighted.ok(REDACT, ns=ns, id="c1")
    assert (await told(db, ns))["c1"] is None


async def test_turns_written_before_get_their_event_times(gql: GraphQLClient, ns: str,
                                                          db: Database) -> None:
    await seed(gql, ns, db)
    async with db.driver.session() as session:
        await (await session.run("MATCH (e:Episode {ns: $ns}) REMOVE e.event_start, e.event_end",
                                 {"ns": ns})).consume()
    assert set((await told(db, ns)).values()) == {None}
    await migration_steps.event_times_in(db, Namespace(ns))
    stored = await told(db, ns)
    assert stored["c1"] == ("2023-04-01", "2023-05-01")
    assert {k for k, v in stored.items() if v is None} == {"a1", "a2", "b1", "b2", "c2"}


async def test_a_calendar_span_in_the_question(gql: GraphQLClient, ns: str) -> None:
    for q, start, end, expression in (
            ("what happened between August 11 and August 15", "2023-08-11", "2023-08-16",
             "between August 11 and August 15"),
            ("what did Sam do the second week of March", "2023-03-08", "2023-03-15",
             "the second week of March"),
            ("where did Sam move two weeks before 10 September, 2023", "2023-08-20",
             "2023-09-11", "two weeks before 10 September, 2023")):
        result, _ = await search(gql, ns, q)
        assert result["timeRange"]["expression"] == expression
        assert (result["timeRange"]["start"][:10], result["timeRange"]["end"][:10]) == (
            start, end)


async def test_a_first_mention_and_sessions_beside_the_best(weighted: GraphQLClient, ns: str,
                                                           db: Database) -> None:
    await seed(weighted, ns, db)
    _, found = await search(weighted, ns, "When did Sam first go to pottery classes?")
    assert found[0] == "a1"  # March's, not September's repeats of it
    # One turn per session before any session's second: three sessions in the top three.
    _, pottery = await search(weighted, ns, "pottery classes")
    assert {t[0] for t in pottery[:3]} == {"a", "b", "c"}
