"""`graphmem-mcp` spoken to by the MCP SDK's own clients: over stdio (tools listed, each one
called, both resources read) and over streamable HTTP, against a real `graphmem serve` (the
`server_url` fixture of this folder's conftest)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import mcp_types as types
import pytest
from graphmem_client.tools import TOOLS
from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.support.http import HTTP
from tests.support.server import free_port

# The entry point `pip install 'graphmem-client[mcp]'` installs beside this Python, and the
# service's CLI.
GRAPHMEM_MCP = str(Path(sys.executable).with_name("graphmem-mcp"))
GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))


def _environment(server_url: str, key: str, namespace: str | None) -> dict[str, str]:
    """The server's environment: the user's settings, and this run's PYTHONPATH (the MCP SDK
    passes a child only PATH, HOME and the like; the package under test may be on it)."""
    env = {"GRAPHMEM_URL": server_url, "GRAPHMEM_KEY": key}
    if namespace is not None:
        env["GRAPHMEM_NAMESPACE"] = namespace
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


@asynccontextmanager
async def _stdio(server_url: str, key: str, namespace: str,
                 command: tuple[str, ...] = (GRAPHMEM_MCP,)) -> AsyncIterator[ClientSession]:
    parameters = StdioServerParameters(
        command=command[0], args=list(command[1:]),
        env=_environment(server_url, key, namespace))
    with open(os.devnull, "w") as quiet:
        async with stdio_client(parameters, errlog=quiet) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            yield session


def _text(result: types.CallToolResult | types.ReadResourceResult) -> str:
    items = result.content if isinstance(result, types.CallToolResult) else result.contents
    (item,) = items
    assert isinstance(item, types.TextContent | types.TextResourceContents)
    return item.text


async def test_tools_over_stdio(server_url: str, admin_token: str, ns: str) -> None:
    async with _stdio(server_url, admin_token, ns) as session:
        listed = (await session.list_tools()).tools
        assert [(t.name, t.description, t.input_schema) for t in listed] == [
            (t.name, t.description, t.parameters) for t in TOOLS]

        async def call(name: str, arguments: dict[str, Any]) -> str:
            result = await session.call_tool(name, arguments)
            assert not result.is_error, _text(result)
            return _text(result)

        recorded = await call("record", {"turns": [
            {"role": "user", "content": "I moved to Porto last month.", "actor": "Dana"}],
            "session_id": "chat-1"})
        turn = recorded.rsplit(": ", 1)[1].rstrip(".")
        remembered = await call("remember", {"subject": "Dana", "predicate": "lives_in",
                                             "object": "Porto", "evidence": [turn]})
        fact = remembered.split(": ")[1]
        assert "Dana lives in Porto" in await call("recall", {"query": "Where does Dana live?"})
        assert fact in await call("search", {"query": "Porto", "kinds": ["fact"]})
        assert fact in await call("about", {"entity": "Dana"})
        assert "I moved to Porto last month." in await call("why", {"fact_id": fact})

        fixed = await call("record", {"turns": [
            {"role": "user", "content": "Sorry, I meant Lisbon.", "actor": "Dana"}]})
        correction = fixed.rsplit(": ", 1)[1].rstrip(".")
        assert (await call("correct", {"fact_id": fact, "object": "Lisbon", "reason": "typo",
                                       "evidence": [correction]})).startswith("Corrected")
        lisbon = (await call("about", {"entity": "Dana"})).split(": ")[0]
        assert "Sorry, I meant Lisbon." in await call("why", {"fact_id": lisbon})
        history = await call("history", {"subject": "Dana", "predicate": "lives_in"})
        assert f"{fact}: Dana lives in Porto (superseded; believed from " in history
        assert f"{lisbon}: Dana lives in Lisbon (active" in history
        assert "Dana is also called: D." in await call("alias", {"entity": "Dana",
                                                                 "alias": "D."})
        assert await call("conflicts", {}) == "No open conflicts."
        assert (await call("retract", {"fact_id": lisbon, "reason": "wrong"})
                ).startswith("Retracted")

        conflict = await _conflict(session, server_url, admin_token, ns)
        assert f"Conflict {conflict.id}: Dana favorite_color, candidates:" in await call(
            "conflicts", {})
        keep = conflict.candidates[0].id
        resolved = await call("resolve_conflict", {"conflict_id": conflict.id, "keep": keep,
                                                   "reason": "the user said so"})
        assert resolved.startswith(f"Conflict {conflict.id} resolved; kept: {keep}")
        known = await call("about", {"entity": "Dana"})
        planned = await call("forget", {"entity": "Dana", "mentions": "redact",
                                        "dry_run": True})
        assert planned.startswith("Dry run, nothing erased yet. Forgetting Dana")
        assert "I moved to Porto last month." not in planned  # "Dana" is its actor, not said
        assert await call("about", {"entity": "Dana"}) == known  # nothing written
        assert "verified" in await call("forget", {"entity": "Dana"})

        refused = await session.call_tool("about", {"entity": "Dana", "namespace": "other/x"})
        assert refused.is_error and "namespace: Extra inputs" in _text(refused)
        missing = await session.call_tool("why", {"fact_id": "fact_none"})
        assert missing.is_error and _text(missing).startswith("Error from why: NOT_FOUND")


async def _conflict(session: ClientSession, server_url: str, key: str, ns: str) -> Any:
    from graphmem_client import AsyncMemory

    _graphql(server_url, key, """mutation($ns: String!) { setPredicatePolicy(namespace: $ns,
        predicate: "favorite_color", cardinality: ONE, strategy: MANUAL) { predicate } }""",
             ns=ns)
    for color in ("blue", "green"):
        await session.call_tool("remember", {"subject": "Dana", "predicate": "favorite_color",
                                             "object": color})
    async with AsyncMemory(server_url, key, ns) as memory:
        (conflict,) = await memory.conflicts()
    return conflict


async def test_the_use_memory_prompt(server_url: str, admin_token: str, ns: str) -> None:
    async with _stdio(server_url, admin_token, ns) as session:
        (prompt,) = (await session.list_prompts()).prompts
        assert prompt.name == "use-memory" and prompt.description
        assert [(a.name, a.required) for a in prompt.arguments or []] == [("user_name", False)]
        named = await session.get_prompt("use-memory", {"user_name": "Dana"})
        (message,) = named.messages
        assert message.role == "user" and isinstance(message.content, types.TextContent)
        text = message.content.text
        assert 'The user is Dana: store facts about them under "Dana"' in text
        assert "call recall" in text and "correct" in text
        (anonymous,) = (await session.get_prompt("use-memory")).messages
        assert isinstance(anonymous.content, types.TextContent)
        assert 'else under "user"' in anonymous.content.text
        assert "The user is" not in anonymous.content.text
        with pytest.raises(MCPError, match="unknown prompt 'remember-all'"):
            await session.get_prompt("remember-all")


@pytest.mark.parametrize("command", [(GRAPHMEM_MCP,), (GRAPHMEM, "mcp")],
                         ids=["graphmem-mcp", "graphmem mcp"])
def test_without_a_namespace_it_says_so_in_one_line(command: tuple[str, ...],
                                                     server_url: str, admin_token: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEM_NAMESPACE"}
    done = subprocess.run(command, env={**env, **_environment(server_url, admin_token, None)},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("graphmem-mcp: GRAPHMEM_NAMESPACE is not set: set it to the end "
                           "user's namespace, e.g. GRAPHMEM_NAMESPACE=acme/user-42\n")


async def test_resources_over_stdio(server_url: str, admin_token: str, ns: str) -> None:
    async with _stdio(server_url, admin_token, ns) as session:
        templates = (await session.list_resource_templates()).resource_templates
        assert {t.uri_template for t in templates} == {
            "graphmem://entity/{name}", "graphmem://session/{session_id}/summary"}

        await session.call_tool("remember", {"subject": "Dana", "predicate": "works_at",
                                             "object": "Acme Robotics"})
        entity = _text(await session.read_resource("graphmem://entity/Dana"))
        assert "Dana works at Acme Robotics (active" in entity
        nobody = _text(await session.read_resource("graphmem://entity/Nobody%20Else"))
        assert nobody == "Memory holds no current facts about Nobody Else."

        missing = "graphmem://session/no%20such/summary"
        assert _text(await session.read_resource(missing)) == "No summary of session no such yet."
        summary = "graphmem://session/chat-1/summary"
        assert _text(await session.read_resource(summary)) == "No summary of session chat-1 yet."
        recorded = await session.call_tool("record", {"turns": [
            {"role": "user", "content": "Let's plan the Porto move."}], "session_id": "chat-1"})
        turn = _text(recorded).rsplit(": ", 1)[1].rstrip(".")
        _graphql(server_url, admin_token, """mutation($ns: String!, $s: SummaryInput!) {
            writeSummary(namespace: $ns, summary: $s) { id } }""", ns=ns, s={
            "text": "Dana is planning a move to Porto.", "covers": [turn], "sessionId": "chat-1"})
        assert "Dana is planning a move to Porto." in _text(await session.read_resource(summary))


@pytest.mark.hostile("mcp")
async def test_tools_over_streamable_http(server_url: str, admin_token: str, ns: str) -> None:
    port = free_port()
    server = subprocess.Popen(
        [GRAPHMEM_MCP, "--transport", "http", "--port", str(port)],
        env={**os.environ, **_environment(server_url, admin_token, ns)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(port)
        url = f"http://127.0.0.1:{port}/mcp"
        for key in (None, "gm_wrong", admin_token[:-1]):  # the user's key, or nothing
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            refused = HTTP.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                            "params": {"name": "forget",
                                                       "arguments": {"entity": "user"}}},
                                 headers={**headers, "Accept": "application/json, "
                                          "text/event-stream"}, timeout=10)
            assert refused.status_code == 401
        keyed = httpx2.AsyncClient(headers={"Authorization": f"Bearer {admin_token}"})
        async with keyed, streamable_http_client(url, http_client=keyed) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            assert {t.name for t in (await session.list_tools()).tools} == {
                t.name for t in TOOLS}
            remembered = await session.call_tool("remember", {
                "subject": "user", "predicate": "lives_in", "object": "Porto"})
            assert _text(remembered).startswith("Remembered: ")
            about = _text(await session.read_resource("graphmem://entity/user"))
            assert "user lives in Porto" in about
    finally:
        server.terminate()
        server.wait(timeout=10)


def _wait_for(port: int) -> None:
    for _ in range(200):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"graphmem-mcp did not listen on {port}")


def _graphql(url: str, key: str, query: str, **variables: Any) -> dict[str, Any]:
    body = HTTP.post(url, json={"query": query, "variables": variables}, timeout=30,
                      headers={"Authorization": f"Bearer {key}"}).json()
    assert not body.get("errors"), body
    return dict(body["data"])


async def test_graphmem_mcp_is_the_same_server(server_url: str, admin_token: str,
                                               ns: str) -> None:
    """`graphmem mcp`, the service's CLI, runs the client package's server."""
    async with _stdio(server_url, admin_token, ns, (GRAPHMEM, "mcp")) as session:
        listed = (await session.list_tools()).tools
        assert [t.name for t in listed] == [t.name for t in TOOLS]
