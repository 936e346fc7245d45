"""recordEpisodes / episodes over the real app and Neo4j."""

from __future__ import annotations

from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep
from tests.support.graph import graph_size

LIST = """
query($ns: String!, $where: EpisodeWhere, $first: Int!, $after: String) {
  episodes(namespace: $ns, where: $where, first: $first, after: $after) {
    edges { cursor node { externalId content occurredAt } }
    pageInfo { hasNextPage endCursor }
  }
}"""


async def chain(db: Database, ns: str, session: str) -> list[str]:
    rows, _, _ = await db.driver.execute_query(
        """MATCH (first:Episode {ns: $ns, session_id: $s}) WHERE NOT ()-[:NEXT]->(first)
           MATCH path = (first)-[:NEXT*0..]->(last) WHERE NOT (last)-[:NEXT]->()
           RETURN [n IN nodes(path) | n.external_id] AS ids""", {"ns": ns, "s": session})
    assert len(rows) == 1, "a session has exactly one chain"
    return list(rows[0]["ids"])


async def test_record_and_read_back(gql: GraphQLClient, ns: str) -> None:
    data = await gql.ok(RECORD, ns=ns, eps=[ep("a", 1, metadata={"lang": "en"}), ep("b", 2)])
    result = data["recordEpisodes"]
    assert (result["created"], result["duplicates"]) == (2, 0)
    assert result["episodes"][0]["metadata"] == {"lang": "en"}
    assert result["episodes"][0]["id"].startswith("ep_")
    listed = await gql.ok(LIST, ns=ns, first=10)
    assert [e["node"]["externalId"] for e in listed["episodes"]["edges"]] == ["a", "b"]


async def test_same_external_id_twice_is_a_no_op(gql: GraphQLClient, db: Database,
                                                 ns: str) -> None:
    first = await gql.ok(RECORD, ns=ns, eps=[ep("a", 1)])
    size = await graph_size(db)
    again = await gql.ok(RECORD, ns=ns, eps=[ep("a", 1), ep("a", 1)])
    assert (again["recordEpisodes"]["created"], again["recordEpisodes"]["duplicates"]) == (0, 2)
    first_id = first["recordEpisodes"]["episodes"][0]["id"]
    assert again["recordEpisodes"]["episodes"][0]["id"] == first_id
    assert await graph_size(db) == size


async def test_same_external_id_other_content_is_a_typed_error_writing_nothing(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("a", 1)])
    size = await graph_size(db)
    body = await gql(RECORD, ns=ns, eps=[ep("new", 3), ep("a", 1, content="changed!")])
    assert body["errors"][0]["extensions"]["code"] == "DUPLICATE_CONFLICT"
    assert body["errors"][0]["extensions"]["external_id"] == "a"
    assert body["errors"][0]["extensions"]["differs"] == ["content"]
    assert await graph_size(db) == size  # "new" was not written either
    # A retry that re-stamps occurredAt is told exactly that.
    restamped = await gql(RECORD, ns=ns, eps=[ep("a", 2)])
    error = restamped["errors"][0]
    assert error["extensions"]["differs"] == ["occurredAt"]
    assert error["extensions"]["field"] == "occurredAt" and "occurredAt" in error["message"]
    twice = await gql(RECORD, ns=ns, eps=[ep("b", 1), ep("b", 1, session="s2")])
    assert twice["errors"][0]["extensions"]["differs"] == ["sessionId"]


async def test_out_of_order_batches_give_one_correct_chain(gql: GraphQLClient, db: Database,
                                                           ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m5", 5), ep("m1", 1)])
    await gql.ok(RECORD, ns=ns, eps=[ep("m3", 3), ep("m9", 9), ep("m0", 0)])
    await gql.ok(RECORD, ns=ns, eps=[ep("m4", 4)])
    assert await chain(db, ns, "s1") == ["m0", "m1", "m3", "m4", "m5", "m9"]


async def test_equal_timestamps_keep_arrival_order(gql: GraphQLClient, db: Database,
                                                   ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("q", 1), ep("a", 1)])
    await gql.ok(RECORD, ns=ns, eps=[ep("q2", 1)])
    assert await chain(db, ns, "s1") == ["q", "a", "q2"]


