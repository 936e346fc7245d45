"""Translate errors once, at the API boundary: graphmem errors become typed GraphQL errors with
``extensions.code``; anything unexpected is masked so no internals or memory content leak."""

from __future__ import annotations

import logging
import os
import traceback

from graphql.error import GraphQLError
from strawberry.extensions import MaskErrors

from graphmem.core.errors import GraphmemError
from graphmem.db.database import STATEMENT_NOTE
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
        # The Neo4j code and the line that raised it: enough to find the cause, never content.
        log.error("unexpected %s%s while resolving %s, raised at %s", type(original).__name__,
                  f" ({code})" if (code := getattr(original, "code", None)) else "",
                  error.path, _raised_at(original))
        # DEBUG only: a traceback's last line repeats the message, which may hold content.
        log.debug("traceback", exc_info=(type(original), original, original.__traceback__))
        return _with(error, "internal error", {"code": "INTERNAL"})


def _raised_at(error: BaseException) -> str:
    """The statement that failed, if a Neo4j error names one (``db.database._naming``), and
    ``file:line in function`` of the deepest frame of graphmem's own code (else the deepest)."""
    named = [note.removeprefix(STATEMENT_NOTE) for note in getattr(error, "__notes__", [])
             if note.startswith(STATEMENT_NOTE)]
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if f"{os.sep}graphmem{os.sep}" in f.filename] or frames
    where = f"{os.path.basename(ours[-1].filename)}:{ours[-1].lineno} in {ours[-1].name}" \
        if ours else "?"
    return f"statement {named[-1]}, {where}" if named else where


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
