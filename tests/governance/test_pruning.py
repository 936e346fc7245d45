"""Use tracking and pruning over the real Neo4j and GraphQL app, with an injected clock:
answers mark what they return as used; a pruning policy retracts the believed, unpinned,
low-confidence facts nobody used for its days, never deletes, and spares a pinned twin."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.applications import Starlette

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.governance import pruning, retention
from graphmem.summaries import store as summaries
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, ep, fact

POLICY = """mutation($ns: String!) { setPruningPolicy(namespace: $ns, policy: {
  minConfidence: 0.5, unusedForDays: 30}) { minConfidence unusedForDays updatedBy } }"""
PRUNE = """mutation($ns: String!, $dry: Boolean!) { pruneFacts(namespace: $ns, dryRun: $dry) {
  dryRun count facts { object status } } }"""
FACTS = """query($ns: String!) { facts(namespace: $ns, includeHistory: true) { nodes {
  object status reason endedBy lastUsedAt } } }"""


async def _made(gql: GraphQLClient, ns: str, *made: dict[str, Any]) -> dict[str, str]:
    rows = (await gql.ok(ASSERT, ns=ns, facts=list(made)))["assertFacts"]
    return {row["fact"]["object"]: row["fact"]["id"] for row in rows}


async def test_answers_mark_what_they_return_as_used(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str) -> None:
    usage = app.state.runtime.usage
    await usage.flush(db)  # what other tests left
    ids = await _made(gql, ns, fact("user", "likes", "tea"), fact("Bob", "likes", "jazz"))
    await gql.ok("""query($ns: String!) { recall(namespace: $ns, query: "What does Bob like?")
        { tokensUsed } }""", ns=ns)
    used_at = datetime(2026, 6, 1, tzinfo=UTC)
    assert await usage.flush(db, used_at) == 1
    marked = {f["object"]: f["lastUsedAt"] for f in
              (await gql.ok(FACTS, ns=ns))["facts"]["nodes"]}
    assert marked == {"jazz": used_at.isoformat(), "tea": None}
    await gql.ok("""query($ns: String!) { facts(namespace: $ns) { nodes { id } } }""", ns=ns)
    await gql.ok("""query($ns: String!) { search(namespace: $ns, query: "tea") {
        hits { kind } } }""", ns=ns)
    assert await usage.flush(db) >= len(ids)


async def test_pruning_retracts_unused_low_confidence_facts_and_spares_the_rest(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "I think I like opera, maybe chess, jazz")])
    ids = await _made(
        gql, ns,
        fact("user", "likes", "opera", confidence=0.3, evidence=["m1"]),   # pruned
        fact("user", "likes", "chess", confidence=0.3, evidence=["m1"]),   # pinned: spared
        fact("user", "likes", "jazz", confidence=0.3, evidence=["m1"]),    # used: spared
        fact("user", "likes", "tea", confidence=0.9))                      # confident: spared
    await gql.ok("""mutation($ns: String!, $id: ID!) { pinFact(namespace: $ns, factId: $id) {
        id } }""", ns=ns, id=ids["chess"])
    later = datetime.now(UTC) + timedelta(days=40)
    usage = app.state.runtime.usage
    await usage.flush(db)
    usage.note(ns, facts=[ids["jazz"]])
    await usage.flush(db, later - timedelta(days=10))  # used 10 days before "later"

    assert (await gql.ok(POLICY, ns=ns))["setPruningPolicy"] == {
        "minConfidence": 0.5, "unusedForDays": 30.0, "updatedBy": "tests-admin"}
    now = await gql.ok(PRUNE, ns=ns, dry=True)  # today: nothing is 30 days unused yet
    assert now["pruneFacts"] == {"dryRun": True, "count": 0, "facts": []}
    dry = await pruning.prune(db, Namespace(ns), dry_run=True, now=later)
    assert dry.fact_ids == [ids["opera"]]
    done = await pruning.prune(db, Namespace(ns), now=later)
    assert done.fact_ids == [ids["opera"]]
    assert (await pruning.prune(db, Namespace(ns), now=later)).fact_ids == []  # once

    after = {f["object"]: f for f in (await gql.ok(FACTS, ns=ns))["facts"]["nodes"]}
    assert {o: f["status"] for o, f in after.items()} == {
        "opera": "RETRACTED", "chess": "ACTIVE", "jazz": "ACTIVE", "tea": "ACTIVE"}
    assert after["opera"]["reason"] == "pruned: confidence below 0.5 and unused for 30 days"
    assert after["opera"]["endedBy"] == pruning.ACTOR
    # Retracted, not deleted: what memory believed before is still answered.
    before = await gql.ok("""query($ns: String!, $at: DateTime!) { facts(namespace: $ns,
        asOf: $at) { nodes { object } } }""", ns=ns, at=datetime.now(UTC).isoformat())
    assert "opera" in {f["object"] for f in before["facts"]["nodes"]}


async def test_a_pinned_fact_survives_pruning_and_retention_that_remove_its_twin(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    old = (datetime.now(UTC) - timedelta(days=60)).isoformat()
    await gql.ok(RECORD, ns=ns, eps=[
        {**ep("old1", 1, "I am vegetarian"), "occurredAt": old},
        {**ep("old2", 2, "I am left-handed"), "occurredAt": old}])
    ids = await _made(gql, ns,
                      fact("user", "is", "vegetarian", confidence=0.3, evidence=["old1"]),
                      fact("user", "is", "left-handed", confidence=0.3, evidence=["old2"]))
    await gql.ok("""mutation($ns: String!, $id: ID!) { pinFact(namespace: $ns, factId: $id) {
        id } }""", ns=ns, id=ids["vegetarian"])
    await gql.ok(POLICY, ns=ns)
    later = datetime.now(UTC) + timedelta(days=31)
    assert (await pruning.prune(db, Namespace(ns), now=later)).fact_ids == [ids["left-handed"]]
    await retention.set_policy(db, Namespace(ns), retention.Policy(
        None, None, timedelta(days=30), retention.Action.DELETE), "t")
    [swept] = await retention.sweep(db, Namespace(ns), retract_orphans=True)
    assert swept.episodes_deleted == 2
    statuses = {f["object"]: f["status"] for f in (await gql.ok(FACTS, ns=ns))["facts"]["nodes"]}
    assert statuses == {"vegetarian": "ACTIVE", "left-handed": "RETRACTED"}


async def test_pruning_needs_a_policy_and_a_sane_one(gql: GraphQLClient, ns: str) -> None:
    missing = await gql(PRUNE, ns=ns, dry=False)
    assert missing["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    for bad in ("{minConfidence: 0, unusedForDays: 30}", "{minConfidence: 1.5, unusedForDays: 30}",
                "{minConfidence: 0.5, unusedForDays: 0}"):
        answer = await gql(f"""mutation($ns: String!) {{ setPruningPolicy(namespace: $ns,
            policy: {bad}) {{ minConfidence }} }}""", ns=ns)
        assert answer["errors"][0]["extensions"]["code"] == "INVALID_INPUT", bad
    assert (await gql.ok("""query($ns: String!) { pruningPolicy(namespace: $ns) {
        minConfidence } }""", ns=ns))["pruningPolicy"] is None
    # The limits themselves are policies: "below 1" (everything not certain), 36,500 days.
    most = await gql.ok(f"""mutation($ns: String!) {{ setPruningPolicy(namespace: $ns, policy:
        {{minConfidence: 1, unusedForDays: {pruning.MAX_DAYS}}}) {{ minConfidence
        unusedForDays }} }}""", ns=ns)
    assert most["setPruningPolicy"] == {"minConfidence": 1.0, "unusedForDays": pruning.MAX_DAYS}


async def test_confidence_at_the_threshold_is_not_below_it(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """Below `minConfidence` is strict: a fact exactly at 0.5 stays, one just under goes;
    `facts(where: {minConfidence})` ("at least") answers the mirror image."""
    ids = await _made(gql, ns, fact("user", "likes", "under", confidence=0.49),
                      fact("user", "likes", "at", confidence=0.5),
                      fact("user", "likes", "over", confidence=0.51))
    for given, kept in ((0.5, ["at", "over"]), (0.51, ["over"]),
                        (0.49, ["at", "over", "under"])):
        found = await gql.ok("""query($ns: String!, $min: Float!) { facts(namespace: $ns,
            where: {minConfidence: $min}) { nodes { object } } }""", ns=ns, min=given)
        assert sorted(f["object"] for f in found["facts"]["nodes"]) == kept, given
    await gql.ok(POLICY, ns=ns)
    later = datetime.now(UTC) + timedelta(days=31)
    assert (await pruning.prune(db, Namespace(ns), dry_run=True, now=later)).fact_ids == [
        ids["under"]]
    assert (await pruning.prune(db, Namespace(ns), now=later)).fact_ids == [ids["under"]]
    statuses = {f["object"]: f["status"] for f in (await gql.ok(FACTS, ns=ns))["facts"]["nodes"]}
    assert statuses == {"under": "RETRACTED", "at": "ACTIVE", "over": "ACTIVE"}


async def test_a_summary_citing_a_pruned_fact_turns_stale(gql: GraphQLClient, db: Database,
                                                          ns: str) -> None:
    """A summary must not go on telling what memory let go of: pruning a fact it cites makes
    it stale (recall leaves it out), one citing only what stays is not."""
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "I might like opera, and I love tea"),
                                     ep("m2", 2, "More tea, always", session="s2")])
    ids = await _made(gql, ns, fact("user", "likes", "opera", confidence=0.3, evidence=["m1"]),
                      fact("user", "likes", "tea", confidence=0.9, evidence=["m2"]))
    citing = await summaries.write(db, Namespace(ns), summaries.NewSummary(
        "The user may like opera.", session_id="s1", covers=["m1"], cites=[ids["opera"]]))
    other = await summaries.write(db, Namespace(ns), summaries.NewSummary(
        "The user likes tea.", session_id="s2", covers=["m2"], cites=[ids["tea"]]))
    await gql.ok(POLICY, ns=ns)
    later = datetime.now(UTC) + timedelta(days=40)
    assert (await pruning.prune(db, Namespace(ns), now=later)).fact_ids == [ids["opera"]]
    stale = {s.id: s.stale for s in [await summaries.latest(db, Namespace(ns), "s1"),
                                     await summaries.latest(db, Namespace(ns), "s2")] if s}
    assert stale == {citing.id: True, other.id: False}
