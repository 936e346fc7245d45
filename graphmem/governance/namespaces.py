"""Which namespaces an API key may read: its exact grants, and the namespaces that hold
memory under its prefix grants (all of them for an admin key). The console lists them so a
person picks one instead of guessing names."""

from __future__ import annotations

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace, grant_matches, parse_namespace
from graphmem.db.database import Database


async def readable(db: Database, grants: tuple[str, ...], admin: bool,
                   limit: int) -> list[Namespace]:
    """Sorted, at most ``limit``: exact grants whether or not they hold anything yet."""
    found: set[Namespace] = set()
    prefixes = [""] if admin or "*" in grants else \
        [g[:-1] for g in grants if g.endswith("/*")]
    for grant in grants:
        if grant != "*" and not grant.endswith("/*"):
            found.add(_valid(grant))
    for prefix in prefixes:
        rows = await db.read("governance/memory/namespaces", prefix=prefix, after="", limit=limit)
        found.update(Namespace(row["ns"]) for row in rows)
    allowed = [ns for ns in found if admin or any(grant_matches(g, ns) for g in grants)]
    return sorted(allowed)[:limit]


def _valid(grant: str) -> Namespace:
    try:
        return parse_namespace(grant)
    except InvalidInput:  # a grant written before names were validated: not listable
        return Namespace(grant)
