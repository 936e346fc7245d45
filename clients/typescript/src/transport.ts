/**
 * HTTP for the facade: settings from the arguments or the environment, one GraphQL request
 * over the global `fetch` (Node 20+, browsers, edge runtimes), its answer read into data or a
 * typed error, and when (and how long) to retry. The Python client's `_http`, in TypeScript.
 */

import { GraphmemError, errorFor } from "./errors.js";

export const DEFAULT_URL = "http://127.0.0.1:8000/graphql";
/** The first retry waits up to this long (ms), doubling per attempt, at most `BACKOFF_CAP_MS`. */
export const BACKOFF_MS = 500;
export const BACKOFF_CAP_MS = 10_000;
const STATUS_CODES: Readonly<Record<number, string>> = {
  401: "UNAUTHENTICATED", 403: "FORBIDDEN", 413: "PAYLOAD_TOO_LARGE", 429: "RATE_LIMITED",
  503: "DATABASE_UNAVAILABLE",
};
// Failures of a connection that never carried the request: sending it again is always safe.
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH",
                            "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

export interface MemoryOptions {
  /** GraphQL endpoint; default GRAPHMEM_URL, else http://127.0.0.1:8000/graphql. A URL
   * without a path means the service's `/graphql`. */
  url?: string;
  /** API key; default GRAPHMEM_KEY. */
  key?: string;
  /** The end user's namespace, e.g. `acme/user-42`; default GRAPHMEM_NAMESPACE (required). */
  namespace?: string;
  /** Per request, in milliseconds (60 s: longer than the server's own retry budget). */
  timeoutMs?: number;
  /** Extra attempts for retryable failures (and for lost answers of repeatable calls). */
  retries?: number;
  /** A `fetch` to use instead of the global one (a proxy, instrumentation, tests). */
  fetch?: typeof fetch;
}

/** One GraphQL request: a generated document, its operation name and variables. */
export interface Call {
  document: string;
  operation: string;
  variables: Record<string, unknown>;
  /** Safe to send again when its answer was lost: reads, and idempotent writes. */
  repeatable: boolean;
}

export interface Settings {
  readonly url: string;
  readonly namespace: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly fetch: typeof fetch;
}

/** Arguments first, then GRAPHMEM_URL, GRAPHMEM_KEY, GRAPHMEM_NAMESPACE (where there is an
 * environment: Node, Deno, Bun; a browser passes them). */
export function readSettings(options: MemoryOptions): Settings {
  const env = environment();
  const namespace = options.namespace || env["GRAPHMEM_NAMESPACE"];
  if (!namespace) {
    throw new TypeError("no namespace: pass { namespace } or set GRAPHMEM_NAMESPACE");
  }
  const key = options.key || env["GRAPHMEM_KEY"];
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (key) headers["Authorization"] = `Bearer ${key}`;
  const fetcher = options.fetch ?? globalThis.fetch;
  if (typeof fetcher !== "function") throw new TypeError("no fetch: pass { fetch }");
  return {
    url: endpoint(options.url || env["GRAPHMEM_URL"] || DEFAULT_URL), namespace, headers,
    timeoutMs: options.timeoutMs ?? 60_000, retries: Math.max(0, options.retries ?? 3),
    fetch: fetcher,
  };
}

function environment(): Record<string, string | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } })
    .process;
  return process?.env ?? {};
}

/** The GraphQL endpoint: a URL without a path (`http://127.0.0.1:8000`) means the service's
 * `/graphql`; any other path is kept (a proxy may serve it elsewhere). */
export function endpoint(url: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // reported below, as for any other URL that is not http(s)
  }
  if (!parsed || !["http:", "https:"].includes(parsed.protocol) || !parsed.host) {
    throw new TypeError(`url must be an http(s) URL like ${DEFAULT_URL}: got ${JSON.stringify(url)}`);
  }
  return parsed.pathname === "/" && !parsed.search ? `${url.replace(/\/+$/, "")}/graphql` : url;
}

/** Sends `call`, retrying what may be retried; the answer's data, or a typed error. */
export async function execute(settings: Settings, call: Call): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    let response: Response | null = null;
    let failure: GraphmemError;
    try {
      response = await settings.fetch(settings.url, {
        method: "POST", headers: settings.headers,
        body: JSON.stringify({ query: call.document, operationName: call.operation,
                               variables: call.variables }),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      return await dataOf(response, settings.url);
    } catch (error) {
      failure = error instanceof GraphmemError ? error : unreachable(error, call.repeatable);
    }
    const wait = delay(failure, attempt, settings.retries, response);
    if (wait === null) throw failure;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The answer's data, or the typed error of its first GraphQL error (or of its status). */
export async function dataOf(response: Response, url: string): Promise<Record<string, unknown>> {
  let payload: unknown = null;
  try {
    payload = JSON.parse(await response.text());
  } catch {
    // not JSON: judged by its status below
  }
  const body = isObject(payload) ? payload : {};
  const errors = body["errors"];
  if (Array.isArray(errors) && errors.length) {
    const first = isObject(errors[0]) ? errors[0] : {};
    const extensions = isObject(first["extensions"]) ? first["extensions"] : {};
    const code = String(extensions["code"] ?? STATUS_CODES[response.status] ?? "INTERNAL");
    const retryable = Boolean(extensions["retryable"]) || [429, 503].includes(response.status);
    const field = typeof extensions["field"] === "string" ? extensions["field"] : null;
    throw errorFor(code, String(first["message"] ?? ""), field, retryable, extensions);
  }
  if (response.status !== 200 || !isObject(body["data"])) {
    let message = `HTTP ${response.status} from ${url}`;
    if ([200, 404, 405].includes(response.status)) {  // an answer, but not graphmem's
      message += ": not a GraphQL endpoint; check url or GRAPHMEM_URL (graphmem's is the "
        + `service's /graphql, e.g. ${DEFAULT_URL})`;
    }
    throw errorFor(STATUS_CODES[response.status] ?? "INTERNAL", message, null,
                   [429, 503].includes(response.status));
  }
  return body["data"];
}

/** A transport failure; retryable when the request cannot have reached the server, or when it
 * may have but sending it again changes nothing (`repeatable`): a mutation that timed out may
 * have been committed. */
export function unreachable(error: unknown, repeatable: boolean): GraphmemError {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = isObject(cause) && typeof cause["code"] === "string" ? cause["code"] : "";
  const name = error instanceof Error ? error.name : "Error";
  const what = error instanceof Error ? error.message : String(error);
  return errorFor("UNREACHABLE", `${name}: ${what}${code ? ` (${code})` : ""}`, null,
                  NEVER_SENT.has(code) || repeatable);
}

/** Milliseconds to wait before attempt `attempt + 1`, or null: give up and throw. */
export function delay(error: GraphmemError, attempt: number, retries: number,
                      response: Response | null): number | null {
  if (!error.retryable || attempt >= retries) return null;
  const after = response?.headers.get("Retry-After");
  if (after && /^\d+$/.test(after)) return Math.min(Number(after) * 1000, BACKOFF_CAP_MS);
  return Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_MS * 2 ** attempt);  // full jitter
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
