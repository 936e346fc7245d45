"""eraseNamespace: everything goes, the receipt proves it, the neighbour is untouched."""

from __future__ import annotations

import hashlib

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.facts import entities
from graphmem.governance.erasure import digest, namespace_remaining, subject_remaining
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact, said
from tests.support.graph import delete_namespace
from tests.support.workloads import fill

ERASE = """mutation($ns: String!, $confirm: String!) {
  eraseNamespace(namespace: $ns, confirm: $confirm) {
    id scope counts { kind count } remainingNodes remainingSearchable verified } }"""


async def test_erase_namespace_leaves_nothing_and_a_receipt(gql: GraphQLClient, db: Database,
                                                            ns: str) -> None:
    twin = f"{ns}-twin"
    try:
        await fill(gql, ns)
        await fill(gql, twin)
        await embed_all_pending(db, WordLlamaEmbedder(), 256)
        refused = await gql(ERASE, ns=ns, confirm="something else")
        assert refused["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
        receipt = (await gql.ok(ERASE, ns=ns, confirm=ns))["eraseNamespace"]
        counts = {c["kind"]: c["count"] for c in receipt["counts"]}
        assert counts["episodes"] == 2 and counts["facts"] == 6 and counts["aliases"] == 1
        assert counts["values"] == 1 and counts["conflicts"] == 1 and counts["policies"] == 1
        assert counts["jobs"] == 1 and counts["switches"] == 1
        assert receipt["verified"] and receipt["remainingNodes"] == 0, receipt
        left, _, _ = await db.driver.execute_query(
            "MATCH (n) WHERE n.ns = $ns RETURN count(n) AS n", {"ns": ns})
        assert left[0]["n"] == 0
        tomb, _, _ = await db.driver.execute_query(
            "MATCH (r:ErasureReceipt {id: $id}) RETURN r", {"id": receipt["id"]})
        assert ns not in str(tomb[0]["r"]) and "Porto" not in str(tomb[0]["r"])
        audited, _, _ = await db.driver.execute_query(
            "MATCH (a:AuditEvent {ns: $digest}) RETURN collect(a.operation) AS ops",
            {"digest": await digest(db, ns)})
        assert {"recordEpisodes", "eraseNamespace"} <= set(audited[0]["ops"])
        # A keyed digest: guessing the name and hashing it finds nothing (issue 16.13).
        guessed = "sha256:" + hashlib.sha256(ns.encode()).hexdigest()
        assert guessed not in str(tomb[0]["r"]) and (await digest(db, ns)).startswith("hmac-")
        assert await digest(db, ns) == await digest(db, ns) != await digest(db, twin)
        twin_stats = await gql.ok("""query($ns: String!) { memoryStats(namespace: $ns) {
            episodes believedFacts } }""", ns=twin)
        assert twin_stats["memoryStats"] == {"episodes": 2, "believedFacts": 5}
        found = await gql.ok("""query($ns: String!) { search(namespace: $ns, query: "Porto")
            { hits { kind } } }""", ns=ns)
        assert found["search"]["hits"] == []
    finally:
        await delete_namespace(db, twin)


async def test_erase_episodes_cascades(gql: GraphQLClient, db: Database, ns: str) -> None:
    recorded = await gql.ok(RECORD, ns=ns, eps=[
        said("m1", "2026-05-01T10:00:00Z", "I work at Acme"),
        said("m2", "2026-05-01T10:01:00Z", "My secret diagnosis is Xyzzy syndrome"),
        said("m3", "2026-05-01T10:02:00Z", "Thanks")])
    ids = [e["id"] for e in recorded["recordEpisodes"]["episodes"]]
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "has_condition", "Xyzzy syndrome",
                                            evidence=["m2"]),
                                       fact("user", "works_at", "Acme", evidence=["m1", "m2"])])
    await gql.ok("""mutation($ns: String!, $s: SummaryInput!) { writeSummary(namespace: $ns,
        summary: $s) { id } }""", ns=ns, s={"text": "Works at Acme, has Xyzzy syndrome",
                                             "sessionId": "chat", "covers": ids})
    missing = await gql("""mutation($ns: String!, $ids: [String!]!) { eraseEpisodes(
        namespace: $ns, ids: $ids) { id } }""", ns=ns, ids=["m2", "nope"])
    assert missing["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    receipt = (await gql.ok("""mutation($ns: String!, $ids: [String!]!) { eraseEpisodes(
        namespace: $ns, ids: $ids) { counts { kind count } remainingNodes verified } }""",
                            ns=ns, ids=["m2"]))["eraseEpisodes"]
    assert {c["kind"]: c["count"] for c in receipt["counts"]} == {
        "episodes": 1, "facts_retracted": 1, "summaries_stale": 1}
    assert receipt["verified"]
    history = await gql.ok("""query($ns: String!) { facts(namespace: $ns, includeHistory: true)
        { nodes { object status reason evidence { externalId } } } }""", ns=ns)
    by_object = {f["object"]: f for f in history["facts"]["nodes"]}
    assert by_object["Xyzzy syndrome"]["status"] == "RETRACTED"
    assert by_object["Xyzzy syndrome"]["reason"] == "its only evidence was erased"
    assert by_object["Acme"]["status"] == "ACTIVE"
    assert by_object["Acme"]["evidence"] == [{"externalId": "m1"}]
    chain, _, _ = await db.driver.execute_query(
        "MATCH (a:Episode {ns: $ns})-[:NEXT]->(b) RETURN a.external_id AS a, "
        "b.external_id AS b, b.context AS context", {"ns": ns})
    assert [(r["a"], r["b"], r["context"]) for r in chain] == [("m1", "m3", "I work at Acme")]
    found = await gql.ok("""query($ns: String!) { search(namespace: $ns,
        query: "diagnosis Xyzzy") { hits { episode { content } summary { text } } }
        }""", ns=ns)
    assert "Xyzzy" not in str(found)
    # the summary that repeated it is withdrawn: no turn or summary holds the word (the
    # retracted fact keeps its object, as history; eraseSubject takes that too)
    rows, _, _ = await db.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE (n:Episode OR n:Summary) "
        "AND any(k IN keys(n) WHERE n[k] IS :: STRING "
        "AND n[k] CONTAINS 'Xyzzy') RETURN labels(n) AS labels", {"ns": ns})
    assert rows == []


async def test_erase_subject_removes_every_trace(gql: GraphQLClient, db: Database,
                                                 ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        said("m1", "2026-05-01T10:00:00Z", "My ex is called Jordan Vale"),
        said("m2", "2026-05-01T10:01:00Z", "Jordan Vale lives in Leeds and likes opera")])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "ex_partner", "Jordan Vale", evidence=["m1"]),
        fact("Jordan Vale", "lives_in", "Leeds", evidence=["m2"]),
        fact("Jordan Vale", "likes", "opera", evidence=["m2"]),
        fact("Jordan Vale", "age", value={"number": 41}),
        fact("user", "likes", "opera")])
    await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "Jordan Vale",
        alias: "JV") { id } }""", ns=ns)
    receipt = (await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns,
        entity: "jv", episodes: true) { counts { kind count } remainingNodes
        remainingSearchable verified } }""", ns=ns))["eraseSubject"]
    # Nor in any service process: none keeps names normalised beyond a request.
    assert not hasattr(entities.entity_key, "cache_info")
    assert not hasattr(entities.clean_name, "cache_info")
    counts = {c["kind"]: c["count"] for c in receipt["counts"]}
    assert counts["facts"] == 4 and counts["aliases"] == 1 and counts["episodes"] == 2
    assert counts["orphan_entities"] == 1 and counts["orphan_values"] == 1  # Leeds, 41
    assert receipt["verified"]
    left = await gql.ok("""query($ns: String!) { facts(namespace: $ns, includeHistory: true)
        { nodes { subject predicate object } } }""", ns=ns)
    assert left["facts"]["nodes"] == [{"subject": "user", "predicate": "likes",
                                       "object": "opera"}]  # opera stays: still used
    gone = await gql.ok("""query($ns: String!) { entity(namespace: $ns, name: "Jordan Vale")
        { id } }""", ns=ns)
    assert gone["entity"] is None
    rows, _, _ = await db.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE any(k IN keys(n) WHERE n[k] IS :: STRING "
        "AND n[k] CONTAINS 'Jordan') RETURN count(n) AS n", {"ns": ns})
    assert rows[0]["n"] == 0


async def test_erasure_leaves_no_derived_copy(gql: GraphQLClient, db: Database,
                                              ns: str) -> None:
    """The observation a retraction wrote ("Retracted “Dana Okoro lives in Porto”") and
    summaries of erased turns, stale or not, up a chain of summaries, kept the name readable
    while the receipt said nothing was left (issues 16.5, 22)."""
    recorded = await gql.ok(RECORD, ns=ns, eps=[
        said("m1", "2026-05-01T10:00:00Z", "Dana Okoro moved to Porto last spring"),
        said("m2", "2026-05-01T10:01:00Z", "Nice, the weather there is lovely")])
    ids = [e["id"] for e in recorded["recordEpisodes"]["episodes"]]
    asserted = await gql.ok("""mutation($ns: String!, $facts: [FactInput!]!) {
        assertFacts(namespace: $ns, facts: $facts) { fact { id } } }""", ns=ns,
                            facts=[fact("Dana Okoro", "lives_in", "Porto", evidence=["m1"])])
    await gql.ok("""mutation($ns: String!, $id: ID!) { retractFact(namespace: $ns, factId: $id,
        reason: "not sure") { id } }""", ns=ns, id=asserted["assertFacts"][0]["fact"]["id"])
    write = """mutation($ns: String!, $s: SummaryInput!) { writeSummary(namespace: $ns,
        summary: $s) { id } }"""
    session = (await gql.ok(write, ns=ns, s={"text": "Dana Okoro moved to Porto.",
                                             "sessionId": "chat", "covers": ids}))
    above = {"text": "Friends: Dana Okoro in Porto.", "covers": [session["writeSummary"]["id"]],
             "level": 2, "scope": "user"}
    await gql.ok(write, ns=ns, s=above)
    receipt = (await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns,
        entity: "Dana Okoro", episodes: true) { counts { kind count } verified } }""",
                            ns=ns))["eraseSubject"]
    assert receipt["verified"]
    counts = {c["kind"]: c["count"] for c in receipt["counts"]}
    assert counts["episodes"] == 2 and counts["summaries_stale"] == 2  # m1, the observation
    rows, _, _ = await db.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE any(k IN keys(n) WHERE n[k] IS :: STRING "
        "AND (n[k] CONTAINS 'Dana' OR n[k] CONTAINS 'Okoro')) RETURN labels(n) AS labels",
        {"ns": ns})
    assert rows == []
    for q in ("Dana Okoro", "Okoro moved"):
        found = await gql.ok("""query($ns: String!, $q: String!) { search(namespace: $ns,
            query: $q) { hits { kind episode { content } summary { text } } } }""", ns=ns, q=q)
        assert "Okoro" not in str(found), found