async def test_pagination_filters_and_cursors(gql: GraphQLClient, ns: str) -> None:
    eps = [ep(f"e{i}", i, session="s1" if i % 2 else "s2") for i in range(10)]
    eps[3]["content"] = "I moved to Lisbon"
    eps[5]["actor"] = "planner"
    await gql.ok(RECORD, ns=ns, eps=eps)
    seen, after = [], None
    while True:
        page = (await gql.ok(LIST, ns=ns, first=3, after=after))["episodes"]
        seen += [e["node"]["externalId"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == [f"e{i}" for i in range(10)]
    odd = await gql.ok(LIST, ns=ns, first=50, where={"sessionId": "s1"})
    assert len(odd["episodes"]["edges"]) == 5
    text = await gql.ok(LIST, ns=ns, first=50, where={"textContains": "lisbon"})
    assert [e["node"]["externalId"] for e in text["episodes"]["edges"]] == ["e3"]
    spoken = await gql.ok(LIST, ns=ns, first=50, where={"actor": "planner"})
    assert [e["node"]["externalId"] for e in spoken["episodes"]["edges"]] == ["e5"]
    window = await gql.ok(LIST, ns=ns, first=50, where={
        "occurredFrom": "2026-05-01T09:02:00Z", "occurredTo": "2026-05-01T09:05:00Z"})
    assert [e["node"]["externalId"] for e in window["episodes"]["edges"]] == ["e2", "e3", "e4"]


async def test_invalid_inputs_are_typed_and_write_nothing(gql: GraphQLClient, db: Database,
                                                          ns: str) -> None:
    size = await graph_size(db)
    cases = [
        (ns, [ep("a", 1, occurredAt="2026-05-01T09:00:00")]),  # naive time
        (ns, [ep("a", 1, content="")]),
        (ns, [ep("a", 1, importance=1.5)]),
        (ns, [ep("a", 1, metadata=[1, 2])]),
        ("bad namespace!", [ep("a", 1)]),
        (ns, []),
    ]
    for namespace, eps in cases:
        body = await gql(RECORD, ns=namespace, eps=eps)
        assert body.get("errors"), (namespace, eps)
        assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT", (eps, body)
    assert await graph_size(db) == size


async def test_batch_of_a_thousand_is_one_call(gql: GraphQLClient, ns: str) -> None:
    eps = [ep(f"b{i}", i % 60, session=f"s{i % 7}") for i in range(1000)]
    data = await gql.ok(RECORD, ns=ns, eps=eps)
    assert data["recordEpisodes"]["created"] == 1000


async def test_malformed_cursors_are_typed_errors(gql: GraphQLClient, ns: str) -> None:
    import base64

    wrong_shape = base64.urlsafe_b64encode(b'["not a time", "x"]').decode()
    # A forged cursor whose moment has no offset answered an empty page (issue 16.14).
    naive = base64.urlsafe_b64encode(b'["2026-05-01T09:00:00", 1, "ep_x"]').decode()
    naive_fact = base64.urlsafe_b64encode(b'["2026-05-01T09:00:00", "f_x"]').decode()
    for cursor in ("garbage!", wrong_shape, base64.urlsafe_b64encode(b'{"a": 1}').decode(),
                   naive, naive_fact):
        body = await gql(LIST, ns=ns, first=5, after=cursor)
        assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT", cursor
        assert body["errors"][0]["extensions"]["field"] == "after"
        facts = await gql("""query($ns: String!, $after: String) {
            facts(namespace: $ns, first: 5, after: $after) { nodes { id } } }""",
                          ns=ns, after=cursor)
        assert facts["errors"][0]["extensions"]["code"] == "INVALID_INPUT", cursor


async def test_concurrent_writers_to_one_session_keep_one_order(gql: GraphQLClient,
                                                                db: Database, ns: str) -> None:
    """Writers raced for a session's sequence numbers: the counter was read before its lock,
    so concurrent batches got the same `seq` and NEXT links ran backwards (issue 16.7)."""
    import asyncio

    async def writer(w: int) -> None:
        for b in range(3):
            batch = [ep(f"w{w}b{b}e{i}", (w + b + i) % 60, session="busy") for i in range(20)]
            await gql.ok(RECORD, ns=ns, eps=batch)
            await gql.ok(RECORD, ns=ns, eps=batch[:5])  # a retried batch: duplicates only

    await asyncio.gather(*(writer(w) for w in range(6)))
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns, session_id: 'busy'}) RETURN e.seq AS seq", {"ns": ns})
    seqs = [r["seq"] for r in rows]
    assert len(seqs) == 360 and len(set(seqs)) == 360
    backwards, _, _ = await db.driver.execute_query(
        """MATCH (a:Episode {ns: $ns})-[:NEXT]->(b) WHERE a.occurred_at > b.occurred_at
              OR (a.occurred_at = b.occurred_at AND a.seq >= b.seq) RETURN count(*) AS n""",
        {"ns": ns})
    assert backwards[0]["n"] == 0
    assert len(await chain(db, ns, "busy")) == 360


async def test_content_over_the_cap_is_refused_and_a_long_document_still_works(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """A 990,000-character document was accepted and took the embedder past 1 GB (16.3)."""
    from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending

    before = await graph_size(db)
    body = await gql(RECORD, ns=ns, eps=[ep("huge", 1, "word " * 40_001)])
    error = body["errors"][0]
    assert error["extensions"]["code"] == "INVALID_INPUT"
    assert error["extensions"]["field"] == "content" and "200000" in error["message"]
    assert await graph_size(db) == before
    document = "The lease starts in May. " + "clause " * 28_000 + "Signed in Porto."
    await gql.ok(RECORD, ns=ns, eps=[ep("doc", 2, document, kind="DOCUMENT")])
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns, external_id: 'doc'}) RETURN e.embedding IS NOT NULL AS has",
        {"ns": ns})
    assert rows[0]["has"]
    found = await gql.ok("""query($ns: String!) { search(namespace: $ns, query: "Porto",
        kinds: [EPISODE]) { hits { episode { externalId } } } }""", ns=ns)
    assert [h["episode"]["externalId"] for h in found["search"]["hits"]] == ["doc"]


async def test_a_time_filter_without_a_timezone_is_refused(gql: GraphQLClient, ns: str) -> None:
    """Every other time argument required an offset; `occurredFrom` compared a local time."""
    for where in ({"occurredFrom": "2026-05-01T09:00:00"}, {"occurredTo": "2026-05-01T09:00:00"}):
        body = await gql(LIST, ns=ns, first=5, where=where)
        assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT", where
