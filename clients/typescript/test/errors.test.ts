// Each error the service answers arrives as its typed error; only retryable ones are retried.

import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { test } from "node:test";

import {
  DuplicateConflict, Forbidden, GraphmemError, GraphQLValidation, InvalidInput, Memory,
  NotFound, PayloadTooLarge, RateLimited, Unauthenticated, Unreachable,
} from "graphmem-client";

import {
  KEY, LIMITED_KEY, LIMITED_URL, OTHER_KEY, ENDPOINT, counting, fresh, freshNamespace,
} from "./support.js";

test("the server's errors arrive typed, with their code, field and retryable", async () => {
  const memory = fresh();
  const missing = await memory.why("fact_missing").catch((error: unknown) => error);
  assert.ok(missing instanceof NotFound && missing instanceof GraphmemError);
  assert.deepEqual([missing.code, missing.retryable, missing.name], ["NOT_FOUND", false, "NotFound"]);
  const invalid = await memory.recall("anything", { budget: 1 }).catch((error: unknown) => error);
  assert.ok(invalid instanceof InvalidInput);
  assert.equal(invalid.code, "INVALID_INPUT");
  assert.ok(invalid.field);
  await assert.rejects(memory.search("anything", { kinds: ["planet" as "fact"] }), GraphQLValidation);
  await memory.record([{ content: "first", externalId: "m1" }]);
  const duplicate = await memory.record([{ content: "other", externalId: "m1" }])
    .catch((error: unknown) => error);
  assert.ok(duplicate instanceof DuplicateConflict);
  assert.equal(duplicate.extensions["external_id"], "m1");
  await assert.rejects(memory.record([{ content: "x".repeat(9 * 1024 * 1024) }]), PayloadTooLarge);
  assert.deepEqual((await memory.search("first", { kinds: ["episode"] })).map((h) => h.text),
                   ["first"], "a refused write wrote something");
  await memory.forget({ namespace: true });
});

test("a bad key is Unauthenticated, a key for other namespaces Forbidden: one request each", async () => {
  for (const [key, Kind] of [["gm_not_a_key", Unauthenticated], [OTHER_KEY, Forbidden]] as const) {
    const sent = counting();
    const memory = new Memory({ url: ENDPOINT, key, namespace: freshNamespace(), fetch: sent.fetch });
    const error = await memory.about("Dana").catch((failure: unknown) => failure);
    assert.ok(error instanceof Kind, String(error));
    assert.equal((error as GraphmemError).retryable, false);
    assert.equal(sent.sent(), 1);
  }
});

test("a URL that is not graphmem's GraphQL says so, and is not retried", async () => {
  const service = ENDPOINT.replace(/\/graphql$/, "");
  for (const [wrong, status] of [[`${service}/graphq`, 404], [`${service}/console`, 405]] as const) {
    const sent = counting();
    const memory = new Memory({ url: wrong, key: KEY, namespace: "n", fetch: sent.fetch });
    const error = await memory.about("Dana").catch((failure: unknown) => failure);
    assert.ok(error instanceof GraphmemError);
    assert.ok(error.detail.startsWith(`HTTP ${status} from ${wrong}: not a GraphQL endpoint`));
    assert.equal(sent.sent(), 1);
  }
});

test("a rate-limited call is retried after Retry-After; without retries it throws RateLimited", async () => {
  // 30 requests a minute for this key (a token every 2 s): 40 at once exhaust it.
  const burst = counting();
  const eager = new Memory({ url: LIMITED_URL, key: LIMITED_KEY, namespace: freshNamespace(),
                             retries: 0, fetch: burst.fetch });
  const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => eager.about("x")));
  const refused = outcomes.filter((o) => o.status === "rejected")
    .map((o) => (o as PromiseRejectedResult).reason as unknown);
  assert.ok(refused.length >= 5, `only ${refused.length} of 40 refused`);
  for (const error of refused) {
    assert.ok(error instanceof RateLimited && error.retryable, String(error));
  }
  assert.equal(burst.sent(), 40, "retries: 0 retried");
  // Now a call with retries, refused at first: the bucket refills while the burst is answered,
  // so empty it again just before (and again, should a token come back in between).
  for (let attempt = 0; ; attempt++) {
    while (await eager.about("x").then(() => true, () => false));
    const patient = counting();
    const memory = new Memory({ url: LIMITED_URL, key: LIMITED_KEY, namespace: freshNamespace(),
                                fetch: patient.fetch });
    const started = Date.now();
    assert.deepEqual(await memory.about("x"), []);
    if (patient.statuses[0] === 200 && attempt < 3) continue;  // a token came back first
    assert.equal(patient.statuses[0], 429);
    assert.equal(patient.statuses.at(-1), 200);
    assert.ok(patient.statuses.slice(0, -1).every((status) => status === 429), String(patient.statuses));
    assert.ok(Date.now() - started >= 900, "it did not wait for Retry-After");
    break;
  }
});

test("a non-retryable error is sent once, whatever the retries", async () => {
  const sent = counting();
  const memory = fresh({ retries: 5, fetch: sent.fetch });
  await assert.rejects(memory.retract("fact_missing", { reason: "x" }), NotFound);
  await assert.rejects(memory.recall("q", { budget: 1 }), InvalidInput);
  assert.equal(sent.sent(), 2);
});

test("a service that refuses connections is Unreachable, retried (the request never left)", async () => {
  const port = await closedPort();
  const sent = counting();
  const memory = new Memory({ url: `http://127.0.0.1:${port}/graphql`, key: KEY, namespace: "n",
                              retries: 2, fetch: sent.fetch });
  const error = await memory.retract("fact_x", { reason: "x" }).catch((e: unknown) => e);
  assert.ok(error instanceof Unreachable, String(error));
  assert.ok(error.retryable);
  assert.match(error.detail, /ECONNREFUSED/);
  assert.equal(sent.sent(), 3);
});

test("a timed-out read is retried; a timed-out write that may have been applied is not", async () => {
  // A peer that accepts connections and never answers: each request times out after it left.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as { port: number };
  try {
    const sent = counting();
    const memory = new Memory({ url: `http://127.0.0.1:${port}/graphql`, key: KEY, namespace: "n",
                                retries: 2, timeoutMs: 300, fetch: sent.fetch });
    const read = await memory.about("x").catch((e: unknown) => e);
    assert.ok(read instanceof Unreachable && read.retryable, String(read));
    assert.equal(sent.sent(), 3);
    const write = await memory.retract("fact_x", { reason: "x" }).catch((e: unknown) => e);
    assert.ok(write instanceof Unreachable && !write.retryable, String(write));
    assert.match(write.detail, /TimeoutError/);
    assert.equal(sent.sent(), 4, "a retraction that may have been applied was sent again");
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