async def test_a_receipt_that_finds_a_copy_is_not_verified(gql: GraphQLClient,
                                                           ns: str) -> None:
    """eraseEpisodes answered `remainingSearchable: 0` whatever was left (issue 22): the
    receipt now searches the namespace for the erased text itself. A pasted paragraph that
    is also in another, unerased turn is still there, and the receipt says so."""
    pasted = "The access code for the storage unit on Harbour Street is 4471."
    await gql.ok(RECORD, ns=ns, eps=[
        said("m1", "2026-05-01T10:00:00Z", pasted),
        said("m2", "2026-05-01T10:01:00Z", "ok"),
        {**said("m3", "2026-05-01T10:02:00Z", f"Again: {pasted}"), "sessionId": "other"}])
    m3 = await gql.ok("""query($ns: String!) { episodes(namespace: $ns, where: {sessionId: "other"})
        { nodes { id } } }""", ns=ns)
    await gql.ok("""mutation($ns: String!, $s: SummaryInput!) { writeSummary(namespace: $ns,
        summary: $s) { id } }""", ns=ns, s={"text": f"They repeated it: {pasted}",
                                             "covers": [m3["episodes"]["nodes"][0]["id"]]})
    erase = """mutation($ns: String!, $ids: [String!]!) { eraseEpisodes(namespace: $ns,
        ids: $ids) { remainingNodes remainingSearchable verified } }"""
    first = (await gql.ok(erase, ns=ns, ids=["m1"]))["eraseEpisodes"]
    assert first == {"remainingNodes": 0, "remainingSearchable": 2, "verified": False}  # m3
    second = (await gql.ok(erase, ns=ns, ids=["m3"]))["eraseEpisodes"]  # and its summary
    assert second == {"remainingNodes": 0, "remainingSearchable": 0, "verified": True}


