"""Moving from Graphiti: a graph written by graphiti-core's own models (no LLM) into the test
Neo4j, under its own group, imports with the documented mapping (graphmem/portability/
graphiti.py): episodes in their sagas, one entity per name, every edge a fact version with
its evidence and its belief in time, the saga's summary; and again without change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from graphiti_core.driver.neo4j_driver import Neo4jDriver
from graphiti_core.edges import EntityEdge, HasEpisodeEdge
from graphiti_core.nodes import EntityNode, EpisodeType, EpisodicNode, Node, SagaNode

from graphmem.core.errors import DatabaseUnavailable, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.local_neo4j import LocalNeo4j
from graphmem.portability import graphiti
from graphmem.portability.importing import import_lines
from tests.support.client import GraphQLClient
from tests.support.graph import edges_and_statements, namespace_contents


def at(month: int, day: int, hour: int = 10, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2025, month, day, hour, minute, second, tzinfo=UTC)


EMBEDDING = [0.1, 0.2, 0.3]  # Graphiti stores one with every entity and edge


@pytest.fixture
async def group(local_neo4j: LocalNeo4j) -> AsyncIterator[str]:
    """A Graphiti graph: Alice changes jobs in the saga "onboarding"; deleted afterwards."""
    name = f"g{uuid.uuid4().hex[:10]}"
    driver = Neo4jDriver(local_neo4j.bolt_uri, "neo4j", local_neo4j.password())
    try:
        await _write_graph(driver, name)
        yield name
    finally:
        await driver.execute_query("MATCH (n) WHERE n.group_id = $g DETACH DELETE n", g=name)
        await driver.close()


async def _write_graph(driver: Neo4jDriver, g: str) -> None:
    def episode(content: str, source: EpisodeType, valid: datetime, created: datetime,
                ) -> EpisodicNode:
        return EpisodicNode(name=f"turn {valid:%m-%d %H:%M}", group_id=g, source=source,
                            source_description="chat", content=content, valid_at=valid,
                            created_at=created)

    joined = episode("alice: I just started at Acme Robotics", EpisodeType.message,
                     at(1, 1), at(1, 1))
    # Ingested half a minute after it was said, the very moment the saga was summarised:
    # it occurred when said, and the summary had seen it.
    moved = episode("alice: I left Acme, I work at Globex now", EpisodeType.message,
                    at(3, 1), at(3, 1, second=30))
    noted = episode("Assistant: Noted, Globex it is.", EpisodeType.message,
                    at(3, 1, minute=1), at(3, 1, minute=1))
    wiki = episode("Globex is a logistics company based in Oslo.", EpisodeType.text,
                   at(3, 2), at(3, 2))
    alice = EntityNode(name="Alice", group_id=g, labels=["Person"], created_at=at(1, 1),
                       name_embedding=EMBEDDING)
    alice_again = EntityNode(name="alice", group_id=g, created_at=at(3, 1),
                             name_embedding=EMBEDDING)  # Graphiti's dedup missed her
    acme, globex, oslo = (EntityNode(name=n, group_id=g, labels=labels, created_at=at(1, 1),
                                     name_embedding=EMBEDDING)
                          for n, labels in (("Acme Robotics", ["Company"]),
                                            ("Globex", ["Company"]), ("Oslo", [])))

    def edge(source: EntityNode, name: str, target: EntityNode, fact: str,
             episodes: list[EpisodicNode], created: datetime, valid: datetime,
             **ended: datetime) -> EntityEdge:
        return EntityEdge(source_node_uuid=source.uuid, target_node_uuid=target.uuid, name=name,
                          fact=fact, group_id=g, episodes=[e.uuid for e in episodes],
                          created_at=created, valid_at=valid, fact_embedding=EMBEDDING, **ended)

    edges = [
        edge(alice, "WORKS_AT", acme, "Alice works at Acme Robotics", [joined],
             at(1, 1, second=5), at(1, 1), invalid_at=at(3, 1), expired_at=at(3, 1, second=5)),
        edge(alice_again, "WORKS_AT", globex, "Alice works at Globex", [moved],
             at(3, 1, second=5), at(3, 1)),
        edge(alice, "WORKS_AT", globex, "Alice works for Globex", [noted],  # the same again
             at(3, 1, minute=1, second=5), at(3, 1)),
        edge(globex, "SUBJECT", oslo, "Globex is based in Oslo", [wiki],  # a reserved name
             at(3, 2, second=5), at(3, 2)),
    ]
    saga = SagaNode(name="onboarding", group_id=g, created_at=at(1, 1),
                    summary="Alice moved from Acme Robotics to Globex.",
                    last_summarized_at=at(3, 1, second=30))  # before the assistant's turn
    nodes: list[Node] = [joined, moved, noted, wiki, alice, alice_again, acme, globex, oslo, saga]
    for item in nodes:
        await item.save(driver)
    for fact in edges:
        await fact.save(driver)
    for turn in (joined, moved, noted):
        await HasEpisodeEdge(source_node_uuid=saga.uuid, target_node_uuid=turn.uuid,
                             group_id=g, created_at=turn.created_at).save(driver)


async def lines_of(local_neo4j: LocalNeo4j, group: str, ns: str) -> list[str]:
    found = await graphiti.read(local_neo4j.bolt_uri, ("neo4j", local_neo4j.password()), group)
    return [json.dumps(r) for r in graphiti.records(found, Namespace(ns))]


EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 20) { nodes {
  id externalId content kind actor sessionId seq occurredAt recordedAt metadata } } }"""
FACTS = """query($ns: String!, $asOf: DateTime, $history: Boolean!) {
  facts(namespace: $ns, asOf: $asOf, includeHistory: $history) { nodes {
    id subject predicate object text status validFrom validTo source recordedAt retractedAt
    reason } } }"""


