"""One namespace never sees another's data, through any query field.

Near-identical data goes into namespaces A and B; a key granted only A walks every query
field against B (forbidden) and against A (sees only A's data). A test below fails when a
new root field is added without being walked here.
"""

from __future__ import annotations

import uuid

import httpx

from graphmem.api.schema import Mutation, Query
from graphmem.auth import create_key
from graphmem.db import Database
from tests.api.test_episodes import RECORD, ep
from tests.api.test_facts import ASSERT, fact
from tests.conftest import GraphQLClient, delete_namespace, graph_size

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

# Every mutation, aimed at B by a key for A (with B's ids where it takes ids).
MUTATIONS = {
    "record_episodes": 'recordEpisodes(namespace: $ns, episodes: [{content: "x", kind: '
                       'USER_MESSAGE, occurredAt: "2026-05-01T10:00:00Z"}]) { created }',
    "assert_facts": 'assertFacts(namespace: $ns, facts: [{subject: "Alice", predicate: '
                    '"lives_in", object: "Faro"}]) { outcome }',
    "retract_fact": 'retractFact(namespace: $ns, factId: $fact, reason: "x") { id }',
    "correct_fact": 'correctFact(namespace: $ns, factId: $fact, object: "Faro", reason: "x") '
                    '{ outcome }',
    "resolve_conflict": 'resolveConflict(namespace: $ns, conflictId: $id, keep: $fact, '
                        'reason: "x") { id }',
    "set_predicate_policy": 'setPredicatePolicy(namespace: $ns, predicate: "mood", '
                            'cardinality: MANY, strategy: RECENCY) { predicate }',
    "erase_episodes": 'eraseEpisodes(namespace: $ns, ids: [$sid]) { verified }',
    "erase_subject": 'eraseSubject(namespace: $ns, entity: "Alice") { verified }',
    "erase_namespace": 'eraseNamespace(namespace: $ns, confirm: $ns) { verified }',
    "set_retention_policy": 'setRetentionPolicy(namespace: $ns, policy: {maxAgeDays: 1, '
                            'action: DELETE}) { action }',
    "remove_retention_policy": 'removeRetentionPolicy(namespace: $ns)',
    "sweep_retention": 'sweepRetention(namespace: $ns) { matched }',
    "redact_episode": 'redactEpisode(namespace: $ns, id: $id, reason: "x") { id }',
    "add_alias": 'addAlias(namespace: $ns, name: "Alice", alias: "Al") { id }',
    "merge_entities": 'mergeEntities(namespace: $ns, from: "Alice", into: "Porto") '
                      '{ factsMoved }',
    "write_summary": 'writeSummary(namespace: $ns, summary: {text: "x", covers: [$sid]}) '
                     '{ id }',
    "extract_facts": 'extractFacts(namespace: $ns, episodeIds: [$id], wait: true) { id }',
    "summarize": 'summarize(namespace: $ns, sessionId: "s1", wait: true) { id }',
    "set_pipelines": 'setPipelines(namespace: $ns, extract: true) { extract }',
    "retry_job": 'retryJob(namespace: $ns, id: $job) { id }',
}


def test_every_mutation_field_is_walked() -> None:
    definition = Mutation.__strawberry_definition__  # type: ignore[attr-defined]
    assert {f.python_name for f in definition.fields} == set(MUTATIONS), \
        "add the new mutation to MUTATIONS"


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
        before = await graph_size(db)
        for name, selection in MUTATIONS.items():
            types = {"id": "ID!", "fact": "ID!", "job": "ID!", "sid": "String!"}
            params = "$ns: String!" + "".join(f", ${k}: {t}" for k, t in types.items()
                                              if f"${k}" in selection)
            values = dict(zip(("id", "fact", "job"), ids[b], strict=True)) | {"sid": ids[b][0]}
            variables = {k: v for k, v in values.items() if f"${k}" in selection}
            denied = await only_a(f"mutation({params}) {{ {selection} }}", ns=b, **variables)
            assert denied["errors"][0]["extensions"]["code"] == "FORBIDDEN", (name, denied)
        assert await graph_size(db) == before  # B untouched by all of them
    finally:
        await delete_namespace(db, a)
        await delete_namespace(db, b)
