"""Extraction end to end over the real Neo4j and the real GraphQL app, offline: the example
conversation logged with `recordEpisodes` becomes facts with evidence, and later messages
update or correct them through conflict resolution."""

from __future__ import annotations

from typing import Any

from graphmem.core.config import Settings
from graphmem.db.database import Database
from graphmem.pipelines.worker import Worker
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, POLICY, fact

RECORD = """mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) { created duplicates } }"""
JOBS = """query($ns: String!) { jobs(namespace: $ns) { nodes {
  id kind state episodes selected skipped candidates facts producer attempts error } } }"""
FACTS = """query($ns: String!, $s: String!, $p: String!, $at: DateTime) {
  facts(namespace: $ns, where: {subject: $s, predicate: $p}, validAt: $at) { nodes {
    id object source confidence validFrom status
    evidence { externalId }
    supersedes { fact { object } strategy } } } }"""


def _episode(ext: str, actor: str, kind: str, text: str, at: str,
             session: str = "chat-1") -> dict[str, Any]:
    return {"externalId": ext, "sessionId": session, "actor": actor, "kind": kind,
            "content": text, "occurredAt": at}


CONVERSATION = [
    _episode("u1", "user", "USER_MESSAGE",
             "Hi! I'm Dana. I just started a new job at Acme Robotics.", "2026-05-01T09:00:00Z"),
    _episode("a1", "assistant", "AGENT_MESSAGE",
             "Congratulations, Dana! What will you work on?", "2026-05-01T09:01:00Z"),
    _episode("u2", "user", "USER_MESSAGE",
             "Motion planning. Also, I moved to Lisbon last month.", "2026-05-01T09:02:00Z"),
]


async def _facts(gql: GraphQLClient, ns: str, subject: str, predicate: str,
                 at: str | None = None) -> list[dict[str, Any]]:
    data = await gql.ok(FACTS, ns=ns, s=subject, p=predicate, at=at)
    return list(data["facts"]["nodes"])


async def test_the_example_conversation_becomes_facts_offline(
        gql: GraphQLClient, db: Database, settings: Settings, ns: str) -> None:
    await gql.ok("""mutation($ns: String!) { setPipelines(namespace: $ns, extract: true) {
                      extract } }""", ns=ns)
    await gql.ok(RECORD, ns=ns, eps=CONVERSATION)
    [queued] = (await gql.ok(JOBS, ns=ns))["jobs"]["nodes"]
    assert queued["kind"] == "EXTRACT" and queued["state"] == "QUEUED"
    assert queued["episodes"] == 3
    stats = """query($ns: String!) { memoryStats(namespace: $ns) { queuedJobs failedJobs
        oldestJobAt } }"""
    waiting = (await gql.ok(stats, ns=ns))["memoryStats"]
    assert waiting["queuedJobs"] == 1 and waiting["oldestJobAt"] is not None

    assert await Worker(db, settings).drain() >= 1
    assert (await gql.ok(stats, ns=ns))["memoryStats"] == {
        "queuedJobs": 0, "failedJobs": 0, "oldestJobAt": None}
    scraped = (await gql.http.get("/metrics")).text
    assert 'graphmem_jobs_total{kind="extract",outcome="done"}' in scraped
    assert 'graphmem_extraction_episodes_total{decision="skipped"}' in scraped
    [done] = (await gql.ok(JOBS, ns=ns))["jobs"]["nodes"]
    assert done["state"] == "DONE" and done["producer"] == "patterns-v1"
    assert (done["selected"], done["skipped"]) == (2, 1)  # the agent's turn is counted
    assert done["facts"] == 3  # name, works_at, lives_in

    # "I'm Dana" made "Dana" another name of the speaker, so facts read naturally.
    [employer] = await _facts(gql, ns, "Dana", "works_at")
    assert employer["object"] == "Acme Robotics" and employer["source"] == "EXTRACTION"
    assert employer["confidence"] == settings.pattern_confidence
    assert [e["externalId"] for e in employer["evidence"]] == ["u1"]
    [city] = await _facts(gql, ns, "Dana", "lives_in")
    assert city["object"] == "Lisbon" and city["validFrom"].startswith("2026-04-01")

    # Months later she changes jobs: a change in the world, so Acme stays true for the past.
    await gql.ok(RECORD, ns=ns, eps=[_episode(
        "u3", "user", "USER_MESSAGE", "Actually, I switched jobs in August: I'm at Globex now.",
        "2026-09-02T10:00:00Z", session="chat-2")])
    await Worker(db, settings).drain()
    [now] = await _facts(gql, ns, "Dana", "works_at")
    assert now["object"] == "Globex" and now["validFrom"].startswith("2026-08-01")
    assert [(s["fact"]["object"], s["strategy"]) for s in now["supersedes"]] == [
        ("Acme Robotics", "recency")]
    [june] = await _facts(gql, ns, "Dana", "works_at", at="2026-06-15T00:00:00Z")
    assert june["object"] == "Acme Robotics"

    # A correction: Lisbon was wrong all along, so Porto replaces it for the same time.
    await gql.ok(RECORD, ns=ns, eps=[_episode(
        "u4", "user", "USER_MESSAGE", "Actually, I live in Porto, not Lisbon.",
        "2026-09-02T10:05:00Z", session="chat-2")])
    await Worker(db, settings).drain()
    [city] = await _facts(gql, ns, "Dana", "lives_in")
    assert city["object"] == "Porto"
    assert [(s["fact"]["object"], s["strategy"]) for s in city["supersedes"]] == [
        ("Lisbon", "correction")]
    [may] = await _facts(gql, ns, "Dana", "lives_in", at="2026-05-15T00:00:00Z")
    assert may["object"] == "Porto"


