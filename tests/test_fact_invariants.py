"""Property test: over random assertion workloads, every fact has exactly one edge and one
statement node, and they agree (type, endpoints, status)."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import facts
from graphmem.db import Database
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


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(batches=st.lists(st.lists(assertion, min_size=1, max_size=6), min_size=1, max_size=4))
async def test_edges_and_statement_nodes_never_drift(db: Database,
                                                     batches: list[list[facts.NewFact]]) -> None:
    ns = Namespace(f"prop/{uuid.uuid4().hex[:10]}")
    try:
        identities: set[tuple[str, str, str]] = set()
        for batch in batches:
            for done in await facts.assert_facts(db, ns, batch):
                identities.add((done.fact.subject.casefold(), done.fact.predicate,
                                done.fact.object.casefold()))
        edges, statements = await edges_and_statements(db, ns)
        assert edges == statements
        assert len(statements) == len(identities)  # re-assertions never duplicate
    finally:
        await delete_namespace(db, ns)
