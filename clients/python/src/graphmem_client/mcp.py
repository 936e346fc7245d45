"""graphmem as an MCP server: the memory tools of `graphmem_client.tools`, an entity's facts
and a session's summary as resources, and a `use-memory` prompt telling a model how to use them.

One server serves one end user: the namespace and API key come from `GRAPHMEM_URL`,
`GRAPHMEM_KEY` and `GRAPHMEM_NAMESPACE` (as for `Memory`), never from a tool's arguments.
Over stdio that is one user per connection (the MCP client starts one process each); over
streamable HTTP, one user per server process, and an MCP client must present that user's key
(`Authorization: Bearer <GRAPHMEM_KEY>`): anyone who can reach the port could otherwise read
and erase the user's memory.

Run it::

    pip install 'graphmem-client[mcp]'
    GRAPHMEM_KEY=gm_... GRAPHMEM_NAMESPACE=acme/user-42 graphmem-mcp            # stdio
    GRAPHMEM_KEY=gm_... GRAPHMEM_NAMESPACE=acme/user-42 graphmem-mcp --transport http --port 8765
"""

from __future__ import annotations

import argparse
import hmac
import os
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import unquote

try:
    import anyio
    import mcp_types as types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS
except ModuleNotFoundError as missing:  # the SDK is an extra: say which
    raise ModuleNotFoundError(
        f"{missing.name} is missing: graphmem-mcp needs pip install 'graphmem-client[mcp]'",
        name=missing.name) from missing

from graphmem_client.memory import AsyncMemory
from graphmem_client.tools import TOOLS, dispatch_async

__all__ = ["create_server", "main"]

_ENTITY = "graphmem://entity/{name}"
_SUMMARY = "graphmem://session/{session_id}/summary"
_ENTITY_URI = re.compile(r"graphmem://entity/(?P<name>.+)")
_SUMMARY_URI = re.compile(r"graphmem://session/(?P<session_id>[^/]+)/summary")

_Context = ServerRequestContext[AsyncMemory, Any]


def create_server(memory: Callable[[], AsyncMemory] = AsyncMemory) -> Server[AsyncMemory]:
    """The MCP server; `memory` makes the connection's `AsyncMemory` (by default from the
    environment), opened when the server starts and closed when it stops."""

    @asynccontextmanager
    async def lifespan(_: Server[AsyncMemory]) -> AsyncIterator[AsyncMemory]:
        async with memory() as opened:
            yield opened

    return Server(
        "graphmem",
        instructions="Long-term memory about the user: call recall before answering anything "
                     "personal, remember durable facts the user tells you, correct or retract "
                     "facts that turn out wrong.",
        lifespan=lifespan,
        on_list_tools=_list_tools,
        on_call_tool=_call_tool,
        on_list_resources=_list_resources,
        on_list_resource_templates=_list_resource_templates,
        on_read_resource=_read_resource,
        on_list_prompts=_list_prompts,
        on_get_prompt=_get_prompt,
    )


async def _list_tools(ctx: _Context, params: types.PaginatedRequestParams | None,
                      ) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[
        types.Tool(name=t.name, description=t.description, input_schema=t.parameters)
        for t in TOOLS])


async def _call_tool(ctx: _Context, params: types.CallToolRequestParams) -> types.CallToolResult:
    result = await dispatch_async(ctx.lifespan_context, params.name, params.arguments)
    return types.CallToolResult(content=[types.TextContent(type="text", text=result.text)],
                                is_error=result.is_error)


async def _list_resources(ctx: _Context, params: types.PaginatedRequestParams | None,
                          ) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=[])


async def _list_resource_templates(ctx: _Context, params: types.PaginatedRequestParams | None,
                                   ) -> types.ListResourceTemplatesResult:
    return types.ListResourceTemplatesResult(resource_templates=[
        types.ResourceTemplate(
            name="entity", uri_template=_ENTITY, mime_type="text/plain",
            description="What memory currently believes about a person or thing (by name or "
                        "alias), with fact ids."),
        types.ResourceTemplate(
            name="session-summary", uri_template=_SUMMARY,
            mime_type="text/plain", description="The summary of one conversation."),
    ])