async def test_retried_records_and_reruns_add_nothing(
        gql: GraphQLClient, db: Database, settings: Settings, ns: str) -> None:
    await gql.ok("""mutation($ns: String!) { setPipelines(namespace: $ns, extract: true) {
                      extract } }""", ns=ns)
    await gql.ok(RECORD, ns=ns, eps=CONVERSATION)
    again = await gql.ok(RECORD, ns=ns, eps=CONVERSATION)
    assert again["recordEpisodes"]["duplicates"] == 3
    assert len((await gql.ok(JOBS, ns=ns))["jobs"]["nodes"]) == 1  # no job for duplicates
    await Worker(db, settings).drain()
    before = await _facts(gql, ns, "Dana", "works_at")

    rerun = await gql.ok("""mutation($ns: String!) {
        extractFacts(namespace: $ns, episodeIds: ["u1", "u2"], wait: true) {
          state facts producedFacts { object } } }""", ns=ns)
    assert rerun["extractFacts"]["state"] == "DONE"
    after = await _facts(gql, ns, "Dana", "works_at")
    assert [f["id"] for f in after] == [f["id"] for f in before]  # evidence added, no copy
    history = await gql.ok("""query($ns: String!) { facts(namespace: $ns,
        includeHistory: true, first: 50) { nodes { id } } }""", ns=ns)
    assert len(history["facts"]["nodes"]) == 3


async def test_without_the_switch_nothing_is_queued(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=CONVERSATION)
    assert (await gql.ok(JOBS, ns=ns))["jobs"]["nodes"] == []
    switches = await gql.ok("query($ns: String!) { pipelines(namespace: $ns) { extract "
                            "summarize isDefault } }", ns=ns)
    assert switches["pipelines"] == {"extract": False, "summarize": False, "isDefault": True}


async def test_unknown_episodes_are_refused_and_queue_nothing(gql: GraphQLClient,
                                                              ns: str) -> None:
    body = await gql("""mutation($ns: String!) { extractFacts(namespace: $ns,
        episodeIds: ["nope"]) { id } }""", ns=ns)
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert (await gql.ok(JOBS, ns=ns))["jobs"]["nodes"] == []


