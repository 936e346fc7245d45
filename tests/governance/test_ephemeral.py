"""Ephemeral sessions over the real Neo4j and GraphQL app: closed, or idle past their time to
live (an injected clock), they are erased with a receipt — episodes, the facts taken only from
them, summaries — and nothing of them is found again by any read; what rests on other
sessions, and what the user pinned, stays."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem.core.errors import ConcurrentChange
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.governance import ephemeral, erasure
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, ep, fact
from tests.support.graph import edges_and_statements

MARK = """mutation($ns: String!, $sid: String!, $idle: Float!) { markSessionEphemeral(
  namespace: $ns, sessionId: $sid, idleMinutes: $idle) { sessionId idleMinutes } }"""
CLOSE = """mutation($ns: String!, $sid: String!) { closeSession(namespace: $ns,
  sessionId: $sid) { scope verified counts { kind count } } }"""
CLOSE_CHECKED = """mutation($ns: String!, $sid: String!) { closeSession(namespace: $ns,
  sessionId: $sid) { verified remainingNodes } }"""
EVERYTHING = """query($ns: String!, $q: String!) {
  episodes(namespace: $ns, first: 50) { nodes { content sessionId } }
  facts(namespace: $ns, includeHistory: true) { nodes { object evidence { sessionId } } }
  search(namespace: $ns, query: $q) { hits { kind } }
  recall(namespace: $ns, query: $q) { pieces { text } }
  sessions(namespace: $ns) { nodes { sessionId ephemeralIdleMinutes } }
  summary(namespace: $ns, sessionId: "temp") { text } }"""


async def test_closing_an_ephemeral_session_erases_what_only_it_held(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    assert (await gql.ok(MARK, ns=ns, sid="temp", idle=30))["markSessionEphemeral"] == {
        "sessionId": "temp", "idleMinutes": 30.0}
    await gql.ok(RECORD, ns=ns, eps=[
        ep("t1", 1, "My locker code is 4711 at the Zephyrine gym", session="temp"),
        ep("t2", 2, "I also like quince jam", session="temp"),
        ep("k1", 3, "I like quince jam", session="kept")])
    made = (await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "uses_gym", "Zephyrine", evidence=["t1"]),
        fact("user", "likes", "quince jam", evidence=["t2", "k1"]),
        fact("user", "has_locker_code", "4711", evidence=["t1"])]))["assertFacts"]
    await gql.ok("""mutation($ns: String!, $id: ID!) { pinFact(namespace: $ns, factId: $id) {
        id } }""", ns=ns, id=made[2]["fact"]["id"])
    await gql.ok("""mutation($ns: String!) { writeSummary(namespace: $ns, summary: {
        text: "Zephyrine gym, locker 4711.", sessionId: "temp", covers: ["t1", "t2"]}) {
        id } }""", ns=ns)
    listed = (await gql.ok(EVERYTHING, ns=ns, q="Zephyrine"))["sessions"]["nodes"]
    assert {s["sessionId"]: s["ephemeralIdleMinutes"] for s in listed} == {"temp": 30.0,
                                                                           "kept": None}

    receipt = (await gql.ok(CLOSE, ns=ns, sid="temp"))["closeSession"]
    assert receipt["scope"] == "session" and receipt["verified"]
    counts = {c["kind"]: c["count"] for c in receipt["counts"]}
    assert (counts["episodes"], counts["facts"], counts["summaries"], counts["sessions"]) == (
        2, 1, 1, 1)

    after = await gql.ok(EVERYTHING, ns=ns, q="Zephyrine")
    assert after["episodes"]["nodes"] == [{"content": "I like quince jam", "sessionId": "kept"}]
    assert sorted((f["object"], [e["sessionId"] for e in f["evidence"]])
                  for f in after["facts"]["nodes"]) == [
        ("4711", []), ("quince jam", ["kept"])]  # pinned: kept, without its evidence
    assert after["search"]["hits"] == [] and after["summary"] is None
    assert not [p for p in after["recall"]["pieces"] if "Zephyrine" in p["text"]]
    assert [s["sessionId"] for s in after["sessions"]["nodes"]] == ["kept"]
    edges, statements = await edges_and_statements(db, ns)
    assert edges == statements  # no predicate edge outlived its fact


async def test_an_idle_ephemeral_session_expires_after_its_time_to_live(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    await gql.ok(MARK, ns=ns, sid="brief", idle=1)
    await gql.ok(MARK, ns=ns, sid="long", idle=10)
    for sid in ("brief", "long"):
        await gql.ok(RECORD, ns=ns, eps=[ep(f"{sid}-1", 1, f"a {sid} chat", session=sid)])
    now = datetime.now(UTC)
    # "long" began a day ago: idleness counts from its last episode, not from its start.
    await db.driver.execute_query(
        "MATCH (s:Session {ns: $ns, session_id: 'long'}) SET s.created_at = $then",
        {"ns": ns, "then": now - timedelta(days=1)}, database_=db.name)

    async def sessions_left() -> list[str]:
        found = await gql.ok("""query($ns: String!) { sessions(namespace: $ns) { nodes {
            sessionId } } }""", ns=ns)
        return sorted(s["sessionId"] for s in found["sessions"]["nodes"])

    await ephemeral.expire_idle(db, now + timedelta(seconds=30))
    assert await sessions_left() == ["brief", "long"]
    expired = await ephemeral.expire_idle(db, now + timedelta(minutes=2))
    assert expired and all(r.scope == "session" and r.verified for r in expired)
    assert await sessions_left() == ["long"]
    await ephemeral.expire_idle(db, now + timedelta(minutes=11))
    assert await sessions_left() == []


async def test_only_ephemeral_sessions_close(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, session="normal")])
    refused = await gql(CLOSE, ns=ns, sid="normal")
    assert refused["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    assert (await gql(CLOSE, ns=ns, sid="nope"))["errors"][0]["extensions"]["code"] \
        == "NOT_FOUND"
    bad = await gql(MARK, ns=ns, sid="x", idle=0)
    assert bad["errors"][0]["extensions"]["code"] == "INVALID_INPUT"


@pytest.mark.hostile("database")
async def test_turns_racing_a_close_are_erased_or_refused_and_the_receipt_is_true(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """Ten writers append to an ephemeral session while it closes: each turn is either
    erased with it or refused (SESSION_CLOSED); none survives, the session is not made
    again (ephemeral or not), and the receipt's "nothing remains" is what the graph holds.
    Before: 45 turns survived a receipt saying verified, partly in a re-created session."""
    await gql.ok(MARK, ns=ns, sid="temp", idle=30)
    await gql.ok(RECORD, ns=ns, eps=[ep("t0", 0, "the first turn", session="temp")])
    answers: list[dict[str, Any]] = []

    async def writer(w: int) -> None:
        for i in range(500):  # until the close refuses it
            answers.append(await gql(RECORD, ns=ns, eps=[
                ep(f"w{w}-{i}", i % 60, f"writer {w} says {i}", session="temp")]))
            if answers[-1].get("errors"):
                return

    async def closer() -> dict[str, Any]:
        while len(answers) < 20:  # the writers are under way
            await asyncio.sleep(0.01)
        return await gql(CLOSE_CHECKED, ns=ns, sid="temp")

    closed = (await asyncio.gather(closer(), *(writer(w) for w in range(10))))[0]
    assert closed is not None
    assert closed["data"]["closeSession"] == {"verified": True, "remainingNodes": 0}
    refused = [a["errors"][0]["extensions"]["code"] for a in answers if a.get("errors")]
    assert refused == ["SESSION_CLOSED"] * 10  # each writer, once the session was closed
    records, _, _ = await db.driver.execute_query(
        "RETURN COUNT { MATCH (e:Episode {ns: $ns}) WHERE e.session_id = 'temp' } AS turns, "
        "COUNT { MATCH (s:Session {ns: $ns}) } AS sessions", {"ns": ns}, database_=db.name)
    assert (records[0]["turns"], records[0]["sessions"]) == (0, 0)
    later = await gql(RECORD, ns=ns, eps=[ep("late", 59, "too late", session="temp")])
    assert later["errors"][0]["extensions"]["code"] == "SESSION_CLOSED"
    again = await gql(MARK, ns=ns, sid="temp", idle=30)
    assert again["errors"][0]["extensions"]["code"] == "SESSION_CLOSED"
    listed = await gql.ok("""query($ns: String!) { sessions(namespace: $ns) { nodes {
        sessionId } } }""", ns=ns)
    assert listed["sessions"]["nodes"] == []


async def test_a_sweep_spares_a_session_written_to_since_it_was_found_idle(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """The sweep reads idle sessions, then erases each: a turn in between makes it active,
    and the erasure, which reads the time under the session's lock, leaves it alone."""
    await gql.ok(MARK, ns=ns, sid="brief", idle=1)
    await gql.ok(RECORD, ns=ns, eps=[ep("b1", 1, "a brief chat", session="brief")])
    found_idle_at = datetime.now(UTC)  # what the sweep's read saw, before the turn below
    await db.driver.execute_query(
        "MATCH (s:Session {ns: $ns, session_id: 'brief'}) SET s.updated_at = $later",
        {"ns": ns, "later": found_idle_at}, database_=db.name)
    with pytest.raises(ConcurrentChange):
        await erasure.erase_session(db, Namespace(ns), "brief", ephemeral.ACTOR,
                                    idle_at=found_idle_at)
    found = await gql.ok("""query($ns: String!) { episodes(namespace: $ns) { nodes {
        externalId } } }""", ns=ns)
    assert found["episodes"]["nodes"] == [{"externalId": "b1"}]


