"""Export and import over the real service: a namespace taken out and put back into another
one answers every query as the original does, a second import changes nothing, and a bad
file is refused at its line with nothing of its chunk written."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.core.errors import GraphmemError, InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.facts import store as facts
from graphmem.facts.model import Fact
from graphmem.facts.store import identity
from graphmem.portability.format import GLOBAL_IDS, REFERENCES, Digest, remapped
from graphmem.portability.importing import import_lines
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.portability.files import exported, lines
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact, said
from tests.support.fact_workloads import apply_step, policy_step, step
from tests.support.graph import delete_namespace, namespace_contents
from tests.support.workloads import fill

FACTS = """query($ns: String!, $asOf: DateTime) {
  facts(namespace: $ns, asOf: $asOf, includeHistory: true, first: 200) { nodes {
    id subject predicate object objectKind text status validFrom validTo statedValidFrom
    statedValidTo recordedAt retractedAt confidence source assertedBy endedBy reason
    openConflicts revises { id } resolution { __typename } } } }"""
PROVENANCE = """query($ns: String!, $id: ID!) { provenance(namespace: $ns, factId: $id) {
  evidence { externalId content occurredAt } supersedes { id } supersededBy { id }
  citedBy { id text stale coversFrom coversTo } } }"""
TIMELINE = """query($ns: String!, $e: String!) { timeline(namespace: $ns, entity: $e,
  includeHistory: true) { nodes { __typename } } }"""
SEARCH = """query($ns: String!, $q: String!) { search(namespace: $ns, query: $q, limit: 5,
  kinds: [EPISODE]) { hits { score episode { externalId } } } }"""


def as_in(records: list[dict[str, Any]], into: str) -> list[str]:
    """The records an export of ``into`` should hold after importing ``records`` there."""

    def node_id(label: str, key: Any) -> Any:
        return remapped(key, into) if label in GLOBAL_IDS and key else key

    def refs(kind: str, props: dict[str, Any]) -> dict[str, Any]:
        names = REFERENCES.get(kind, frozenset()) | REFERENCES["*"]
        return {k: remapped(v, into) if k in names else v for k, v in props.items()}

    ends: dict[str, dict[str, str]] = {}  # a fact's SUBJECT and OBJECT ids, remapped
    for record in records:
        if record.get("rel") in ("SUBJECT", "OBJECT") and record["from"][0] == "Fact":
            ends.setdefault(record["from"][1], {})[record["rel"]] = node_id(*record["to"])
    out = []
    digest = Digest()
    for record in records[1:]:
        if "end" in record:  # its digest is the remapped records'
            record = {"end": {**record["end"], "digest": digest.value}}
        elif "node" in record:
            fact_ends = ends.get(record["key"]) if record["node"] == "Fact" else None
            record = {**record, "key": node_id(record["node"], record["key"]),
                      "props": refs(record["node"], record["props"])}
            if fact_ends:  # its statement identity, made again from its ends in the target
                record["props"]["identity"] = identity(
                    fact_ends["SUBJECT"], record["props"]["predicate"], fact_ends["OBJECT"])
        elif "rel" in record:
            record = {**record, "from": [record["from"][0], node_id(*record["from"])],
                      "to": [record["to"][0], node_id(*record["to"])],
                      "props": refs(record["rel"], record["props"])}
        if "end" not in record:
            digest.add(record)
        out.append(json.dumps(record, sort_keys=True))
    return sorted(out)


def without_ids(value: Any, ids: dict[str, str]) -> Any:
    """A GraphQL answer with the target's ids written back as the source's."""
    if isinstance(value, dict):
        return {k: without_ids(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [without_ids(v, ids) for v in value]
    return ids.get(value, value) if isinstance(value, str) else value


async def a_memory(gql: GraphQLClient, ns: str) -> None:
    """Sessions, facts with evidence, history, a conflict, an alias, a policy, a summary."""
    await fill(gql, ns)
    await gql.ok(RECORD, ns=ns, eps=[
        {**said(f"t{i}", f"2026-07-01T10:00:{i:02d}Z", f"turn {i}: the heron by the mill pond"),
         "sessionId": "walk"} for i in range(12)])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "herons", evidence=["t3", "t4"])])
    await gql.ok("""mutation($ns: String!) { writeSummary(namespace: $ns, summary: {
        text: "A walk by the mill pond.", covers: ["t0", "t1"], sessionId: "walk"}) { id } }""",
                 ns=ns)
    await gql.ok("""mutation($ns: String!) { redactEpisode(namespace: $ns, id: "t5",
        reason: "asked") { id } }""", ns=ns)


async def test_an_exported_namespace_imported_elsewhere_answers_alike(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    await a_memory(gql, ns)
    first = await exported(db, ns)
    result = await import_lines(db, lines(first), into=other)
    assert (result.nodes, result.relationships) == (first[-1]["end"]["nodes"],
                                                    first[-1]["end"]["relationships"])
    again = await exported(db, other)
    assert sorted(json.dumps(r, sort_keys=True) for r in again[1:]) == as_in(first, other)

    ids = {remapped(r["key"], other): r["key"] for r in first
           if r.get("node") in GLOBAL_IDS and r.get("key")}
    for moment in (None, datetime.now(UTC).isoformat()):
        source = (await gql.ok(FACTS, ns=ns, asOf=moment))["facts"]["nodes"]
        target = (await gql.ok(FACTS, ns=other, asOf=moment))["facts"]["nodes"]
        assert _sorted(without_ids(target, ids)) == _sorted(source) and len(source) >= 6
    for node in source:
        original = await gql.ok(PROVENANCE, ns=ns, id=node["id"])
        copy = await gql.ok(PROVENANCE, ns=other, id=remapped(node["id"], other))
        assert without_ids(copy, ids) == original
    for entity in ("user", "herons"):
        assert await gql.ok(TIMELINE, ns=other, e=entity) == \
            await gql.ok(TIMELINE, ns=ns, e=entity)
    await embed_all_pending(db, WordLlamaEmbedder(), 256)  # both copies searchable alike
    copy = _scores(await gql.ok(SEARCH, ns=other, q="heron mill pond turn 7"))
    original = _scores(await gql.ok(SEARCH, ns=ns, q="heron mill pond turn 7"))
    assert set(copy) == set(original) and len(copy) == 5
    for a, b in ((a, b) for a in original for b in original if original[a] > original[b] + 0.05):
        assert copy[a] > copy[b], (a, b, copy)  # what is clearly ranked above stays above
    for kind, words in (("FACT", "herons Lisbon Porto"), ("SUMMARY", "walk mill pond"),
                        ("ENTITY", "herons Lisbon Porto")):
        found = await _by_keyword(gql, other, kind, words)
        assert found == await _by_keyword(gql, ns, kind, words) and found, (kind, found)


async def _by_keyword(gql: GraphQLClient, ns: str, kind: str, words: str) -> list[str]:
    """What keyword search (BM25) finds of one kind, by its text."""
    answer = await gql.ok("""query($ns: String!, $q: String!, $kinds: [SearchKind!]) {
        search(namespace: $ns, query: $q, kinds: $kinds, includeHistory: true) { hits {
        matches { retriever } fact { text } summary { text } entity { name } } } }""",
                          ns=ns, q=words, kinds=[kind])
    return sorted(str(hit["fact"] or hit["summary"] or hit["entity"])
                  for hit in answer["search"]["hits"]
                  if "bm25" in {m["retriever"] for m in hit["matches"]})


def _scores(answer: dict[str, Any]) -> dict[str, float]:
    """Each hit's score by externalId. Two copies of the same texts score alike, not the same:
    Lucene's statistics differ a little between index segments, so near ties may swap."""
    return {h["episode"]["externalId"]: h["score"] for h in answer["search"]["hits"]}


