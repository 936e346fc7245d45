"""Every named statement under cypher/ is planned by Neo4j (EXPLAIN) and must not scan a
whole label or the whole graph, except where that is the point (listed below, with why).

The statements on an agent's per-turn paths must also never start from a namespace-wide
index (``Fact(ns)``, ``Entity(ns)``…) to find one node or its neighbours: with real data
the planner did, for OPTIONAL MATCH and for labelled nodes reached by a relationship, and
filtered every fact of the namespace per row. They pin their index (``USING INDEX``) and
leave reached nodes unlabelled (the relationship type implies the label)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from graphmem.db.database import Database
from graphmem.db.statements import cypher_root, statement
from tests.support.graph import plan_of

SCANS = {"NodeByLabelScan", "AllNodesScan", "DirectedAllRelationshipsScan",
         "UndirectedAllRelationshipsScan", "DirectedRelationshipTypeScan",
         "UndirectedRelationshipTypeScan"}
ALLOWED = {  # statement -> why a scan is right there
    "console/browser/01_namespaces": "lists every namespace: a person exploring in Browser",
    "retrieval/embeddings/claim": "EmbedPending holds only what waits: the label is the work queue",
    "retrieval/embeddings/claimable": "the same queue, read to see whether it holds anything",
    "governance/memory/stats": "counts the namespace's share of the (small) EmbedPending queue",
    "retrieval/embeddings/mark_all": "re-embedding touches every embeddable node on purpose",
    "retrieval/embeddings/requeue_set_aside": "EmbedFailed holds only what was set aside (a few "
                                              "nodes)",
    "db/migration_steps/escape_plain_enc": "migration 0020 looks at every episode once, on "
                                           "purpose",
    "db/migration_steps/mark_change_notes": "migration 0022 looks at every episode once, on "
                                            "purpose",
    "retrieval/embeddings/space": "one EmbeddingSpace node per database",
    "retrieval/embeddings/record_space": "one EmbeddingSpace node per database",
    "retrieval/embeddings/store": "one EmbeddingSpace node per database",
    "db/migrations_applied": "a handful of Migration nodes",
    "episodes/encryption/pending": "key rotation visits every episode on purpose",
    "db/migration_record": "a handful of Migration nodes",
    "governance/holds_memory": "restore's check: is there any node of five labels (LIMIT 1)",
    "db/write_probe": "one WriteProbe node, and only while Neo4j is failing (/readyz)",
}
PER_TURN = [
    "facts/entities/by_name", "facts/entities/link", "facts/entities/lock",
    "facts/entities/neighbours", "facts/entities/resolve", "episodes/by_ids", "episodes/create",
    "episodes/existing", "episodes/relink", "episodes/reserve_seq", "facts/about_entities",
    "facts/add_evidence", "facts/believed", "facts/by_ids", "facts/create", "facts/end",
    "facts/values",
    "episodes/resolve", "facts/links", "facts/provenance", "facts/supersede",
    "facts/timeline", "facts/pinned", "facts/conflicts/open", "facts/traversal/hop",
    "retrieval/search/find", "facts/vectors", "facts/recent_evidence",
    "episodes/session_user_actors", "episodes/user_actors",
    "retrieval/search/load", "summaries/mark_stale", "summaries/of_episodes",
    "facts/conflicts/settle_orphaned", "jobs/enqueue_summaries",
    # the workers' own, every job
    "jobs/claim", "jobs/by_ids", "jobs/episodes", "jobs/finish",
]
NAMESPACE_WIDE_SEEK = re.compile(r"INDEX \w+:\w+\(ns\) WHERE")
# statement -> how many namespace-wide seeks it plans, each bounded, and how
BOUNDED_NAMESPACE_SEEKS = {
    "retrieval/search/find": (8, "per kind, a count that stops at EXACT_VECTORS_BELOW, and a "
                                 "scan of the namespace's vectors only when the count stopped "
                                 "short of it"),
}
# Statements run on another system's database (graphmem import --from graphiti), whose
# indexes are that system's: planned here, against graphmem's, they say nothing.
FOREIGN = ("graphiti_",)
NAMES = sorted(p.relative_to(cypher_root()).with_suffix("").as_posix()
               for p in cypher_root().rglob("*.cypher")
               if p.parent.name != "migrations" and "create_indexes" not in p.name
               and "drop_indexes" not in p.name and not p.name.startswith(FOREIGN))


def _details(plan: Any) -> list[str]:
    found = [str(plan.get("args", {}).get("Details", ""))]
    for child in plan.get("children", []):
        found += _details(child)
    return found


def _operators(plan: Any) -> set[str]:
    found = {plan["operatorType"].split("@")[0]}
    for child in plan.get("children", []):
        found |= _operators(child)
    return found


@pytest.mark.parametrize("name", NAMES)
async def test_statement_uses_indexes(db: Database, name: str) -> None:
    scans = _operators(await plan_of(db, statement(name))) & SCANS
    if name in ALLOWED:  # the exemption is still needed, or it goes
        assert scans, f"{name} no longer scans: take it out of ALLOWED"
    else:
        assert not scans, f"{name} plans {sorted(scans)}: add or use an index"


@pytest.mark.parametrize("name", PER_TURN)
async def test_per_turn_statement_never_seeks_a_whole_namespace(db: Database, name: str) -> None:
    plan = await plan_of(db, statement(name))
    seeks = [d for d in _details(plan) if NAMESPACE_WIDE_SEEK.search(d)]
    bounded, _ = BOUNDED_NAMESPACE_SEEKS.get(name, (0, ""))
    assert len(seeks) == bounded, f"{name} starts from a namespace-wide index: {seeks}"
    # An index hint alone may be planned as a scan of the whole index (a plan cached while
    # the store was small did that per row); hints say SEEK.
    assert "NodeIndexScan" not in _operators(plan), f"{name} scans a whole index"


def test_only_statements_that_seek_keep_their_plan() -> None:
    """``CYPHER replan=skip`` keeps a plan made on a small store: only right where every
    lookup is pinned to an index seek (checked above for the per-turn statements)."""
    kept = [name for name in NAMES if statement(name).startswith("CYPHER replan=skip")]
    assert "facts/create" in kept and "episodes/create" in kept
    assert set(kept) <= set(PER_TURN) - set(ALLOWED), sorted(set(kept) - set(PER_TURN))
