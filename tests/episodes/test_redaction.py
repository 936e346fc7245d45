"""Redaction over the real Neo4j and GraphQL app: content gone everywhere it was (node,
next turn's context, fulltext and vector indexes), structure and provenance kept."""

from __future__ import annotations

from graphmem.db.database import Database
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep
from tests.support.graph import graph_size

REDACT = """mutation($ns: String!, $id: ID!, $why: String!) {
  redactEpisode(namespace: $ns, id: $id, reason: $why) { id content redactedAt contentHash } }"""


async def test_redaction_keeps_structure_and_removes_content(gql: GraphQLClient, db: Database,
                                                             ns: str) -> None:
    batch = [ep("m1", 1, "My passport number is X1234567."), ep("m2", 2, "Thanks, noted.")]
    await gql.ok(RECORD, ns=ns, eps=batch)
    asserted = await gql.ok("""mutation($ns: String!) { assertFacts(namespace: $ns, facts: [
        {subject: "user", predicate: "passport", value: {string: "X1234567"},
         evidence: ["m1"]}]) { fact { id } } }""", ns=ns)
    fact_id = asserted["assertFacts"][0]["fact"]["id"]
    await gql.ok("""mutation($ns: String!) { writeSummary(namespace: $ns, summary: {
        text: "The user's passport number is X1234567.", covers: ["m1", "m2"]}) { id } }""",
                 ns=ns)
    await embed_all_pending(db, WordLlamaEmbedder(), 256)

    done = (await gql.ok(REDACT, ns=ns, id="m1", why="user asked"))["redactEpisode"]
    assert done["content"] == "[redacted]" and done["redactedAt"]
    assert done["contentHash"] == "redacted"
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.external_id AS ext, e.content AS content, "
        "e.context AS context, e.embedding IS NULL AS unembedded, e.redaction_reason AS why",
        {"ns": ns}, database_=db.name)
    stored = {r["ext"]: r for r in rows}
    assert stored["m1"]["unembedded"] and stored["m1"]["why"] == "user asked"
    assert stored["m2"]["context"] == "[redacted]"  # the next turn's copy went too
    assert "X1234567" not in str([dict(r) for r in rows if r["ext"] == "m1"])

    trace = await gql.ok("""query($ns: String!, $id: ID!) { provenance(namespace: $ns,
        factId: $id) { evidence { externalId content } } }""", ns=ns, id=fact_id)
    assert trace["provenance"]["evidence"] == [{"externalId": "m1", "content": "[redacted]"}]
    hits = await gql.ok("""query($ns: String!) { search(namespace: $ns,
        query: "passport number", kinds: [EPISODE]) { hits { episode { externalId } } } }""", ns=ns)
    assert "m1" not in str(hits)
    # A summary of it repeated the number: its text is withdrawn, so no path finds it.
    summaries = await gql.ok("""query($ns: String!) { search(namespace: $ns,
        query: "X1234567 passport", kinds: [SUMMARY]) { hits { summary { text stale } } } }""",
                             ns=ns)
    assert "X1234567" not in str(summaries)
    rows, _, _ = await db.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE any(k IN keys(n) WHERE n[k] IS :: STRING "
        "AND n[k] CONTAINS 'X1234567') RETURN labels(n) AS labels, n.id AS id", {"ns": ns},
        database_=db.name)
    # Only the fact and its literal value keep it: facts are not redacted with an episode.
    assert sorted(r["labels"] for r in rows) == [["Fact"], ["Value"]]

    # The client retrying its original write is told it is a duplicate, not refused.
    again = await gql.ok(RECORD, ns=ns, eps=batch)
    assert again["recordEpisodes"]["duplicates"] == 2
    twice = (await gql.ok(REDACT, ns=ns, id="m1", why="again"))["redactEpisode"]
    assert twice["redactedAt"] == done["redactedAt"]  # redacting again changes nothing


async def test_bad_redactions_write_nothing(gql: GraphQLClient, db: Database, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "secret")])
    before = await graph_size(db)
    for variables, code in (({"id": "m1", "why": " "}, "INVALID_INPUT"),
                            ({"id": "nope", "why": "x"}, "NOT_FOUND")):
        body = await gql(REDACT, ns=ns, **variables)
        assert body["errors"][0]["extensions"]["code"] == code
    assert await graph_size(db) == before
