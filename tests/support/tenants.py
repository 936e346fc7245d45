"""Two tenants alike in nothing — speakers, sessions, entities, predicates, times, words — for
isolation tests: whatever of one shows up in the other's answers is a leak, not a
coincidence."""

from __future__ import annotations

from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact

TENANTS = {  # two tenants alike in nothing: speakers, sessions, entities, predicates, times
    "a": {"speaker": "Amara", "session": "clinic-notes", "place": "Lisbon Clinic",
          "predicate": "volunteers_at", "when": "2025-03-04T08:15:00Z", "month": "2025-03",
          "text": "I volunteer at the Lisbon Clinic on Tuesdays"},
    "b": {"speaker": "Bertrand", "session": "oboe-diary", "place": "Zermatt",
          "predicate": "plays_instrument", "when": "2019-08-17T21:40:00Z", "month": "2019-08",
          "text": "Evening practice on my oboe up in Zermatt"},
}


async def make_tenant(gql: GraphQLClient, ns: str, t: dict[str, str]) -> None:
    await gql.ok(RECORD, ns=ns, eps=[{
        "externalId": f"{t['session']}-1", "sessionId": t["session"], "kind": "USER_MESSAGE",
        "actor": t["speaker"], "content": t["text"], "occurredAt": t["when"]}])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact(t["speaker"], t["predicate"], t["place"], evidence=[f"{t['session']}-1"],
             validFrom=t["when"])])
    await gql.ok("""mutation($ns: String!, $s: SummaryInput!) { writeSummary(namespace: $ns,
        summary: $s) { id } }""", ns=ns, s={"text": t["text"], "sessionId": t["session"],
                                             "covers": [f"{t['session']}-1"]})


def traces(t: dict[str, str]) -> list[str]:
    """What of the tenant no other tenant's answer may hold."""
    return [t["speaker"], t["session"], t["place"], t["predicate"], t["month"],
            t["text"].split()[-1]]
