"""Property test: over random workloads of assertions and entity merges, every fact has
exactly one edge and one statement node, they agree (type, endpoints, status), and no two
current facts say the same thing."""

from __future__ import annotations

import uuid
from contextlib import suppress

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import entity_merge, facts
from graphmem.db import Database
from graphmem.errors import GraphmemError
from graphmem.namespaces import Namespace
from tests.api.test_facts import edges_and_statements
from tests.conftest import delete_namespace

names = st.sampled_from(["Alice", "alice", "Bob", "ACME", "acme ", "Lisbon", "Tea"])
predicates = st.sampled_from(["works_at", "likes", "lives_in", "Knows", "visited"])
literal = st.one_of(st.none(), st.integers(0, 3).map(lambda n: facts.Literal(number=n)),
                    st.booleans().map(lambda b: facts.Literal(boolean=b)))
assertion = st.builds(
    lambda s, p, o, v, c: facts.NewFact(subject=s, predicate=p, object=None if v else o,
                                        value=v, confidence=c),
    names, predicates, names, literal, st.floats(0, 1))
merge = st.tuples(names, names)
step = st.one_of(st.lists(assertion, min_size=1, max_size=6), merge)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=st.lists(step, min_size=1, max_size=5))
async def test_edges_and_statement_nodes_never_drift(
        db: Database, steps: list[list[facts.NewFact] | tuple[str, str]]) -> None:
    ns = Namespace(f"prop/{uuid.uuid4().hex[:10]}")
    try:
        for work in steps:
            if isinstance(work, tuple):
                with suppress(GraphmemError):  # unknown or identical: refused, nothing written
                    await entity_merge.merge_entities(db, ns, into=work[0], merged=work[1])
            else:
                await facts.assert_facts(db, ns, work)
        edges, statements = await edges_and_statements(db, ns)
        assert edges == statements
        rows, _, _ = await db.driver.execute_query(
            """MATCH (f:Fact {ns: $ns})-[:SUBJECT]->(s), (f)-[:OBJECT]->(o)
               WHERE f.status IN ['active', 'disputed']
               RETURN s.id AS s, f.predicate AS p, o.id AS o, f.identity AS identity""",
            {"ns": ns})
        said = [(r["s"], r["p"], r["o"]) for r in rows]
        assert len(said) == len(set(said))  # re-assertions and merges never duplicate
        assert all(r["identity"] == facts.identity(r["s"], r["p"], r["o"]) for r in rows)
    finally:
        await delete_namespace(db, ns)
