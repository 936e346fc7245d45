// The console's only way to memory: POST /graphql with the key the person typed, exactly as
// any client does. The key lives in this tab's sessionStorage (gone when the tab closes;
// never a cookie, never localStorage).

const STORE = "graphmem.console.key";

export function currentKey() {
  return sessionStorage.getItem(STORE);
}

export function rememberKey(key) {
  if (key) sessionStorage.setItem(STORE, key);
  else sessionStorage.removeItem(STORE);
}

export class ApiError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

const EXPLAINED = {
  UNAUTHENTICATED: "That API key was not accepted. Check that it was copied whole (it starts "
    + "with gm_) and has not been revoked; `graphmem keys create` makes a new one.",
  FORBIDDEN: "This API key may not do that here.",
  RATE_LIMITED: "Too many requests with this key for now; wait a moment and try again.",
  DATABASE_UNAVAILABLE: "graphmem cannot reach its database right now; try again shortly.",
};

export async function gql(query, variables = {}, key = currentKey()) {
  let response;
  try {
    response = await fetch("/graphql", {
      method: "POST",
      credentials: "omit",
      cache: "no-store",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key || ""}` },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new ApiError("graphmem did not answer: is the service running?", "NETWORK");
  }
  let body;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(`graphmem answered HTTP ${response.status} without a GraphQL body`, "HTTP");
  }
  if (body.errors && body.errors.length) {
    const first = body.errors[0];
    const code = (first.extensions && first.extensions.code) || "ERROR";
    const message = code === "FORBIDDEN" || !EXPLAINED[code] ? first.message : EXPLAINED[code];
    throw new ApiError(message, code);
  }
  return body.data;
}
