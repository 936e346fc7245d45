"""The audit log: every mutation field leaves who/what/when/outcome, never content; admins
read it, other keys cannot."""

from __future__ import annotations

import httpx

from graphmem.auth import create_key
from graphmem.db import Database
from tests.api.test_conflicts import RECORD, said
from tests.api.test_facts import ASSERT, fact
from tests.conftest import GraphQLClient

AUDIT = """query($ns: String!) { auditLog(namespace: $ns) {
  nodes { operation actor keyId outcome requestId at } } }"""


async def test_mutations_are_audited_without_content(gql: GraphQLClient, db: Database,
                                                     client: httpx.AsyncClient,
                                                     ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[said("m1", "2026-05-01T10:00:00Z", "Top secret Zorblax")])
    await gql(ASSERT, ns=ns, facts=[fact("user", "bad predicate!", "Zorblax")])
    events = (await gql.ok(AUDIT, ns=ns))["auditLog"]["nodes"]
    assert [(e["operation"], e["outcome"]) for e in events] == [
        ("assertFacts", "INVALID_INPUT"), ("recordEpisodes", "ok")]
    assert all(e["actor"] and e["keyId"] and e["requestId"] for e in events)
    rows, _, _ = await db.driver.execute_query(
        "MATCH (a:AuditEvent {ns: $ns}) RETURN a", {"ns": ns})
    assert "Zorblax" not in str([r["a"] for r in rows])
    reader = GraphQLClient(client, await create_key(db, "reader", grants=[ns], admin=False))
    refused = await reader(AUDIT, ns=ns)
    assert refused["errors"][0]["extensions"]["code"] == "FORBIDDEN"
