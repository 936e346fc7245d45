"""Conversation-aware search over the real app and Neo4j: speakers, windows, soft time,
exact namespaces, and erasure that leaves no copy of a turn in its neighbours."""

from __future__ import annotations

from typing import Any

from graphmem.core.namespaces import lucene_key
from graphmem.db import migration_steps
from graphmem.db.database import Database
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.client import GraphQLClient
from tests.support.graph import delete_namespace

RECORD = """
mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) { episodes { id externalId } }
}"""
SEARCH = """
query($ns: String!, $q: String!, $ref: DateTime, $limit: Int! = 10) {
  search(namespace: $ns, query: $q, kinds: [EPISODE], referenceTime: $ref, limit: $limit) {
    actors priors timeRange { expression }
    hits { episode { externalId } }
  }
}"""
ERASE = """
mutation($ns: String!, $ids: [String!]!) {
  eraseEpisodes(namespace: $ns, ids: $ids) { verified }
}"""


def turn(ext: str, speaker: str, content: str, when: str, session: str = "s1") -> dict[str, Any]:
    return {"externalId": ext, "sessionId": session, "kind": "USER_MESSAGE", "actor": speaker,
            "content": content, "occurredAt": when}


async def found(gql: GraphQLClient, ns: str, q: str, **args: Any) -> list[str]:
    result = (await gql.ok(SEARCH, ns=ns, q=q, **args))["search"]
    return [h["episode"]["externalId"] for h in result["hits"]]


async def test_a_named_speaker_is_who_spoke_not_a_word(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        turn("t1", "Melanie", "Caroline, did you ever paint landscapes?", "2023-05-08T13:00:00Z"),
        turn("t2", "Caroline", "Yes! I paint landscapes, mostly lakes at sunrise.",
             "2023-05-08T13:00:30Z"),
        turn("t3", "Melanie", "I paint pottery now, it is my therapy.", "2023-05-08T13:01:00Z"),
    ])
    result = (await gql.ok(SEARCH, ns=ns, q="What does Caroline paint?"))["search"]
    assert result["actors"] == ["Caroline"]
    assert any("Caroline" in p for p in result["priors"])
    assert result["hits"][0]["episode"]["externalId"] == "t2"


async def test_an_elliptic_answer_is_found_in_its_window(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        turn("q", "Ana", "Which city are you moving to?", "2023-05-08T13:00:00Z"),
        turn("a", "Ben", "Porto, next month.", "2023-05-08T13:00:30Z"),
        turn("x", "Ana", "I bought new running shoes.", "2023-05-08T13:01:00Z"),
        turn("y", "Ben", "Nice, I prefer cycling.", "2023-05-08T13:01:30Z"),
    ])
    assert {"q", "a"} <= set((await found(gql, ns, "Which city is Ben moving to?"))[:2])


async def test_a_time_in_the_query_ranks_and_never_filters(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        turn("old", "Ana", "We went hiking in the Alps.", "2021-03-01T10:00:00Z", "s1"),
        turn("june", "Ana", "We went hiking near the lake.", "2023-06-03T10:00:00Z", "s2"),
    ])
    on_date = await found(gql, ns, "Where did Ana go hiking on 3 June, 2023?")
    assert on_date[0] == "june" and "old" in on_date
    last_year = (await gql.ok(SEARCH, ns=ns, q="hiking last year",
                              ref="2023-07-01T00:00:00Z"))["search"]
    assert last_year["timeRange"]["expression"] == "last year"
    assert {h["episode"]["externalId"] for h in last_year["hits"]} == {"old", "june"}


async def test_another_namespace_never_changes_my_results(gql: GraphQLClient, ns: str,
                                                          db: Database) -> None:
    """Namespaces that extend mine, or differ in case, shared the phrase-scoped candidate pool:
    100 'pizza' episodes there removed every keyword hit here (issue 16.6)."""
    mine = [turn(f"m{i}", "Bob", f"note {i}: dinner was pizza with olives", "2023-05-08T13:00:00Z",
                 f"s{i}") for i in range(3)]
    await gql.ok(RECORD, ns=ns, eps=mine)
    await embed_all_pending(db, WordLlamaEmbedder(), 256)  # rankings settle: no worker mid-test
    before = await found(gql, ns, "pizza", limit=3)
    assert len(before) == 3
    others = [f"evil/{ns}", f"{ns}/x", ns.upper()]
    try:
        for other in others:
            await gql.ok(RECORD, ns=other, eps=[
                turn(f"o{i}", "Eve", "pizza pizza pizza", "2023-05-08T13:00:00Z", f"s{i}")
                for i in range(100)])
        await embed_all_pending(db, WordLlamaEmbedder(), 256)
        for limit in (1, 3):
            assert await found(gql, ns, "pizza", limit=limit) == before[:limit]
    finally:
        for other in others:
            await delete_namespace(db, other)


