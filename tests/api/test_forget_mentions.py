"""eraseSubject's whole scope (issue 37.8, "forget my dog"): the turns that mention the entity
(its name or an alias, as a whole word, any case) are redacted in place or erased, the
summaries covering them withdrawn; `erasurePlan` lists exactly that and writes nothing; the
word is gone from search, recall and an export; another namespace's Biscuit is untouched.
"Biscuits" is another word, not a mention (README, "Erasure")."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from graphmem.archive import stores, tiering
from graphmem.core.config import Settings
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.governance import mentions
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from graphmem.security import encryption
from tests.support.apps import OwnApp, keyed, new_key, own_app
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact, said
from tests.support.graph import delete_namespace

BISCUIT = re.compile(r"(?<!\w)(?:biscuit|bisc)(?!\w)", re.IGNORECASE)
TURNS = [
    said("m1", "2026-05-01T10:00:00Z", "I adopted a dog today, his name is Biscuit"),
    said("m2", "2026-05-01T10:01:00Z", "Biscuit's favourite toy is a squeaky duck. I work "
                                       "at Acme."),
    said("m3", "2026-05-01T10:02:00Z", "Grandma's Biscuits are the best, I baked some"),
    said("m4", "2026-05-01T10:03:00Z", "Took BISC to the vet this morning"),
    said("m5", "2026-05-01T10:04:00Z", "The weather in Leeds is lovely"),
    {**said("m6", "2026-05-01T10:05:00Z", "Walked the dog in the park"), "sessionId": None,
     "metadata": {"pet": "Biscuit", "place": "park"}},
]
PLAN = """query($ns: String!, $m: MentionScope!) { erasurePlan(namespace: $ns,
  entity: "Biscuit", mentions: $m) { entity names mentions facts { id text }
  factsRetracted { id text } turns { id occurredAt excerpt action }
  summaries { id excerpt } } }"""
ERASE = """mutation($ns: String!, $m: MentionScope!) { eraseSubject(namespace: $ns,
  entity: "Biscuit", mentions: $m) { counts { kind count } remainingNodes remainingSearchable
  verified } }"""
EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 50) { nodes {
  id externalId content metadata } } }"""
SUMMARIES = "MATCH (s:Summary {ns: $ns}) RETURN s.id AS id, s.text AS text, s.stale AS stale"


