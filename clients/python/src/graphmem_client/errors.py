"""Every failure the client raises, drawn here at the top; one class per server ``extensions.code``.

GraphmemError                 code, message, field, retryable
├── InvalidInput              INVALID_INPUT: the request is malformed; nothing was written
│   └── QueryTooCostly        QUERY_TOO_COSTLY: the query or its answer is over the limits
├── GraphQLValidation         GRAPHQL_VALIDATION: the document or its variables do not fit
├── PayloadTooLarge           PAYLOAD_TOO_LARGE: the request body is over the server's cap
├── NotFound                  NOT_FOUND: a referenced id does not exist in the namespace
├── DuplicateConflict         DUPLICATE_CONFLICT: an externalId was reused with other content
├── ConcurrentChange          CONCURRENT_CHANGE: another write got in the way (retryable)
├── Unauthenticated           UNAUTHENTICATED: no or unknown API key
├── Forbidden                 FORBIDDEN: the key is not granted the namespace
├── RateLimited               RATE_LIMITED: HTTP 429 (retryable, after Retry-After)
├── DatabaseUnavailable       DATABASE_UNAVAILABLE: Neo4j unreachable (retryable)
├── NotReady                  NOT_READY: the service is starting, or its start was refused
├── QueryTimeout              QUERY_TIMEOUT: a statement ran past its time bound
├── SessionClosed             SESSION_CLOSED: the ephemeral session was closed and erased
├── DecryptionFailed          DECRYPTION_FAILED: encrypted content without its key
├── Internal                  INTERNAL: the server failed; its message is masked
└── Unreachable               UNREACHABLE: no answer from the service (client side)

Codes the client does not know yet arrive as a plain ``GraphmemError`` with that code.
``retryable`` is what the server said (``extensions.retryable``, HTTP 429/503); the client
retries those, with backoff, and nothing else.
"""

from __future__ import annotations

from typing import Any


class GraphmemError(Exception):
    """A failure the service reported (or the client met), with the server's code.

    >>> try:
    ...     memory.why("fact_missing")
    ... except NotFound as error:
    ...     print(error.code, error.field)
    """

    code = "INTERNAL"

    def __init__(self, code: str, message: str, field: str | None = None,
                 retryable: bool = False, extensions: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field
        self.retryable = retryable
        self.extensions = extensions or {}


class InvalidInput(GraphmemError):
    code = "INVALID_INPUT"


class QueryTooCostly(InvalidInput):
    code = "QUERY_TOO_COSTLY"


class GraphQLValidation(GraphmemError):
    code = "GRAPHQL_VALIDATION"


class PayloadTooLarge(GraphmemError):
    code = "PAYLOAD_TOO_LARGE"


class NotFound(GraphmemError):
    code = "NOT_FOUND"


class DuplicateConflict(GraphmemError):
    code = "DUPLICATE_CONFLICT"


class ConcurrentChange(GraphmemError):
    code = "CONCURRENT_CHANGE"


class Unauthenticated(GraphmemError):
    code = "UNAUTHENTICATED"


class Forbidden(GraphmemError):
    code = "FORBIDDEN"


class RateLimited(GraphmemError):
    code = "RATE_LIMITED"


class DatabaseUnavailable(GraphmemError):
    code = "DATABASE_UNAVAILABLE"


class NotReady(GraphmemError):
    code = "NOT_READY"


class QueryTimeout(GraphmemError):
    code = "QUERY_TIMEOUT"


class SessionClosed(InvalidInput):
    code = "SESSION_CLOSED"


class DecryptionFailed(GraphmemError):
    code = "DECRYPTION_FAILED"


class Internal(GraphmemError):
    code = "INTERNAL"


class Unreachable(GraphmemError):
    code = "UNREACHABLE"


_BY_CODE: dict[str, type[GraphmemError]] = {
    cls.code: cls for cls in (
        InvalidInput, QueryTooCostly, GraphQLValidation, PayloadTooLarge, NotFound,
        DuplicateConflict, ConcurrentChange, Unauthenticated, Forbidden, RateLimited,
        DatabaseUnavailable, NotReady, QueryTimeout, SessionClosed, DecryptionFailed, Internal,
        Unreachable)
}


def error_for(code: str, message: str, field: str | None = None, retryable: bool = False,
              extensions: dict[str, Any] | None = None) -> GraphmemError:
    """The typed error for a server code (a plain ``GraphmemError`` for an unknown one)."""
    return _BY_CODE.get(code, GraphmemError)(code, message, field, retryable, extensions)


class NotResumable(UserWarning):
    """A ``record`` call sent turns that carry neither ``occurred_at`` nor ``external_id``:
    their ids are derived from the moment the call read them, so the client's own retries are
    safe, but calling ``record`` again with the same turns (after a crash, in another process)
    writes them again."""
