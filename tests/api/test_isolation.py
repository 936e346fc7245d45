"""One namespace never sees another's data, through any query field.

Near-identical data goes into namespaces A and B; a key granted only A walks every query
field against B (forbidden) and against A (sees only A's data). A test below fails when a
new root field is added without being walked here. Every field that names something by id
(or by name), called through A's namespace with B's ids, answers exactly as for an id that
does not exist, and writes nothing to B.
"""

from __future__ import annotations

import inspect
import json
import uuid
from typing import Any

import httpx
import pytest

from graphmem.api.schema import Mutation, Query, Subscription
from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, ep, fact
from tests.support.fields import ADMIN_ONLY, KEY_ONLY, MUTATIONS, WALK, document
from tests.support.graph import delete_namespace, graph_size, namespace_contents
from tests.support.tenants import TENANTS, make_tenant, traces

pytestmark = pytest.mark.hostile("tenants")


def test_every_mutation_field_is_walked() -> None:
    definition = Mutation.__strawberry_definition__  # type: ignore[attr-defined]
    assert {f.python_name for f in definition.fields} == set(MUTATIONS), \
        "add the new mutation to MUTATIONS"


def test_every_query_field_is_walked() -> None:
    definition = Query.__strawberry_definition__  # type: ignore[attr-defined]
    fields = {f.python_name for f in definition.fields}
    assert fields == set(WALK) | KEY_ONLY, "add the new field to WALK"


def test_every_root_field_naming_a_namespace_checks_it_before_its_resolver() -> None:
    """Such a field's resolver is ``scoped``: written as ``f(ctx, ns, ...)``, it runs only
    with a namespace this key may use."""
    unchecked = []
    for root in (Query, Mutation, Subscription):
        for field in root.__strawberry_definition__.fields:  # type: ignore[attr-defined]
            if not any(a.python_name == "namespace" for a in field.arguments):
                continue
            own = getattr(field.base_resolver.wrapped_func, "__wrapped__", None)
            if own is None or list(inspect.signature(own).parameters)[:2] != ["ctx", "ns"]:
                unchecked.append(field.python_name)
    assert not unchecked, f"not scoped: {unchecked}"


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
            query = document("query", selection)
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
            values = dict(zip(("id", "fact", "job"), ids[b], strict=True)) | {"sid": ids[b][0]}
            variables = {k: v for k, v in values.items() if f"${k}" in selection}
            denied = await only_a(document("mutation", selection), ns=b, **variables)
            assert denied["errors"][0]["extensions"]["code"] == "FORBIDDEN", (name, denied)
        assert await graph_size(db) == before  # B untouched by all of them
    finally:
        await delete_namespace(db, a)
        await delete_namespace(db, b)


