"""Entities over the real app and Neo4j: merging, traversal and timelines."""

from __future__ import annotations

from graphmem.db import Database
from tests.api.test_episodes import RECORD, ep
from tests.api.test_facts import ASSERT, FACTS, PROVENANCE, edges_and_statements, fact
from tests.conftest import GraphQLClient, graph_size

MERGE = """
mutation($ns: String!, $from: String!, $into: String!) {
  mergeEntities(namespace: $ns, from: $from, into: $into, reason: "same person") {
    entity { name aliases } factsMoved edgesMoved aliasesMoved duplicatesFolded mergeId
  }
}"""


async def test_merge_moves_facts_provenance_and_aliases(gql: GraphQLClient, db: Database,
                                                        ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1), ep("m2", 2), ep("m3", 3)])
    asserted = await gql.ok(ASSERT, ns=ns, facts=[
        fact("Alice", "works_at", "Acme", evidence=["m1"]),
        fact("A. Smith", "works_at", "Acme", evidence=["m2"], confidence=0.7),
        fact("A. Smith", "likes", "jazz", evidence=["m3"]),
        fact("Bob", "knows", "A. Smith"),
        fact("A. Smith", "knows", "A. Smith"),
    ])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "A. Smith",
                    alias: "Smithy") { id } }""", ns=ns)
    older, duplicate = (a["fact"]["id"] for a in asserted["assertFacts"][:2])

    merged = (await gql.ok(MERGE, ns=ns, **{"from": "a. smith", "into": "Alice"}))
    report = merged["mergeEntities"]
    assert report["entity"] == {"name": "Alice", "aliases": ["A. Smith", "Smithy"]}
    assert (report["factsMoved"], report["edgesMoved"]) == (4, 4)
    assert (report["aliasesMoved"], report["duplicatesFolded"]) == (1, 1)

    current = await gql.ok(FACTS, ns=ns, where={"subject": "Smithy"})
    assert sorted((f["predicate"], f["object"]) for f in current["facts"]["nodes"]) == [
        ("knows", "Alice"), ("likes", "jazz"), ("works_at", "Acme")]
    works = next(f for f in current["facts"]["nodes"] if f["predicate"] == "works_at")
    assert works["id"] == older
    assert {e["externalId"] for e in works["evidence"]} == {"m1", "m2"}
    history = await gql.ok(PROVENANCE, ns=ns, id=duplicate)
    assert history["provenance"]["supersededBy"] == [{"id": older}]
    rows, _, _ = await db.driver.execute_query(
        "MATCH (:Entity {ns: $ns, name: 'Bob'})-[:KNOWS]->(e:Entity) RETURN e.name AS name "
        "UNION ALL MATCH (m:EntityMerge {ns: $ns})-[:INTO]->(e) RETURN m.from_name AS name",
        {"ns": ns})
    assert [r["name"] for r in rows] == ["Alice", "A. Smith"]
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements and len(edges) == 5
    again = await gql.ok(ASSERT, ns=ns, facts=[fact("A. Smith", "likes", "Jazz")])
    assert again["assertFacts"][0]["outcome"] == "EVIDENCE_ADDED"


async def test_bad_merges_are_typed_errors_writing_nothing(gql: GraphQLClient, db: Database,
                                                           ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "works_at", "Acme")])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "Alice",
                    alias: "Ali") { id } }""", ns=ns)
    before = await graph_size(db)
    for source, into, code in (("Nobody", "Alice", "NOT_FOUND"), ("Alice", "Nobody", "NOT_FOUND"),
                               ("Ali", "alice", "INVALID_INPUT")):
        result = await gql(MERGE, ns=ns, **{"from": source, "into": into})
        assert result["errors"][0]["extensions"]["code"] == code, (source, into)
    assert await graph_size(db) == before