async def _say_with_extraction_on(gql: GraphQLClient, db: Database, settings: Settings,
                                  ns: str, text: str) -> None:
    """The user says ``text`` with extraction switched on, and the worker drains the job."""
    await gql.ok("""mutation($ns: String!) { setPipelines(namespace: $ns, extract: true) {
                      extract } }""", ns=ns)
    await gql.ok(RECORD, ns=ns, eps=[_episode("u9", "user", "USER_MESSAGE", text,
                                              "2026-09-02T10:00:00Z")])
    await Worker(db, settings).drain()


async def test_a_correction_replaces_the_current_value_not_history(
        gql: GraphQLClient, db: Database, settings: Settings, ns: str) -> None:
    await gql.ok("""mutation($ns: String!) { assertFacts(namespace: $ns, facts: [
        {subject: "user", predicate: "lives_in", object: "Paris",
         validFrom: "2020-01-01T00:00:00Z"},
        {subject: "user", predicate: "lives_in", object: "Lisbon",
         validFrom: "2010-01-01T00:00:00Z", validTo: "2015-01-01T00:00:00Z"}]) { outcome } }""",
                 ns=ns)
    await _say_with_extraction_on(gql, db, settings, ns, "Actually, I live in Porto.")
    [now] = await _facts(gql, ns, "user", "lives_in")
    assert now["object"] == "Porto"
    assert [(s["fact"]["object"], s["strategy"]) for s in now["supersedes"]] == [
        ("Paris", "correction")]
    [then] = await _facts(gql, ns, "user", "lives_in", at="2012-06-01T00:00:00Z")
    assert then["object"] == "Lisbon" and then["status"] == "ACTIVE"  # history untouched


async def test_an_actor_too_long_to_name_is_refused(gql: GraphQLClient, ns: str) -> None:
    body = await gql(RECORD, ns=ns, eps=[_episode("x", "a" * 300, "USER_MESSAGE", "I'm Dana.",
                                                  "2026-05-01T09:00:00Z")])
    assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT"


async def test_a_correction_with_two_values_to_choose_from_is_a_plain_claim(
        gql: GraphQLClient, db: Database, settings: Settings, ns: str) -> None:
    """"Actually, I live in Porto" while Lisbon and Porto are both disputed: which one was
    wrong is not said, so nothing is replaced outright; the dispute stays for a person."""
    await gql.ok(POLICY, ns=ns, p="lives_in", c="ONE", s="MANUAL")
    for city in ("Lisbon", "Porto"):
        await gql.ok(ASSERT, ns=ns, facts=[fact("user", "lives_in", city)])
    await _say_with_extraction_on(gql, db, settings, ns, "Actually, I live in Porto.")
    now = await _facts(gql, ns, "user", "lives_in")
    assert "Lisbon" in [f["object"] for f in now]
    assert [s for f in now for s in f["supersedes"] if s["strategy"] == "correction"] == []


async def test_turns_whose_job_cannot_be_queued_are_not_written(gql: GraphQLClient, db: Database,
                                                               ns: str) -> None:
    """The turns and their extraction job are one transaction: when queueing the job fails,
    no turn is written either, so no acknowledged turn goes unprocessed. (The switch is
    stored as text, which the queueing statement cannot read as on or off.)"""
    await db.driver.execute_query("CREATE (:PipelineSwitches {ns: $ns, extract: 'yes'})",
                                  {"ns": ns})
    body = await gql(RECORD, ns=ns, eps=CONVERSATION)
    assert body["errors"] and body["data"] is None
    written, _, _ = await db.driver.execute_query(  # the audit records the failed call
        "MATCH (n {ns: $ns}) WHERE NOT n:PipelineSwitches AND NOT n:AuditEvent "
        "RETURN count(n) AS n", {"ns": ns})
    assert written[0]["n"] == 0
