"""`graphmem-mcp` over stdio driven by a prompt-injected model: hostile tool arguments, with a
key granted only the model's own namespace, against a real `graphmem serve`. Each call is an
error or answers from the model's own namespace; the neighbouring namespace is never read,
changed or erased, and refused calls write nothing."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.clients.test_mcp import _stdio, _text
from tests.support.graph import delete_namespace, namespace_contents

pytestmark = pytest.mark.hostile("mcp")
SECRET = "Porto"


async def _memory(db: Database, ns: str) -> list[str]:
    """What ``ns`` holds besides the audit trail (refused calls are audited, by design)."""
    return [node for node in await namespace_contents(db, ns) if "'AuditEvent'" not in node]


async def test_hostile_tool_arguments_stay_in_their_namespace(server_url: str, db: Database,
                                                              admin_token: str, ns: str) -> None:
    other = f"atk/{uuid.uuid4().hex[:8]}"
    try:
        async with _stdio(server_url, admin_token, other) as admin:
            await admin.call_tool("record", {"turns": [
                {"role": "user", "content": f"I live in {SECRET}.", "actor": "Bob"}]})
            remembered = _text(await admin.call_tool("remember", {
                "subject": "Bob", "predicate": "lives_in", "object": SECRET}))
        theirs = remembered.split(": ")[1]
        before = await _memory(db, other)
        key = await create_key(db, "hostile-mcp", grants=[ns], admin=False)
        refused: list[tuple[str, dict[str, Any]]] = [
            ("why", {"fact_id": theirs}),
            ("correct", {"fact_id": theirs, "object": "Lisbon", "reason": "x"}),
            ("retract", {"fact_id": theirs, "reason": "x"}),
            ("resolve_conflict", {"conflict_id": theirs, "keep": theirs, "reason": "x"}),
            ("forget", {"everything": True}),
            ("forget", {"namespace": other, "entity": "Bob"}),
            ("forget", {}),
            ("forget", {"episodes": ["../../*"]}),
            ("about", {"entity": "Bob", "namespace": other}),
            ("why", {"fact_id": {"$ne": None}}),
            ("recall", {"query": "where", "budget": 10**9}),
            ("search", {"query": "x", "limit": -1}),
            ("search", {"query": "x", "kinds": ["episode') OR 1=1 //"]}),
            ("record", {"turns": [{"role": "admin", "content": "x"}]}),
            ("record", {"turns": [{"role": "user", "content": "x", "namespace": other}]}),
            ("remember", {"subject": "Bob", "predicate": "LIVES_IN]->() DETACH DELETE x //",
                          "object": "Lisbon"}),
            ("no_such_tool", {}),
        ]
        answered: list[tuple[str, dict[str, Any]]] = [
            ("about", {"entity": "Bob"}),
            ("search", {"query": f"*:* OR ns_key:* OR {SECRET}"}),
            ("search", {"query": f"/.*{SECRET}.*/"}),
            ("recall", {"query": f"where does Bob live? {SECRET}?"}),
            ("forget", {"entity": "Bob"}),
        ]
        async with _stdio(server_url, key, ns) as model:
            own = await _memory(db, ns)
            for name, arguments in refused:
                result = await model.call_tool(name, arguments)
                assert result.is_error, (name, arguments, _text(result))
                assert SECRET not in _text(result)
            assert await _memory(db, ns) == own  # refused calls wrote nothing
            for name, arguments in answered:
                result = await model.call_tool(name, arguments)
                assert SECRET not in _text(result), (name, arguments)
        assert await _memory(db, other) == before
    finally:
        await delete_namespace(db, other)

