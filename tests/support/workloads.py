"""Small memories written through the API, for tests that need one of everything."""

from __future__ import annotations

from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, POLICY, RECORD, fact, said


async def fill(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(POLICY, ns=ns, p="mood", c="ONE", s="MANUAL")
    await gql.ok("""mutation($ns: String!) { setPipelines(namespace: $ns, extract: true) {
                      extract } }""", ns=ns)  # so an extraction job waits, to be erased too
    await gql.ok(RECORD, ns=ns, eps=[said("m1", "2026-05-01T10:00:00Z", "I live in Porto"),
                                     said("m2", "2026-06-01T10:00:00Z", "Now Lisbon")])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "lives_in", "Porto", evidence=["m1"]),
        fact("user", "lives_in", "Lisbon", evidence=["m2"]),
        fact("user", "age", value={"number": 40}), fact("user", "mood", "calm"),
        fact("user", "mood", "busy")])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "user",
        alias: "me") { id } }""", ns=ns)
