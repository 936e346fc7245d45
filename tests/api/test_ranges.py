"""Numbers and times at the edge of what a clock holds are the client's error: a typed
INVALID_INPUT or GRAPHQL_VALIDATION that writes nothing, never an overflow inside (INTERNAL).
Time words in a question, however far they reach, are read without failing."""

from __future__ import annotations

import pytest

from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.graph import namespace_contents

pytestmark = pytest.mark.hostile("input")

LATE, EARLY = "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"
WRITES = {
    "idleMinutes": """mutation($ns: String!) { markSessionEphemeral(namespace: $ns,
        sessionId: "s", idleMinutes: 1e300) { sessionId } }""",
    "unusedForDays": """mutation($ns: String!) { setPruningPolicy(namespace: $ns,
        policy: {minConfidence: 0.5, unusedForDays: 1e9}) { unusedForDays } }""",
    "maxAgeDays": """mutation($ns: String!) { setRetentionPolicy(namespace: $ns,
        policy: {maxAgeDays: 1e300, action: DELETE}) { maxAgeDays } }""",
    "occurredAt late": f"""mutation($ns: String!) {{ recordEpisodes(namespace: $ns, episodes: [
        {{externalId: "a", content: "x", kind: USER_MESSAGE, occurredAt: "{LATE}"}}]) {{
        created }} }}""",
    "occurredAt early": f"""mutation($ns: String!) {{ recordEpisodes(namespace: $ns, episodes: [
        {{externalId: "a", content: "x", kind: USER_MESSAGE, occurredAt: "{EARLY}"}}]) {{
        created }} }}""",
    "validFrom": f"""mutation($ns: String!) {{ assertFacts(namespace: $ns, facts: [{{subject: "a",
        predicate: "b", object: "c", validFrom: "{EARLY}"}}]) {{ outcome }} }}""",
    "validTo": f"""mutation($ns: String!) {{ assertFacts(namespace: $ns, facts: [{{subject: "a",
        predicate: "b", object: "c", validTo: "{LATE}"}}]) {{ outcome }} }}""",
}
READS = {
    "asOf": f"""query($ns: String!) {{ facts(namespace: $ns, asOf: "{LATE}") {{
        nodes {{ id }} }} }}""",
    "from": f"""query($ns: String!) {{ search(namespace: $ns, query: "x", from: "{EARLY}") {{
        hits {{ kind }} }} }}""",
    "referenceTime": f"""query($ns: String!) {{ recall(namespace: $ns, query: "x",
        referenceTime: "{EARLY}") {{ tokensUsed }} }}""",
}
QUESTIONS = ["what happened on 31 December 9999", "in the year 1", "10000 years ago",
             "999999999 days ago", "in the last 99999999999 weeks", "next 5000 years",
             "between 1 Jan 0001 and 31 Dec 9999", "what did I say 3000000 months ago"]


def codes(body: dict[str, object]) -> list[str]:
    return [e["extensions"]["code"] for e in body.get("errors") or []]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(WRITES))
async def test_out_of_range_writes_are_refused_and_write_nothing(
        gql: GraphQLClient, db: Database, ns: str, name: str) -> None:
    body = await gql(WRITES[name], ns=ns)
    assert codes(body) in (["INVALID_INPUT"], ["GRAPHQL_VALIDATION"]), body
    # Only the refusal's audit event (audited by design).
    assert [row for row in await namespace_contents(db, ns) if "AuditEvent" not in row] == []


@pytest.mark.parametrize("name", sorted(READS))
async def test_out_of_range_times_in_reads_are_refused(
        gql: GraphQLClient, ns: str, name: str) -> None:
    assert set(codes(await gql(READS[name], ns=ns))) == {"GRAPHQL_VALIDATION"}


@pytest.mark.parametrize("reference", ["9899-12-31T00:00:00Z", "0100-01-01T00:00:00Z"])
@pytest.mark.parametrize("question", QUESTIONS)
async def test_far_reaching_time_words_are_read_at_the_edges_of_time(
        gql: GraphQLClient, ns: str, question: str, reference: str) -> None:
    await gql.ok("""query($ns: String!, $q: String!, $at: DateTime!) {
        recall(namespace: $ns, query: $q, referenceTime: $at) { tokensUsed timeRange { start end } }
        search(namespace: $ns, query: $q) { hits { kind } } }""", ns=ns, q=question, at=reference)