async def test_idleness_counts_from_the_last_turn_not_from_the_marking(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """Time moves between the steps (an injected clock for the marking): with 30 seconds to
    live, a session marked 20 seconds before its last turn is not idle 15 seconds after that
    turn, and one marked a minute after its last turn is idle 35 seconds after that turn.
    (Seconds, not minutes: a sweep erases every namespace's idle sessions, and one that runs
    the clock on by minutes would erase other tests' sessions meanwhile.)"""
    here, now, ttl = Namespace(ns), datetime.now(UTC), timedelta(seconds=30)
    await ephemeral.mark(db, here, "busy", ttl, now=now - timedelta(seconds=20))
    await gql.ok(RECORD, ns=ns, eps=[
        ep("b1", 1, "a turn 20 seconds after the marking", session="busy"),
        ep("q1", 2, "a turn a minute before the marking", session="quiet")])
    await ephemeral.mark(db, here, "quiet", ttl, now=now + timedelta(minutes=1))

    async def sessions_left() -> list[str]:
        found = await gql.ok("""query($ns: String!) { sessions(namespace: $ns) { nodes {
            sessionId } } }""", ns=ns)
        return sorted(s["sessionId"] for s in found["sessions"]["nodes"])

    await ephemeral.expire_idle(db, now + timedelta(seconds=15))
    assert await sessions_left() == ["busy", "quiet"]
    await ephemeral.expire_idle(db, now + timedelta(seconds=35))
    assert await sessions_left() == []  # both idle for 35 seconds since their last turn


async def test_an_idle_time_is_taken_up_to_thirty_days_and_no_further(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """The limits exactly: one second and thirty days are idle times, a minute past thirty
    days is not (and marks nothing). (The one-second session may be swept at once.)"""
    assert (await gql.ok(MARK, ns=ns, sid="least", idle=1 / 60))["markSessionEphemeral"][
        "idleMinutes"] == pytest.approx(1 / 60)
    assert (await gql.ok(MARK, ns=ns, sid="most", idle=30 * 24 * 60))["markSessionEphemeral"][
        "idleMinutes"] == 30 * 24 * 60
    over = await gql(MARK, ns=ns, sid="over", idle=30 * 24 * 60 + 1)
    assert over["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    rows, _, _ = await db.driver.execute_query(  # sessions without turns are not listed
        "MATCH (s:Session {ns: $ns}) RETURN s.session_id AS id, s.ephemeral_ttl_s AS ttl",
        {"ns": ns}, database_=db.name)
    marked = {row["id"]: row["ttl"] for row in rows if row["id"] != "least"}
    assert marked == {"most": 30 * 24 * 3600}
