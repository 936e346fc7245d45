"""``viewer``: who the request's API key is and which namespaces it may read, so a client
(the console) offers only those."""

from __future__ import annotations

from typing import Annotated

import strawberry

from graphmem.api.server.context import Info
from graphmem.core.pagination import page_size
from graphmem.governance import namespaces


@strawberry.type(description="The API key a request is made with: its name, grants and the "
                             "namespaces it may read.")
class Viewer:
    name: str = strawberry.field(description="The key's name (as `graphmem keys list` shows).")
    key_id: str = strawberry.field(description="The key's id (never its secret).")
    admin: bool = strawberry.field(description="Admin keys may use every namespace and read "
                                               "the audit log.")
    grants: list[str] = strawberry.field(description="Namespaces granted: exact names or "
                                                     "prefixes such as `acme/*`.")
    namespaces: list[str] = strawberry.field(
        description="Namespaces the key may read: its exact grants, and those holding memory "
                    "under its prefixes (every one for an admin key), in name order.")


async def viewer(
    info: Info,
    first: Annotated[int, strawberry.argument(
        description="How many namespaces to list (1..server cap).")] = 100,
) -> Viewer:
    ctx = info.context
    who = ctx.principal
    listed = await namespaces.readable(ctx.db, who.grants, who.admin,
                                       page_size(first, ctx.settings.max_page))
    return Viewer(name=who.name, key_id=who.key_id, admin=who.admin, grants=list(who.grants),
                  namespaces=list(listed))


@strawberry.type
class Query:
    viewer: Viewer = strawberry.field(
        resolver=viewer,
        description="The API key in use: its name, grants and the namespaces it may read.")
