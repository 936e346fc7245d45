"""Predicate policies: how many values a predicate holds at once, and who wins a conflict.

``ONE`` predicates (lives_in, works_at…) hold one value at a time: a new value overlapping a
believed one in world time is resolved by the strategy. ``MANY`` predicates (likes, knows…)
accumulate. Unknown predicates are ``MANY``: graphmem never hides a fact on a guess.
Namespaces override the defaults with ``setPredicatePolicy``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from graphmem.core.identifiers import normalise_predicate, relationship_type
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Database, Row, Tx


class Cardinality(StrEnum):
    ONE = "one"
    MANY = "many"


class Strategy(StrEnum):
    RECENCY = "recency"  # the value that became true later in world time wins
    CONFIDENCE = "confidence"  # the more confident wins; equal confidence is a dispute
    SOURCE_PRIORITY = "source_priority"  # user_correction > user_statement > … ; tie: dispute
    MANUAL = "manual"  # every overlap is a dispute, settled by resolveConflict


@dataclass(frozen=True)
class Policy:
    predicate: str
    cardinality: Cardinality
    strategy: Strategy
    is_default: bool = True
    updated_at: datetime | None = None
    updated_by: str | None = None


_ONE = ("lives_in", "works_at", "occupation", "email", "name", "timezone", "preferred_language",
        "job_title", "employer", "phone", "birthday", "home_city", "spouse", "age")
_MANY = ("likes", "dislikes", "knows", "owns", "visited", "speaks", "interested_in",
         "allergic_to", "member_of", "friend_of")
DEFAULTS = {p: Policy(p, Cardinality.ONE, Strategy.RECENCY) for p in _ONE} | \
           {p: Policy(p, Cardinality.MANY, Strategy.RECENCY) for p in _MANY}


def default_for(predicate: str) -> Policy:
    return DEFAULTS.get(predicate, Policy(predicate, Cardinality.MANY, Strategy.RECENCY))


async def for_predicates(tx: Tx, ns: Namespace, predicates: list[str]) -> dict[str, Policy]:
    """The policy in force for each predicate (namespace override, else default)."""
    rows = await tx.run("facts/policies/for_predicates", ns=ns, predicates=sorted(set(predicates)))
    found = {row["policy"]["predicate"]: from_row(row["policy"]) for row in rows}
    return {p: found.get(p) or default_for(p) for p in predicates}


async def set_policy(db: Database, ns: Namespace, predicate: str, cardinality: Cardinality,
                     strategy: Strategy, actor: str | None) -> Policy:
    """Override a predicate's policy for this namespace. Applies to later writes only:
    facts already resolved keep their history."""
    predicate = normalise_predicate(predicate)
    relationship_type(predicate)  # the same validation as a fact's predicate
    rows = await db.write("facts/policies/set", ns=ns, predicate=predicate,
                          cardinality=cardinality.value, strategy=strategy.value,
                          actor=actor, now=datetime.now(UTC))
    return from_row(rows[0]["policy"])


async def list_policies(db: Database, ns: Namespace) -> list[Policy]:
    """The defaults merged with this namespace's overrides, by predicate."""
    rows = await db.read("facts/policies/list", ns=ns)
    overrides = {row["policy"]["predicate"]: from_row(row["policy"]) for row in rows}
    merged = DEFAULTS | overrides
    return [merged[p] for p in sorted(merged)]


def from_row(row: Row) -> Policy:
    return Policy(predicate=str(row["predicate"]), cardinality=Cardinality(row["cardinality"]),
                  strategy=Strategy(row["strategy"]), is_default=False,
                  updated_at=maybe_datetime(row.get("updated_at")),
                  updated_by=row.get("updated_by"))
