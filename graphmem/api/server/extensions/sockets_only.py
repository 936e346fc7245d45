"""Subscriptions run on a WebSocket only."""

from __future__ import annotations

from collections.abc import Iterator

from graphql import ExecutionResult, GraphQLError
from strawberry.extensions import SchemaExtension
from strawberry.types.graphql import OperationType

from graphmem.core.errors import InvalidInput


class SubscriptionsOnSockets(SchemaExtension):
    """A subscription runs on a WebSocket; sent as an HTTP request (strawberry would execute it
    as a query, and fail inside) it is refused as the client's error."""

    def on_execute(self) -> Iterator[None]:
        run = self.execution_context
        on_socket = getattr(run.context, "connection_params", None) is not None
        if run.operation_type is OperationType.SUBSCRIPTION and not on_socket:
            refusal = InvalidInput("subscriptions run over a WebSocket on /graphql "
                                   "(graphql-transport-ws), not over HTTP")
            run.result = ExecutionResult(None, [GraphQLError(refusal.message,
                                                             original_error=refusal)])
        yield