async def _memory(gql: GraphQLClient, ns: str) -> dict[str, str]:
    """The dog's memory: turns, facts about him (and one about work), an alias, summaries.
    Returns the episode ids by externalId."""
    made = await gql.ok(RECORD, ns=ns, eps=TURNS)
    ids = {e["externalId"]: e["id"] for e in made["recordEpisodes"]["episodes"]}
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "owns", "Biscuit", evidence=["m1"]),
        fact("Biscuit", "likes", "squeaky duck", evidence=["m2"]),
        fact("user", "works_at", "Acme", evidence=["m2"])])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "Biscuit",
        alias: "Bisc") { id } }""", ns=ns)
    for text, covers in (("The user adopted Biscuit, a dog who loves his duck",
                          [ids["m1"], ids["m2"]]),
                         ("Small talk about the weather in Leeds", [ids["m5"]])):
        await gql.ok("""mutation($ns: String!, $s: SummaryInput!) { writeSummary(
            namespace: $ns, summary: $s) { id } }""", ns=ns,
                     s={"text": text, "sessionId": "chat", "covers": covers})
    return ids


async def _state(db: Database, ns: str) -> list[str]:
    """Everything the namespace holds, node by node and link by link, to compare: but the
    audit log (it records a refused mutation too) and the embedding queue (a worker on the
    shared test database may lease and embed the turns meanwhile)."""
    nodes, _, _ = await db.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE NOT n:AuditEvent "
        "RETURN [x IN labels(n) WHERE x <> 'EmbedPending'] AS labels, "
        "n {.*, embedding: null, embed_lease_until: null, _lock: null} AS props",
        {"ns": ns})
    links, _, _ = await db.driver.execute_query(
        "MATCH (a {ns: $ns})-[r]->(b) RETURN a.id AS a, type(r) AS type, properties(r) AS p, "
        "b.id AS b", {"ns": ns})
    return sorted([json.dumps([sorted(r["labels"]), r["props"]], sort_keys=True, default=str)
                   for r in nodes] + [json.dumps(r.data(), sort_keys=True, default=str)
                                       for r in links])


async def _summaries(db: Database, ns: str) -> dict[str, Any]:
    rows, _, _ = await db.driver.execute_query(SUMMARIES, {"ns": ns})
    return {r["id"]: r for r in rows}


async def _exported(client: httpx.AsyncClient, token: str, ns: str) -> str:
    async with client.stream("GET", "/export", params={"namespace": ns},
                             headers={"Authorization": f"Bearer {token}"}) as answer:
        assert answer.status_code == 200
        return "\n".join([line async for line in answer.aiter_lines()])


async def _searchable(gql: GraphQLClient, ns: str, word: str) -> str:
    """What search and recall answer for the word, as text."""
    found = await gql.ok("""query($ns: String!, $q: String!) {
        search(namespace: $ns, query: $q, limit: 50) { hits { episode { content metadata }
          fact { text } summary { text } entity { name aliases } } }
        recall(namespace: $ns, query: $q, sessionId: "chat") { pieces { text } } }""",
                         ns=ns, q=word)
    return json.dumps(found)


async def test_redacting_mentions_keeps_the_turns_and_the_plan_is_exact(
        gql: GraphQLClient, db: Database, client: httpx.AsyncClient, admin_token: str,
        ns: str) -> None:
    twin = f"{ns}-twin"
    try:
        ids = await _memory(gql, ns)
        await gql.ok(RECORD, ns=twin, eps=TURNS[:1])
        await gql.ok(ASSERT, ns=twin, facts=[fact("user", "owns", "Biscuit",
                                                  evidence=["m1"])])
        assert BISCUIT.search(await _searchable(gql, ns, "Biscuit"))  # found before

        before = await _state(db, ns)
        plan = (await gql.ok(PLAN, ns=ns, m="REDACT"))["erasurePlan"]
        assert await _state(db, ns) == before  # the dry run wrote nothing
        assert plan["entity"] == "Biscuit" and plan["names"] == ["Bisc", "Biscuit"]
        assert sorted(f["text"] for f in plan["facts"]) == ["Biscuit likes squeaky duck",
                                                            "user owns Biscuit"]
        assert plan["factsRetracted"] == []
        assert [(t["id"], t["action"]) for t in plan["turns"]] == [
            (ids[x], "redact") for x in ("m1", "m2", "m4", "m6")]  # not m3 ("Biscuits")
        assert plan["turns"][1]["excerpt"].startswith("Biscuit's favourite toy")
        assert plan["turns"][1]["occurredAt"].startswith("2026-05-01T10:01")
        summaries = await _summaries(db, ns)
        covering = [s for s in summaries.values() if "adopted" in s["text"]]
        assert [s["id"] for s in plan["summaries"]] == [covering[0]["id"]]

        receipt = (await gql.ok(ERASE, ns=ns, m="REDACT"))["eraseSubject"]
        counts = {c["kind"]: c["count"] for c in receipt["counts"]}
        assert receipt["verified"], receipt
        assert counts["facts"] == 2 and counts["mentions_redacted"] == 4
        assert counts["summaries_stale"] == 1 and "episodes" not in counts

        listed = (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]
        turns = {e["externalId"]: e for e in listed}
        assert sorted(turns) == ["m1", "m2", "m3", "m4", "m5", "m6"]  # every turn stays
        assert turns["m1"]["content"] == "I adopted a dog today, his name is [redacted]"
        assert turns["m2"]["content"] == ("[redacted]'s favourite toy is a squeaky duck. "
                                          "I work at Acme.")
        assert turns["m4"]["content"] == "Took [redacted] to the vet this morning"
        assert turns["m3"]["content"] == TURNS[2]["content"]  # "Biscuits": another word
        assert turns["m6"]["metadata"] == {"pet": "[redacted]", "place": "park"}
        after = await _summaries(db, ns)
        withdrawn = after[covering[0]["id"]]
        assert withdrawn["stale"] and "Biscuit" not in withdrawn["text"]
        assert [s for i, s in after.items() if i != covering[0]["id"]] == [
            s for i, s in summaries.items() if i != covering[0]["id"]]  # untouched
        facts = await gql.ok("""query($ns: String!) { facts(namespace: $ns, includeHistory:
            true) { nodes { text } } }""", ns=ns)
        assert [f["text"] for f in facts["facts"]["nodes"]] == ["user works at Acme"]

        again = await gql.ok(RECORD, ns=ns, eps=TURNS)  # a client's retry: nothing comes back
        assert again["recordEpisodes"]["duplicates"] == len(TURNS)
        assert again["recordEpisodes"]["created"] == 0
        await embed_all_pending(db, WordLlamaEmbedder(), 256)  # what the worker would do
        for word in ("Biscuit", "Bisc", "biscuit's toy"):
            assert not BISCUIT.search(await _searchable(gql, ns, word)), word
        exported = await _exported(client, admin_token, ns)
        assert not BISCUIT.search(exported)
        assert "squeaky duck" in exported and "Biscuits are the best" in exported

        twin_left = await gql.ok(EPISODES, ns=twin)
        assert twin_left["episodes"]["nodes"][0]["content"] == TURNS[0]["content"]
        assert BISCUIT.search(await _exported(client, admin_token, twin))
    finally:
        await delete_namespace(db, twin)


async def test_erasing_mentions_takes_the_turns_as_the_plan_said(
        gql: GraphQLClient, db: Database, client: httpx.AsyncClient, admin_token: str,
        ns: str) -> None:
    ids = await _memory(gql, ns)
    before = await _state(db, ns)
    plan = (await gql.ok(PLAN, ns=ns, m="ERASE"))["erasurePlan"]
    assert await _state(db, ns) == before
    assert [(t["id"], t["action"]) for t in plan["turns"]] == [
        (ids[x], "erase") for x in ("m1", "m2", "m4", "m6")]
    assert [f["text"] for f in plan["factsRetracted"]] == ["user works at Acme"]
    planned_summaries = {s["id"] for s in plan["summaries"]}

    receipt = (await gql.ok(ERASE, ns=ns, m="ERASE"))["eraseSubject"]
    counts = {c["kind"]: c["count"] for c in receipt["counts"]}
    assert receipt["verified"], receipt
    assert counts["episodes"] == 4 and counts["facts_retracted"] == 1
    left = {e["externalId"] for e in (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]}
    assert left == {"m3", "m5"}
    withdrawn = {i for i, s in (await _summaries(db, ns)).items() if s["stale"]}
    assert withdrawn == planned_summaries and len(withdrawn) == 1
    believed = await gql.ok("""query($ns: String!) { facts(namespace: $ns) { nodes { text } }
        }""", ns=ns)
    assert believed["facts"]["nodes"] == []  # works_at Acme had only m2: retracted
    assert not BISCUIT.search(await _exported(client, admin_token, ns))


async def test_keep_is_todays_erasure(gql: GraphQLClient, db: Database, ns: str) -> None:
    """Without `mentions` the turns stay as they were said (the user's record)."""
    await _memory(gql, ns)
    plan = (await gql.ok(PLAN, ns=ns, m="KEEP"))["erasurePlan"]
    assert plan["turns"] == [] and len(plan["facts"]) == 2
    await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns, entity: "Bisc") {
        verified } }""", ns=ns)
    turns = (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]
    assert [t["content"] for t in turns if t["externalId"] == "m1"] == [TURNS[0]["content"]]


@pytest.fixture
async def sealed(settings: Settings, admin_token: str, app: Starlette) -> AsyncIterator[OwnApp]:
    async with own_app(settings, admin_token, app, **keyed(new_key())) as own:
        yield own


async def test_sealed_and_archived_turns_are_found_and_redacted(
        admin_token: str, ns: str, sealed: OwnApp) -> None:
    """Neo4j sees neither sealed nor archived text: each turn is read back and matched in
    plaintext; an archived one comes back into the graph redacted, its object deleted."""
    gql, db = sealed.gql, sealed.db
    old, recent = datetime.now(UTC) - timedelta(days=60), datetime.now(UTC) - timedelta(days=1)
    turns = [{**t, "occurredAt": ((old if i < 3 else recent) + timedelta(minutes=i)).isoformat()}
             for i, t in enumerate(TURNS[:5])]
    ids = {e["externalId"]: e["id"]
           for e in (await gql.ok(RECORD, ns=ns, eps=turns))["recordEpisodes"]["episodes"]}
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "owns", "Biscuit", evidence=["m1"])])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "Biscuit",
        alias: "Bisc") { id } }""", ns=ns)
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    await gql.ok("""mutation($ns: String!) { setRetentionPolicy(namespace: $ns, policy: {
        maxAgeDays: 30, action: ARCHIVE}) { action } }""", ns=ns)
    swept = await gql.ok("""mutation($ns: String!) { sweepRetention(namespace: $ns) {
        episodesArchived } }""", ns=ns)
    assert swept["sweepRetention"][0]["episodesArchived"] == 3  # m1, m2, m3 (m4, m5 kept)
    await gql.ok("""mutation($ns: String!) { setRetentionPolicy(namespace: $ns, policy: {
        maxAgeDays: 3650, action: ARCHIVE}) { action } }""", ns=ns)
    raw, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.content AS c, e.archived_at AS a", {"ns": ns})
    assert all(r["a"] is not None or encryption.is_sealed(r["c"]) for r in raw)

    plan = (await gql.ok(PLAN, ns=ns, m="REDACT"))["erasurePlan"]
    assert [t["id"] for t in plan["turns"]] == [ids["m1"], ids["m2"], ids["m4"]]
    assert "Biscuit" in plan["turns"][0]["excerpt"]  # read in plaintext, from the archive
    receipt = (await gql.ok(ERASE, ns=ns, m="REDACT"))["eraseSubject"]
    assert receipt["verified"], receipt
    counts = {c["kind"]: c["count"] for c in receipt["counts"]}
    # m3 says no name, but its archived object kept m2's words as its search context: it
    # comes back into the graph, and the relink gives it m2's redacted words.
    assert counts["mentions_redacted"] == 3 and counts["archived_restored"] == 1
    told = {e["externalId"]: e for e in (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]}
    assert told["m1"]["content"] == "I adopted a dog today, his name is [redacted]"
    assert told["m4"]["content"] == "Took [redacted] to the vet this morning"
    assert told["m3"]["content"] == TURNS[2]["content"]
    store = stores.active(db)
    assert store is not None and await tiering.objects_of(store, Namespace(ns)) == []
    exported = await _exported(gql.http, admin_token, ns)
    assert not BISCUIT.search(exported)
    # What was sealed is sealed again once redacted: the graph holds no plaintext of it.
    after, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.content AS c", {"ns": ns})
    assert len(after) == 5 and all(encryption.is_sealed(r["c"]) for r in after)


