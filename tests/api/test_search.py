"""search over the real app and Neo4j: BM25 per kind, graph expansion, fusion, filters."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from graphmem.core.errors import DatabaseUnavailable
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.db.statements import statement
from graphmem.retrieval import search
from graphmem.retrieval.at_once import at_once
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from graphmem.retrieval.search import engine
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, POLICY, RECORD, ep, fact, said
from tests.support.graph import delete_namespace

SEARCH = """
query($ns: String!, $q: String!, $kinds: [SearchKind!], $session: String, $ref: DateTime,
      $history: Boolean! = false) {
  search(namespace: $ns, query: $q, kinds: $kinds, sessionId: $session, referenceTime: $ref,
         includeHistory: $history) {
    timeRange { start end expression }
    hits { kind score matches { retriever rank via }
           episode { externalId content } fact { object status } summary { text }
           entity { name } }
  }
}"""

SEARCH_RANGE = """
query($ns: String!, $q: String!, $start: DateTime!, $end: DateTime!) {
  search(namespace: $ns, query: $q, kinds: [EPISODE], from: $start, to: $end) {
    timeRange { expression }
    hits { kind episode { externalId } fact { object } summary { text } entity { name } }
  }
}"""


async def seed(gql: GraphQLClient, ns: str, db: Database) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        said("m1", "2026-10-05T09:00:00Z", "I adopted a dog called Biscuit"),
        said("m2", "2026-10-20T09:00:00Z", "Biscuit hates the vacuum cleaner"),
        said("m3", "2026-11-24T15:10:00Z", "Let's plan the trip to Kyoto in spring"),
    ])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "owns", "Biscuit", evidence=["m1"], objectType="dog"),
        fact("user", "plans_trip_to", "Kyoto", evidence=["m3"])])
    # The service embeds in the background; settle it now so rankings are deterministic.
    await embed_all_pending(db, WordLlamaEmbedder(), 256)


def shown(hit: dict[str, Any]) -> str:
    for key in ("episode", "fact", "summary", "entity"):
        if hit[key]:
            item = hit[key]
            label = item.get("externalId") or item.get("object") or item.get("name")
            return f'{hit["kind"]}:{label}'
    raise AssertionError(hit)


async def test_search_fuses_kinds_and_explains(gql: GraphQLClient, ns: str,
                                              db: Database) -> None:
    await seed(gql, ns, db)
    result = (await gql.ok(SEARCH, ns=ns, q="Biscuit"))["search"]
    found = [shown(h) for h in result["hits"]]
    assert found[0] in ("EPISODE:m1", "ENTITY:Biscuit", "FACT:Biscuit")
    assert {"EPISODE:m1", "EPISODE:m2", "FACT:Biscuit", "ENTITY:Biscuit"} <= set(found)
    m1 = next(h for h in result["hits"] if shown(h) == "EPISODE:m1")
    # Found by its words and as the evidence of the fact hit: both votes are shown.
    assert {m["retriever"] for m in m1["matches"]} == {"bm25", "vector", "graph"}
    # m3 follows m2 in the session, so it matches through its context, below both.
    assert found.index("EPISODE:m3") > max(found.index("EPISODE:m1"), found.index("EPISODE:m2"))
    scores = [h["score"] for h in result["hits"]]
    assert scores == sorted(scores, reverse=True)


async def test_time_words_rank_episodes_and_never_filter(gql: GraphQLClient, ns: str,
                                                         db: Database) -> None:
    await seed(gql, ns, db)
    result = (await gql.ok(SEARCH, ns=ns, q="what did I say about Biscuit last month",
                           kinds=["EPISODE"], ref="2026-11-29T12:00:00Z"))["search"]
    assert result["timeRange"]["expression"] == "last month"
    assert result["timeRange"]["start"].startswith("2026-10-01")
    found = [shown(h) for h in result["hits"]]
    assert set(found[:2]) == {"EPISODE:m1", "EPISODE:m2"}  # October first; m3 (November,
    assert found[2:] == ["EPISODE:m3"]  # Biscuit in its window) is not filtered out
    tuesday = (await gql.ok(SEARCH, ns=ns, q="the trip we discussed last Tuesday at 3 PM",
                            kinds=["EPISODE"], ref="2026-11-29T12:00:00Z"))["search"]
    assert shown(tuesday["hits"][0]) == "EPISODE:m3"
    # A hard range is what `from`/`to` are for.
    hard = (await gql.ok(SEARCH_RANGE, ns=ns, q="Biscuit", start="2026-10-01T00:00:00Z",
                         end="2026-11-01T00:00:00Z"))["search"]
    assert hard["timeRange"] is None
    assert {shown(h) for h in hard["hits"]} == {"EPISODE:m1", "EPISODE:m2"}


async def test_search_refuses_bad_input(gql: GraphQLClient, ns: str) -> None:
    for q, code in (("", "INVALID_INPUT"), ("x" * 1001, "INVALID_INPUT")):
        body = await gql(SEARCH, ns=ns, q=q)
        assert body["errors"][0]["extensions"]["code"] == code
    # Lucene syntax in a query is just words.
    odd = await gql.ok(SEARCH, ns=ns, q='ns:"other" OR content:* AND ) ( "')
    assert odd["search"]["hits"] == []


RECALL = """
query($ns: String!, $q: String!, $session: String, $budget: Int! = 1000, $ref: DateTime) {
  recall(namespace: $ns, query: $q, sessionId: $session, tokenBudget: $budget,
         referenceTime: $ref) {
    pieces { layer text tokens }
    tokensUsed tokenBudget tokenizer
    plan { layer ran reason items leftOut tokens }
    entities { name }
    timeRange { expression }
  }
}"""


async def test_recall_layers_follow_the_rules(gql: GraphQLClient, ns: str,
                                             db: Database) -> None:
    await seed(gql, ns, db)
    episodes = await gql.ok("""query($ns: String!) { episodes(namespace: $ns, first: 10) {
        nodes { id } } }""", ns=ns)
    await gql.ok("""mutation($ns: String!, $s: SummaryInput!) {
        writeSummary(namespace: $ns, summary: $s) { id } }""", ns=ns, s={
        "text": "The user has a dog, Biscuit, and plans a spring trip to Kyoto.",
        "sessionId": "chat", "covers": [e["id"] for e in episodes["episodes"]["nodes"]]})

    plain = (await gql.ok(RECALL, ns=ns, q="Is Biscuit still with me?", session="chat"))["recall"]
    ran = {s["layer"]: s["ran"] for s in plain["plan"]}
    assert ran == {"summary": True, "facts": True, "episodes": True}
    assert plain["pieces"][0]["layer"] == "summary"
    assert "user owns Biscuit (since 2026-10-05)" in [p["text"] for p in plain["pieces"]]
    assert plain["entities"] == [{"name": "Biscuit"}, {"name": "user"}]
    assert plain["tokensUsed"] == sum(p["tokens"] for p in plain["pieces"])
    assert plain["tokenizer"] == "llama-2"

    timed = (await gql.ok(RECALL, ns=ns, q="What did I say about Biscuit last month?",
                          ref="2026-11-29T12:00:00Z"))["recall"]
    steps = {s["layer"]: s for s in timed["plan"]}
    assert steps["episodes"]["ran"] and "last month" in steps["episodes"]["reason"]
    assert not steps["summary"]["ran"]
    said = [p["text"] for p in timed["pieces"] if p["layer"] == "episodes"]
    assert any("Biscuit hates the vacuum cleaner" in t for t in said)
    # Time is a soft prior: the November turn may follow, never precede, October's.
    kyoto = [i for i, t in enumerate(said) if "Kyoto" in t]
    october = [i for i, t in enumerate(said) if "Biscuit" in t]
    assert all(k > o for k in kyoto for o in october)

    unknown = (await gql.ok(RECALL, ns=ns, q="vacuum cleaner"))["recall"]
    steps = {s["layer"]: s for s in unknown["plan"]}
    assert not steps["facts"]["ran"] and steps["episodes"]["ran"]
    # Facts about me exist, but none bears on the question: the episodes are searched.
    aside = (await gql.ok(RECALL, ns=ns, q="Does my dog mind the vacuum?"))["recall"]
    steps = {s["layer"]: s for s in aside["plan"]}
    assert steps["facts"]["ran"] and steps["episodes"]["ran"]
    assert any("vacuum" in p["text"] for p in aside["pieces"] if p["layer"] == "episodes")

    tight = (await gql.ok(RECALL, ns=ns, q="Tell me about my dog and my trip", session="chat",
                          budget=50))["recall"]
    assert tight["tokensUsed"] <= 50
    assert sum(s["leftOut"] for s in tight["plan"]) >= 1


async def test_vectors_find_what_words_miss(gql: GraphQLClient, ns: str, db: Database) -> None:
    await seed(gql, ns, db)
    result = (await gql.ok(SEARCH, ns=ns, q="my puppy", kinds=["EPISODE"]))["search"]
    assert [shown(h) for h in result["hits"]] == ["EPISODE:m1"]  # "a dog called Biscuit"
    assert [m["retriever"] for m in result["hits"][0]["matches"]] == ["vector"]


async def test_every_retriever_stays_in_its_namespace(gql: GraphQLClient, db: Database,
                                                      ns: str) -> None:
    other = f"{ns}-twin"
    try:
        for space, city in ((ns, "Lisbon"), (other, "Lisboa")):
            await gql.ok(RECORD, ns=space, eps=[said("m1", "2026-10-05T09:00:00Z",
                                                     f"I moved to {city} with my dog")])
            await gql.ok(ASSERT, ns=space, facts=[fact("user", "lives_in", city,
                                                       evidence=["m1"])])
        await embed_all_pending(db, WordLlamaEmbedder(), 256)
        for q in ("moved dog", "relocated with a puppy", "user"):
            result = (await gql.ok(SEARCH, ns=ns, q=q))["search"]
            assert result["hits"], q
            assert "Lisboa" not in str(result), q
            retrievers = {m["retriever"] for h in result["hits"] for m in h["matches"]}
            assert retrievers & {"bm25", "vector"}, q
    finally:
        await delete_namespace(db, other)


async def test_nearest_vectors_crowded_by_another_namespace_are_looked_for_further(
        gql: GraphQLClient, db: Database, ns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A namespace too large to scan (here: any) asks the shared index, and looks further
    when other namespaces' closer vectors fill the first look."""
    monkeypatch.setattr(engine, "EXACT_VECTORS_BELOW", 0)
    crowd = f"{ns}-crowd"
    try:  # closer matches elsewhere fill the first look (2 nearest) and then some
        await gql.ok(RECORD, ns=crowd, eps=[
            said(f"c{i}", f"2026-10-05T09:{i:02d}:00Z", f"Planning the alpine hiking trip {i}")
            for i in range(60)])
        created = await gql.ok(RECORD, ns=ns, eps=[
            said("mine", "2026-10-05T09:00:00Z", "We are planning some alpine hikes")])
        await embed_all_pending(db, WordLlamaEmbedder(), 256)
        result = await search.search(db, Namespace(ns), search.SearchQuery(
            "Planning the alpine hiking trip", limit=1, kinds=(search.Kind.EPISODE,),
            retrievers=frozenset({"vector"})), WordLlamaEmbedder())
        assert [h.id for h in result.hits] == [
            created["recordEpisodes"]["episodes"][0]["id"]]
    finally:
        await delete_namespace(db, crowd)


