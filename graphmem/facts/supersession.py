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


def first_cycle(links: list[Row]) -> Row | None:
    """The link (``{winner, loser, line?}``) that closes a cycle among ``links`` alone, in
    their order, or None: for a whole import file, checked before anything is written."""
    leads_to: dict[str, set[str]] = {}
    for link in links:
        if _reaches(leads_to, link["loser"], link["winner"]):
            return link
        leads_to.setdefault(link["winner"], set()).add(link["loser"])
    return None


def _reaches(leads_to: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, stack = {start}, [start]
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        for following in leads_to.get(node, ()):
            if following not in seen:
                seen.add(following)
                stack.append(following)
    return False


def refusal(link: Row) -> InvalidInput:
    line = link.get("line")
    return InvalidInput(
        f"{f'line {line}: ' if line else ''}fact {link['winner']} cannot supersede "
        f"{link['loser']}: that fact already leads back to it through SUPERSEDES links, "
        "and a fact cannot replace itself", **({"line": line} if line else {}))


async def refuse_cycles(tx: Tx, ns: Namespace, links: list[Row]) -> None:
    """Raise ``InvalidInput`` (and so roll the transaction back) when one of the ``links``
    just written (``{winner, loser}``, with the file's ``line`` on import) closes a cycle."""
    if not links:
        return
    rows = await tx.run("facts/supersession_cycles", ns=ns, links=links)
    if rows:
        raise refusal(rows[0])