async def test_a_two_letter_name_is_a_mention(gql: GraphQLClient, ns: str) -> None:
    """Names of two characters are looked for ("Jo"), as a whole word, in the text and in
    the metadata's keys and values (its shape stays)."""
    await gql.ok(RECORD, ns=ns, eps=[
        {**said("j1", "2026-05-01T10:00:00Z", "Jo met me at the climbing gym"),
         "metadata": {"Jo": "friend", "with": ["Jo", "Joanna"]}},
        said("j2", "2026-05-01T10:01:00Z", "Joanna and Jon came too")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "friend_of", "Jo", evidence=["j1"])])
    await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns, entity: "Jo",
        mentions: REDACT) { verified } }""", ns=ns)
    told = {e["externalId"]: e["content"]
            for e in (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]}
    assert told == {"j1": "[redacted] met me at the climbing gym",
                    "j2": "Joanna and Jon came too"}
    metadata = {e["externalId"]: e["metadata"]
                for e in (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]}
    assert metadata["j1"] == {"[redacted]": "friend", "with": ["[redacted]", "Joanna"]}


async def test_a_speaker_is_not_a_mention(gql: GraphQLClient, db: Database, ns: str) -> None:
    """Forgetting Dana redacts where she is named; the turns she said keep their speaker (the
    search window names speakers too: it is no mention), and the receipt verifies."""
    await gql.ok(RECORD, ns=ns, eps=[
        {**said("d1", "2026-05-01T10:00:00Z", "I moved to Porto last month."), "actor": "Dana"},
        said("d2", "2026-05-01T10:01:00Z", "Dana says Porto is lovely")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("Dana", "lives_in", "Porto", evidence=["d1"])])
    plan = (await gql.ok("""query($ns: String!) { erasurePlan(namespace: $ns, entity: "Dana",
        mentions: REDACT) { turns { excerpt } } }""", ns=ns))["erasurePlan"]
    assert [t["excerpt"] for t in plan["turns"]] == ["Dana says Porto is lovely"]
    receipt = (await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns,
        entity: "Dana", mentions: REDACT) { verified remainingSearchable } }""",
                            ns=ns))["eraseSubject"]
    assert receipt["verified"], receipt
    turns = await gql.ok("""query($ns: String!) { episodes(namespace: $ns, first: 5) { nodes {
        actor content } } }""", ns=ns)
    assert turns["episodes"]["nodes"] == [
        {"actor": "Dana", "content": "I moved to Porto last month."},
        {"actor": "user", "content": "[redacted] says Porto is lovely"}]