# Every field that names a thing by id or name, with each thing of B's (a $variable named
# after it) in place of that id or name. $own is A's episode, where a field needs one.
BY_ID = {
    "episode": "query($ns: String!, $episode: ID!) { episode(namespace: $ns, id: $episode) "
               "{ id content } }",
    "provenance": "query($ns: String!, $fact: ID!) { provenance(namespace: $ns, "
                  "factId: $fact) { fact { id text } } }",
    "verify_fact": "query($ns: String!, $fact: ID!) { verifyFact(namespace: $ns, "
                   "factId: $fact) { verdict } }",
    "job": "query($ns: String!, $job: ID!) { job(namespace: $ns, id: $job) { id state } }",
    "entity": "query($ns: String!, $entity: String!) { entity(namespace: $ns, name: $entity) "
              "{ id name } }",
    "entity_by_alias": "query($ns: String!, $alias: String!) { entity(namespace: $ns, "
                       "name: $alias) { id name } }",
    "timeline": "query($ns: String!, $entity: String!) { timeline(namespace: $ns, "
                "entity: $entity) { nodes { fact { text } } } }",
    "traverse": "query($ns: String!, $entity: String!) { traverse(namespace: $ns, "
                "from: $entity) { nodes { name } } }",
    "summary": "query($ns: String!, $session: String!) { summary(namespace: $ns, "
               "sessionId: $session) { id text } }",
    "episodes_of_session": "query($ns: String!, $session: String!) { episodes(namespace: $ns, "
                           "where: {sessionId: $session}) { nodes { id } } }",
    "facts_of_subject": "query($ns: String!, $entity: String!) { facts(namespace: $ns, "
                        "where: {subject: $entity}) { nodes { id } } }",
    "retract_fact": "mutation($ns: String!, $fact: ID!) { retractFact(namespace: $ns, "
                    "factId: $fact, reason: \"x\") { id } }",
    "correct_fact": "mutation($ns: String!, $fact: ID!) { correctFact(namespace: $ns, "
                    "factId: $fact, object: \"Faro\", reason: \"x\") { outcome } }",
    "resolve_conflict": "mutation($ns: String!, $conflict: ID!, $fact: ID!) { resolveConflict("
                        "namespace: $ns, conflictId: $conflict, keep: $fact, reason: \"x\") "
                        "{ id } }",
    "erase_episodes": "mutation($ns: String!, $episode: String!) { eraseEpisodes("
                      "namespace: $ns, ids: [$episode]) { verified } }",
    "erase_episodes_by_external_id": "mutation($ns: String!, $external: String!) { "
                                     "eraseEpisodes(namespace: $ns, ids: [$external]) "
                                     "{ verified } }",
    "redact_episode": "mutation($ns: String!, $episode: ID!) { redactEpisode(namespace: $ns, "
                      "id: $episode, reason: \"x\") { id } }",
    "extract_facts": "mutation($ns: String!, $episode: ID!) { extractFacts(namespace: $ns, "
                     "episodeIds: [$episode], wait: true) { id } }",
    "retry_job": "mutation($ns: String!, $job: ID!) { retryJob(namespace: $ns, id: $job) "
                 "{ id } }",
    "summary_covering_episode": "mutation($ns: String!, $episode: String!) { writeSummary("
                                "namespace: $ns, summary: {text: \"x\", covers: [$episode]}) "
                                "{ id } }",
    "summary_covering_summary": "mutation($ns: String!, $summary: String!) { writeSummary("
                                "namespace: $ns, summary: {text: \"x\", covers: [$summary]}) "
                                "{ id } }",
    "summary_citing_fact": "mutation($ns: String!, $own: String!, $fact: String!) { "
                           "writeSummary(namespace: $ns, summary: {text: \"x\", "
                           "covers: [$own], cites: [$fact]}) { id } }",
    "fact_evidenced_by_episode": "mutation($ns: String!, $episode: String!) { assertFacts("
                                 "namespace: $ns, facts: [{subject: \"Alice\", predicate: "
                                 "\"likes\", object: \"tea\", evidence: [$episode]}]) "
                                 "{ outcome } }",
    "fact_evidenced_by_external_id": "mutation($ns: String!, $external: String!) { "
                                     "assertFacts(namespace: $ns, facts: [{subject: "
                                     "\"Alice\", predicate: \"likes\", object: \"tea\", "
                                     "evidence: [$external]}]) { outcome } }",
    "erase_subject": "mutation($ns: String!, $entity: String!) { eraseSubject(namespace: $ns, "
                     "entity: $entity) { verified } }",
    "add_alias": "mutation($ns: String!, $entity: String!) { addAlias(namespace: $ns, "
                 "name: $entity, alias: \"Zed\") { id } }",
    "merge_from": "mutation($ns: String!, $entity: String!) { mergeEntities(namespace: $ns, "
                  "from: $entity, into: \"Alice\") { factsMoved } }",
    "merge_into": "mutation($ns: String!, $alias: String!) { mergeEntities(namespace: $ns, "
                  "from: \"Alice\", into: $alias) { factsMoved } }",
    "summarize_session": "mutation($ns: String!, $session: String!) { summarize("
                         "namespace: $ns, sessionId: $session, wait: true) { id } }",
}


def _unknown(value: str) -> str:
    """An id (or name) of the same shape that names nothing anywhere."""
    prefix, _, _ = value.rpartition("_")
    return f"{prefix}_{uuid.uuid4().hex}" if prefix else f"Nobody{uuid.uuid4().hex[:6]}"


def _answer(body: dict[str, Any], named: dict[str, str]) -> str:
    text = json.dumps(body, sort_keys=True)
    for thing, value in named.items():
        for form in (value, value.lower()):
            text = text.replace(form, f"<{thing}>")
    return text


