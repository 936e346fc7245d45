"""What every resolver gets: the database, who is asking, and per-request loaders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from strawberry.types import Info as _Info

from graphmem.auth import Principal
from graphmem.config import Settings
from graphmem.db import Database
from graphmem.namespaces import Namespace, parse_namespace


@dataclass
class Context:
    db: Database
    principal: Principal
    settings: Settings
    loaders: dict[str, Any] = field(default_factory=dict)

    def namespace(self, raw: str) -> Namespace:
        """Validate a namespace argument and check this key may use it.

        Every resolver's first step."""
        return self.principal.authorize(parse_namespace(raw))


Info = _Info[Context, None]
