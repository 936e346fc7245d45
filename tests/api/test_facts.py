"""assertFacts, facts, entity, provenance and summaries over the real app and Neo4j."""

from __future__ import annotations

from typing import Any

import pytest
from prometheus_client import REGISTRY

from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, FACTS, PROVENANCE, RECORD, ep, fact
from tests.support.graph import edges_and_statements, graph_size


async def test_fact_is_an_edge_with_a_statement_node_and_evidence(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "I work at Acme now")])
    data = await gql.ok(ASSERT, ns=ns, facts=[
        fact("Alice", "works_at", "Acme", evidence=["m1"], confidence=0.9),
        fact("Alice", "age", value={"number": 34}),
    ])
    works, age = data["assertFacts"]
    assert works["outcome"] == "CREATED" and works["fact"]["relationshipType"] == "WORKS_AT"
    assert works["fact"]["evidence"] == [{"externalId": "m1"}]
    assert age["fact"]["objectKind"] == "number" and age["fact"]["object"] == "34"
    rows, _, _ = await db.driver.execute_query(
        "MATCH (:Entity {ns: $ns, name: 'Alice'})-[r:WORKS_AT]->(:Entity {name: 'Acme'}) "
        "RETURN r.fact_id AS id", {"ns": ns})
    assert [r["id"] for r in rows] == [works["fact"]["id"]]
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements and len(edges) == 2


async def test_reasserting_adds_evidence_instead_of_a_duplicate(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1), ep("m2", 2)])
    first = await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "likes", "jazz", evidence=["m1"],
                                                    confidence=0.6)])
    again = await gql.ok(ASSERT, ns=ns, facts=[fact(" alice ", "likes", "JAZZ", evidence=["m2"],
                                                    confidence=0.8)])
    assert again["assertFacts"][0]["outcome"] == "EVIDENCE_ADDED"
    assert again["assertFacts"][0]["fact"]["id"] == first["assertFacts"][0]["fact"]["id"]
    assert again["assertFacts"][0]["fact"]["confidence"] == 0.8
    assert {e["externalId"] for e in again["assertFacts"][0]["fact"]["evidence"]} == {"m1", "m2"}
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements and len(edges) == 1  # the edge's confidence was raised too


async def test_restating_with_a_confidence_sets_it_on_the_fact_and_its_edge(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """README *Confidence*: the speaker is now that sure, lower as well as higher; an
    unqualified restatement keeps it. The edge between the entities follows the fact."""
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1), ep("m2", 2), ep("m3", 3)])
    await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "likes", "jazz", evidence=["m1"],
                                            confidence=0.8)])
    again = await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "likes", "jazz", evidence=["m2"],
                                                    confidence=0.3)])
    assert again["assertFacts"][0]["outcome"] == "EVIDENCE_ADDED"
    assert again["assertFacts"][0]["fact"]["confidence"] == 0.3
    unqualified = {k: v for k, v in fact("Alice", "likes", "jazz", evidence=["m3"]).items()
                   if k != "confidence"}
    third = await gql.ok(ASSERT, ns=ns, facts=[unqualified])
    assert third["assertFacts"][0]["fact"]["confidence"] == 0.3
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements and [e["confidence"] for e in edges] == [0.3]


