"""Reading the graph straight from Neo4j, for checks the API cannot make about itself."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from neo4j.exceptions import TransientError

from graphmem.db.database import Database


async def delete_namespace(db: Database, name: str) -> None:
    """Delete the namespace; the service's embedding worker may still be writing to it, so a
    deadlock with it is retried rather than failing the test that just passed."""
    for attempt in range(5):
        try:
            async with db.driver.session(database=db.name) as session:  # auto-commit
                result = await session.run(
                    "MATCH (n {ns: $ns}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
                    {"ns": name})
                await result.consume()
            return
        except TransientError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))


async def graph_size(db: Database) -> tuple[int, int]:
    """(nodes, relationships) of memory in the whole database, for "wrote nothing" checks.
    Audit events are left out: a refused mutation is still audited, by design."""
    records, _, _ = await db.driver.execute_query(
        "CALL { MATCH (n) WHERE NOT n:AuditEvent RETURN count(n) AS nodes } "
        "CALL { MATCH ()-[r]->() RETURN count(r) AS rels } RETURN nodes, rels", database_=db.name)
    return records[0]["nodes"], records[0]["rels"]


async def namespace_contents(db: Database, ns: str) -> list[str]:
    """Every node and relationship of ``ns``, properties included (the embedding worker's
    own changes left out), for "wrote nothing" checks that also see updates. Properties are
    compared sorted: Neo4j returns a map's keys in no fixed order."""
    records, _, _ = await db.driver.execute_query(
        "MATCH (n) WHERE n.ns = $ns "
        "RETURN elementId(n) AS id, [l IN labels(n) WHERE l <> 'EmbedPending'] AS labels, "
        "properties(n) AS props, "
        "[(n)-[r]->(m) | [type(r), properties(r), elementId(m)]] AS out", {"ns": ns},
        database_=db.name)
    return sorted(repr((r["id"], r["labels"], _sorted_properties(r["props"]),
                        sorted(repr((kind, _sorted_properties(props), to))
                               for kind, props, to in r["out"])))
                  for r in records)


# The embedding worker's claims, and the usage log's notes (written a few seconds after a
# read): a service's own bookkeeping, not what a write wrote.
_WORKER_OWN = frozenset({"embedding", "embed_lease_until", "last_used_at"})


def _sorted_properties(props: dict[str, Any]) -> list[tuple[str, Any]]:
    return sorted((k, v) for k, v in props.items() if k not in _WORKER_OWN)


async def edges_and_statements(db: Database, ns: str) -> tuple[list[Any], list[Any]]:
    edges, _, _ = await db.driver.execute_query(
        """MATCH (s {ns: $ns})-[r]->(o) WHERE r.fact_id IS NOT NULL
           RETURN r.fact_id AS id, type(r) AS type, s.id AS s, o.id AS o, r.status AS status,
                  r.confidence AS confidence ORDER BY id""", {"ns": ns})
    statements, _, _ = await db.driver.execute_query(
        """MATCH (f:Fact {ns: $ns})-[:SUBJECT]->(s), (f)-[:OBJECT]->(o)
           RETURN f.id AS id, toUpper(f.predicate) AS type, s.id AS s, o.id AS o,
                  f.status AS status, f.confidence AS confidence ORDER BY id""", {"ns": ns})
    return [dict(r) for r in edges], [dict(r) for r in statements]


async def plan_of(db: Database, text: str) -> Any:
    """The plan Neo4j makes for a statement (EXPLAIN, every parameter null)."""
    params = {p: None for p in re.findall(r"\$(\w+)", text)}
    async with db.driver.session(database=db.name) as session:
        result = await session.run(f"EXPLAIN {text}", params)
        summary = await result.consume()
    assert summary.plan is not None
    return summary.plan


async def episode_contents(db: Database, ns: str) -> list[str]:
    """The content of every episode stored in ``ns``, in no particular order."""
    records, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.content AS content", {"ns": ns},
        database_=db.name)
    return [r["content"] for r in records]
