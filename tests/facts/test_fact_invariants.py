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
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from graphmem.core.errors import GraphmemError
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Database
from graphmem.facts import store as facts
from graphmem.facts.intervals import Interval
from tests.support.fact_workloads import apply_step, policy_step, step
from tests.support.graph import delete_namespace, edges_and_statements, namespace_contents

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
                await apply_step(db, ns, work)
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
