/**
 * Every failure the client throws, drawn here at the top; one class per server `extensions.code`
 * (the same tree as the Python client's `graphmem_client.errors`).
 *
 * ```text
 * GraphmemError                 code, message, field, retryable, extensions
 * ├── InvalidInput              INVALID_INPUT: the request is malformed; nothing was written
 * │   ├── QueryTooCostly        QUERY_TOO_COSTLY: the query or its answer is over the limits
 * │   └── SessionClosed         SESSION_CLOSED: the ephemeral session was closed and erased
 * ├── GraphQLValidation         GRAPHQL_VALIDATION: the document or its variables do not fit
 * ├── PayloadTooLarge           PAYLOAD_TOO_LARGE: the request body is over the server's cap
 * ├── NotFound                  NOT_FOUND: a referenced id does not exist in the namespace
 * ├── DuplicateConflict         DUPLICATE_CONFLICT: an externalId was reused with other content
 * ├── ConcurrentChange          CONCURRENT_CHANGE: another write got in the way (retryable)
 * ├── Unauthenticated           UNAUTHENTICATED: no or unknown API key
 * ├── Forbidden                 FORBIDDEN: the key is not granted the namespace
 * ├── RateLimited               RATE_LIMITED: HTTP 429 (retryable, after Retry-After)
 * ├── DatabaseUnavailable       DATABASE_UNAVAILABLE: Neo4j unreachable (retryable)
 * ├── NotReady                  NOT_READY: the service is starting, or its start was refused
 * ├── QueryTimeout              QUERY_TIMEOUT: a statement ran past its time bound
 * ├── DecryptionFailed          DECRYPTION_FAILED: encrypted content without its key
 * ├── Internal                  INTERNAL: the server failed; its message is masked
 * └── Unreachable               UNREACHABLE: no answer from the service (client side)
 * ```
 *
 * Codes the client does not know yet arrive as a plain `GraphmemError` with that code.
 * `retryable` is what the server said (`extensions.retryable`, HTTP 429/503); the client
 * retries those, with backoff, and nothing else.
 */

/** A failure the service reported (or the client met), with the server's code. */
export class GraphmemError extends Error {
  readonly code: string;
  readonly field: string | null;
  readonly retryable: boolean;
  readonly extensions: Readonly<Record<string, unknown>>;
  /** The server's message, without the code in front (`error.message` has both). */
  readonly detail: string;

  constructor(code: string, message: string, field: string | null = null, retryable = false,
              extensions: Record<string, unknown> = {}) {
    super(`${code}: ${message}`);
    this.name = new.target.name;
    this.code = code;
    this.detail = message;
    this.field = field;
    this.retryable = retryable;
    this.extensions = extensions;
  }
}

export class InvalidInput extends GraphmemError {}
export class QueryTooCostly extends InvalidInput {}
export class SessionClosed extends InvalidInput {}
export class GraphQLValidation extends GraphmemError {}
export class PayloadTooLarge extends GraphmemError {}
export class NotFound extends GraphmemError {}
export class DuplicateConflict extends GraphmemError {}
export class ConcurrentChange extends GraphmemError {}
export class Unauthenticated extends GraphmemError {}
export class Forbidden extends GraphmemError {}
export class RateLimited extends GraphmemError {}
export class DatabaseUnavailable extends GraphmemError {}
export class NotReady extends GraphmemError {}
export class QueryTimeout extends GraphmemError {}
export class DecryptionFailed extends GraphmemError {}
export class Internal extends GraphmemError {}
export class Unreachable extends GraphmemError {}

const BY_CODE: Readonly<Record<string, typeof GraphmemError>> = {
  INVALID_INPUT: InvalidInput,
  QUERY_TOO_COSTLY: QueryTooCostly,
  SESSION_CLOSED: SessionClosed,
  GRAPHQL_VALIDATION: GraphQLValidation,
  PAYLOAD_TOO_LARGE: PayloadTooLarge,
  NOT_FOUND: NotFound,
  DUPLICATE_CONFLICT: DuplicateConflict,
  CONCURRENT_CHANGE: ConcurrentChange,
  UNAUTHENTICATED: Unauthenticated,
  FORBIDDEN: Forbidden,
  RATE_LIMITED: RateLimited,
  DATABASE_UNAVAILABLE: DatabaseUnavailable,
  NOT_READY: NotReady,
  QUERY_TIMEOUT: QueryTimeout,
  DECRYPTION_FAILED: DecryptionFailed,
  INTERNAL: Internal,
  UNREACHABLE: Unreachable,
};

/** The typed error for a server code (a plain `GraphmemError` for an unknown one). */
export function errorFor(code: string, message: string, field: string | null = null,
                         retryable = false,
                         extensions: Record<string, unknown> = {}): GraphmemError {
  const Kind = Object.hasOwn(BY_CODE, code) ? BY_CODE[code]! : GraphmemError;
  return new Kind(code, message, field, retryable, extensions);
}