async def test_a_graphiti_group_imports_with_its_history(
        db: Database, gql: GraphQLClient, ns: str, local_neo4j: LocalNeo4j, group: str) -> None:
    result = await import_lines(db, await lines_of(local_neo4j, group, ns))
    assert result.namespace == ns

    episodes = (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]
    assert [(e["content"], e["kind"], e["actor"], e["sessionId"], e["seq"]) for e in episodes] \
        == [("alice: I just started at Acme Robotics", "USER_MESSAGE", "alice", "onboarding", 1),
            ("alice: I left Acme, I work at Globex now", "USER_MESSAGE", "alice", "onboarding", 2),
            ("Assistant: Noted, Globex it is.", "AGENT_MESSAGE", "Assistant", "onboarding", 3),
            ("Globex is a logistics company based in Oslo.", "DOCUMENT", None, "graphiti", 1)]
    first = episodes[0]
    assert first["externalId"].startswith("graphiti:")
    assert first["occurredAt"] == first["recordedAt"] == "2025-01-01T10:00:00+00:00"
    assert first["metadata"]["graphiti"] == {
        "uuid": first["externalId"].removeprefix("graphiti:"), "name": "turn 01-01 10:00",
        "source": "message", "source_description": "chat"}

    now = await gql.ok(FACTS, ns=ns, asOf=None, history=False)
    assert sorted((f["subject"], f["predicate"], f["object"], f["text"])
                  for f in now["facts"]["nodes"]) == [
        ("Alice", "works_at", "Globex", "Alice works at Globex"),
        ("Globex", "relates_to", "Oslo", "Globex is based in Oslo")]
    in_february = await gql.ok(FACTS, ns=ns, asOf="2025-02-01T00:00:00Z", history=False)
    [acme] = in_february["facts"]["nodes"]  # what Graphiti believed then
    assert (acme["object"], acme["source"]) == ("Acme Robotics", "IMPORT")
    before = await gql.ok(FACTS, ns=ns, asOf="2024-12-31T00:00:00Z", history=False)
    assert before["facts"]["nodes"] == []
    history = {f["id"]: f for f in
               (await gql.ok(FACTS, ns=ns, asOf=None, history=True))["facts"]["nodes"]}
    ended = history[acme["id"]]
    assert (ended["status"], ended["validFrom"], ended["validTo"], ended["retractedAt"],
            ended["reason"]) == ("SUPERSEDED", "2025-01-01T10:00:00+00:00",
                                 "2025-03-01T10:00:00+00:00", "2025-03-01T10:00:05+00:00",
                                 "invalidated in Graphiti")
    assert len(history) == 3  # the repeated Globex edge is the same fact, not a second one

    globex = next(f for f in now["facts"]["nodes"] if f["object"] == "Globex")
    why = await gql.ok("""query($ns: String!, $id: ID!) { provenance(namespace: $ns,
        factId: $id) { evidence { content } } }""", ns=ns, id=globex["id"])
    assert sorted(e["content"] for e in why["provenance"]["evidence"]) == [
        "Assistant: Noted, Globex it is.", "alice: I left Acme, I work at Globex now"]

    summary = (await gql.ok("""query($ns: String!) { summary(namespace: $ns,
        sessionId: "onboarding") { text producer coversFrom coversTo } }""", ns=ns))["summary"]
    assert summary == {"text": "Alice moved from Acme Robotics to Globex.",
                       "producer": "graphiti", "coversFrom": "2025-01-01T10:00:00+00:00",
                       "coversTo": "2025-03-01T10:00:00+00:00"}  # not the later turn
    alice = await gql.ok("""query($ns: String!) { entity(namespace: $ns, name: "ALICE") {
        name type } }""", ns=ns)
    assert alice["entity"] == {"name": "Alice", "type": "person"}
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements  # one predicate edge per fact version, and they agree


async def test_importing_the_same_group_again_changes_nothing(
        db: Database, ns: str, local_neo4j: LocalNeo4j, group: str) -> None:
    await import_lines(db, await lines_of(local_neo4j, group, ns))
    once = await namespace_contents(db, ns)
    await import_lines(db, await lines_of(local_neo4j, group, ns))
    assert await namespace_contents(db, ns) == once


async def test_an_unknown_group_or_server_is_a_clear_error(local_neo4j: LocalNeo4j) -> None:
    auth = ("neo4j", local_neo4j.password())
    with pytest.raises(NotFound, match="no episodes or edges in group 'nobody'"):
        await graphiti.read(local_neo4j.bolt_uri, auth, "nobody")
    with pytest.raises(DatabaseUnavailable, match="cannot read Graphiti's graph"):
        await graphiti.read(local_neo4j.bolt_uri, ("neo4j", "wrong-password"), "nobody")



async def test_a_group_imports_from_the_command_line(
        db: Database, ns: str, local_neo4j: LocalNeo4j, group: str) -> None:
    env = {**os.environ, "GRAPHITI_NEO4J_PASSWORD": local_neo4j.password()}
    done = subprocess.run(
        [sys.executable, "-m", "graphmem", "import", local_neo4j.bolt_uri, "--from",
         "graphiti", "--group", group, "--into", ns], capture_output=True, text=True,
        timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    # 2 actors, 2 sessions, 4 entities, 4 episodes, 3 facts, 1 summary
    assert "imported 16 nodes" in done.stderr
    assert len(await namespace_contents(db, ns)) == 16
    no_group = subprocess.run(
        [sys.executable, "-m", "graphmem", "import", local_neo4j.bolt_uri, "--from",
         "graphiti", "--into", ns], capture_output=True, text=True, timeout=120, env=env)
    assert no_group.returncode != 0 and "--group" in no_group.stderr