async def _read_resource(ctx: _Context, params: types.ReadResourceRequestParams,
                         ) -> types.ReadResourceResult:
    uri = str(params.uri)
    if entity := _ENTITY_URI.fullmatch(uri):
        tool, arguments = "about", {"entity": unquote(entity["name"])}
    elif session := _SUMMARY_URI.fullmatch(uri):
        tool, arguments = "summary", {"session_id": unquote(session["session_id"])}
    else:
        raise MCPError(code=INVALID_PARAMS, message=f"unknown resource {uri}")
    result = await dispatch_async(ctx.lifespan_context, tool, arguments)
    if result.is_error:
        raise MCPError(code=INVALID_PARAMS, message=result.text)
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, text=result.text, mime_type="text/plain")])


_USE_MEMORY = types.Prompt(
    name="use-memory", title="Use long-term memory",
    description="Instructions for using graphmem's memory tools in this conversation.",
    arguments=[types.PromptArgument(
        name="user_name", required=False,
        description="The user's name, if the application knows it.")])


async def _list_prompts(ctx: _Context, params: types.PaginatedRequestParams | None,
                        ) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[_USE_MEMORY])


async def _get_prompt(ctx: _Context, params: types.GetPromptRequestParams,
                      ) -> types.GetPromptResult:
    if params.name != _USE_MEMORY.name:
        raise MCPError(code=INVALID_PARAMS, message=f"unknown prompt {params.name!r}: "
                       f"graphmem serves {_USE_MEMORY.name!r}")
    name = (params.arguments or {}).get("user_name", "").strip()
    return types.GetPromptResult(description=_USE_MEMORY.description, messages=[
        types.PromptMessage(role="user", content=types.TextContent(
            type="text", text=use_memory_instructions(name or None)))])


def use_memory_instructions(user_name: str | None = None) -> str:
    """What the `use-memory` prompt tells a model: when to call which memory tool."""
    who = (f'The user is {user_name}: store facts about them under "{user_name}" (alias links '
           f'"user" to it).' if user_name else
           'Store facts about the user under their name once you know it, else under "user"; '
           'when they tell you their name, call alias(entity="user", alias=<name>).')
    return "\n".join([
        "You have long-term memory about the user through the graphmem tools.",
        "- Before answering anything personal, call recall with the user's message.",
        "- When the user tells you something durable (where they live or work, what they "
        "like, people in their life), call remember; give the ids record answered as evidence.",
        f"- {who}",
        "- When the user corrects you, call about to find the fact, then correct it with the "
        "user's turn as evidence; retract what was never true.",
        "- history shows what changed; why shows how memory knows something; conflicts lists "
        "disputes to ask the user about, resolve_conflict settles one.",
        "- forget erases only when the user asks you to delete something.",
    ])


def main(argv: Sequence[str] | None = None) -> None:
    """`graphmem-mcp`: serve over stdio (default) or streamable HTTP."""
    parser = argparse.ArgumentParser(
        prog="graphmem-mcp", description="graphmem memory as an MCP server, for the end user "
        "(namespace) and key in GRAPHMEM_NAMESPACE and GRAPHMEM_KEY, at GRAPHMEM_URL.")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP: where to listen")
    parser.add_argument("--port", type=int, default=8765, help="HTTP: port")
    parser.add_argument("--path", default="/mcp", help="HTTP: the endpoint's path")
    args = parser.parse_args(argv)
    if not os.environ.get("GRAPHMEM_NAMESPACE"):  # checked here: a server that fails to
        # start reaches the MCP client only as "Connection closed"
        parser.exit(2, "graphmem-mcp: GRAPHMEM_NAMESPACE is not set: set it to the end user's "
                       "namespace, e.g. GRAPHMEM_NAMESPACE=acme/user-42\n")
    server = create_server()
    if args.transport == "stdio":
        anyio.run(_serve_stdio, server)
    else:
        import uvicorn

        key = os.environ.get("GRAPHMEM_KEY")
        if not key:
            parser.error("the HTTP transport needs GRAPHMEM_KEY: MCP clients must present it")
        app = server.streamable_http_app(streamable_http_path=args.path, host=args.host)
        uvicorn.run(requiring_key(app, key), host=args.host, port=args.port,
                    log_level="warning")


def requiring_key(app: Any, key: str) -> Any:
    """The ASGI app, answering 401 to any HTTP request without ``Authorization: Bearer key``."""
    expected = f"Bearer {key}".encode()

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            sent = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(sent, expected):
                await send({"type": "http.response.start", "status": 401, "headers": [
                    (b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": b"send the user's graphmem "
                            b"key as 'Authorization: Bearer gm_...'"})
                return
        await app(scope, receive, send)

    return guarded


async def _serve_stdio(server: Server[AsyncMemory]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    main()
