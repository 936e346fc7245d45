"""Relay-style connections shared by every list field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

import strawberry

from graphmem.api.server.fields import resolver
from graphmem.core.pagination import Page

T = TypeVar("T")
U = TypeVar("U")


@strawberry.type(description="Where a page ends and whether another follows.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="True when `after: endCursor` gives more.")
    end_cursor: str | None = strawberry.field(description="Pass as `after` for the next page.")


@strawberry.type(description="One item of a list with its opaque cursor.")
class Edge(Generic[T]):
    cursor: str = strawberry.field(description="Opaque keyset cursor of this item.")
    node: T = strawberry.field(description="The item.")


@strawberry.type(description="A page of a list, ordered, with keyset cursors.")
class Connection(Generic[T]):
    edges: list[Edge[T]] = strawberry.field(description="The items of this page.")
    page_info: PageInfo = strawberry.field(description="Cursor of the last item; more pages?")

    @resolver("The items of this page without cursors.")
    def nodes(self) -> list[T]:
        return [edge.node for edge in self.edges]


def to_connection(page: Page[T], convert: Callable[[T], U]) -> Connection[U]:
    return Connection(
        edges=[Edge(cursor=cursor, node=convert(item)) for cursor, item in page.items],
        page_info=PageInfo(has_next_page=page.has_next, end_cursor=page.end_cursor),
    )
