"""Conflict resolution and bi-temporal truth over the real app and Neo4j."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from graphmem.db import Database
from tests.api.test_facts import ASSERT, PROVENANCE, edges_and_statements, fact
from tests.conftest import GraphQLClient

RECORD = """
mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) { episodes { id } }
}"""

FACTS_AT = """
query($ns: String!, $where: FactWhere, $validAt: DateTime, $asOf: DateTime,
      $history: Boolean! = false) {
  facts(namespace: $ns, where: $where, validAt: $validAt, asOf: $asOf,
        includeHistory: $history, first: 50) {
    nodes { id object status validFrom validTo evidence { externalId } }
  }
}"""


def said(ext: str, when: str, content: str) -> dict[str, Any]:
    return {"externalId": ext, "sessionId": "chat", "kind": "USER_MESSAGE", "actor": "user",
            "content": content, "occurredAt": when}


async def objects(gql: GraphQLClient, ns: str, **args: Any) -> list[str]:
    data = await gql.ok(FACTS_AT, ns=ns, where={"subject": "user", "predicate": "works_at"},
                        **args)
    return sorted(f["object"] for f in data["facts"]["nodes"])


async def test_job_change_scenario(gql: GraphQLClient, db: Database, ns: str) -> None:
    """ "I work as a data scientist at Acme" (March), then in June "Actually, I switched
    jobs last month — I'm at Globex now"."""
    await gql.ok(RECORD, ns=ns, eps=[
        said("m1", "2026-03-10T10:00:00Z", "I work as a data scientist at Acme"),
        said("m2", "2026-06-12T10:00:00Z",
             "Actually, I switched jobs last month — I'm at Globex now")])
    march = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "works_at", "Acme",
                                                    evidence=["m1"], source="USER_STATEMENT")])
    between = datetime.now(UTC).isoformat()  # belief time after March's fact, before June's
    await asyncio.sleep(0.01)
    june = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "works_at", "Globex",
                                                   evidence=["m2"], source="USER_STATEMENT",
                                                   validFrom="2026-05-01T00:00:00Z")])
    assert june["assertFacts"][0]["outcome"] == "CREATED"
    acme_id = march["assertFacts"][0]["fact"]["id"]

    assert await objects(gql, ns) == ["Globex"]  # current employer
    assert await objects(gql, ns, validAt="2026-04-15T00:00:00Z") == ["Acme"]
    # Before June's message, memory believed Acme — then, and for May.
    assert await objects(gql, ns, asOf=between) == ["Acme"]
    assert await objects(gql, ns, asOf=between, validAt="2026-05-20T00:00:00Z") == ["Acme"]
    history = await gql.ok(FACTS_AT, ns=ns, history=True,
                           where={"subject": "user", "predicate": "works_at"})
    versions = {(f["object"], f["status"], f["validTo"]) for f in history["facts"]["nodes"]}
    assert versions == {("Acme", "SUPERSEDED", None),
                        ("Acme", "ACTIVE", "2026-05-01T00:00:00+00:00"),
                        ("Globex", "ACTIVE", None)}
    for f in history["facts"]["nodes"]:  # provenance points at the right episode
        assert f["evidence"] == [{"externalId": "m1" if f["object"] == "Acme" else "m2"}]
    audit = (await gql.ok(PROVENANCE, ns=ns, id=acme_id))["provenance"]
    globex_id = june["assertFacts"][0]["fact"]["id"]
    assert audit["supersededBy"] == [{"id": globex_id}]
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements and len(edges) == 3
