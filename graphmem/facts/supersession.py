"""Supersession never loops: no fact replaces itself through a chain of SUPERSEDES links.

Every writer of SUPERSEDES links (conflict resolution, import) checks the links it wrote in
its own transaction, so a cycle is refused before it commits. Five imported facts that
superseded each other made one ``provenance`` walk their paths for minutes, until Neo4j ran
out of memory (issue 36.7); the walks are bounded now too (``facts/provenance``), for cycles
stored before this check.
"""

from __future__ import annotations

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Row, Tx


async def refuse_cycles(tx: Tx, ns: Namespace, links: list[Row]) -> None:
    """Raise ``InvalidInput`` (and so roll the transaction back) when one of the ``links``
    just written (``{winner, loser}``, with the file's ``line`` on import) closes a cycle."""
    if not links:
        return
    rows = await tx.run("facts/supersession_cycles", ns=ns, links=links)
    if rows:
        first = rows[0]
        line = first.get("line")
        raise InvalidInput(
            f"{f'line {line}: ' if line else ''}fact {first['winner']} cannot supersede "
            f"{first['loser']}: that fact already leads back to it through SUPERSEDES links, "
            "and a fact cannot replace itself", **({"line": line} if line else {}))
