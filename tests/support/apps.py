"""An app of a test's own, with settings of its own (encryption keys, an archive store), in the
suite's process beside the session's app: each holds its own keys and store on its own
database, so neither sees the other's."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
from pydantic import SecretStr
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.runtime import embedding_paused


def new_key(key_id: str = "k1") -> str:
    """An entry of GRAPHMEM_ENCRYPTION_KEYS: a fresh random key."""
    return f"{key_id}:{base64.b64encode(os.urandom(32)).decode()}"


@dataclass
class OwnApp:
    gql: GraphQLClient
    db: Database  # the app's own: its keyring, its archive store
    app: Starlette


def keyed(keys: str, per_namespace: bool = False) -> dict[str, Any]:
    """Settings that encrypt content with ``keys`` (GRAPHMEM_ENCRYPTION_KEYS' form)."""
    return {"encryption_keys": SecretStr(keys), "encryption_per_namespace": per_namespace}


@contextlib.asynccontextmanager
async def own_app(settings: Settings, admin_token: str, session_app: Starlette,
                  **update: Any) -> AsyncIterator[OwnApp]:
    """A started app whose settings are ``settings`` with ``update``. The session app's
    embedding worker waits meanwhile: it holds no key of this app's, and would set aside
    what this app seals as unreadable."""
    app = create(settings.model_copy(update=update))
    async with embedding_paused(session_app), app.router.lifespan_context(app):
        while not app.state.runtime.ready:
            await asyncio.sleep(0.05)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://graphmem.test") as c:
            yield OwnApp(GraphQLClient(c, admin_token), app.state.runtime.db, app)


def create(settings: Settings) -> Starlette:
    from graphmem.app import create_app  # here: a unit test needs neither the app nor its imports

    return create_app(settings)