async def test_b_ids_through_a_namespace_are_unknown(client: httpx.AsyncClient, db: Database,
                                                     gql: GraphQLClient) -> None:
    """A key for A naming B's things in A's namespace learns nothing: the answer is the one
    for an id that does not exist (never a conflict or a concurrent change that would say
    it does), and B is left exactly as it was."""
    a, b = f"iso/{uuid.uuid4().hex[:8]}-a", f"iso/{uuid.uuid4().hex[:8]}-b"
    try:
        own = await gql.ok(RECORD, ns=a, eps=[ep("ma1", 1, "I live in Lisbon", session="sa")])
        await gql.ok(ASSERT, ns=a, facts=[fact("Alice", "lives_in", "Lisbon", evidence=["ma1"])])
        recorded = await gql.ok(RECORD, ns=b, eps=[ep("mb1", 1, "Bruno lives in Porto",
                                                      session="sb")])
        await gql.ok("""mutation($ns: String!) { setPredicatePolicy(namespace: $ns,
            predicate: "mood", cardinality: ONE, strategy: MANUAL) { predicate } }""", ns=b)
        asserted = await gql.ok(ASSERT, ns=b, facts=[
            fact("Bruno", "lives_in", "Porto", evidence=["mb1"]), fact("Bruno", "mood", "calm"),
            fact("Bruno", "mood", "tense")])
        await gql.ok("""mutation($ns: String!) { addAlias(namespace: $ns, name: "Bruno",
            alias: "Brunello") { id } }""", ns=b)
        episode = recorded["recordEpisodes"]["episodes"][0]["id"]
        summary = await gql.ok("""mutation($ns: String!, $s: SummaryInput!) {
            writeSummary(namespace: $ns, summary: $s) { id } }""", ns=b,
                               s={"text": "Bruno lives in Porto", "covers": [episode],
                                  "sessionId": "sb"})
        job = await gql.ok("""mutation($ns: String!) { extractFacts(namespace: $ns,
            episodeIds: ["mb1"], wait: true) { id } }""", ns=b)
        conflicts = await gql.ok("""query($ns: String!) { conflicts(namespace: $ns) {
            nodes { id } } }""", ns=b)
        of_b = {"episode": episode, "external": "mb1",
                "fact": asserted["assertFacts"][0]["fact"]["id"],
                "conflict": conflicts["conflicts"]["nodes"][0]["id"],
                "summary": summary["writeSummary"]["id"], "job": job["extractFacts"]["id"],
                "entity": "Bruno", "alias": "Brunello", "session": "sb"}
        own_episode = own["recordEpisodes"]["episodes"][0]["id"]
        only_a = GraphQLClient(client, await create_key(db, "iso-a", grants=[a], admin=False))
        b_before = await namespace_contents(db, b)
        for name, document in BY_ID.items():
            used = {k: v for k, v in of_b.items() if f"${k}:" in document}
            assert used, name
            unknown = {k: _unknown(v) for k, v in used.items()}
            crossed = await only_a(document, ns=a, own=own_episode, **used)
            missing = await only_a(document, ns=a, own=own_episode, **unknown)
            assert _answer(crossed, used) == _answer(missing, unknown), name
            codes = {e["extensions"]["code"] for e in crossed.get("errors") or []}
            assert codes <= {"NOT_FOUND", "INVALID_INPUT"}, (name, crossed)
        assert await namespace_contents(db, b) == b_before  # B untouched by all of them
    finally:
        await delete_namespace(db, a)
        await delete_namespace(db, b)


