"""A forgotten fact through re-import, over the real service: importing an export made before
`forgetFact` (into the namespace itself, or into a copy that forgot it) leaves the fact
forgotten, its edge agreeing with its statement node, and `traverse` and `facts` agreeing."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.db.database import Database
from graphmem.portability.format import remapped
from graphmem.portability.importing import import_lines
from tests.portability.files import exported, lines
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact, said
from tests.support.graph import edges_and_statements

FORGET = """mutation($ns: String!, $id: ID!) { forgetFact(namespace: $ns, factId: $id,
  reason: "I never liked herons") { id status forgottenAt } }"""
HISTORY = """query($ns: String!) { facts(namespace: $ns, includeHistory: true, first: 50) {
  nodes { id object status forgottenAt } } }"""
CURRENT = """query($ns: String!) { facts(namespace: $ns, first: 50) { nodes { id object } } }"""
TRAVERSE = """query($ns: String!) { traverse(namespace: $ns, from: "user", depth: 1) {
  edges { fact { id status } } } }"""
ASSERT_AS = """mutation($ns: String!, $facts: [FactInput!]!) { assertFacts(namespace: $ns,
  facts: $facts) { outcome } }"""


async def _statement(db: Database, ns: str, fact_id: str) -> list[str]:
    """The fact's statement node and every relationship it or its edge has, as stored."""
    records, _, _ = await db.driver.execute_query(
        "MATCH (f:Fact {ns: $ns, id: $id}) "
        "RETURN [f {.*, embedding: null, embed_lease_until: null}] "
        "+ COLLECT { MATCH (f)-[r]-() RETURN [type(r), properties(r)] } "
        "+ COLLECT { MATCH (:Entity {ns: $ns})-[r {fact_id: $id}]->() RETURN properties(r) } "
        "AS found", ns=ns, id=fact_id, database_=db.name)
    return sorted(repr(sorted(item.items()) if isinstance(item, dict)
                       else [item[0], sorted(item[1].items())]) for item in records[0]["found"])


async def _edges(db: Database, ns: str, fact_id: str) -> list[tuple[Any, Any]]:
    """(edge status, statement node status) of the fact: they must agree."""
    records, _, _ = await db.driver.execute_query(
        "MATCH (f:Fact {ns: $ns, id: $id}) MATCH (:Entity {ns: $ns})-[r {fact_id: $id}]->() "
        "RETURN r.status AS edge, f.status AS node", ns=ns, id=fact_id, database_=db.name)
    return [(r["edge"], r["node"]) for r in records]


@pytest.mark.hostile("import")
@pytest.mark.parametrize("where", ["itself", "a copy"])
async def test_an_earlier_export_does_not_bring_a_forgotten_fact_back(
        db: Database, gql: GraphQLClient, ns: str, other: str, where: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[said("h1", "2026-05-01T10:00:00Z", "I like herons"),
                                     said("h2", "2026-05-01T10:01:00Z", "and owls")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "herons", evidence=["h1"]),
                                       fact("user", "likes", "owls", evidence=["h2"])])
    earlier = lines(await exported(db, ns))
    target = ns if where == "itself" else other
    if target == other:
        await import_lines(db, earlier, into=other)
    herons = next(f["id"] for f in (await gql.ok(CURRENT, ns=target))["facts"]["nodes"]
                  if f["object"] == "herons")
    forgot = (await gql.ok(FORGET, ns=target, id=herons))["forgetFact"]
    assert forgot["status"] == "RETRACTED" and forgot["forgottenAt"]
    before = await _statement(db, target, herons)

    result = await import_lines(db, earlier, into=None if target == ns else other)
    assert result.forgotten == 1
    assert await _statement(db, target, herons) == before  # nothing of it changed
    history = {f["id"]: f for f in (await gql.ok(HISTORY, ns=target))["facts"]["nodes"]}
    assert history[herons]["status"] == "RETRACTED" and history[herons]["forgottenAt"]
    assert [f["object"] for f in (await gql.ok(CURRENT, ns=target))["facts"]["nodes"]] == \
        ["owls"]
    walked = [e["fact"]["id"] for e in (await gql.ok(TRAVERSE, ns=target))["traverse"]["edges"]]
    assert herons not in walked and len(walked) == 1  # owls only, as facts says
    assert await _edges(db, target, herons) == [("retracted", "retracted")]
    again = await gql.ok(ASSERT_AS, ns=target, facts=[  # as assertFacts says, for a machine
        fact("user", "likes", "herons", source="AGENT_ASSERTION")])
    assert again["assertFacts"][0]["outcome"] == "FORGOTTEN"
    same = await gql.ok(ASSERT_AS, ns=target, facts=[  # and a copy's statements are its own
        fact("user", "likes", "owls", source="AGENT_ASSERTION")])
    assert same["assertFacts"][0]["outcome"] == "EVIDENCE_ADDED"


async def test_a_file_that_has_it_forgotten_imports_it_forgotten(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    """The file's own forgotten facts are not left out: the copy has them forgotten too."""
    await gql.ok(RECORD, ns=ns, eps=[said("h1", "2026-05-01T10:00:00Z", "I like herons")])
    [made] = (await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "likes", "herons", evidence=["h1"])]))["assertFacts"]
    await gql.ok(FORGET, ns=ns, id=made["fact"]["id"])
    file = lines(await exported(db, ns))
    assert (await import_lines(db, file, into=other)).forgotten == 0
    copy = remapped(made["fact"]["id"], other)
    history = {f["id"]: f for f in (await gql.ok(HISTORY, ns=other))["facts"]["nodes"]}
    assert history[copy]["status"] == "RETRACTED" and history[copy]["forgottenAt"]
    assert await _edges(db, other, copy) == [("retracted", "retracted")]
    assert (await import_lines(db, file, into=other)).forgotten == 0  # and again: the same


@pytest.mark.hostile("import")
async def test_an_edge_cannot_disagree_with_its_statement_node(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    """A file whose predicate edge says ACTIVE for a retracted, forgotten fact: the edge takes
    the statement node's belief, so traverse and facts agree."""
    await gql.ok(RECORD, ns=ns, eps=[said("h1", "2026-05-01T10:00:00Z", "I like herons")])
    [made] = (await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "likes", "herons", evidence=["h1"])]))["assertFacts"]
    await gql.ok(FORGET, ns=ns, id=made["fact"]["id"])
    records = await exported(db, ns)
    for record in records:
        if record.get("rel") == "LIKES":
            record["props"] |= {"status": "active", "confidence": 0.25}
    records[-1]["end"].pop("digest")  # as an older graphmem wrote it: counts only
    await import_lines(db, lines(records), into=other)
    edges, statements = await edges_and_statements(db, other)
    assert edges == statements and [e["status"] for e in edges] == ["retracted"]
    assert (await gql.ok(TRAVERSE, ns=other))["traverse"]["edges"] == []