async def test_an_imported_copy_is_embedded_as_the_original_is(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    """What an import writes waits for the embedding worker as new memory does: once it ran,
    the copy holds a vector wherever the original does (vector search finds both alike).
    (A redacted turn is left out of the comparison: the import's relink queues it again with
    its new neighbour copy, where the original dropped its vector when it was redacted.)"""
    await a_memory(gql, ns)
    await import_lines(db, lines(await exported(db, ns)), into=other)
    await embed_all_pending(db, WordLlamaEmbedder(), 256)

    async def vectors(where: str) -> list[tuple[str, bool]]:
        found = []
        for label in ("Episode", "Fact", "Summary", "Entity"):
            rows, _, _ = await db.driver.execute_query(
                f"MATCH (n:{label} {{ns: $ns}}) WHERE n.redacted_at IS NULL "
                "RETURN n.embedding IS NOT NULL AS vector", {"ns": where}, database_=db.name)
            found += sorted((label, row["vector"]) for row in rows)
        return found

    original = await vectors(ns)
    assert sum(vector for _, vector in original) >= 10
    assert await vectors(other) == original


async def test_importing_twice_changes_nothing(db: Database, gql: GraphQLClient, ns: str,
                                               other: str) -> None:
    await a_memory(gql, ns)
    file = lines(await exported(db, ns))
    await import_lines(db, file, into=other)
    once = await namespace_contents(db, other)
    await import_lines(db, file, into=other)
    assert await namespace_contents(db, other) == once


async def test_a_bad_line_is_named_and_nothing_written(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    await a_memory(gql, ns)
    file = lines(await exported(db, ns))
    for bad, says in (('{"node": "Episode", "key": "ep_1", "props": {"x": {"a": 1}}}',
                       "properties are strings"),
                      ('{"node": "Job", "key": "j"}', "unknown label 'Job'"),
                      ('{"rel": "X` DETACH DELETE n //", "from": ["Episode", "a"], '
                       '"to": ["Episode", "b"]}', "relationship type"),
                      ('{"rel": "IN_SESSION", "from": ["Episode", "ep_nowhere"], '
                       '"to": ["Session", "chat"]}', "joins a node"),
                      ("not json", "not JSON")):
        broken = [*file[:5], bad, *file[5:]]
        with pytest.raises(InvalidInput) as refused:
            await import_lines(db, broken, into=other, chunk=1000)
        assert refused.value.details["line"] == 6 and says in refused.value.message
        assert await namespace_contents(db, other) == []


class _LostConnection(Exception):
    pass


async def test_an_interrupted_import_resumes_after_its_last_chunk(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    await a_memory(gql, ns)
    file = lines(await exported(db, ns))
    committed = []

    def lost_after_two_chunks(done: int) -> None:  # chunks of 10 records from line 2
        committed.append(done)
        if len(committed) == 2:
            raise _LostConnection

    with pytest.raises(_LostConnection):
        await import_lines(db, file, into=other, chunk=10, progress=lost_after_two_chunks)
    assert (await import_lines(db, file, into=other, chunk=10)).resumed_after == 21
    complete = await namespace_contents(db, other)
    await import_lines(db, file, into=other, chunk=10)  # from the start again: the same
    assert await namespace_contents(db, other) == complete


async def test_a_file_cut_short_writes_nothing_and_says_so(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    await a_memory(gql, ns)
    records = await exported(db, ns)
    file = lines(records)
    cut = len(file) - 3  # the end record and two relationships lost in transit
    with pytest.raises(InvalidInput, match="cut short"):
        await import_lines(db, file[:cut], into=other, chunk=10)
    assert await namespace_contents(db, other) == []
    whole = await import_lines(db, file, into=other, chunk=10)
    assert (whole.resumed_after, whole.nodes) == (0, records[-1]["end"]["nodes"])


async def test_an_import_into_its_own_namespace_restores_it(
        db: Database, gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[said("r1", "2026-05-01T10:00:00Z", "I keep bees")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "keeps", "bees", evidence=["r1"])])
    file = lines(await exported(db, ns))
    await delete_namespace(db, ns)
    await import_lines(db, file)
    assert sorted(json.dumps(r, sort_keys=True) for r in (await exported(db, ns))[1:]) == \
        sorted(json.dumps(json.loads(line), sort_keys=True) for line in file[1:])


def _sorted(nodes: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(node, sort_keys=True) for node in nodes)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(first=policy_step, steps=st.lists(step, min_size=3, max_size=8))
async def test_random_workloads_round_trip(db: Database, first: Any, steps: list[Any]) -> None:
    """Export, import elsewhere, export again: the same records, and facts at every past
    belief time the same (the fact invariants' workloads)."""
    source, target = (Namespace(f"prop/{uuid.uuid4().hex[:10]}") for _ in range(2))
    moments = []
    try:
        for work in [first, *steps]:
            with contextlib.suppress(GraphmemError):  # refusals are the invariants' business
                await apply_step(db, source, work)
            moments.append(datetime.now(UTC))
        records = await exported(db, source)
        await import_lines(db, lines(records), into=target)
        again = await exported(db, target)
        assert sorted(json.dumps(r, sort_keys=True) for r in again[1:]) == as_in(records, target)
        ids = {remapped(r["key"], target): r["key"] for r in records
               if r.get("node") in GLOBAL_IDS and r.get("key")}
        for moment in moments:
            where = facts.FactFilter(as_of=moment, include_history=True)
            original = await facts.page(db, source, where, first=10_000, after=None)
            copy = await facts.page(db, target, where, first=10_000, after=None)
            assert sorted(_fact(f, {**ids, target: source}) for _, f in copy.items) == \
                sorted(_fact(f, {}) for _, f in original.items)
    finally:
        await delete_namespace(db, source)
        await delete_namespace(db, target)


def _fact(fact: Fact, ids: dict[str, str]) -> str:
    return json.dumps(without_ids(dataclasses.asdict(fact), ids), sort_keys=True, default=str)


async def test_graphmems_notes_stay_notes_in_the_copy(db: Database, gql: GraphQLClient, ns: str,
                                                      other: str) -> None:
    """A correction's note is history in the copy too: search finds it only with history."""
    done = await gql.ok(ASSERT, ns=ns, facts=[fact("Sam", "works_at", "Zalando")])
    await gql.ok("""mutation($ns: String!, $id: ID!) { correctFact(namespace: $ns, factId: $id,
        object: "Acme", reason: "Sam said Acme") { outcome } }""",
                 ns=ns, id=done["assertFacts"][0]["fact"]["id"])
    await import_lines(db, lines(await exported(db, ns)), into=other)
    query = """query($ns: String!, $history: Boolean!) { search(namespace: $ns,
        query: "Corrected Zalando", kinds: [EPISODE], includeHistory: $history) {
        hits { episode { content } } } }"""
    for where in (ns, other):
        assert (await gql.ok(query, ns=where, history=False))["search"]["hits"] == []
        notes = (await gql.ok(query, ns=where, history=True))["search"]["hits"]
        assert [h["episode"]["content"][:9] for h in notes] == ["Corrected"]
