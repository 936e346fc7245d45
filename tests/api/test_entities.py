"""Entities over the real app and Neo4j: merging, traversal and timelines."""

from __future__ import annotations

from typing import Any

from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, FACTS, PROVENANCE, RECORD, ep, fact
from tests.support.graph import edges_and_statements, graph_size

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
    for source, into, code, field in (("Nobody", "Alice", "NOT_FOUND", "from"),
                                      ("Alice", "Nobody", "NOT_FOUND", "into"),
                                      ("Ali", "alice", "INVALID_INPUT", "from")):
        result = await gql(MERGE, ns=ns, **{"from": source, "into": into})
        error = result["errors"][0]["extensions"]
        assert (error["code"], error["field"]) == (code, field), (source, into)
    assert await graph_size(db) == before



async def test_a_merge_folds_only_what_overlaps_and_disputes_only_its_own_values(
        gql: GraphQLClient, ns: str) -> None:
    """The same job at two times is two versions, not a duplicate; two people living in the
    merged city is no dispute (only the merged entity's own ONE values can clash)."""
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("Alice", "works_at", "Acme", validTo="2020-01-01T00:00:00Z"),
        fact("A. Smith", "works_at", "Acme", validFrom="2021-01-01T00:00:00Z"),
        fact("Bob", "lives_in", "Lisbon"), fact("Carol", "lives_in", "Lisboa")])
    merge = """mutation($ns: String!, $from: String!, $into: String!) {
      mergeEntities(namespace: $ns, from: $from, into: $into) { duplicatesFolded
        conflictsOpened } }"""
    person = (await gql.ok(merge, ns=ns, **{"from": "A. Smith", "into": "Alice"}))
    assert person["mergeEntities"] == {"duplicatesFolded": 0, "conflictsOpened": 0}
    city = (await gql.ok(merge, ns=ns, **{"from": "Lisboa", "into": "Lisbon"}))
    assert city["mergeEntities"] == {"duplicatesFolded": 0, "conflictsOpened": 0}
    believed = await gql.ok(FACTS, ns=ns, history=True)
    assert sorted((f["subject"], f["predicate"], f["object"])
                  for f in believed["facts"]["nodes"]) == [
        ("Alice", "works_at", "Acme"), ("Alice", "works_at", "Acme"),
        ("Bob", "lives_in", "Lisbon"), ("Carol", "lives_in", "Lisbon")]


async def test_an_entity_reads_its_facts_out_and_in_apart(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "works_at", "Acme"),
                                       fact("Bob", "knows", "Alice")])
    found = await gql.ok("""query($ns: String!) { entity(namespace: $ns, name: "Alice") {
        factsOut { predicate object } factsIn { subject predicate } } }""", ns=ns)
    assert found["entity"] == {"factsOut": [{"predicate": "works_at", "object": "Acme"}],
                               "factsIn": [{"subject": "Bob", "predicate": "knows"}]}

TRAVERSE = """
query($ns: String!, $from: String!, $depth: Int!, $predicates: [String!], $direction: Direction!,
      $limit: Int! = 200, $validAt: DateTime) {
  traverse(namespace: $ns, from: $from, depth: $depth, predicates: $predicates,
           direction: $direction, limit: $limit, validAt: $validAt) {
    root { name } nodes { name kind depth } edges { fact { predicate } fromId toId depth }
    truncated
  }
}"""


async def test_traverse_walks_breadth_first_with_filters(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("Alice", "works_at", "Acme"), fact("Acme", "located_in", "Lisbon"),
        fact("Lisbon", "located_in", "Portugal"), fact("Bob", "knows", "Alice"),
        fact("Alice", "age", value={"number": 34}),
        fact("Alice", "lives_in", "Porto", validTo="2020-01-01T00:00:00Z"),
    ])

    async def walk(**args: object) -> dict[str, Any]:
        variables = {"from": "alice", "depth": 2, "direction": "BOTH", **args}
        found: dict[str, Any] = (await gql.ok(TRAVERSE, ns=ns, **variables))["traverse"]
        return found

    two = await walk()
    assert {(n["name"], n["depth"]) for n in two["nodes"]} == {
        ("Alice", 0), ("Acme", 1), ("Bob", 1), ("34", 1), ("Lisbon", 2)}
    assert sorted(e["fact"]["predicate"] for e in two["edges"]) == [
        "age", "knows", "located_in", "works_at"]  # Porto ended in 2020: not valid now
    assert not two["truncated"]
    four = await walk(depth=4, predicates=["works_at", "Located In"], direction="OUT")
    assert [n["name"] for n in four["nodes"]] == ["Alice", "Acme", "Lisbon", "Portugal"]
    past = await walk(depth=1, validAt="2019-06-01T00:00:00Z", predicates=["lives_in"])
    assert [n["name"] for n in past["nodes"]] == ["Alice", "Porto"]
    inbound = await walk(depth=1, direction="IN")
    assert [n["name"] for n in inbound["nodes"]] == ["Alice", "Bob"]
    capped = await walk(depth=4, limit=2)
    assert capped["truncated"] and len(capped["edges"]) == 2


async def test_traverse_refuses_bad_arguments(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "works_at", "Acme")])
    for args, code in (({"depth": 5}, "INVALID_INPUT"), ({"depth": 0}, "INVALID_INPUT"),
                       ({"limit": 0}, "INVALID_INPUT"), ({"from": "Nobody"}, "NOT_FOUND"),
                       ({"predicates": ["x`]->() DETACH DELETE n //"]}, "INVALID_INPUT"),
                       ({"validAt": "2020-01-01T00:00:00"}, "INVALID_INPUT")):
        variables = {"from": "Alice", "depth": 2, "direction": "BOTH", **args}
        result = await gql(TRAVERSE, ns=ns, **variables)
        assert result["errors"][0]["extensions"]["code"] == code, args


TIMELINE = """
query($ns: String!, $entity: String!, $after: String) {
  timeline(namespace: $ns, entity: $entity, first: 2, after: $after) {
    nodes { at fact { predicate object status } }
    pageInfo { hasNextPage endCursor }
  }
}"""


async def test_timeline_orders_history_by_world_time(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("Alice", "lives_in", "Berlin", validFrom="2022-03-01T00:00:00Z"),
        fact("Alice", "lives_in", "Lisbon", validFrom="2019-01-01T00:00:00Z",
             validTo="2022-03-01T00:00:00Z"),
        fact("Bob", "knows", "Alice", validFrom="2020-06-01T00:00:00Z"),
    ])
    first = (await gql.ok(TIMELINE, ns=ns, entity="alice"))["timeline"]
    rest = (await gql.ok(TIMELINE, ns=ns, entity="alice",
                         after=first["pageInfo"]["endCursor"]))["timeline"]
    assert first["pageInfo"]["hasNextPage"] and not rest["pageInfo"]["hasNextPage"]
    assert [(e["at"][:10], e["fact"]["object"]) for e in first["nodes"] + rest["nodes"]] == [
        ("2019-01-01", "Lisbon"), ("2020-06-01", "Alice"), ("2022-03-01", "Berlin")]
    missing = await gql(TIMELINE, ns=ns, entity="Nobody")
    assert missing["errors"][0]["extensions"]["code"] == "NOT_FOUND"
