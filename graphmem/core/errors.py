"""The whole error tree, drawn here at the top so a reader sees every failure graphmem reports.

GraphmemError
├── ConfigError            bad or missing setting
├── LocalNeo4jError        the local server cannot be installed, started or stopped
├── MigrationError         a migration failed or an applied one was edited
├── DatabaseUnavailable    Neo4j unreachable (retryable)
├── NotReady               the service is not ready to serve: starting, or refused (retryable)
├── QueryTimeout           a statement ran past its time bound and was ended
├── InvalidInput           the request is malformed; nothing was written
│   ├── QueryTooCostly     the query or its answer is over the cost or size limit
│   ├── PayloadTooLarge    the request (HTTP body, WebSocket message) is over the size cap
│   └── SessionClosed      a turn for an ephemeral session that was closed and erased
├── NotFound               a referenced id does not exist in the namespace
├── DuplicateConflict      an idempotency key was reused with different content
├── ConcurrentChange       another write changed what this one read, or another sync of
│   │                      the namespace is running (retryable)
│   └── LeaseLost          a pipeline job was taken over; its result is discarded
├── Unauthenticated        no or unknown API key
├── Forbidden              the key is not granted the namespace
├── RateLimited            the key sent more than its rate (retryable, after `retry_after`)
├── DecryptionFailed       encrypted content without the key that sealed it
└── LLMError               the LLM endpoint failed or answered unusably (retryable)
    └── LLMRefused         the model refused (the same input would be refused again)

Each carries a stable ``code`` that the GraphQL layer puts in ``extensions.code``.
"""

from __future__ import annotations

from typing import Any


class GraphmemError(Exception):
    code = "INTERNAL"
    retryable = False

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class ConfigError(GraphmemError):
    code = "CONFIG"


class LocalNeo4jError(GraphmemError):
    code = "LOCAL_NEO4J"


class MigrationError(GraphmemError):
    code = "MIGRATION"


class DatabaseUnavailable(GraphmemError):
    code = "DATABASE_UNAVAILABLE"
    retryable = True


class QueryTimeout(GraphmemError):
    """Neo4j ended a transaction that ran past its bound (``neo4j_timeout_s``). The same
    request would run as long again, so it is not retryable as it is."""

    code = "QUERY_TIMEOUT"


class NotReady(GraphmemError):
    """The service has not become ready (still starting, or its start was refused: the
    message names the fix); nothing was read or written."""

    code = "NOT_READY"
    retryable = True


class InvalidInput(GraphmemError):
    code = "INVALID_INPUT"


class QueryTooCostly(InvalidInput):
    code = "QUERY_TOO_COSTLY"


class PayloadTooLarge(InvalidInput):
    code = "PAYLOAD_TOO_LARGE"


class SessionClosed(InvalidInput):
    """The session was ephemeral and is closed (erased on request or idle): its id takes no
    more turns, so nothing of the conversation comes back under it, ephemeral or not."""

    code = "SESSION_CLOSED"

    @classmethod
    def of(cls, session_id: str) -> SessionClosed:
        return cls(f"session {session_id!r} was ephemeral and is closed (erased): record into "
                   "a new session", field="sessionId", session_id=session_id)


class NotFound(GraphmemError):
    code = "NOT_FOUND"


class DuplicateConflict(GraphmemError):
    code = "DUPLICATE_CONFLICT"


class ConcurrentChange(GraphmemError):
    code = "CONCURRENT_CHANGE"
    retryable = True


class Unauthenticated(GraphmemError):
    code = "UNAUTHENTICATED"


class Forbidden(GraphmemError):
    code = "FORBIDDEN"


class RateLimited(GraphmemError):
    """``retry_after``: whole seconds to wait (at least 1), also in ``extensions``."""

    code = "RATE_LIMITED"
    retryable = True

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, retryAfter=retry_after)
        self.retry_after = retry_after


class LeaseLost(ConcurrentChange):
    """Another worker took the job over (this one was too slow): its results are discarded."""

    code = "LEASE_LOST"


class DecryptionFailed(GraphmemError):
    code = "DECRYPTION_FAILED"


class KeyDestroyed(DecryptionFailed):
    """Sealed under a namespace's own key, which was destroyed: it can never be read."""


class ArchiveMissing(GraphmemError):
    """An archived episode's object is gone from the archive store, or does not match its
    content address."""

    code = "ARCHIVE_MISSING"


class LLMError(GraphmemError):
    """Messages carry no prompt or completion text (they end up in job records and logs)."""

    code = "LLM_ERROR"
    retryable = True


class LLMRefused(LLMError):
    retryable = False
