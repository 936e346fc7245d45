"""Retention sweeps exactly what each policy says, over the real Neo4j and GraphQL app."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.governance import retention
from tests.support.client import GraphQLClient

RECORD = """mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) { episodes { id externalId } } }"""
POLICY = """mutation($ns: String!, $p: RetentionPolicyInput!) {
  setRetentionPolicy(namespace: $ns, policy: $p) { kind sensitivity maxAgeDays action } }"""
SWEEP = """mutation($ns: String!, $dry: Boolean!) { sweepRetention(namespace: $ns, dryRun: $dry) {
  policy { sensitivity action } matched episodesDeleted episodesRedacted factsRetracted
  summariesStale receipts } }"""
EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 50) { nodes {
  externalId content redactedAt } } }"""


def _ep(ext: str, days_ago: int, text: str, sensitivity: str) -> dict[str, Any]:
    at = datetime.now(UTC) - timedelta(days=days_ago)
    return {"externalId": ext, "sessionId": "s1", "kind": "USER_MESSAGE", "actor": "user",
            "content": text, "occurredAt": at.isoformat(), "sensitivity": sensitivity}


async def _fill(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        _ep("h-old-1", 40, "My blood test showed anaemia.", "HEALTH"),
        _ep("h-old-2", 35, "The doctor prescribed iron tablets.", "HEALTH"),
        _ep("p-old", 41, "I live in Lisbon.", "PERSONAL"),
        _ep("h-new", 5, "Feeling better after the iron.", "HEALTH"),
        _ep("f-old", 400, "My IBAN is PT50 0002 0123 1234 5678 9015 4.", "FINANCIAL"),
        _ep("f-new", 3, "Paid rent today.", "FINANCIAL")])
    await gql.ok("""mutation($ns: String!, $f: [FactInput!]!) { assertFacts(namespace: $ns,
        facts: $f) { outcome } }""", ns=ns, f=[
        {"subject": "user", "predicate": "has_condition", "object": "anaemia",
         "evidence": ["h-old-1"]},
        {"subject": "user", "predicate": "lives_in", "object": "Lisbon",
         "evidence": ["p-old", "h-old-2"]}])
    await gql.ok(POLICY, ns=ns, p={"sensitivity": "HEALTH", "maxAgeDays": 30,
                                   "action": "DELETE"})
    await gql.ok(POLICY, ns=ns, p={"sensitivity": "FINANCIAL", "kind": "USER_MESSAGE",
                                   "maxAgeDays": 365, "action": "REDACT"})


