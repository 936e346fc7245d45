"""eraseNamespace: everything goes, the receipt proves it, the neighbour is untouched."""

from __future__ import annotations

from graphmem.db import Database
from graphmem.embeddings import LocalEmbedder, embed_all_pending
from tests.api.test_conflicts import POLICY, RECORD, said
from tests.api.test_facts import ASSERT, fact
from tests.conftest import GraphQLClient, delete_namespace

ERASE = """mutation($ns: String!, $confirm: String!) {
  eraseNamespace(namespace: $ns, confirm: $confirm) {
    id scope counts { kind count } remainingNodes remainingSearchable verified } }"""


async def fill(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(POLICY, ns=ns, p="mood", c="ONE", s="MANUAL")
    await gql.ok(RECORD, ns=ns, eps=[said("m1", "2026-05-01T10:00:00Z", "I live in Porto"),
                                     said("m2", "2026-06-01T10:00:00Z", "Now Lisbon")])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "lives_in", "Porto", evidence=["m1"]),
        fact("user", "lives_in", "Lisbon", evidence=["m2"]),
        fact("user", "age", value={"number": 40}), fact("user", "mood", "calm"),
        fact("user", "mood", "busy")])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "user",
        alias: "me") { id } }""", ns=ns)


async def test_erase_namespace_leaves_nothing_and_a_receipt(gql: GraphQLClient, db: Database,
                                                            ns: str) -> None:
    twin = f"{ns}-twin"
    try:
        await fill(gql, ns)
        await fill(gql, twin)
        await embed_all_pending(db, LocalEmbedder(), 256)
        refused = await gql(ERASE, ns=ns, confirm="something else")
        assert refused["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
        receipt = (await gql.ok(ERASE, ns=ns, confirm=ns))["eraseNamespace"]
        counts = {c["kind"]: c["count"] for c in receipt["counts"]}
        assert counts["episodes"] == 2 and counts["facts"] == 6 and counts["aliases"] == 1
        assert counts["values"] == 1 and counts["conflicts"] == 1 and counts["policies"] == 1
        assert receipt["verified"] and receipt["remainingNodes"] == 0, receipt
        left, _, _ = await db.driver.execute_query(
            "MATCH (n) WHERE n.ns = $ns RETURN count(n) AS n", {"ns": ns})
        assert left[0]["n"] == 0
        tomb, _, _ = await db.driver.execute_query(
            "MATCH (r:ErasureReceipt {id: $id}) RETURN r", {"id": receipt["id"]})
        assert ns not in str(tomb[0]["r"]) and "Porto" not in str(tomb[0]["r"])
        twin_stats = await gql.ok("""query($ns: String!) { memoryStats(namespace: $ns) {
            episodes believedFacts } }""", ns=twin)
        assert twin_stats["memoryStats"] == {"episodes": 2, "believedFacts": 5}
        found = await gql.ok("""query($ns: String!) { search(namespace: $ns, query: "Porto")
            { hits { kind } } }""", ns=ns)
        assert found["search"]["hits"] == []
    finally:
        await delete_namespace(db, twin)
