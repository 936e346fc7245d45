"""Per-namespace pipeline switches: does recording an episode queue extraction, and do
sessions get summaries? Namespaces without their own switches follow the settings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.core.config import Settings
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Database, Row


@dataclass(frozen=True)
class Switches:
    extract: bool
    summarize: bool
    is_default: bool
    updated_at: datetime | None = None
    updated_by: str | None = None

    @classmethod
    def from_row(cls, row: Row) -> Switches:
        return cls(extract=bool(row["extract"]), summarize=bool(row["summarize"]),
                   is_default=False, updated_at=maybe_datetime(row.get("updated_at")),
                   updated_by=row.get("updated_by"))


async def of_namespace(db: Database, ns: Namespace, settings: Settings) -> Switches:
    rows = await db.read("jobs/switches", ns=ns)
    if rows:
        return Switches.from_row(rows[0]["switches"])
    return Switches(settings.extract_by_default, settings.summarize_by_default, is_default=True)


async def set_switches(db: Database, ns: Namespace, settings: Settings, extract: bool | None,
                       summarize: bool | None, actor: str | None) -> Switches:
    """Applies to episodes recorded from now on (use ``extractFacts`` for earlier ones)."""
    rows = await db.write("jobs/set_switches", ns=ns, extract=extract, summarize=summarize,
                          extract_by_default=settings.extract_by_default,
                          summarize_by_default=settings.summarize_by_default,
                          now=datetime.now(UTC), actor=actor)
    return Switches.from_row(rows[0]["switches"])
