"""Entities: the things facts are about, resolved exactly by a normalised key or an alias.

"Alice", " alice " and "ＡＬＩＣＥ" are one entity (NFKC, case-folded, whitespace collapsed).
Resolution is exact on purpose: fuzzy matching belongs to search, not to identity.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.core.errors import ConcurrentChange, InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Database, Row, Tx

MAX_NAME = 300


@dataclass(frozen=True)
class Entity:
    id: str
    namespace: str
    name: str
    key: str
    type: str | None
    aliases: tuple[str, ...]
    created_at: datetime | None

    @classmethod
    def from_row(cls, row: Row, aliases: list[str] | None = None) -> Entity:
        return cls(id=row["id"], namespace=row["ns"], name=row["name"], key=row["key"],
                   type=row.get("type"), aliases=tuple(sorted(aliases or ())),
                   created_at=maybe_datetime(row.get("created_at")))


_SPACES = re.compile(r"\s+")


# Not cached for the process: an erased subject's name must not outlive its erasure in any
# service process's memory. A batch keeps its own (`facts.store`), since it names the same
# few entities hundreds of times.
def entity_key(name: str) -> str:
    """The normalised name used for exact resolution."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return _SPACES.sub(" ", text).strip()


def clean_name(name: str, field: str = "name") -> str:
    cleaned = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip()
    if not cleaned or len(cleaned) > MAX_NAME:
        raise InvalidInput(f"{field} must be 1-{MAX_NAME} characters", field=field)
    return cleaned


async def resolve(tx: Tx, ns: Namespace, names: dict[str, str | None]) -> dict[str, str]:
    """Entity ids for display names (name -> type), creating missing entities. Keyed by the
    names given (names of one key share its entity)."""
    if not names:
        return {}
    keys = {name: entity_key(name) for name in names}
    rows = await tx.run(
        "facts/entities/resolve", ns=ns, now=datetime.now(UTC),
        names=[{"key": keys[n], "name": n, "type": t} for n, t in sorted(names.items())])
    ids = {row["key"]: row["id"] for row in rows}
    return {name: ids[key] for name, key in keys.items()}


async def lock(tx: Tx, ns: Namespace, ids: list[str]) -> None:
    """Take each entity's write lock, in a fixed order so writers cannot deadlock. An entity
    gone by then was merged away by a concurrent write: the caller should retry.

    The rule every write follows: a change to a fact locks the entities at both its ends, so
    an entity's ``write_version`` moves whenever any of its facts does (caches key on it)."""
    wanted = sorted(set(ids))
    rows = await tx.run("facts/entities/lock", ns=ns, ids=wanted)
    if rows[0]["locked"] < len(wanted):
        raise ConcurrentChange("an entity was merged by a concurrent write; retry")


async def linked(db: Database, ns: Namespace, keys: list[str]) -> list[tuple[Entity, int]]:
    """The entities named or aliased by ``keys``, each with its version (the cache key of
    its facts)."""
    rows = await db.read("facts/entities/link", ns=ns, keys=keys)
    return [(Entity.from_row(row["entity"], row["aliases"]), row["version"]) for row in rows]


async def by_name(db: Database, ns: Namespace, name: str) -> Entity | None:
    rows = await db.read("facts/entities/by_name", ns=ns, key=entity_key(name))
    return Entity.from_row(rows[0]["entity"], rows[0]["aliases"]) if rows else None


async def add_alias_in(tx: Tx, ns: Namespace, entity_id: str, alias: str) -> bool:
    """Make ``alias`` (a clean name) resolve to the entity, in a running transaction; False,
    and nothing changed, when it already names another entity."""
    return bool(await tx.run("facts/entities/add_alias", ns=ns, id=entity_id,
                             key=entity_key(alias), name=alias, now=datetime.now(UTC)))


async def add_alias(db: Database, ns: Namespace, name: str, alias: str) -> Entity:
    """Make ``alias`` resolve to the entity called ``name``."""
    alias = clean_name(alias, "alias")
    entity = await by_name(db, ns, name)
    if entity is None:
        raise NotFound(f"no entity named {name!r}", field="name")
    rows = await db.write("facts/entities/add_alias", ns=ns, id=entity.id, key=entity_key(alias),
                          name=alias, now=datetime.now(UTC))
    if not rows:
        raise InvalidInput(f"{alias!r} already names another entity: to make the two one, "
                           "merge them (mergeEntities)", field="alias")
    found = await by_name(db, ns, name)
    assert found is not None
    return found
