"""strawberry's parser cache, reporting a syntax error as the request's error."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from graphql.error import GraphQLError
from strawberry.extensions import ParserCache


class TypedParserCache(ParserCache):
    """strawberry's parser cache parses as its hook begins, outside the handling that makes a
    syntax error the request's error: a subscribe message with a syntax error (or over the
    token limit) ended in a bare `complete` on a WebSocket. A document that does not parse is
    left to strawberry's own parse, which reports it."""

    def on_parse(self) -> Iterator[None]:
        with contextlib.suppress(GraphQLError):
            self.execution_context.graphql_document = self.cached_parse_document(
                self.execution_context.query, **self.execution_context.parse_options)
        yield
