"""Conflict resolution and bi-temporal truth over the real app and Neo4j."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, POLICY, PROVENANCE, RECORD, fact, said
from tests.support.graph import edges_and_statements, graph_size

FACTS_AT = """
query($ns: String!, $where: FactWhere, $validAt: DateTime, $asOf: DateTime,
      $history: Boolean! = false) {
  facts(namespace: $ns, where: $where, validAt: $validAt, asOf: $asOf,
        includeHistory: $history, first: 50) {
    nodes { id object status validFrom validTo evidence { externalId } }
  }
}"""


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
    story = await gql.ok("""query($ns: String!, $h: Boolean!) { timeline(namespace: $ns,
        entity: "user", includeHistory: $h) { nodes { at fact { object validTo status } } } }""",
                         ns=ns, h=False)
    assert [(e["at"][:10], e["fact"]["object"], (e["fact"]["validTo"] or "")[:10])
            for e in story["timeline"]["nodes"]] == [("2026-03-10", "Acme", "2026-05-01"),
                                                     ("2026-05-01", "Globex", "")]
    everything = await gql.ok("""query($ns: String!, $h: Boolean!) { timeline(namespace: $ns,
        entity: "user", includeHistory: $h) { nodes { fact { status } } } }""", ns=ns, h=True)
    assert len(everything["timeline"]["nodes"]) == 3
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements and len(edges) == 3


ASSERT_FULL = """
mutation($ns: String!, $facts: [FactInput!]!) {
  assertFacts(namespace: $ns, facts: $facts) {
    outcome
    fact { id object status openConflicts
           resolution { outcome strategy reason actor }
           supersedes { fact { object } strategy reason }
           supersededBy { fact { object } strategy } }
  }
}"""
CONFLICTS = """
query($ns: String!, $status: ConflictStatus) {
  conflicts(namespace: $ns, status: $status) {
    nodes { id status subject predicate kept reason candidates { id object status } }
  }
}"""


async def assert_one(gql: GraphQLClient, ns: str, **f: Any) -> dict[str, Any]:
    data = await gql.ok(ASSERT_FULL, ns=ns, facts=[fact("Dana", "role", f.pop("obj"), **f)])
    result: dict[str, Any] = data["assertFacts"][0]
    return result


async def test_each_strategy_decides_or_disputes(gql: GraphQLClient, ns: str) -> None:
    async def policy(strategy: str) -> None:
        await gql.ok(POLICY, ns=ns, p="role", c="ONE", s=strategy)

    await policy("CONFIDENCE")
    await assert_one(gql, ns, obj="engineer", confidence=0.6)
    stronger = await assert_one(gql, ns, obj="manager", confidence=0.9)
    assert stronger["outcome"] == "CREATED"
    assert stronger["fact"]["supersedes"][0]["reason"] == "higher confidence (0.9 > 0.6)"
    weaker = await assert_one(gql, ns, obj="intern", confidence=0.3)
    assert weaker["outcome"] == "SUPERSEDED" and weaker["fact"]["status"] == "SUPERSEDED"
    assert weaker["fact"]["resolution"]["outcome"] == "lost"
    tie = await assert_one(gql, ns, obj="director", confidence=0.9)
    assert tie["outcome"] == "DISPUTED" and len(tie["fact"]["openConflicts"]) == 1

    await policy("SOURCE_PRIORITY")
    user = await assert_one(gql, ns, obj="founder", source="USER_STATEMENT")
    assert user["outcome"] == "CREATED"  # beats both agent assertions in the dispute
    assert {s["fact"]["object"] for s in user["fact"]["supersedes"]} == {"manager", "director"}
    # The dispute now only covers the past window before "founder" (what both kept).
    [still] = (await gql.ok(CONFLICTS, ns=ns, status="OPEN"))["conflicts"]["nodes"]
    believed = [c for c in still["candidates"] if c["status"] == "DISPUTED"]
    assert sorted(c["object"] for c in believed) == ["director", "manager"]
    guess = await assert_one(gql, ns, obj="ceo", source="EXTRACTION")
    assert guess["outcome"] == "SUPERSEDED"

    await policy("MANUAL")
    manual = await assert_one(gql, ns, obj="advisor", source="USER_CORRECTION")
    assert manual["outcome"] == "DISPUTED"
    policies = await gql.ok("query($ns: String!) { predicatePolicies(namespace: $ns) "
                            "{ predicate cardinality strategy isDefault } }", ns=ns)
    listed = {p["predicate"]: p for p in policies["predicatePolicies"]}
    assert listed["role"] == {"predicate": "role", "cardinality": "ONE", "strategy": "MANUAL",
                              "isDefault": False}
    assert listed["likes"]["cardinality"] == "MANY" and listed["lives_in"]["isDefault"]


async def test_resolve_conflict_keeps_one(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(POLICY, ns=ns, p="role", c="ONE", s="MANUAL")
    first = await assert_one(gql, ns, obj="engineer")
    second = await assert_one(gql, ns, obj="manager")
    [conflict] = (await gql.ok(CONFLICTS, ns=ns, status="OPEN"))["conflicts"]["nodes"]
    assert {c["status"] for c in conflict["candidates"]} == {"DISPUTED"}
    resolve = """mutation($ns: String!, $id: ID!, $keep: ID!) {
      resolveConflict(namespace: $ns, conflictId: $id, keep: $keep, reason: "asked Dana") {
        status kept resolvedBy reason candidates { object status } } }"""
    wrong = await gql(resolve, ns=ns, id=conflict["id"], keep="fact_nope")
    assert wrong["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    done = (await gql.ok(resolve, ns=ns, id=conflict["id"],
                         keep=second["fact"]["id"]))["resolveConflict"]
    assert done["status"] == "RESOLVED" and done["kept"] == second["fact"]["id"]
    assert done["reason"] == "asked Dana" and done["resolvedBy"]
    assert sorted((c["object"], c["status"]) for c in done["candidates"]) == [
        ("engineer", "SUPERSEDED"), ("manager", "ACTIVE")]
    # engineer lost from when manager began; its earlier validity lives on as a revision.
    history = await gql.ok(FACTS_AT, ns=ns, history=True,
                           where={"subject": "Dana", "predicate": "role"})
    believed = sorted((f["object"], f["status"], f["validTo"] is None)
                      for f in history["facts"]["nodes"] if f["status"] != "SUPERSEDED")
    assert believed == [("engineer", "ACTIVE", False), ("manager", "ACTIVE", True)]
    again = await gql(resolve, ns=ns, id=conflict["id"], keep=first["fact"]["id"])
    assert again["errors"][0]["extensions"]["code"] == "INVALID_INPUT"


async def test_correct_and_retract_leave_a_trace(gql: GraphQLClient, db: Database,
                                                 ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[said("m1", "2026-03-10T10:00:00Z", "I live in Lisbon")])
    lives = (await gql.ok(ASSERT, ns=ns, facts=[fact("user", "lives_in", "Lisbon",
                                                     evidence=["m1"])]))["assertFacts"][0]
    summary = await gql.ok("""mutation($ns: String!, $s: SummaryInput!) {
        writeSummary(namespace: $ns, summary: $s) { id } }""", ns=ns, s={
        "text": "Lives in Lisbon", "sessionId": "chat", "cites": [lives["fact"]["id"]],
        "covers": [await _episode_id(gql, ns, "m1")]})
    correct = """mutation($ns: String!, $id: ID!) {
      correctFact(namespace: $ns, factId: $id, object: "Porto", reason: "misheard") {
        outcome fact { id object source status validFrom evidence { kind content }
                       supersedes { fact { object status reason } strategy reason } } } }"""
    corrected = (await gql.ok(correct, ns=ns, id=lives["fact"]["id"]))["correctFact"]
    new = corrected["fact"]
    assert (new["object"], new["source"], new["status"]) == ("Porto", "USER_CORRECTION",
                                                             "ACTIVE")
    assert new["validFrom"] == "2026-03-10T10:00:00+00:00"  # the same validity as the old
    assert new["evidence"][0]["kind"] == "OBSERVATION"
    assert "Lisbon" in new["evidence"][0]["content"] and "misheard" in new["evidence"][0]["content"]
    assert new["supersedes"] == [{"fact": {"object": "Lisbon", "status": "SUPERSEDED",
                                           "reason": "misheard"},
                                  "strategy": "correction", "reason": "misheard"}]
    stale = await gql.ok('query($ns: String!) { summary(namespace: $ns, sessionId: "chat") '
                         '{ id stale } }', ns=ns)
    assert stale["summary"] == {"id": summary["writeSummary"]["id"], "stale": True}

    retract = """mutation($ns: String!, $id: ID!, $reason: String!) {
      retractFact(namespace: $ns, factId: $id, reason: $reason) {
        status reason endedBy retractedAt resolution { outcome strategy } } }"""
    gone = (await gql.ok(retract, ns=ns, id=new["id"], reason="moved away"))["retractFact"]
    assert (gone["status"], gone["reason"]) == ("RETRACTED", "moved away") and gone["endedBy"]
    assert gone["resolution"] == {"outcome": "retracted", "strategy": "retraction"}
    assert await objects_of(gql, ns, "lives_in") == []
    before = await graph_size(db)
    for query, args, code in ((retract, {"id": new["id"], "reason": "twice"}, "INVALID_INPUT"),
                              (retract, {"id": "fact_nope", "reason": "x"}, "NOT_FOUND"),
                              (retract, {"id": lives["fact"]["id"], "reason": " "},
                               "INVALID_INPUT"),
                              (correct, {"id": lives["fact"]["id"]}, "INVALID_INPUT")):
        body = await gql(query, ns=ns, **args)
        assert body["errors"][0]["extensions"]["code"] == code, args
    assert await graph_size(db) == before


async def _episode_id(gql: GraphQLClient, ns: str, external_id: str) -> str:
    data = await gql.ok("""query($ns: String!) { episodes(namespace: $ns, first: 50) {
        nodes { id externalId } } }""", ns=ns)
    return str(next(e["id"] for e in data["episodes"]["nodes"] if e["externalId"] == external_id))


async def objects_of(gql: GraphQLClient, ns: str, predicate: str) -> list[str]:
    data = await gql.ok(FACTS_AT, ns=ns, where={"subject": "user", "predicate": predicate})
    return sorted(f["object"] for f in data["facts"]["nodes"])


async def test_concurrent_writes_leave_one_current_value(gql: GraphQLClient, ns: str) -> None:
    """Twenty clients set Dana's city at once: one value wins, the rest are history."""
    await gql.ok(ASSERT, ns=ns, facts=[fact("Dana", "lives_in", "Start")])
    cities = [f"City {i}" for i in range(20)]
    results = await asyncio.gather(*(gql(ASSERT, ns=ns, facts=[fact("Dana", "lives_in", c)])
                                     for c in cities))
    assert all(not r.get("errors") for r in results)
    current = await gql.ok(FACTS_AT, ns=ns, where={"subject": "Dana", "predicate": "lives_in"})
    assert len(current["facts"]["nodes"]) == 1
    history = await gql.ok(FACTS_AT, ns=ns, history=True,
                           where={"subject": "Dana", "predicate": "lives_in"})
    assert {f["object"] for f in history["facts"]["nodes"]} == {"Start", *cities}