async def test_a_sweep_does_exactly_what_the_policies_say(gql: GraphQLClient, ns: str) -> None:
    await _fill(gql, ns)
    before = (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]
    dry = (await gql.ok(SWEEP, ns=ns, dry=True))["sweepRetention"]
    assert sorted((a["policy"]["sensitivity"], a["matched"]) for a in dry) == [
        ("FINANCIAL", 1), ("HEALTH", 2)]
    assert (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"] == before  # nothing touched

    done = {a["policy"]["action"]: a for a in
            (await gql.ok(SWEEP, ns=ns, dry=False))["sweepRetention"]}
    assert done["DELETE"]["episodesDeleted"] == 2 and done["DELETE"]["factsRetracted"] == 1
    assert len(done["DELETE"]["receipts"]) == 1
    assert done["REDACT"]["episodesRedacted"] == 1
    after = {e["externalId"]: e for e in (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]}
    assert set(after) == {"p-old", "h-new", "f-old", "f-new"}
    assert after["f-old"]["content"] == "[redacted]" and after["f-old"]["redactedAt"]
    untouched = {e["externalId"]: e["content"] for e in before}
    for key in ("p-old", "h-new", "f-new"):
        assert after[key]["content"] == untouched[key] and after[key]["redactedAt"] is None

    facts = await gql.ok("""query($ns: String!) { facts(namespace: $ns, includeHistory: true)
        { nodes { predicate status evidence { externalId } } } }""", ns=ns)
    by = {f["predicate"]: f for f in facts["facts"]["nodes"]}
    assert by["has_condition"]["status"] == "RETRACTED"  # its only evidence was swept
    assert by["lives_in"]["status"] == "ACTIVE"
    assert [e["externalId"] for e in by["lives_in"]["evidence"]] == ["p-old"]
    # The swept text is gone from the log and its index (the retracted fact keeps its own
    # record as history: erasing the subject removes that).
    found = await gql.ok("""query($ns: String!) { search(namespace: $ns,
        query: "IBAN anaemia blood tablets", kinds: [EPISODE]) { hits { episode {
          externalId content } } } }""", ns=ns)
    hits = [h["episode"] for h in found["search"]["hits"]]
    assert not {h["externalId"] for h in hits} & {"h-old-1", "h-old-2"}
    assert not [h for h in hits if "IBAN" in h["content"] or "anaemia" in h["content"]]

    again = (await gql.ok(SWEEP, ns=ns, dry=False))["sweepRetention"]
    assert [a["matched"] for a in again] == [0, 0]  # idempotent


async def test_orphaned_facts_can_be_kept_without_evidence(gql: GraphQLClient, db: Database,
                                                           ns: str) -> None:
    await _fill(gql, ns)
    await retention.sweep(db, Namespace(ns), retract_orphans=False)
    facts = await gql.ok("""query($ns: String!) { facts(namespace: $ns, where:
        {predicate: "has_condition"}) { nodes { status evidence { id } } } }""", ns=ns)
    assert facts["facts"]["nodes"] == [{"status": "ACTIVE", "evidence": []}]


async def test_bad_policies_are_refused(gql: GraphQLClient, ns: str) -> None:
    for days in (0, retention.MAX_AGE_DAYS + 1):
        body = await gql(POLICY, ns=ns, p={"maxAgeDays": days, "action": "DELETE"})
        assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT", days
    listed = await gql.ok("query($ns: String!) { retentionPolicies(namespace: $ns) { kind } }",
                          ns=ns)
    assert listed["retentionPolicies"] == []
    gone = await gql("""mutation($ns: String!) { removeRetentionPolicy(namespace: $ns,
        sensitivity: HEALTH) }""", ns=ns)
    assert gone["errors"][0]["extensions"]["code"] == "NOT_FOUND"


async def test_the_longest_age_is_a_policy(gql: GraphQLClient, ns: str) -> None:
    """At most ``MAX_AGE_DAYS``: exactly that is taken."""
    done = await gql.ok(POLICY, ns=ns, p={"maxAgeDays": retention.MAX_AGE_DAYS,
                                          "action": "DELETE"})
    assert done["setRetentionPolicy"]["maxAgeDays"] == retention.MAX_AGE_DAYS


async def test_a_sweep_ages_episodes_from_its_own_moment(gql: GraphQLClient, db: Database,
                                                          ns: str) -> None:
    """A sweep applies the policies as of the moment it is given (the worker's clock, a
    test's future), not the wall clock: a turn 5 days old is 40 days old 35 days on, and a
    30-day policy takes it then; a turn made today is still young then."""
    await gql.ok(RECORD, ns=ns, eps=[_ep("older", 5, "Seen the doctor.", "HEALTH"),
                                     _ep("young", 0, "All fine now.", "HEALTH")])
    await gql.ok(POLICY, ns=ns, p={"sensitivity": "HEALTH", "maxAgeDays": 30,
                                   "action": "REDACT"})
    assert (await retention.sweep(db, Namespace(ns), True, now=datetime.now(UTC)))[0] \
        .matched == 0
    later = datetime.now(UTC) + timedelta(days=26)
    [applied] = await retention.sweep(db, Namespace(ns), True, now=later)
    assert applied.episodes_redacted == 1
    redacted = {n["externalId"]: n["redactedAt"] is not None
                for n in (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]}
    assert redacted == {"older": True, "young": False}
