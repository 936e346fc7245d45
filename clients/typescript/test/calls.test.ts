// Every facade call against a real `graphmem serve`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Memory } from "graphmem-client";

import { KEY, LIMITED_URL, ENDPOINT, fresh, freshNamespace } from "./support.js";

test("record, remember, recall, why: the README's quick start, call by call", async () => {
  const memory = fresh();
  const turns = await memory.record([{ role: "user", content: "I just started at Acme Robotics" }],
                                    { sessionId: "chat-1" });
  assert.equal(turns.created, 1);
  assert.equal(turns.episodeIds.length, 1);
  const fact = await memory.remember("user", "works_at", "Acme Robotics",
                                     { evidence: turns.episodeIds });
  assert.equal(fact.outcome, "CREATED");
  assert.equal(fact.id, fact.fact.id);
  assert.equal(fact.fact.text, "user works at Acme Robotics");
  const recalled = await memory.recall("Where do I work?", { sessionId: "chat-1" });
  assert.match(recalled.text, /^What memory believes:\n- user works at Acme Robotics \(since \d{4}-\d\d-\d\d\)$/);
  assert.ok(recalled.tokensUsed > 0 && recalled.tokensUsed <= recalled.tokenBudget);
  assert.equal(recalled.tokenBudget, 1000);
  assert.ok(recalled.pieces.some((piece) => piece.factId === fact.id));
  const why = await memory.why(fact.id);
  assert.deepEqual(why.evidence.map((e) => e.content), ["I just started at Acme Robotics"]);
  assert.equal(why.fact.id, fact.id);
  assert.deepEqual([why.supersedes, why.supersededBy], [[], []]);
  await memory.forget({ namespace: true });
});

test("a literal object is a value, not an entity; options reach the fact", async () => {
  const memory = fresh();
  const age = await memory.remember("Sam", "age", 34, {
    confidence: 0.8, source: "user_statement", validFrom: new Date("2026-01-01T00:00:00Z"),
  });
  assert.equal(age.fact.object, "34");
  assert.notEqual(age.fact.objectKind, "ENTITY");
  assert.equal(age.fact.confidence, 0.8);
  assert.equal(age.fact.source, "USER_STATEMENT");
  assert.equal(age.fact.validFrom?.slice(0, 10), "2026-01-01");
  const active = await memory.remember("Sam", "likes_hiking", true);
  assert.equal(active.outcome, "CREATED");
  await memory.forget({ namespace: true });
});

test("recording the same turns again writes each once", async () => {
  const memory = fresh();
  const turns = [
    { role: "user", content: "Hello", occurredAt: "2026-03-01T09:00:00Z" },
    { role: "assistant", content: "Hi, how can I help?", occurredAt: "2026-03-01T09:00:05Z" },
  ];
  const first = await memory.record(turns, { sessionId: "s" });
  const again = await memory.record([...turns, { role: "user", content: "Bye",
                                                  occurredAt: "2026-03-01T09:01:00Z" }],
                                    { sessionId: "s" });
  assert.deepEqual([first.created, first.duplicates, first.batches], [2, 0, 1]);
  assert.deepEqual([again.created, again.duplicates], [1, 2]);
  assert.deepEqual(again.episodeIds.slice(0, 2), first.episodeIds);
  await assert.rejects(memory.record([{ role: "narrator", content: "x" }]),
                       /unknown role "narrator"/);
  await memory.forget({ namespace: true });
});

test("uploads go in batches under the server's count and size caps, idempotently", async () => {
  // GRAPHMEM_MAX_BATCH=50 and GRAPHMEM_MAX_BODY_BYTES=65536 on this service: the client learns
  // the count cap from the refusal, and halves a batch the body cap refuses.
  const memory = new Memory({ url: LIMITED_URL, key: KEY, namespace: freshNamespace() });
  const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, i)).toISOString();
  const short = Array.from({ length: 120 }, (_, i) => ({ content: `turn ${i}`, occurredAt: at(i) }));
  const counted = await memory.record(short, { sessionId: "long" });
  assert.deepEqual([counted.created, counted.batches, new Set(counted.episodeIds).size],
                   [120, 3, 120]);
  const long = Array.from({ length: 40 }, (_, i) => ({
    content: `${i} ${"x".repeat(3000)}`, occurredAt: at(i), sessionId: "big" }));
  const sized = await memory.record(long);
  assert.equal(sized.created, 40);
  assert.ok(sized.batches >= 2, `one batch of 120 KB passed a 64 KB cap (${sized.batches})`);
  // Sent again, or a longer upload of the same turns: each turn is written once.
  assert.deepEqual(Object.values(await memory.record(long)).slice(0, 2), [0, 40]);
  const longer = await memory.record([...short, { content: "one more", occurredAt: at(200) }],
                                     { sessionId: "long" });
  assert.deepEqual([longer.created, longer.duplicates], [1, 120]);
  assert.deepEqual(longer.episodeIds.slice(0, 120), counted.episodeIds);
  await memory.forget({ namespace: true });
});

