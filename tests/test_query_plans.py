"""Every named statement under cypher/ is planned by Neo4j (EXPLAIN) and must not scan a
whole label or the whole graph, except where that is the point (listed below, with why)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from graphmem.cypher import cypher_root, statement
from graphmem.db import Database

SCANS = {"NodeByLabelScan", "AllNodesScan", "DirectedAllRelationshipsScan",
         "UndirectedAllRelationshipsScan", "DirectedRelationshipTypeScan",
         "UndirectedRelationshipTypeScan"}
ALLOWED = {  # statement -> why a scan is right there
    "browser/01_namespaces": "lists every namespace: a person exploring in Browser",
    "embeddings/pending": "EmbedPending holds only what waits: the label is the work queue",
    "embeddings/pending_count": "the same queue, counted",
    "memory/stats": "counts the namespace's share of the (small) EmbedPending queue",
    "embeddings/mark_all": "re-embedding touches every embeddable node on purpose",
    "embeddings/space": "one EmbeddingSpace node per database",
    "embeddings/record_space": "one EmbeddingSpace node per database",
    "embeddings/store": "one EmbeddingSpace node per database",
    "system/migrations_applied": "a handful of Migration nodes",
    "encryption/pending": "key rotation visits every episode on purpose",
    "system/migration_record": "a handful of Migration nodes",
}
NAMES = sorted(p.relative_to(cypher_root()).with_suffix("").as_posix()
               for p in cypher_root().rglob("*.cypher")
               if p.parent.name != "migrations" and "create_indexes" not in p.name
               and "drop_indexes" not in p.name)


def _operators(plan: Any) -> set[str]:
    found = {plan["operatorType"].split("@")[0]}
    for child in plan.get("children", []):
        found |= _operators(child)
    return found


@pytest.mark.parametrize("name", NAMES)
async def test_statement_uses_indexes(db: Database, name: str) -> None:
    text = statement(name)
    params = {p: None for p in re.findall(r"\$(\w+)", text)}
    async with db.driver.session(database=db.name) as session:
        result = await session.run(f"EXPLAIN {text}", params)  # type: ignore[arg-type]
        summary = await result.consume()
    assert summary.plan is not None
    scans = _operators(summary.plan) & SCANS
    if name in ALLOWED:
        return
    assert not scans, f"{name} plans {sorted(scans)}: add or use an index"
