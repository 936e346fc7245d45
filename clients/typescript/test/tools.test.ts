// The memory tools: the Python client's definitions in three formats, and one dispatcher that
// runs every tool against a real `graphmem serve` and answers in text, failures included.

import assert from "node:assert/strict";
import { test } from "node:test";

import { jsonSchema, tool } from "ai";
import {
  Memory, TOOLS, aiSdkTools, anthropicTools, dispatch, handleToolCall, openaiTools,
} from "graphmem-client";

import { ENDPOINT, fresh, freshNamespace } from "./support.js";
// Not part of the package's surface: the checker's keyword list, for the test below.
import { KEYWORDS, keywords } from "../src/schema.js";

const NAMES = ["recall", "search", "about", "history", "remember", "record", "why", "correct",
               "retract", "forget", "conflicts", "resolve_conflict", "alias", "summary"];

test("the fourteen tools of the Python client, in OpenAI's and Anthropic's formats", () => {
  assert.deepEqual(TOOLS.map((t) => t.name), NAMES);
  assert.deepEqual(openaiTools().map((t) => [t.type, t.function.name, t.function.parameters]),
                   TOOLS.map((t) => ["function", t.name, t.parameters]));
  assert.deepEqual(anthropicTools().map((t) => [t.name, t.description, t.input_schema]),
                   TOOLS.map((t) => [t.name, t.description, t.parameters]));
  for (const { name, description, parameters } of TOOLS) {
    assert.ok(description.length > 40, name);
    assert.equal(parameters["type"], "object");
    for (const combinator of ["anyOf", "oneOf", "allOf"]) {
      assert.ok(!(combinator in parameters), `${name}: Anthropic refuses a top-level ${combinator}`);
    }
    const text = JSON.stringify(parameters);
    for (const word of ['"namespace"', '"key"', '"api_key"', '"confirm"']) {
      assert.ok(!text.includes(word), `${name} takes ${word}`);
    }
    for (const keyword of keywords(parameters)) {
      assert.ok(KEYWORDS.has(keyword), `${name} uses ${keyword}, which the checker ignores`);
    }
  }
});

test("the AI SDK's own tool() and jsonSchema() take the tools as they are", async () => {
  const memory = fresh();
  const tools = aiSdkTools(memory, { tool, jsonSchema });
  assert.deepEqual(Object.keys(tools), NAMES);
  // What the SDK does with a tool: reads its schema's JSON schema, and calls execute.
  const remember = tools.remember as unknown as {
    inputSchema: { jsonSchema: unknown }; execute: (input: unknown, options: unknown) => unknown };
  assert.deepEqual(remember.inputSchema.jsonSchema, TOOLS[4]!.parameters);
  const said = await remember.execute({ subject: "user", predicate: "likes", object: "tea" },
                                      { toolCallId: "1", messages: [] });
  assert.match(String(said), /^Remembered: fact_\S+: user likes tea \(active; confidence 1; agent_assertion; from \d{4}-\d\d-\d\d\)$/);
  const plain = aiSdkTools(memory);
  assert.deepEqual(plain.about.inputSchema, TOOLS[2]!.parameters);
  assert.match(await plain.about.execute({ entity: "user" }), /user likes tea/);
  await memory.forget({ namespace: true });
});

