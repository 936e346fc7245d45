"""Property tests over random workloads of assertions (with random validity), corrections,
retractions, conflict resolutions, entity merges and policy changes:

- every fact has exactly one edge and one statement node, and they agree;
- believed versions of one statement never overlap in validity;
- a one-value predicate never holds two values at the same world time unless both are
  disputed in one open conflict, and nothing is disputed outside an open conflict;
- nothing is ever deleted: the number of fact versions only grows;
- ``asOf`` any past belief time returns exactly what memory reported at that time;
- an operation refused (a typed error) leaves the namespace exactly as it was, and the
  first step of every workload (setting a policy) succeeds.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from graphmem.core.errors import GraphmemError
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Database
from graphmem.facts import changes as fact_changes
from graphmem.facts import conflicts, entity_merge, policies
from graphmem.facts import store as facts
from graphmem.facts.intervals import Interval
from graphmem.facts.model import Source
from tests.support.graph import delete_namespace, edges_and_statements, namespace_contents

T0 = datetime(2026, 1, 1, tzinfo=UTC)
subjects = st.sampled_from(["Alice", "alice", "Bob"])
names = st.sampled_from(["Alice", "alice", "Bob", "ACME", "acme ", "Lisbon", "Tea"])
predicates = st.sampled_from(["works_at", "lives_in", "works_at", "likes", "Knows"])
literal = st.one_of(st.none(), st.integers(0, 3).map(lambda n: facts.Literal(number=n)),
                    st.booleans().map(lambda b: facts.Literal(boolean=b)))
day = st.one_of(st.none(), st.integers(0, 6).map(lambda d: T0 + timedelta(days=30 * d)))


@st.composite
def assertion(draw: st.DrawFn) -> facts.NewFact:
    value = draw(literal)
    start, end = draw(day), draw(day)
    if start is not None and end is not None and start >= end:
        start, end = end, start + timedelta(days=1) if start == end else start
    return facts.NewFact(subject=draw(subjects), predicate=draw(predicates),
                         object=None if value else draw(names), value=value,
                         confidence=draw(st.sampled_from([0.5, 0.9])),
                         source=draw(st.sampled_from(list(Source)[:3])),
                         valid_from=start, valid_to=end)


policy_step = st.tuples(st.just("policy"), st.sampled_from(["works_at", "lives_in"]),
                        st.sampled_from(list(policies.Strategy)))
batch = st.lists(assertion(), min_size=1, max_size=4)
resolve = st.tuples(st.just("resolve"), st.integers(0, 50))
step = st.one_of(  # assertions and resolutions weighted up: they drive the interesting cases
    batch, batch, batch, resolve, resolve, policy_step,
    st.tuples(st.just("merge"), names, names),
    st.tuples(st.just("correct"), st.integers(0, 50), names),
    st.tuples(st.just("retract"), st.integers(0, 50)),
)
BELIEVED = """
MATCH (f:Fact {ns: $ns})-[:SUBJECT]->(s), (f)-[:OBJECT]->(o)
WHERE f.retracted_at IS NULL
RETURN f.id AS id, s.id AS s, f.predicate AS p, o.id AS o, f.identity AS identity,
       f.status AS status, f.valid_from AS vf, f.valid_to AS vt,
       COLLECT { MATCH (c:Conflict {status: 'open'})-[:CANDIDATE]->(f) RETURN c.id } AS open