async def test_verify_fact_checks_its_evidence(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[said("m1", "2026-03-10T10:00:00Z", "I'm 34 and I live in "
                                                                      "São Paulo"),
                                     said("m2", "2026-03-11T10:00:00Z", "Nice weather")])
    asserted = (await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "lives_in", "são paulo", evidence=["m1", "m2"]),
        fact("user", "age", value={"number": 34}, evidence=["m1"]),
        fact("user", "works_at", "Acme", evidence=["m2"]),
        fact("user", "likes", "tea")]))["assertFacts"]
    verify = """query($ns: String!, $id: ID!) { verifyFact(namespace: $ns, factId: $id) {
        verdict method checks { episode { externalId } supports matched missing } } }"""
    verdicts = []
    for a in asserted:
        verdicts.append((await gql.ok(verify, ns=ns, id=a["fact"]["id"]))["verifyFact"])
    assert [v["verdict"] for v in verdicts] == ["SUPPORTED", "SUPPORTED", "UNSUPPORTED",
                                                "NO_EVIDENCE"]
    assert verdicts[0]["checks"] == [
        {"episode": {"externalId": "m1"}, "supports": True, "matched": ["são", "paulo"],
         "missing": []},
        {"episode": {"externalId": "m2"}, "supports": False, "matched": [],
         "missing": ["são", "paulo"]}]


