"""Translate errors once, at the API boundary: graphmem errors become typed GraphQL errors with
``extensions.code``; anything unexpected is masked so no internals or memory content leak."""

from __future__ import annotations

import logging

from graphql.error import GraphQLError
from strawberry.extensions import MaskErrors

from graphmem.core.errors import GraphmemError
from graphmem.observability import metrics

log = logging.getLogger(__name__)


class TypedErrors(MaskErrors):
    def anonymise_error(self, error: GraphQLError) -> GraphQLError:
        original = error.original_error
        # Parse, validation and variable-coercion errors: the message is about the request.
        if original is None or isinstance(original, GraphQLError):
            return _with(error, error.message, {"code": "GRAPHQL_VALIDATION"})
        if isinstance(original, GraphmemError):
            extensions: dict[str, object] = {"code": original.code, **original.details}
            if original.retryable:
                extensions["retryable"] = True
            return _with(error, original.message, extensions)
        log.error("unexpected %s while resolving %s", type(original).__name__, error.path)
        # DEBUG only: a traceback's last line repeats the message, which may hold content.
        log.debug("traceback", exc_info=(type(original), original, original.__traceback__))
        return _with(error, "internal error", {"code": "INTERNAL"})


def _with(error: GraphQLError, message: str, extensions: dict[str, object]) -> GraphQLError:
    metrics.REQUEST_ERRORS.labels(str(extensions["code"])).inc()
    return GraphQLError(message, nodes=error.nodes, source=error.source,
                        positions=error.positions, path=error.path, extensions=extensions)


def code_of(error: GraphQLError) -> str:
    """The code a raw execution error will carry once typed (for the audit trail, which runs
    before the errors are rewritten)."""
    original = error.original_error
    if isinstance(original, GraphmemError):
        return original.code
    if original is None or isinstance(original, GraphQLError):
        return "GRAPHQL_VALIDATION"
    return "INTERNAL"
