"""One namespace never sees another's data, through any query field.

Near-identical data goes into namespaces A and B; a key granted only A walks every query
field against B (forbidden) and against A (sees only A's data). A test below fails when a
new root field is added without being walked here.
"""

from __future__ import annotations

import uuid

import httpx

from graphmem.api.schema import Query
from graphmem.auth import create_key
from graphmem.db import Database
from tests.api.test_episodes import RECORD, ep
from tests.api.test_facts import ASSERT, fact
from tests.conftest import GraphQLClient, delete_namespace

WALK = {
    "episodes": 'episodes(namespace: $ns, first: 50) { nodes { id content } }',
    "episode": 'episode(namespace: $ns, id: $id) { id }',
    "facts": 'facts(namespace: $ns, first: 50) { nodes { id object evidence { id } } }',
    "entity": 'entity(namespace: $ns, name: "Alice") { id factsOut { object } }',
    "provenance": 'provenance(namespace: $ns, factId: $fact) { fact { id } }',
    "traverse": 'traverse(namespace: $ns, from: "Alice", depth: 2) { nodes { name } '
                'edges { fact { object evidence { content } } } }',
    "timeline": 'timeline(namespace: $ns, entity: "Alice") { nodes { fact { object } } }',
    "verify_fact": 'verifyFact(namespace: $ns, factId: $fact) { verdict checks { '
                   'episode { content } } }',
    "search": 'search(namespace: $ns, query: "Alice lives Lisbon Porto") { hits { kind '
              'episode { content } fact { object } entity { name } summary { text } } }',
    "recall": 'recall(namespace: $ns, query: "Where does Alice live?", sessionId: "s1") '
              '{ pieces { text } entities { name } }',
    "audit_log": 'auditLog(namespace: $ns) { nodes { operation } }',
    "memory_stats": 'memoryStats(namespace: $ns) { episodes believedFacts openConflicts }',
    "conflicts": 'conflicts(namespace: $ns) { nodes { id candidates { object } } }',
    "predicate_policies": 'predicatePolicies(namespace: $ns) { predicate isDefault }',
    "summary": 'summary(namespace: $ns, sessionId: "s1") { id text }',
    "jobs": 'jobs(namespace: $ns) { nodes { id episodes producedFacts { object } } }',
    "job": 'job(namespace: $ns, id: $job) { id producedFacts { object } }',
    "pipelines": 'pipelines(namespace: $ns) { extract summarize }',
    "retention_policies": 'retentionPolicies(namespace: $ns) { kind maxAgeDays action }',
}


ADMIN_ONLY = {"audit_log"}


def test_every_query_field_is_walked() -> None:
    definition = Query.__strawberry_definition__  # type: ignore[attr-defined]
    fields = {f.python_name for f in definition.fields}
    assert fields == set(WALK), "add the new field to WALK"


async def test_a_key_for_a_never_reads_b(client: httpx.AsyncClient, db: Database,
                                         gql: GraphQLClient) -> None:
    a, b = f"iso/{uuid.uuid4().hex[:8]}-a", f"iso/{uuid.uuid4().hex[:8]}-b"
    ids = {}
    try:
        for ns, city in ((a, "Lisbon"), (b, "Porto")):
            rec = await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, f"I live in {city}")])
            await gql.ok("""mutation($ns: String!) { setPredicatePolicy(namespace: $ns,
                predicate: "mood", cardinality: ONE, strategy: MANUAL) { predicate } }""", ns=ns)
            asserted = await gql.ok(ASSERT, ns=ns, facts=[
                fact("Alice", "lives_in", city, evidence=["m1"]),
                fact("Alice", "mood", f"calm in {city}"), fact("Alice", "mood", city)])
            episode_id = rec["recordEpisodes"]["episodes"][0]["id"]
            fact_id = asserted["assertFacts"][0]["fact"]["id"]
            await gql.ok("""mutation($ns: String!, $s: SummaryInput!) {
                writeSummary(namespace: $ns, summary: $s) { id } }""", ns=ns,
                         s={"text": f"Lives in {city}", "covers": [episode_id],
                            "sessionId": "s1"})
            extracted = await gql.ok("""mutation($ns: String!) { extractFacts(namespace: $ns,
                episodeIds: ["m1"], wait: true) { id facts } }""", ns=ns)
            assert extracted["extractFacts"]["facts"] == 1
            ids[ns] = (episode_id, fact_id, extracted["extractFacts"]["id"])
        only_a = GraphQLClient(client, await create_key(db, "iso-a", grants=[a], admin=False))
        for name, selection in WALK.items():
            params = "$ns: String!" + ", $id: ID!" * ("$id" in selection) \
                + ", $fact: ID!" * ("$fact" in selection) + ", $job: ID!" * ("$job" in selection)
            query = f"query({params}) {{ {selection} }}"
            # B's ids through B's namespace: forbidden before any read.
            variables = {k: v for k, v in zip(("id", "fact", "job"), ids[b], strict=True)
                         if f"${k}" in selection}
            denied = await only_a(query, ns=b, **variables)
            assert denied["errors"][0]["extensions"]["code"] == "FORBIDDEN", name
            # B's ids through A's namespace: nothing of B comes back.
            crossed = await only_a(query, ns=a, **variables)
            assert "Porto" not in str(crossed) and ids[b][0] not in str(crossed.get("data")), name
            # A's own data is visible.
            own_vars = {k: v for k, v in zip(("id", "fact", "job"), ids[a], strict=True)
                        if f"${k}" in selection}
            own = await only_a(query, ns=a, **own_vars)
            if name in ADMIN_ONLY:  # not even a's own key reads these
                assert own["errors"][0]["extensions"]["code"] == "FORBIDDEN", name
                continue
            assert not own.get("errors"), (name, own)
            assert "Porto" not in str(own), name
        walked = await only_a(f'{{ facts(namespace: "{a}", where: {{predicate: "lives_in"}}) '
                              '{ nodes { object } } }')
        # Alice's, asserted, and the speaker's, extracted from the same message.
        assert walked["data"]["facts"]["nodes"] == [{"object": "Lisbon"}] * 2
        disputes = await only_a(f'{{ conflicts(namespace: "{a}") {{ nodes {{ candidates '
                                '{ object } } } }')
        [conflict] = disputes["data"]["conflicts"]["nodes"]
        assert sorted(c["object"] for c in conflict["candidates"]) == ["Lisbon", "calm in Lisbon"]
        write = await only_a(RECORD, ns=b, eps=[ep("x", 1)])
        assert write["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    finally:
        await delete_namespace(db, a)
        await delete_namespace(db, b)
