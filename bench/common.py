"""What the benchmarks share: removing what a run wrote, so runs do not pile up."""

from __future__ import annotations

from graphmem.db import Database


async def delete_namespaces(db: Database, namespaces: list[str],
                            key_name: str | None = None) -> None:
    """Delete every node of these namespaces (in bounded transactions) and the run's key."""
    async with db.driver.session() as session:
        for ns in namespaces:
            result = await session.run(
                "MATCH (n {ns: $ns}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS",
                {"ns": ns})
            await result.consume()
        if key_name is not None:
            result = await session.run("MATCH (k:ApiKey {name: $name}) DELETE k",
                                       {"name": key_name})
            await result.consume()