async def test_resolving_for_the_older_fact_records_the_decision(gql: GraphQLClient,
                                                                 ns: str) -> None:
    await gql.ok(POLICY, ns=ns, p="role", c="ONE", s="MANUAL")
    older = await assert_one(gql, ns, obj="engineer")
    await assert_one(gql, ns, obj="manager")  # its validity lies inside engineer's
    [conflict] = (await gql.ok(CONFLICTS, ns=ns, status="OPEN"))["conflicts"]["nodes"]
    done = (await gql.ok("""mutation($ns: String!, $id: ID!, $keep: ID!) {
      resolveConflict(namespace: $ns, conflictId: $id, keep: $keep, reason: "still there") {
        status kept resolvedBy reason candidates { object status } } }""", ns=ns,
                         id=conflict["id"], keep=older["fact"]["id"]))["resolveConflict"]
    assert (done["status"], done["kept"], done["reason"]) == (
        "RESOLVED", older["fact"]["id"], "still there")
    assert sorted((c["object"], c["status"]) for c in done["candidates"]) == [
        ("engineer", "ACTIVE"), ("manager", "SUPERSEDED")]


async def test_a_late_older_fact_never_overwrites_a_newer_one(gql: GraphQLClient,
                                                              ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "works_at", "Globex",
                                            validFrom="2026-05-01T00:00:00Z")])
    late = await gql.ok(ASSERT_FULL, ns=ns, facts=[fact("user", "works_at", "Acme",
                                                        validFrom="2026-03-01T00:00:00Z")])
    assert late["assertFacts"][0]["outcome"] == "CREATED"
    assert late["assertFacts"][0]["fact"]["resolution"]["outcome"] == "lost"
    assert await objects(gql, ns) == ["Globex"]
    assert await objects(gql, ns, validAt="2026-04-01T00:00:00Z") == ["Acme"]
    whole = await gql.ok(ASSERT_FULL, ns=ns, facts=[fact("user", "works_at", "Initech",
                                                         validFrom="2026-06-01T00:00:00Z",
                                                         validTo="2026-07-01T00:00:00Z",
                                                         source="EXTRACTION")])
    # Later in world time, so RECENCY lets it win June; Globex keeps May and July onwards.
    assert whole["assertFacts"][0]["outcome"] == "CREATED"
    assert await objects(gql, ns, validAt="2026-06-15T00:00:00Z") == ["Initech"]
    assert await objects(gql, ns, validAt="2026-05-15T00:00:00Z") == ["Globex"]
    assert await objects(gql, ns) == ["Globex"]