async def test_more_turns_than_one_erasure_takes_is_refused_before_any_write(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    turns = [said(f"b{i}", f"2026-05-01T10:{i // 60 % 60:02d}:{i % 60:02d}Z",
                  f"Biscuit fetched the ball, time {i}") for i in range(1_001)]
    for start in range(0, len(turns), 500):
        await gql.ok(RECORD, ns=ns, eps=turns[start:start + 500])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "owns", "Biscuit", evidence=["b0"])])
    before = await _state(db, ns)
    for document in (PLAN, ERASE):
        refused = await gql(document, ns=ns, m="REDACT")
        error = refused["errors"][0]
        assert error["extensions"]["code"] == "INVALID_INPUT", refused
        assert error["extensions"]["field"] == "mentions" and "1001 turns" in error["message"]
    assert await _state(db, ns) == before


async def test_exactly_as_many_turns_as_one_erasure_takes_are_taken(
        gql: GraphQLClient, ns: str) -> None:
    """At the cap, not past it: 1,000 turns mentioning Biscuit are planned and redacted in one
    eraseSubject, and eraseEpisodes takes 1,000 ids at once (1,001 is refused: above)."""
    turns = [said(f"b{i}", f"2026-05-01T10:{i // 60 % 60:02d}:{i % 60:02d}Z",
                  f"Biscuit fetched the ball, time {i}") for i in range(1_000)]
    for start in range(0, len(turns), 500):
        await gql.ok(RECORD, ns=ns, eps=turns[start:start + 500])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "owns", "Biscuit", evidence=["b0"])])
    plan = (await gql.ok(PLAN, ns=ns, m="REDACT"))["erasurePlan"]
    assert len(plan["turns"]) == 1_000 and {t["action"] for t in plan["turns"]} == {"redact"}
    receipt = (await gql.ok(ERASE, ns=ns, m="REDACT"))["eraseSubject"]
    assert receipt["verified"] and receipt["remainingSearchable"] == 0, receipt
    erase = """mutation($ns: String!, $ids: [String!]!) { eraseEpisodes(namespace: $ns,
        ids: $ids) { verified counts { kind count } } }"""
    refused = await gql(erase, ns=ns, ids=[t["externalId"] for t in turns] + ["b0"])
    assert refused["errors"][0]["extensions"] == {"code": "INVALID_INPUT", "field": "ids"}
    erased = (await gql.ok(erase, ns=ns, ids=[t["externalId"] for t in turns]))["eraseEpisodes"]
    assert erased["verified"] and {"kind": "episodes", "count": 1_000} in erased["counts"]


async def test_a_mention_the_rewrite_missed_leaves_the_receipt_unverified(
        gql: GraphQLClient, ns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The receipt re-reads every turn for the name: when the rewrite misses a mention (here
    the one m6 keeps in its metadata), that turn is counted as remaining, not verified."""
    await _memory(gql, ns)
    rewrite = mentions.redacted

    def keeping_metadata(db: Database, mention: mentions.Mention, matcher: re.Pattern[str],
                         space: Namespace) -> dict[str, Any]:
        return {**rewrite(db, mention, matcher, space), "metadata": mention.row.get("metadata")}

    monkeypatch.setattr(mentions, "redacted", keeping_metadata)
    receipt = (await gql.ok(ERASE, ns=ns, m="REDACT"))["eraseSubject"]
    assert receipt["remainingSearchable"] >= 1 and not receipt["verified"], receipt