test("search, about (now and then), history, correct, retract", async () => {
  const memory = fresh();
  const lisbon = await memory.remember("user", "lives_in", "Lisbon",
                                       { validFrom: "2026-01-01T00:00:00Z" });
  const before = new Date();
  const said = await memory.record([{ role: "user", content: "Actually it's Porto, not Lisbon." }]);
  const hits = await memory.search("Lisbon", { kinds: ["fact"] });
  assert.deepEqual(hits.map((h) => [h.kind, h.id, h.text]),
                   [["FACT", lisbon.id, "user lives in Lisbon"]]);
  assert.equal(hits[0]?.fact?.id, lisbon.id);
  const porto = await memory.correct(lisbon.id, "Porto", { reason: "the user corrected it",
                                                          evidence: said.episodeIds });
  assert.equal(porto.object, "Porto");
  const why = await memory.why(porto.id);
  assert.deepEqual(why.evidence.filter((e) => e.kind === "USER_MESSAGE").map((e) => e.content),
                   ["Actually it's Porto, not Lisbon."]);
  assert.deepEqual(why.supersedes.map((f) => f.id), [lisbon.id]);
  assert.deepEqual((await memory.about("user")).map((f) => f.object), ["Porto"]);
  assert.deepEqual((await memory.about("user", { asOf: before })).map((f) => f.object),
                   ["Lisbon"]);
  const versions = await memory.history("user", "lives_in");
  assert.deepEqual(versions.map((f) => [f.object, f.status, f.reason]),
                   [["Porto", "ACTIVE", null], ["Lisbon", "SUPERSEDED", "the user corrected it"]]);
  const retracted = await memory.retract(porto.id, { reason: "moved away" });
  assert.equal(retracted.status, "RETRACTED");
  assert.deepEqual(await memory.about("user"), []);
  assert.deepEqual(await memory.about("nobody"), []);
  await memory.forget({ namespace: true });
});

test("alias, setPolicy, conflicts, resolve, summary", async () => {
  const memory = fresh();
  await memory.remember("user", "lives_in", "Porto");
  const entity = await memory.alias("user", "Dana");
  assert.deepEqual([entity.name, entity.aliases], ["user", ["Dana"]]);
  const policy = await memory.setPolicy("favorite_color", "one", "manual");
  assert.deepEqual([policy.cardinality, policy.strategy, policy.isDefault], ["ONE", "MANUAL", false]);
  const red = await memory.remember("user", "favorite_color", "red");
  const blue = await memory.remember("Dana", "favorite_color", "blue");
  assert.equal(blue.outcome, "DISPUTED");
  const [conflict, ...others] = await memory.conflicts();
  assert.ok(conflict);
  assert.deepEqual(others, []);
  assert.deepEqual(conflict.candidates.map((f) => f.id).sort(), [red.id, blue.id].sort());
  const settled = await memory.resolve(conflict.id, blue.id, { reason: "the user said blue" });
  assert.deepEqual([settled.status, settled.kept], ["RESOLVED", blue.id]);
  assert.deepEqual(await memory.conflicts(), []);
  assert.deepEqual((await memory.about("user")).map((f) => f.text).sort(),
                   ["Dana's favorite color is blue", "user lives in Porto"]);  // one person, two names
  assert.equal(await memory.summary("chat-1"), null);
  await memory.forget({ namespace: true });
});

test("forget: a dry run writes nothing, then an entity, episodes and the namespace go", async () => {
  const memory = fresh();
  const said = await memory.record([
    { role: "user", content: "My dog Biscuit loves the beach", occurredAt: "2026-03-01T09:00:00Z" },
    { role: "user", content: "Unrelated", occurredAt: "2026-03-01T09:01:00Z" }]);
  const fact = await memory.remember("user", "has_dog", "Biscuit", { evidence: said.episodeIds.slice(0, 1) });
  const plan = await memory.forget({ entity: "Biscuit", mentions: "redact", dryRun: true });
  assert.deepEqual([plan.entity, plan.mentions], ["Biscuit", "redact"]);
  assert.deepEqual(plan.facts.map((f) => f.id), [fact.id]);
  assert.deepEqual(plan.turns.map((t) => [t.id, t.action]), [[said.episodeIds[0], "redact"]]);
  assert.equal((await memory.about("Biscuit")).length, 1, "the dry run erased something");
  const receipt = await memory.forget({ entity: "Biscuit", mentions: "redact" });
  assert.ok(receipt.verified);
  assert.equal(receipt.remainingNodes, 0);
  assert.ok(Object.values(receipt.counts).some((count) => count > 0));
  assert.deepEqual(await memory.about("Biscuit"), []);
  const episodes = await memory.forget({ episodes: said.episodeIds.slice(1) });
  assert.ok(episodes.verified);
  assert.deepEqual((await memory.search("Unrelated", { kinds: ["episode"] })), []);
  await assert.rejects(memory.forget({ entity: "x", namespace: true }), /exactly one of/);
  await assert.rejects(memory.forget({ episodes: ["e"], mentions: "erase" }), /goes with entity/);
  const all = await memory.forget({ namespace: true });
  assert.ok(all.verified);
});

test("settings: a bare URL means its /graphql, the key stays out of strings", async () => {
  const service = ENDPOINT.replace(/\/graphql$/, "");
  for (const bare of [service, `${service}/`]) {
    const memory = new Memory({ url: bare, key: KEY, namespace: freshNamespace() });
    assert.equal(memory.url, ENDPOINT);
    assert.deepEqual(await memory.about("Dana"), []);
    assert.ok(!String(memory).includes(KEY) && !JSON.stringify(memory).includes(KEY));
  }
  for (const typo of ["127.0.0.1:8000/graphql", "localhost", "ftp://x/graphql"]) {
    assert.throws(() => new Memory({ url: typo, key: KEY, namespace: "n" }),
                  /url must be an http\(s\) URL like/);
  }
  const saved = process.env["GRAPHMEM_NAMESPACE"];
  delete process.env["GRAPHMEM_NAMESPACE"];
  assert.throws(() => new Memory({ url: ENDPOINT }), /no namespace/);
  process.env["GRAPHMEM_NAMESPACE"] = "acme/user-1";
  assert.equal(new Memory({ url: ENDPOINT }).namespace, "acme/user-1");
  if (saved === undefined) delete process.env["GRAPHMEM_NAMESPACE"];
  else process.env["GRAPHMEM_NAMESPACE"] = saved;
});