# Promises of conflict resolution, with the exact history each step leaves ---------------------

LEDGER = """
CALL () { MATCH (f:Fact {ns: $ns}) RETURN count(f) AS versions }
CALL () { MATCH (:Fact {ns: $ns})-[s:SUPERSEDES]->(:Fact) RETURN count(s) AS supersedes }
CALL () { MATCH (:Fact {ns: $ns})-[r:REVISES]->(:Fact) RETURN count(r) AS revises }
CALL () { MATCH (c:Conflict {ns: $ns, status: 'open'}) RETURN count(c) AS open }
RETURN versions, supersedes, revises, open"""
BELIEVED = """
MATCH (f:Fact {ns: $ns}) WHERE f.retracted_at IS NULL
RETURN f.id AS id, f.object AS object, f.status AS status, f.valid_from AS vf,
       f.valid_to AS vt,
       COLLECT { MATCH (c:Conflict {status: 'open'})-[:CANDIDATE]->(f) RETURN c.id } AS open"""
RESOLVE = """mutation($ns: String!, $id: ID!, $keep: ID!) {
  resolveConflict(namespace: $ns, conflictId: $id, keep: $keep, reason: "asked Dana") {
    status kept } }"""


async def ledger(db: Database, ns: str) -> tuple[int, int, int, int]:
    """(fact versions, SUPERSEDES links, REVISES links, open conflicts) in the namespace."""
    records, _, _ = await db.driver.execute_query(LEDGER, {"ns": ns})
    r = records[0]
    return r["versions"], r["supersedes"], r["revises"], r["open"]


