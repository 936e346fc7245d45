"""What every resolver gets: the database, who is asking, and per-request loaders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from strawberry.dataloader import DataLoader
from strawberry.types import Info as _Info

from graphmem.core.config import Settings
from graphmem.core.errors import QueryTooCostly
from graphmem.core.namespaces import Namespace, parse_namespace
from graphmem.db.database import Database
from graphmem.events.feed import Feed
from graphmem.pipelines.worker import Worker
from graphmem.retrieval.embeddings import Embedder
from graphmem.retrieval.fact_cache import FactCache
from graphmem.retrieval.usage import UsageLog
from graphmem.security.auth import Principal


@dataclass
class Subscriptions:
    """How many subscriptions this process runs, in all and for each API key: capped, so no
    key can take every place."""

    running: int = 0
    by_key: Counter[str] = field(default_factory=Counter)


@dataclass
class Context:
    db: Database
    principal: Principal
    settings: Settings
    embedder: Embedder | None = None
    fact_cache: FactCache | None = None
    usage: UsageLog | None = None  # notes what answers return (pruning spares it)
    worker: Worker | None = None
    loaders: dict[tuple[str, str], DataLoader[Any, Any]] = field(default_factory=dict)
    connection_params: object = None  # a WebSocket's `connection_init` payload
    subscriptions: Subscriptions | None = None  # the process's running subscriptions
    events: Feed | None = None  # the process's one poll of the outbox, for subscriptions
    answer_bytes: int = 0  # the large values (contents) this operation's answer holds so far

    def namespace(self, raw: str) -> Namespace:
        """Validate a namespace argument and check this key may use it.

        Every root field's first step (``scope.scoped`` takes it)."""
        return self.principal.authorize(parse_namespace(raw))

    def used(self, ns: Namespace, facts: Iterable[str] = (), episodes: Iterable[str] = ()) -> None:
        """Note what an answer returned (written later, off this request's path)."""
        if self.usage is not None:
            self.usage.note(ns, facts, episodes)

    def charge(self, size: int) -> None:
        """Count a large value into the answer as it is resolved, so an answer that would
        outgrow ``max_response_bytes`` stops while it is built, not once it was (ten aliases
        of a fact's 150 evidence turns of 199 KB each took the service from 708 to 1,215 MB
        before the size cap answered)."""
        self.answer_bytes += size
        limit = self.settings.max_response_bytes
        if self.answer_bytes > limit:
            raise QueryTooCostly(f"the answer would be larger than {limit} bytes; ask for "
                                 "less (fewer aliases, fields or smaller pages)", limit=limit)

    def loader(self, name: str, ns: Namespace,
               load: Callable[[list[str]], Awaitable[list[Any]]]) -> DataLoader[str, Any]:
        """One DataLoader per (name, namespace) per request: nested lists cost one query."""
        key = (name, ns)
        if key not in self.loaders:
            self.loaders[key] = DataLoader(load_fn=load)
        return self.loaders[key]


Info = _Info[Context, None]
