"""Export files in memory, for the portability tests."""

from __future__ import annotations

import json
from typing import Any

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.portability.exporting import export


async def exported(db: Database, ns: str, decrypt: bool = False) -> list[dict[str, Any]]:
    return [record async for record in export(db, Namespace(ns), decrypt)]


def lines(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(record) for record in records]