async def test_erasing_a_turn_leaves_no_copy_in_its_neighbours(gql: GraphQLClient, ns: str,
                                                               db: Database) -> None:
    """The turns around an erased one carried its text in their context and window
    (issue 16.4: erasing a session's first turn left it searchable through the second)."""
    await gql.ok(RECORD, ns=ns, eps=[
        turn("e1", "Ana", "My secret word is quetzalcoatl.", "2023-05-08T13:00:00Z"),
        turn("e2", "Ben", "Noted.", "2023-05-08T13:00:30Z"),
        turn("e3", "Ana", "And my cat is Miso.", "2023-05-08T13:01:00Z"),
        turn("e4", "Ben", "Lovely.", "2023-05-08T13:01:30Z"),
    ])
    assert "e2" in await found(gql, ns, "quetzalcoatl")
    for erased in (["e1"], ["e3"]):
        assert (await gql.ok(ERASE, ns=ns, ids=erased))["eraseEpisodes"]["verified"]
    assert await found(gql, ns, "quetzalcoatl") == []
    assert await found(gql, ns, "Miso") == []
    async with db.driver.session(database=db.name) as session:
        result = await session.run(
            "MATCH (e:Episode {ns: $ns}) RETURN e.external_id AS id, e.context AS context, "
            "e.window AS window ORDER BY id", {"ns": ns})
        stored = [r.data() async for r in result]
    assert [r["id"] for r in stored] == ["e2", "e4"]
    assert all("quetzalcoatl" not in str(r) and "Miso" not in str(r) for r in stored)
    assert stored[0]["context"] is None and stored[1]["context"] == "Noted."


async def test_the_migration_step_indexes_what_was_written_before(gql: GraphQLClient, ns: str,
                                                                  db: Database) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        turn("a", "Ana", "Which city are you moving to?", "2023-05-08T13:00:00Z"),
        turn("b", "Ben", "Porto, next month.", "2023-05-08T13:00:30Z"),
    ])
    async with db.driver.session(database=db.name) as session:  # as before migration 0012
        await (await session.run(
            "MATCH (n {ns: $ns}) REMOVE n.ns_key, n.window, n.context_actor "
            "WITH count(*) AS c MATCH (a:Actor {ns: $ns}) DELETE a", {"ns": ns})).consume()
    keyword = ("CALL db.index.fulltext.queryNodes('episode_search', $q) YIELD node "
               "RETURN node.external_id AS id")
    query = {"q": f"+ns_key:{lucene_key(ns)} +window:porto"}
    assert (await db.driver.execute_query(keyword, query))[0] == []  # unreachable by BM25
    await migration_steps.conversation_search(db)
    assert {r["id"] for r in (await db.driver.execute_query(keyword, query))[0]} == {"a", "b"}
    result = (await gql.ok(SEARCH, ns=ns, q="Which city is Ben moving to?"))["search"]
    assert {"a", "b"} == {h["episode"]["externalId"] for h in result["hits"]}
    speakers, _, _ = await db.driver.execute_query(  # (search remembers them for seconds)
        "MATCH (a:Actor {ns: $ns}) RETURN a.name AS name ORDER BY name", {"ns": ns})
    assert [r["name"] for r in speakers] == ["Ana", "Ben"]


async def test_time_phrases_outside_the_calendar_are_ignored(gql: GraphQLClient, ns: str) -> None:
    """"what did I say 10000 years ago" (ValueError), "99999999999 days ago" (OverflowError)
    and "last tuesday" at year 1 answered INTERNAL from search and recall (issue 16.8); a
    reference time now lies after 0100-01-01 (tests/api/test_ranges.py), and "last tuesday"
    at that edge is still no failure."""
    await gql.ok(RECORD, ns=ns, eps=[turn("t", "user", "I say hello every day",
                                          "2023-05-08T13:00:00Z")])
    recall = """query($ns: String!, $q: String!, $ref: DateTime) { recall(namespace: $ns,
        query: $q, referenceTime: $ref) { plan { layer reason } timeRange { expression } } }"""
    for q, ref in (("what did I say 10000 years ago", None), ("99999999999 days ago hello", None)):
        found = (await gql.ok(SEARCH, ns=ns, q=q, ref=ref))["search"]
        assert found["timeRange"] is None and [h["episode"]["externalId"]
                                               for h in found["hits"]] == ["t"], q
        assert (await gql.ok(recall, ns=ns, q=q, ref=ref))["recall"]["timeRange"] is None
    # At the calendar's edge the phrase is read (a week in year 99), a soft prior: no failure,
    # and the turn is still found.
    edge = {"q": "what did I say last tuesday", "ref": "0100-01-01T00:00:00Z"}
    found = (await gql.ok(SEARCH, ns=ns, **edge))["search"]
    assert [h["episode"]["externalId"] for h in found["hits"]] == ["t"]
    assert (await gql.ok(recall, ns=ns, **edge))["recall"]["plan"]