async def believed(db: Database, ns: str) -> list[tuple[str, str, str | None, str | None]]:
    """What memory believes now: (object, status, valid from, valid to), dates as days."""
    records, _, _ = await db.driver.execute_query(BELIEVED, {"ns": ns})
    for r in records:  # disputed exactly when held by an open conflict
        assert (r["status"] == "disputed") == bool(r["open"]), dict(r)
    return sorted((r["object"], r["status"], _day(r["vf"]), _day(r["vt"])) for r in records)


def _day(value: Any) -> str | None:
    moment = maybe_datetime(value)
    return None if moment is None else moment.date().isoformat()


async def test_recency_tie_goes_to_the_later_belief(gql: GraphQLClient, db: Database,
                                                    ns: str) -> None:
    """Two employers from the same day: the one memory was told later wins, whole."""
    first = await gql.ok(ASSERT_FULL, ns=ns, facts=[fact("user", "works_at", "Acme",
                                                         validFrom="2026-03-01T00:00:00Z")])
    assert await ledger(db, ns) == (1, 0, 0, 0)
    later = (await gql.ok(ASSERT_FULL, ns=ns, facts=[fact(
        "user", "works_at", "Globex", validFrom="2026-03-01T00:00:00Z")]))["assertFacts"][0]
    assert later["outcome"] == "CREATED" and later["fact"]["status"] == "ACTIVE"
    assert later["fact"]["supersedes"] == [{"fact": {"object": "Acme"}, "strategy": "recency",
                                            "reason": "stated more recently"}]
    assert await ledger(db, ns) == (2, 1, 0, 0)  # Acme ended whole: no revision
    assert await believed(db, ns) == [("Globex", "active", "2026-03-01", None)]
    assert await objects(gql, ns, validAt="2026-03-15T00:00:00Z") == ["Globex"]
    audit = (await gql.ok(PROVENANCE, ns=ns, id=first["assertFacts"][0]["fact"]["id"]))
    assert audit["provenance"]["supersededBy"] == [{"id": later["fact"]["id"]}]