async def test_a_small_namespace_scans_its_own_vectors_whatever_crowds_the_index(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """Another tenant holding more exact copies of the question than the index's furthest
    look (VECTOR_RETRY_K) cannot hide this namespace's nearest turn: a namespace below
    EXACT_VECTORS_BELOW scans its own vectors. (What the shared index returns among 520
    identical vectors is up to its graph; here it usually missed the turn.) The scan scores
    as the index does (cosine, 0..1), so min_similarity means the same on both paths."""
    crowd = f"{ns}-crowd"
    question = "Planning the alpine hiking trip"
    try:  # one session each: no turn before it, so every copy has the question's vector
        copies = engine.VECTOR_RETRY_K + 20
        for first in range(0, copies, 200):
            await gql.ok(RECORD, ns=crowd, eps=[
                {**said(f"c{i}", "2026-10-05T09:00:00Z", question), "sessionId": f"s{i}"}
                for i in range(first, min(first + 200, copies))])
        created = await gql.ok(RECORD, ns=ns, eps=[
            said("mine", "2026-10-05T09:00:00Z", "We are planning some alpine hikes"),
            said("other", "2026-10-05T09:01:00Z", "The invoice is due on Friday")])
        mine = created["recordEpisodes"]["episodes"][0]["id"]
        await embed_all_pending(db, WordLlamaEmbedder(), 512)
        query = search.SearchQuery(question, limit=2, kinds=(search.Kind.EPISODE,),
                                   retrievers=frozenset({"vector"}))
        scanned = await search.search(db, Namespace(ns), query, WordLlamaEmbedder())
        assert scanned.hits[0].id == mine
        rows = (await db.driver.execute_query(
            "MATCH (e:Episode {ns: $ns, id: $id}) "
            "CALL db.index.vector.queryNodes('episode_embedding', 10, e.embedding) "
            "YIELD node, score "
            "RETURN score, vector.similarity.cosine(node.embedding, e.embedding) AS scanned",
            {"ns": ns, "id": mine}))[0]
        assert len(rows) == 10 and any(r["score"] < 0.99 for r in rows)
        # the same scale, within the index's quantised vectors (8e-4 apart at most here)
        assert all(abs(r["score"] - r["scanned"]) < 5e-3 for r in rows)
    finally:
        await delete_namespace(db, crowd)


async def test_a_namespace_past_the_bound_is_never_read_whole(
        gql: GraphQLClient, db: Database, ns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past EXACT_VECTORS_BELOW a namespace's vectors come from the index, and its search
    reads no more of its nodes than the bound (the count that stopped there). The scan's
    guard had been planned after its seek: every search read every node of a large
    namespace, kind by kind, to throw them away."""
    bound, turns = 3, 12
    monkeypatch.setattr(engine, "EXACT_VECTORS_BELOW", bound)
    await gql.ok(RECORD, ns=ns, eps=[said(f"t{i}", f"2026-10-05T09:{i:02d}:00Z",
                                          f"Planning alpine hike number {i}")
                                     for i in range(turns)])
    await embed_all_pending(db, WordLlamaEmbedder(), 64)
    sent: list[dict[str, Any]] = []
    read = db.read

    async def recorded(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "retrieval/search/find":
            sent.append(params)
        return await read(name, **params)

    monkeypatch.setattr(db, "read", recorded)
    query = search.SearchQuery("alpine hike", limit=2)  # every kind, every retriever
    assert (await search.search(db, Namespace(ns), query, WordLlamaEmbedder())).hits
    async with db.driver.session(database=db.name) as session:
        result = await session.run(f"PROFILE {statement('retrieval/search/find')}", sent[0])
        plan = (await result.consume()).profile
    seeks = [(details, rows) for details, rows in _seeks(plan)
             if re.search(r"INDEX \w+:\w+\(ns\) WHERE", details)]
    assert len(seeks) == 8  # per kind, its count and its (unused) scan
    assert max(rows for _, rows in seeks) <= bound, seeks


def _seeks(plan: Any) -> list[tuple[str, int]]:
    """(details, rows) of every index seek in a profiled plan."""
    found = [(str(plan["args"].get("Details", "")), int(plan.get("rows", 0)))
             ] if "IndexSeek" in plan["operatorType"] else []
    for child in plan.get("children", []):
        found += _seeks(child)
    return found


async def test_neighbours_bring_the_surrounding_turns(gql: GraphQLClient, ns: str,
                                                     db: Database) -> None:
    await seed(gql, ns, db)
    query = """query($ns: String!, $n: Boolean!) { search(namespace: $ns, query: "vacuum",
        kinds: [EPISODE], neighbours: $n) { hits { episode { externalId }
        matches { retriever via } } } }"""
    alone = (await gql.ok(query, ns=ns, n=False))["search"]["hits"]
    around = (await gql.ok(query, ns=ns, n=True))["search"]["hits"]
    assert alone[0]["episode"]["externalId"] == "m2"  # m1 and m3 follow, by their windows
    assert {h["episode"]["externalId"] for h in around} == {"m1", "m2", "m3"}
    brought = {h["episode"]["externalId"] for h in around
               if any(m["retriever"] == "graph" for m in h["matches"])}
    assert {"m1", "m3"} <= brought  # each also brought as m2's neighbour


async def test_superseded_facts_only_with_history(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "lives_in", "Lisbon", validFrom="2026-01-01T00:00:00Z"),
        fact("user", "lives_in", "Porto", validFrom="2026-06-01T00:00:00Z")])
    now = (await gql.ok(SEARCH, ns=ns, q="user lives in", kinds=["FACT"]))["search"]["hits"]
    assert [h["fact"]["object"] for h in now] == ["Porto"]
    everything = (await gql.ok(SEARCH, ns=ns, q="user lives in", kinds=["FACT"],
                               history=True))["search"]["hits"]
    assert {(h["fact"]["object"], h["fact"]["status"]) for h in everything} == {
        ("Porto", "ACTIVE"), ("Lisbon", "SUPERSEDED"), ("Lisbon", "ACTIVE")}


async def test_an_answer_is_found_through_the_question_before_it(gql: GraphQLClient, ns: str,
                                                                  db: Database) -> None:
    # Recorded out of order: the chain (and so each turn's context) is rebuilt in time order.
    await gql.ok(RECORD, ns=ns, eps=[said("a", "2026-05-01T10:01:00Z", "Porto, next month.")])
    await gql.ok(RECORD, ns=ns, eps=[
        said("q", "2026-05-01T10:00:00Z", "Which city are you moving to?")])
    await embed_all_pending(db, WordLlamaEmbedder(), 64)
    hits = (await gql.ok(SEARCH, ns=ns, q="where am I moving to", kinds=["EPISODE"]))
    found = [shown(h) for h in hits["search"]["hits"]]
    assert "EPISODE:a" in found
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns, external_id: 'a'}) RETURN e.context AS context", {"ns": ns})
    assert rows[0]["context"] == "Which city are you moving to?"


async def test_interleaved_batches_give_every_turn_its_true_predecessor(
        gql: GraphQLClient, ns: str, db: Database) -> None:
    # A batch links its own turns before writing them; stored turns in between win.
    await gql.ok(RECORD, ns=ns, eps=[said("a", "2026-05-01T10:00:00Z", "A"),
                                     said("c", "2026-05-01T10:02:00Z", "C")])
    await gql.ok(RECORD, ns=ns, eps=[said("d", "2026-05-01T10:03:00Z", "D"),
                                     said("b", "2026-05-01T10:01:00Z", "B")])
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) OPTIONAL MATCH (e)-[:NEXT]->(n) "
        "RETURN e.external_id AS id, e.context AS context, n.external_id AS next "
        "ORDER BY e.occurred_at", {"ns": ns})
    assert [(r["id"], r["context"], r["next"]) for r in rows] == [
        ("a", None, "b"), ("b", "A", "c"), ("c", "B", "d"), ("d", "C", None)]


async def test_recall_layers_read_at_once_and_a_failure_stops_the_others() -> None:
    stopped = asyncio.Event()

    async def slow_layer() -> None:
        try:
            await asyncio.sleep(30)
        finally:
            stopped.set()

    async def failing_layer() -> None:
        raise DatabaseUnavailable("Neo4j is away")

    with pytest.raises(DatabaseUnavailable):
        await at_once(slow_layer(), failing_layer())
    await asyncio.wait_for(stopped.wait(), timeout=1)  # cancelled, not left reading


async def test_recall_reads_i_as_the_speaker_and_says_what_is_disputed(gql: GraphQLClient,
                                                                       ns: str) -> None:
    """"I"/"me"/"my" stand for the entity the agent names (`user` unless told otherwise), and
    a disputed fact is never shown as plainly true: recall says it is disputed and what else
    is claimed."""
    await gql.ok(POLICY, ns=ns, p="works_at", c="ONE", s="MANUAL")
    await gql.ok(ASSERT, ns=ns, facts=[fact("Dana", "works_at", "Acme"),
                                       fact("Dana", "works_at", "Globex"),
                                       fact("Dana", "lives_in", "Lisbon"),
                                       fact("user", "lives_in", "Porto")])
    ask = """query($ns: String!, $q: String!, $speaker: String) { recall(namespace: $ns,
        query: $q, speaker: $speaker) { pieces { text } entities { name } } }"""
    as_dana = (await gql.ok(ask, ns=ns, q="Where do I work?", speaker="Dana"))["recall"]
    assert [e["name"] for e in as_dana["entities"]] == ["Dana"]
    lines = [re.sub(r" \(since [\d-]+\)", "", p["text"]) for p in as_dana["pieces"]]
    assert "Dana works at Acme [disputed, not settled; also claimed: Globex]" in lines
    assert "Dana works at Globex [disputed, not settled; also claimed: Acme]" in lines
    assert "Dana lives in Lisbon" not in lines  # it does not bear on the question
    by_default = (await gql.ok(ask, ns=ns, q="Where do I live?"))["recall"]
    assert [e["name"] for e in by_default["entities"]] == ["user"]
    assert [p["text"].split(" (since")[0] for p in by_default["pieces"]] == [
        "user lives in Porto"]



async def test_a_session_filter_keeps_other_sessions_out(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("a1", 1, "the heron nests by the river", session="s1"),
                                     ep("b1", 2, "the heron flew over the river", session="s2")])
    for session, expected in (("s1", ["a1"]), ("s2", ["b1"])):
        found = await gql.ok(SEARCH, ns=ns, q="heron river", kinds=["EPISODE"],
                             session=session)
        assert [h["episode"]["externalId"] for h in found["search"]["hits"]] == expected


async def test_a_fact_that_meets_only_a_name_takes_no_place_from_the_turns_that_answer(
        gql: GraphQLClient, ns: str, db: Database) -> None:
    """Each kind's list is scaled against the turns' lists: the best of a few facts that met
    only "Melanie" is not worth the best turn about camping (on its own scale it was)."""
    await gql.ok(RECORD, ns=ns, eps=[
        ep("t1", 1, "We camped at Big Sur last summer, right above the cliffs", actor="Melanie"),
        ep("t2", 2, "Nice! I went to a support group yesterday", actor="Caroline"),
        ep("t3", 3, "The kids loved camping by the lake in Oregon too", actor="Melanie"),
        ep("t4", 4, "I finished a pottery class on Friday, a bowl for my mum", actor="Melanie"),
        ep("t5", 5, "I painted a sunset over the lake", actor="Melanie")])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("Melanie", "likes", "pottery", evidence=["t4"]),
        fact("Melanie", "likes", "painting", evidence=["t5"])])
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    hits = (await gql.ok(SEARCH, ns=ns, q="Where has Melanie camped?"))["search"]["hits"]
    assert [shown(h) for h in hits[:2]] == ["EPISODE:t1", "EPISODE:t3"]
    assert "FACT:pottery" in [shown(h) for h in hits]  # still a hit, below them
