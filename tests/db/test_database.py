"""The narrow way graphmem talks to Neo4j: reads run in auto-commit transactions, so they
are retried here rather than by the driver."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from graphmem.core.config import Settings
from graphmem.core.errors import DatabaseUnavailable
from graphmem.db.database import open_database
from tests.support.server import free_port


async def test_a_read_is_retried_while_neo4j_is_away_then_fails_retryable(
        settings: Settings) -> None:
    away = open_database(settings.model_copy(update={
        "neo4j_uri": f"bolt://127.0.0.1:{free_port()}", "neo4j_password": SecretStr("unused"),
        "neo4j_max_retry_s": 0.5}))
    try:
        with pytest.raises(DatabaseUnavailable) as raised:
            await away.read("search/actors", ns="anything", limit=1)
        assert raised.value.retryable
        assert away.round_trips > 1  # tried again before giving up
    finally:
        await away.close()