async def test_facts_query_filters_by_subject_alias_and_predicate(
        gql: GraphQLClient, ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[fact("Alice Smith", "works_at", "Acme"),
                                       fact("Alice Smith", "likes", "jazz"),
                                       fact("Bob", "works_at", "Initech")])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "alice smith",
                    alias: "Ali") { aliases } }""", ns=ns)
    data = await gql.ok(FACTS, ns=ns, where={"subject": "ALI", "predicate": "Works At"})
    assert [(f["subject"], f["object"]) for f in data["facts"]["nodes"]] == [("Alice Smith",
                                                                             "Acme")]
    entity = await gql.ok("""query($ns: String!) { entity(namespace: $ns, name: "ali") {
        name aliases factsOut { predicate object } factsIn { subject } } }""", ns=ns)
    assert entity["entity"]["aliases"] == ["Ali"]
    assert {f["predicate"] for f in entity["entity"]["factsOut"]} == {"works_at", "likes"}


async def test_provenance_is_one_statement(gql: GraphQLClient, db: Database, ns: str) -> None:
    """An auditor's question, "why do you believe this?", in one read: the fact, its
    evidence in time order and the rest of its audit (the key lookup aside)."""
    await gql.ok(RECORD, ns=ns, eps=[ep("m2", 2, "Still in Lisbon"),
                                     ep("m1", 1, "Moved to Lisbon")])
    asserted = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "lives_in", "Lisbon",
                                                       evidence=["m2", "m1"])])
    def evidence_reads() -> float | None:
        return REGISTRY.get_sample_value("graphmem_cypher_seconds_count",
                                         {"statement": "facts/evidence_of"})

    before = evidence_reads(), db.round_trips
    audit = (await gql.ok(PROVENANCE, ns=ns, id=asserted["assertFacts"][0]["fact"]["id"]))
    assert [e["content"] for e in audit["provenance"]["evidence"]] == [
        "Moved to Lisbon", "Still in Lisbon"]
    assert evidence_reads() == before[0]  # no second statement for the evidence
    assert db.round_trips - before[1] <= 2  # the key's lookup (unless cached), provenance


async def test_provenance_round_trip(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "I moved to Lisbon last week"),
                                     ep("m2", 5, "The flat is near the river")])
    asserted = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "lives_in", "Lisbon",
                                                       evidence=["m1"], source="USER_STATEMENT")])
    fact_id = asserted["assertFacts"][0]["fact"]["id"]
    episodes = await gql.ok("""query($ns: String!) { episodes(namespace: $ns, first: 5) {
        nodes { id } } }""", ns=ns)
    episode_id, later_id = (e["id"] for e in episodes["episodes"]["nodes"])
    write = """mutation($ns: String!, $s: SummaryInput!) {
        writeSummary(namespace: $ns, summary: $s) { id stale coversFrom coversTo } }"""
    earlier = await gql.ok(write, ns=ns, s={"text": "The flat is near the river.",
                                            "covers": [later_id], "sessionId": "s0"})
    # It spans the episode it covers and the summary it covers (of a later turn).
    summary = await gql.ok(write, ns=ns, s={
        "text": "User moved to Lisbon.", "covers": [earlier["writeSummary"]["id"], episode_id],
        "cites": [fact_id], "sessionId": "s1"})
    span = summary["writeSummary"]
    assert (span["coversFrom"], span["coversTo"]) == ("2026-05-01T09:01:00+00:00",
                                                      "2026-05-01T09:05:00+00:00")
    audit = (await gql.ok(PROVENANCE, ns=ns, id=fact_id))["provenance"]
    assert audit["fact"]["assertedBy"] == "tests-admin"
    assert audit["evidence"][0]["content"] == "I moved to Lisbon last week"
    assert audit["evidence"][0]["sessionId"] == "s1"
    assert audit["citedBy"] == [{"id": summary["writeSummary"]["id"],
                                 "text": "User moved to Lisbon."}]
    reverse = await gql.ok("""query($ns: String!, $id: ID!) { episode(namespace: $ns, id: $id) {
        derivedFacts { id } summaries { id } } }""", ns=ns, id=episode_id)
    assert reverse["episode"]["derivedFacts"] == [{"id": fact_id}]
    assert reverse["episode"]["summaries"] == [{"id": summary["writeSummary"]["id"]}]
    latest = await gql.ok("""query($ns: String!) { summary(namespace: $ns, sessionId: "s1") {
        text stale } }""", ns=ns)
    assert latest["summary"] == {"text": "User moved to Lisbon.", "stale": False}
    await gql.ok("""mutation($ns: String!, $id: ID!) { retractFact(namespace: $ns, factId: $id,
        reason: "moved away") { status } }""", ns=ns, id=fact_id)
    after = await gql.ok("""query($ns: String!) { summary(namespace: $ns, sessionId: "s1") {
        stale } }""", ns=ns)
    assert after["summary"] == {"stale": True}  # it cites what memory no longer believes


HOSTILE = [
    "Entity`) WITH n MATCH (x) DETACH DELETE x //",
    "works_at]->() DETACH DELETE x //",
    "a" * 65,
    "1abc",
    "",
    "works-at; DROP",
    "NEXT",
    "evidenced_by",
    "works\u0000at",
]


@pytest.mark.parametrize("predicate", HOSTILE)
async def test_hostile_predicates_are_typed_errors_writing_nothing(
        gql: GraphQLClient, db: Database, ns: str, predicate: str) -> None:
    before = await graph_size(db)
    body = await gql(ASSERT, ns=ns, facts=[fact("Alice", "likes", "tea"),
                                           fact("Alice", predicate, "Acme")])
    assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    assert body["errors"][0]["extensions"]["index"] == 1
    assert await graph_size(db) == before


@pytest.mark.parametrize("bad", [
    fact("Alice", "works_at"),  # neither object nor value
    fact("Alice", "works_at", "Acme", value={"string": "x"}),  # both
    fact("Alice", "age", value={"number": 3, "string": "3"}),  # two literal fields
    fact("Alice", "works_at", "Acme", confidence=1.5),
    fact("Alice", "works_at", "Acme", validFrom="2026-01-01T00:00:00Z",
         validTo="2025-01-01T00:00:00Z"),
    fact("", "works_at", "Acme"),
    fact("Alice", "works_at", "Acme", validFrom="2026-01-01T00:00:00"),
])
async def test_invalid_facts_are_typed_errors_writing_nothing(
        gql: GraphQLClient, db: Database, ns: str, bad: dict[str, Any]) -> None:
    before = await graph_size(db)
    body = await gql(ASSERT, ns=ns, facts=[bad])
    assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT", body
    assert await graph_size(db) == before


async def test_missing_evidence_is_not_found_and_writes_nothing(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    before = await graph_size(db)
    body = await gql(ASSERT, ns=ns, facts=[fact("Alice", "likes", "tea", evidence=["nope"])])
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert await graph_size(db) == before


async def test_nested_lists_cost_constant_round_trips(gql: GraphQLClient, db: Database,
                                                      ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep(f"m{i}", i) for i in range(20)])
    await gql.ok(ASSERT, ns=ns, facts=[fact(f"Person {i}", "likes", "tea", evidence=[f"m{i}"])
                                       for i in range(20)])
    query = """query($ns: String!) { facts(namespace: $ns, first: 50) {
        nodes { id evidence { id derivedFacts { id evidence { id } } summaries { id } } } } }"""
    before = db.round_trips
    data = await gql.ok(query, ns=ns)
    used = db.round_trips - before
    assert len(data["facts"]["nodes"]) == 20
    # auth lookup + facts page + evidence + derivedFacts + nested evidence + summaries
    assert used <= 6, used


async def test_a_correction_cites_the_users_own_turn(gql: GraphQLClient, ns: str) -> None:
    """correctFact takes evidence (here the user's turn, by externalId) beside graphmem's own
    observation of the change; a summary covers episodes by externalId too."""
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "I work at Acme"),
                                     ep("m2", 2, "Sorry, I meant Globex, not Acme")])
    asserted = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "works_at", "Acme",
                                                       evidence=["m1"])])
    corrected = await gql.ok("""mutation($ns: String!, $id: ID!) { correctFact(namespace: $ns,
        factId: $id, object: "Globex", reason: "user said so", evidence: ["m2"]) {
        fact { object evidence { externalId kind } } } }""", ns=ns,
                             id=asserted["assertFacts"][0]["fact"]["id"])
    evidence = corrected["correctFact"]["fact"]["evidence"]
    assert corrected["correctFact"]["fact"]["object"] == "Globex"
    assert {(e["externalId"], e["kind"]) for e in evidence} == {
        ("m2", "USER_MESSAGE"), (None, "OBSERVATION")}
    summary = await gql.ok("""mutation($ns: String!) { writeSummary(namespace: $ns, summary: {
        text: "Works at Globex", covers: ["m1", "m2"]}) { id } }""", ns=ns)
    assert summary["writeSummary"]["id"].startswith("sum_")
    missing = await gql("""mutation($ns: String!) { writeSummary(namespace: $ns, summary: {
        text: "x", covers: ["m1", "nope"]}) { id } }""", ns=ns)
    assert missing["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert missing["errors"][0]["extensions"]["missing"] == ["nope"]


async def test_a_fact_stated_without_a_confidence_is_held_at_full_confidence(
        gql: GraphQLClient, ns: str) -> None:
    """README, *Confidence*: created with the confidence it is stated with, 1.0 when none is
    given."""
    made = (await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "tea"),
                                               fact("user", "likes", "jazz", confidence=0.4)]))
    assert {row["fact"]["object"]: row["fact"]["confidence"]
            for row in made["assertFacts"]} == {"tea": 1.0, "jazz": 0.4}