async def test_the_namespace_check_sees_all_a_namespace_holds(gql: GraphQLClient, db: Database,
                                                            ns: str) -> None:
    """A receipt is only as good as its check: run over a namespace that still holds
    memory, it must see every node of it (whatever its label) and every searchable text."""
    await fill(gql, ns)
    ids, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN collect(e.id) AS ids", {"ns": ns})
    await gql.ok("""mutation($ns: String!, $ids: [String!]!) { writeSummary(namespace: $ns,
        summary: {text: "Moved from Porto to Lisbon", covers: $ids}) { id } }""",
                 ns=ns, ids=ids[0]["ids"])
    rows, _, _ = await db.driver.execute_query(
        "MATCH (n) WHERE n.ns = $ns AND NOT n:AuditEvent "  # the audit log is pseudonymised
        "RETURN count(n) AS nodes, [l IN collect(DISTINCT labels(n)[0]) | l] AS labels, "
        "count(CASE WHEN n:Episode OR n:Fact OR n:Summary OR n:Entity OR n:Alias THEN 1 END) "
        "AS texts", {"ns": ns})
    assert {"Summary", "Session", "Conflict", "Alias", "Value"} <= set(rows[0]["labels"])
    assert await namespace_remaining(db, Namespace(ns)) == (rows[0]["nodes"], rows[0]["texts"])


async def test_the_subject_check_sees_every_name_that_resolves(gql: GraphQLClient,
                                                               db: Database, ns: str) -> None:
    """Run over an entity that is still there, the subject check finds its node and every
    name (its own and each alias) that leads to it; after eraseSubject, none resolves."""
    await gql.ok(ASSERT, ns=ns, facts=[fact("Jordan Vale", "lives_in", "Leeds")])
    for alias in ("JV", "Jord"):
        await gql.ok("""mutation($ns: String!, $alias: String!) { addAlias(namespace: $ns,
            name: "Jordan Vale", alias: $alias) { id } }""", ns=ns, alias=alias)
    entity = await entities.by_name(db, Namespace(ns), "jv")
    assert entity is not None
    assert await subject_remaining(db, Namespace(ns), entity) == (1, 3)
    await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns, entity: "Jord") {
        verified } }""", ns=ns)
    assert await subject_remaining(db, Namespace(ns), entity) == (0, 0)
    for name in ("Jordan Vale", "JV", "Jord"):
        found = await gql.ok("""query($ns: String!, $name: String!) { entity(namespace: $ns,
            name: $name) { id } }""", ns=ns, name=name)
        assert found["entity"] is None, name
