"""An unexpected error is INTERNAL to the client and, in the log, the error's type, its
Neo4j code and the line that raised it: enough to find the cause (an INTERNAL under load
left only "unexpected ClientError"), never the message, which may quote stored values."""

from __future__ import annotations

import logging

import pytest
from graphql.error import GraphQLError
from neo4j.exceptions import ClientError

from graphmem.api.server.extensions.errors import TypedErrors
from graphmem.db.database import Database


async def test_an_unexpected_neo4j_error_is_logged_by_code_and_place_not_message(
        db: Database, ns: str, caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(ClientError) as raised:  # a real one, from Neo4j, through a statement
        # keys that are no list: the statement fails on them, as a bug in the caller would
        await db.read("retrieval/search/actors", ns=ns, keys="secret-value")
    wrapped = GraphQLError("boom", path=["search"], original_error=raised.value)
    with caplog.at_level(logging.ERROR, logger="graphmem.api.server.extensions.errors"):
        typed = TypedErrors().anonymise_error(wrapped)
    assert typed.extensions == {"code": "INTERNAL"} and typed.message == "internal error"
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"unexpected {type(raised.value).__name__} ({raised.value.code})" in logged
    assert ("while resolving ['search'], raised at statement retrieval/search/actors, "
            "database.py:") in logged
    assert "secret" not in logged and raised.value.message not in logged