async def test_a_trimmed_disputed_fact_stays_disputed_for_what_it_keeps(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """A stronger fact takes March from two disputed ones: what they keep on either side is
    still disputed, in the same open conflict."""
    await gql.ok(POLICY, ns=ns, p="role", c="ONE", s="CONFIDENCE")
    await assert_one(gql, ns, obj="engineer", confidence=0.5, validFrom="2026-01-01T00:00:00Z")
    assert await ledger(db, ns) == (1, 0, 0, 0)
    tie = await assert_one(gql, ns, obj="manager", confidence=0.5,
                           validFrom="2026-01-01T00:00:00Z")
    assert tie["outcome"] == "DISPUTED"
    assert await ledger(db, ns) == (2, 0, 0, 1)
    strong = await assert_one(gql, ns, obj="director", confidence=0.9,
                              validFrom="2026-03-01T00:00:00Z",
                              validTo="2026-04-01T00:00:00Z")
    assert strong["outcome"] == "CREATED"
    assert await ledger(db, ns) == (7, 2, 4, 1)  # two ended, each kept two pieces
    assert await believed(db, ns) == [
        ("director", "active", "2026-03-01", "2026-04-01"),
        ("engineer", "disputed", "2026-01-01", "2026-03-01"),
        ("engineer", "disputed", "2026-04-01", None),
        ("manager", "disputed", "2026-01-01", "2026-03-01"),
        ("manager", "disputed", "2026-04-01", None)]
    [still] = (await gql.ok(CONFLICTS, ns=ns, status="OPEN"))["conflicts"]["nodes"]
    assert sorted(c["object"] for c in still["candidates"] if c["status"] == "DISPUTED") == [
        "engineer", "engineer", "manager", "manager"]


async def test_a_dispute_trimmed_in_the_batch_that_opened_it_stays_disputed(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """The same, in one batch: the dispute opens with the trimmed pieces, not the ended
    versions."""
    await gql.ok(POLICY, ns=ns, p="role", c="ONE", s="CONFIDENCE")
    batch = await gql.ok(ASSERT_FULL, ns=ns, facts=[
        fact("Dana", "role", "engineer", confidence=0.5, validFrom="2026-01-01T00:00:00Z"),
        fact("Dana", "role", "manager", confidence=0.5, validFrom="2026-01-01T00:00:00Z"),
        fact("Dana", "role", "director", confidence=0.9, validFrom="2026-03-01T00:00:00Z",
             validTo="2026-04-01T00:00:00Z")])
    assert [a["outcome"] for a in batch["assertFacts"]] == ["CREATED", "DISPUTED", "CREATED"]
    assert await ledger(db, ns) == (7, 2, 4, 1)
    assert [s for _, s, _, _ in await believed(db, ns)] == ["active"] + ["disputed"] * 4
    [still] = (await gql.ok(CONFLICTS, ns=ns, status="OPEN"))["conflicts"]["nodes"]
    assert sorted((c["object"], c["status"]) for c in still["candidates"]) == [
        ("engineer", "DISPUTED"), ("engineer", "DISPUTED"), ("manager", "DISPUTED"),
        ("manager", "DISPUTED")]

async def test_a_weaker_rival_the_new_fact_keeps_nothing_of_is_untouched(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """"lead" (stronger) holds all of January and February, so all of "intern" (weaker);
    "engineer" keeps only March, where "intern" never held: "intern" must not end."""
    await gql.ok(POLICY, ns=ns, p="role", c="ONE", s="MANUAL")
    await assert_one(gql, ns, obj="lead", confidence=0.9, validFrom="2026-01-01T00:00:00Z",
                     validTo="2026-03-01T00:00:00Z")
    intern = await assert_one(gql, ns, obj="intern", confidence=0.3,
                              validFrom="2026-01-01T00:00:00Z", validTo="2026-02-01T00:00:00Z")
    assert await ledger(db, ns) == (2, 0, 0, 1)
    await gql.ok(POLICY, ns=ns, p="role", c="ONE", s="CONFIDENCE")
    new = await assert_one(gql, ns, obj="engineer", confidence=0.6,
                           validFrom="2026-01-01T00:00:00Z", validTo="2026-04-01T00:00:00Z")
    assert new["outcome"] == "CREATED"
    assert new["fact"]["supersededBy"] == [{"fact": {"object": "lead"},
                                            "strategy": "confidence"}]
    assert await ledger(db, ns) == (3, 1, 0, 1)  # one new version, one link: lead's
    assert await believed(db, ns) == [
        ("engineer", "active", "2026-03-01", "2026-04-01"),
        ("intern", "disputed", "2026-01-01", "2026-02-01"),
        ("lead", "disputed", "2026-01-01", "2026-03-01")]
    audit = (await gql.ok(PROVENANCE, ns=ns, id=intern["fact"]["id"]))["provenance"]
    assert audit["supersededBy"] == []


async def test_resolving_a_conflict_disputes_again_what_still_clashes(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """Keeping "engineer" (January-February) settles those months; "manager" and "director"
    both keep March onwards, where they still clash: a conflict must hold them again."""
    await gql.ok(POLICY, ns=ns, p="role", c="ONE", s="MANUAL")
    engineer = await assert_one(gql, ns, obj="engineer", validFrom="2026-01-01T00:00:00Z",
                                validTo="2026-03-01T00:00:00Z")
    assert await ledger(db, ns) == (1, 0, 0, 0)
    await assert_one(gql, ns, obj="manager", validFrom="2026-02-01T00:00:00Z")
    assert await ledger(db, ns) == (2, 0, 0, 1)
    await assert_one(gql, ns, obj="director", validFrom="2026-02-01T00:00:00Z")
    assert await ledger(db, ns) == (3, 0, 0, 2)  # director against both: a second conflict
    wide = next(c for c in (await gql.ok(CONFLICTS, ns=ns, status="OPEN"))["conflicts"]["nodes"]
                if len(c["candidates"]) == 3)
    done = await gql.ok(RESOLVE, ns=ns, id=wide["id"], keep=engineer["fact"]["id"])
    assert done["resolveConflict"] == {"status": "RESOLVED", "kept": engineer["fact"]["id"]}
    # Two ended, each keeping March onwards as a revision; the first conflict settled itself.
    assert await ledger(db, ns) == (5, 2, 2, 1)
    assert await believed(db, ns) == [
        ("director", "disputed", "2026-03-01", None),
        ("engineer", "active", "2026-01-01", "2026-03-01"),
        ("manager", "disputed", "2026-03-01", None)]
    [again] = (await gql.ok(CONFLICTS, ns=ns, status="OPEN"))["conflicts"]["nodes"]
    assert sorted((c["object"], c["status"]) for c in again["candidates"]) == [
        ("director", "DISPUTED"), ("manager", "DISPUTED")]


async def test_values_that_differ_only_in_spelling_stay_apart(gql: GraphQLClient,
                                                              ns: str) -> None:
    """Policies decide, never text similarity: "gray" is not taken for "grey" (a value of its
    own, beside it under MANY; superseding it by recency under ONE), while the same value said
    again only adds evidence."""
    await gql.ok(POLICY, ns=ns, p="likes_colour", c="MANY", s="RECENCY")
    await gql.ok(POLICY, ns=ns, p="lives_in", c="ONE", s="RECENCY")
    outcomes = []
    for obj in ("grey", "gray", "grey"):
        made = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes_colour", obj)])
        outcomes.append(made["assertFacts"][0]["outcome"])
    assert outcomes == ["CREATED", "CREATED", "EVIDENCE_ADDED"]
    for obj in ("Lisbon", "Lisboa"):
        made = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "lives_in", obj)])
        assert made["assertFacts"][0]["outcome"] == "CREATED"
    colours = await gql.ok(FACTS_AT, ns=ns, where={"subject": "user", "predicate": "likes_colour"})
    assert sorted(f["object"] for f in colours["facts"]["nodes"]) == ["gray", "grey"]
    lives = {"subject": "user", "predicate": "lives_in"}
    now = await gql.ok(FACTS_AT, ns=ns, where=lives)
    assert [f["object"] for f in now["facts"]["nodes"]] == ["Lisboa"]
    history = await gql.ok(FACTS_AT, ns=ns, history=True, where=lives)
    assert ("Lisbon", "SUPERSEDED") in {(f["object"], f["status"])
                                        for f in history["facts"]["nodes"]}