def _naming(t: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """Every read that names the tenant's things: its speaker, entity, predicate, session."""
    words = f"What did {t['speaker']} say about {t['place']} {t['predicate']}?"
    return [
        ("""query($ns: String!, $q: String!) { search(namespace: $ns, query: $q) { actors priors
            timeRange { start } hits { kind episode { content actor sessionId occurredAt }
            fact { text predicate } entity { name } summary { text } } } }""", {"q": words}),
        ("""query($ns: String!, $q: String!, $who: String!) { recall(namespace: $ns, query: $q,
            speaker: $who, sessionId: "x") { pieces { text } entities { name } plan { reason }
            } }""", {"q": f"Where do I work? {words}", "who": t["speaker"]}),
        ("""query($ns: String!, $p: String!) { facts(namespace: $ns, includeHistory: true,
            where: {predicate: $p}) { nodes { text subject object } } }""",
         {"p": t["predicate"]}),
        ("""query($ns: String!, $e: String!) { entity(namespace: $ns, name: $e) { name
            factsOut { object } } }""", {"e": t["speaker"]}),
        ("""query($ns: String!, $e: String!) { traverse(namespace: $ns, from: $e, depth: 2) {
            nodes { name } } }""", {"e": t["place"]}),
        ("""query($ns: String!, $e: String!) { timeline(namespace: $ns, entity: $e,
            includeHistory: true) { nodes { fact { text } } } }""", {"e": t["speaker"]}),
        ("""query($ns: String!, $s: String!) { summary(namespace: $ns, sessionId: $s) { text }
            episodes(namespace: $ns, where: {sessionId: $s}) { nodes { content } } }""",
         {"s": t["session"]}),
        ("""query($ns: String!) { sessions(namespace: $ns) { nodes { sessionId lastAt } }
            predicatePolicies(namespace: $ns) { predicate }
            episodes(namespace: $ns, first: 50) { nodes { actor content occurredAt } } }""",
         {}),
    ]


async def test_tenants_that_differ_in_everything_see_nothing_of_each_other(
        client: httpx.AsyncClient, db: Database, gql: GraphQLClient) -> None:
    """Each tenant asks, with its own key, about the other's speaker, entity, predicate and
    session (just after the other asked the same: whatever a process remembers between
    requests holds the other's answers): nothing of the other comes back — not its speaker
    among the search's `actors`, not its entity, predicate, session, times or words — while
    the same reads about its own things find them."""
    names = {k: f"iso/{uuid.uuid4().hex[:8]}-{k}" for k in TENANTS}
    try:
        keys = {}
        for k, t in TENANTS.items():
            await make_tenant(gql, names[k], t)
            keys[k] = GraphQLClient(client, await create_key(db, f"iso-{k}", grants=[names[k]],
                                                             admin=False))
        for me, them in (("a", "b"), ("b", "a")):
            for query, variables in _naming(TENANTS[them]):  # the other asks first
                await keys[them].ok(query, ns=names[them], **variables)
                answer = await keys[me](query, ns=names[me], **variables)
                codes = {e["extensions"]["code"] for e in answer.get("errors") or []}
                assert codes <= {"NOT_FOUND"}, (me, query, answer)  # as for a name unknown
                crossed = json.dumps(answer.get("data")).lower()  # (errors echo the name)
                leaked = [w for w in traces(TENANTS[them]) if w.lower() in crossed]
                assert not leaked, (me, query, leaked)
                if "actors" in query:
                    assert answer["data"]["search"]["actors"] == [], me
            [search, *_] = _naming(TENANTS[me])
            own = await keys[me].ok(search[0], ns=names[me], **search[1])
            assert own["search"]["actors"] == [TENANTS[me]["speaker"]]
            assert TENANTS[me]["place"] in json.dumps(own)
            assert not [w for w in traces(TENANTS[them]) if w.lower() in json.dumps(own).lower()]
    finally:
        for name in names.values():
            await delete_namespace(db, name)


async def test_tenants_that_differ_in_everything_are_apart_in_exports_stats_and_the_viewer(
        client: httpx.AsyncClient, db: Database, gql: GraphQLClient,
        admin_token: str) -> None:
    """The reads that name nothing (an export, stats, conflicts, the viewer, a page of
    episodes or facts) hold all of their own tenant and nothing of the other."""
    names = {k: f"iso/{uuid.uuid4().hex[:8]}-{k}" for k in TENANTS}
    try:
        keys = {}
        for k, t in TENANTS.items():
            await make_tenant(gql, names[k], t)
            keys[k] = GraphQLClient(client, await create_key(db, f"iso-{k}", grants=[names[k]],
                                                             admin=False))
        for me, them in (("a", "b"), ("b", "a")):
            exported = await client.get("/export", params={"namespace": names[me]},
                                        headers={"Authorization": f"Bearer {admin_token}"})
            assert exported.status_code == 200
            own = await keys[me].ok("""query($ns: String!) {
                viewer { namespaces }
                memoryStats(namespace: $ns) { episodes believedFacts summaries }
                episodes(namespace: $ns) { nodes { actor content sessionId occurredAt } }
                facts(namespace: $ns, includeHistory: true) { nodes { text validFrom } }
                conflicts(namespace: $ns) { nodes { id } } }""", ns=names[me])
            assert own["viewer"]["namespaces"] == [names[me]]
            assert own["memoryStats"] == {"episodes": 1, "believedFacts": 1, "summaries": 1}
            for answer in (exported.text, json.dumps(own)):
                assert TENANTS[me]["place"] in answer and TENANTS[me]["speaker"] in answer, me
                assert not [w for w in traces(TENANTS[them]) if w.lower() in answer.lower()], me
            assert names[them] not in exported.text
    finally:
        for name in names.values():
            await delete_namespace(db, name)