ORDER BY f.id"""


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(first=policy_step, steps=st.lists(step, min_size=3, max_size=8))
async def test_memory_invariants(db: Database, first: Any, steps: list[Any]) -> None:
    ns = Namespace(f"prop/{uuid.uuid4().hex[:10]}")
    snapshots: list[tuple[datetime, set[tuple[Any, ...]]]] = []
    versions = 0
    try:
        for i, work in enumerate([first, *steps]):
            before = await namespace_contents(db, ns)
            try:
                await _apply(db, ns, work)
                event(f"{_kind(work)}: done")
            except GraphmemError as refused:
                event(f"{_kind(work)}: refused ({refused.code})")
                assert i > 0, f"a policy step was refused: {refused}"
                assert await namespace_contents(db, ns) == before, "a refusal wrote something"
            rows = await _rows(db, BELIEVED, ns)
            _check_believed(rows)
            total = (await _rows(db, "MATCH (f:Fact {ns: $ns}) RETURN count(f) AS n", ns))[0]
            assert total["n"] >= versions  # history only grows
            versions = total["n"]
            # What memory believed right after this step, read straight from the graph.
            snapshots.append((datetime.now(UTC),
                              {(r["id"], _dt(r["vf"]), _dt(r["vt"])) for r in rows}))
            await asyncio.sleep(0.002)
        edges, statements = await edges_and_statements(db, ns)
        assert edges == statements
        for moment, reported in snapshots:
            assert await _reported(db, ns, moment) == reported
    finally:
        await delete_namespace(db, ns)


async def _apply(db: Database, ns: Namespace, work: Any) -> None:
    believed = [r["id"] for r in await _rows(db, BELIEVED, ns)]
    if isinstance(work, list):
        await facts.assert_facts(db, ns, work)
    elif work[0] == "merge":
        await entity_merge.merge_entities(db, ns, into=work[1], merged=work[2])
    elif believed and work[0] == "correct":
        await fact_changes.correct(db, ns, believed[work[1] % len(believed)], work[2],
                                   None, "wrong", "test")
    elif believed and work[0] == "retract":
        await fact_changes.retract(db, ns, believed[work[1] % len(believed)], "no", "test")
    elif work[0] == "resolve":
        open_conflicts = (await conflicts.page(db, ns, conflicts.ConflictStatus.OPEN, 50,
                                               None)).items
        if open_conflicts:
            conflict = open_conflicts[work[1] % len(open_conflicts)][1]
            keep = [f for f in conflict.candidates if f.retracted_at is None]
            await conflicts.resolve(db, ns, conflict.id, keep[work[1] % len(keep)].id,
                                    "decided", "test")
    elif work[0] == "policy":
        await policies.set_policy(db, ns, work[1], policies.Cardinality.ONE, work[2], "t")


def _kind(work: Any) -> str:
    return "assert" if isinstance(work, list) else str(work[0])


def _check_believed(rows: list[dict[str, Any]]) -> None:
    spans = [(r, Interval(_dt(r["vf"]), _dt(r["vt"]))) for r in rows]
    for i, (a, span_a) in enumerate(spans):
        assert a["identity"] == facts.identity(a["s"], a["p"], a["o"])
        assert (a["status"] == "disputed") == bool(a["open"]), "disputed iff in open conflict"
        for b, span_b in spans[i + 1:]:
            if not span_a.overlaps(span_b) or (a["s"], a["p"]) != (b["s"], b["p"]):
                continue
            assert a["identity"] != b["identity"], "one statement, two overlapping versions"
            if a["p"] in ("works_at", "lives_in"):  # one-value predicates in this workload
                assert set(a["open"]) & set(b["open"]), "two values at once, not in a conflict"


async def _reported(db: Database, ns: Namespace, as_of: datetime) -> set[tuple[Any, ...]]:
    """Everything the API says was believed at ``as_of``, at any validity."""
    where = facts.FactFilter(as_of=as_of, include_history=True)
    page = await facts.page(db, ns, where, first=10_000, after=None)
    return {(f.id, f.valid_from, f.valid_to) for _, f in page.items}


async def _rows(db: Database, query: str, ns: str) -> list[dict[str, Any]]:
    records, _, _ = await db.driver.execute_query(query, {"ns": ns})
    return [r.data() for r in records]


def _dt(value: Any) -> datetime | None:
    return maybe_datetime(value)