test("every tool runs through the dispatcher and answers in text", async () => {
  const memory = fresh();
  const run = async (name: string, args: unknown) => {
    const result = await dispatch(memory, name, args);
    assert.equal(result.isError, false, result.text);
    return result.text;
  };
  const recorded = await run("record", { turns: [
    { role: "user", content: "I work at Acme Robotics", occurred_at: "2026-03-01T09:00:00Z" }],
    session_id: "chat-1" });
  const episode = /ids, usable as evidence: (\S+)\.$/.exec(recorded)![1]!;
  assert.match(recorded, /^Recorded 1 new turns \(0 already stored\)/);
  const remembered = await run("remember", JSON.stringify({
    subject: "user", predicate: "works_at", object: "Acme Robotics", evidence: [episode],
    source: "user_statement", valid_from: "2026-03-01T00:00:00Z" }));
  const factId = /^Remembered: (fact_\S+): user works at Acme Robotics \(active; confidence 1; user_statement; from 2026-03-01\)$/
    .exec(remembered)?.[1];
  assert.ok(factId, remembered);
  assert.match(await run("recall", { query: "Where do I work?", session_id: "chat-1" }),
               /^What memory believes:\n- user works at Acme Robotics/);
  assert.match(await run("search", { query: "Acme", kinds: ["fact"] }),
               new RegExp(`^fact ${factId}: user works at Acme Robotics`));
  assert.match(await run("about", { entity: "user" }), new RegExp(`^${factId}: `));
  assert.match(await run("why", { fact_id: factId }),
               /\nEvidence:\n- ep\S* \(user, 2026-03-01 09:00, session chat-1\): I work at Acme Robotics$/);
  const corrected = await run("correct", { fact_id: factId, object: "Initech", reason: "moved jobs" });
  const newId = /Now: (fact_\S+): user works at Initech/.exec(corrected)?.[1];
  assert.ok(newId, corrected);
  assert.match(await run("history", { subject: "user", predicate: "works_at" }),
               /: user works at Initech \(active; believed from .*\n.*Acme Robotics \(superseded; believed from .*; ended .*; reason: moved jobs\)$/);
  assert.match(await run("retract", { fact_id: newId, reason: "left" }), /^Retracted \(kept as history\)/);
  assert.equal(await run("about", { entity: "user" }), "Memory holds no current facts about user.");
  assert.equal(await run("about", { entity: "user", as_of: "2026-01-01T00:00:00Z" }),
               "Memory held no facts about user then.");
  assert.equal(await run("alias", { entity: "user", alias: "Dana" }), "user is also called: Dana.");
  assert.equal(await run("summary", { session_id: "chat-1" }), "No summary of session chat-1 yet.");
  assert.equal(await run("conflicts", {}), "No open conflicts.");
  await memory.setPolicy("favorite_color", "one", "manual");
  await run("remember", { subject: "user", predicate: "favorite_color", object: "red" });
  assert.match(await run("remember", { subject: "user", predicate: "favorite_color", object: "blue" }),
               /^Remembered, but it conflicts with another value/);
  const listed = await run("conflicts", undefined);
  const [, conflictId, blueId] = /^Conflict (\S+): [\s\S]*- (fact_\S+): user's favorite color is blue/
    .exec(listed) ?? [];
  assert.ok(conflictId && blueId, listed);
  assert.match(await run("resolve_conflict", { conflict_id: conflictId.replace(/:$/, ""), keep: blueId,
                                               reason: "the user said blue" }),
               /^Conflict \S+ resolved; kept: fact_\S+: user's favorite color is blue/);
  const dry = await run("forget", { entity: "Acme Robotics", mentions: "redact", dry_run: true });
  assert.match(dry, /^Dry run, nothing erased yet\. Forgetting Acme Robotics \(mentions: redact;/);
  assert.match(dry, /\nTurns:\n- ep\S* \(2026-03-01 09:00, each mention redacted\): /);
  assert.match(dry, /Call forget again without dry_run to erase it; it cannot be undone\.$/);
  assert.match(await run("forget", { entity: "Acme Robotics", mentions: "redact" }),
               /^Erased .* \(receipt \S+\); verified: nothing of it is left\.$/);
  assert.match(await run("forget", { episodes: [episode] }), /verified: nothing of it is left\.$/);
  await memory.forget({ namespace: true });
});

test("the dispatcher never throws: mistakes and failures come back as text", async () => {
  const memory = fresh();
  const cases: [string, unknown, RegExp][] = [
    ["teleport", {}, /^Error: there is no tool "teleport"\. Memory tools: recall, search, /],
    ["remember", "{not json", /^Error: the arguments of remember are not valid JSON \(.+\)\. Call it again with a JSON object\.$/],
    ["remember", { subject: "user", predicate: "likes" },
     /^Error: invalid arguments for remember: object: is required\. Fix them and call remember again\.$/],
    ["recall", { query: "q", namespace: "someone/else" },
     /^Error: invalid arguments for recall: namespace: is not an argument\./],
    ["recall", { query: "q", budget: 10 }, /budget: must be at least 50/],
    ["search", { query: "q", kinds: ["planet"] }, /kinds\.0: must be one of "episode", "fact"/],
    ["remember", { subject: "user", predicate: "p", object: ["a"] }, /object: must be a string or an integer/],
    ["about", { entity: "user", as_of: "last week" }, /as_of: must be an ISO 8601 date-time/],
    ["record", { turns: [{ role: "narrator", content: "x" }] }, /turns\.0\.role: must be one of "user"/],
    ["forget", { entity: "Dana", episodes: ["e"] },
     /^Error: invalid arguments for forget: arguments: give exactly one of entity or episodes\./],
    ["forget", { episodes: ["e"], dry_run: true }, /mentions and dry_run go with entity/],
    ["why", { fact_id: "fact_missing" },
     /^Error from why: NOT_FOUND \(argument factId\): no fact 'fact_missing' in this namespace\. Check the id or name: about and search show what memory holds\.$/],
    ["recall", { query: "q", as_of: "1900-01-01T00:00:00Z" }, /^(?!Error)/],  // a valid call
  ];
  for (const [name, args, expected] of cases) {
    const text = await handleToolCall(memory, name, args);
    assert.match(text, expected, `${name} ${JSON.stringify(args)}`);
  }
  const stranger = new Memory({ url: ENDPOINT, key: "gm_not_a_key", namespace: freshNamespace() });
  const refused = await dispatch(stranger, "recall", { query: "q" });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^Error from recall: UNAUTHENTICATED: .*go on without it\.$/);
  const down = new Memory({ url: ENDPOINT, namespace: "n", retries: 0,
                            fetch: () => Promise.reject(new RangeError("boom")) });
  const failed = await dispatch(down, "about", { entity: "x" });
  assert.equal(failed.isError, true);
  assert.match(failed.text, /^Error from about: UNREACHABLE: RangeError: boom\./);
  await memory.forget({ namespace: true });
});
