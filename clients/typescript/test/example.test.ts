// examples/agent.ts runs against the real service and leaves the fact it was told.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "node:test";

import { Memory } from "graphmem-client";

import { KEY, ENDPOINT, freshNamespace } from "./support.js";

const EXAMPLE = fileURLToPath(new URL("../examples/agent.js", import.meta.url));

test("the example agent loop remembers, reads a failure as text and recalls", async () => {
  const namespace = freshNamespace();
  const { stdout } = await promisify(execFile)(process.execPath, [EXAMPLE], {
    env: { ...process.env, GRAPHMEM_URL: ENDPOINT, GRAPHMEM_KEY: KEY, GRAPHMEM_NAMESPACE: namespace },
  });
  const lines = stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^remember -> Remembered: fact_\S+: user lives in Porto \(active;/);
  assert.match(lines[1]!, /^why -> Error from why: NOT_FOUND \(argument factId\): /);
  assert.equal(lines[2], "recall -> What memory believes:");
  assert.match(lines.at(-1)!, /^- user lives in Porto \(since \d{4}-\d\d-\d\d\)$/);
  assert.ok(stdout.includes("\nassistant: Noted. What memory believes:\n- user lives in Porto"));
  const memory = new Memory({ url: ENDPOINT, key: KEY, namespace });
  assert.deepEqual((await memory.about("user")).map((f) => f.text), ["user lives in Porto"]);
  await memory.forget({ namespace: true });
});
