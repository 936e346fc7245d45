"""An entity's timeline: the facts about it in world-time order.

"Where did Alice live?" reads as Lisbon 2019–2022, then Berlin: by default the story memory
believes now (past facts included, narrowed to when they held); with history, every version
ever recorded, superseded and retracted ones with their status.
"""

from __future__ import annotations

from datetime import datetime

from graphmem.core.errors import NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import Page, after_time_cursor, time_cursor
from graphmem.core.timeutil import parse_stored_datetime, to_native
from graphmem.db.database import Database
from graphmem.facts import entities
from graphmem.facts.model import Fact


async def of_entity(db: Database, ns: Namespace, name: str, first: int, after: str | None,
                    include_history: bool = False) -> Page[tuple[datetime, Fact]]:
    after_at, after_id = after_time_cursor(after)
    entity = await entities.by_name(db, ns, name)
    if entity is None:
        raise NotFound(f"no entity named {name!r}", field="entity")
    rows = await db.read("facts/timeline", ns=ns, entity_id=entity.id, limit=first + 1,
                         history=include_history,
                         after_at=to_native(after_at), after_id=after_id)
    entries = [(parse_stored_datetime(row["at"]), Fact.from_row(row["fact"])) for row in rows]
    return Page([(time_cursor(at, fact.id), (at, fact))
                 for at, fact in entries[:first]], has_next=len(entries) > first)
