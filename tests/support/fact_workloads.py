"""Random workloads of fact changes for property tests: assertions with random validity,
corrections, retractions, conflict resolutions, entity merges, policy changes, pins,
forgetting and pruning (the fact invariants and the export round trip run the same ones)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import strategies as st

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.facts import changes as fact_changes
from graphmem.facts import conflicts, entity_merge, policies
from graphmem.facts import store as facts
from graphmem.facts.model import Source
from graphmem.governance import pruning

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
    st.tuples(st.just("pin"), st.integers(0, 50)),
    st.tuples(st.just("forget"), st.integers(0, 50)),
    st.just(("prune",)),
)


async def apply_step(db: Database, ns: Namespace, work: Any) -> None:
    """One step of a workload drawn from ``step`` (or ``policy_step``), through the domain."""
    believed = await _believed_ids(db, ns)
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
    elif believed and work[0] == "pin":
        await fact_changes.pin(db, ns, believed[work[1] % len(believed)], True, "test")
    elif believed and work[0] == "forget":
        await fact_changes.forget(db, ns, believed[work[1] % len(believed)], "asked", "test")
    elif work[0] == "prune":  # every unpinned fact below 0.7 (those at 0.5) is unused by now
        await pruning.set_policy(db, ns, pruning.Policy(0.7, timedelta(milliseconds=1)), "t")
        await asyncio.sleep(0.002)
        await pruning.prune(db, ns)
    elif work[0] == "policy":
        await policies.set_policy(db, ns, work[1], policies.Cardinality.ONE, work[2], "t")


async def _believed_ids(db: Database, ns: Namespace) -> list[str]:
    records, _, _ = await db.driver.execute_query(
        "MATCH (f:Fact {ns: $ns}) WHERE f.retracted_at IS NULL RETURN f.id AS id ORDER BY f.id",
        {"ns": ns})
    return [record["id"] for record in records]
