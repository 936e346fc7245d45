/**
 * `Memory`: an agent's memory in a few calls, over graphmem's GraphQL API.
 *
 * ```ts
 * import { Memory } from "graphmem-client";
 *
 * const memory = new Memory({ namespace: "acme/user-42" });  // GRAPHMEM_URL, GRAPHMEM_KEY
 * const turns = await memory.record([{ role: "user", content: "I just started at Acme" }],
 *                                   { sessionId: "chat-1" });
 * await memory.remember("user", "works_at", "Acme", { evidence: turns.episodeIds });
 * console.log((await memory.recall("Where do I work?", { sessionId: "chat-1" })).text);
 * ```
 *
 * Failures are typed (`errors.ts`); the ones the server calls retryable (and HTTP 429, 503)
 * are retried with backoff, nothing else.
 */

import * as ops from "./operations.js";
import type {
  Cardinality, Conflict, Entity, ErasurePlan, Fact, Hit, Mentions, Moment, PredicatePolicy,
  Provenance, Recall, Receipt, RecordResult, Remembered, SearchKind, Strategy, Summary, Turn,
  Value,
} from "./models.js";
import { execute, readSettings, type MemoryOptions, type Settings } from "./transport.js";

export type { MemoryOptions } from "./transport.js";
export type { RememberOptions } from "./operations.js";

/** Memory of one namespace (usually one end user). */
export class Memory {
  readonly #settings: Settings;
  readonly #execute: ops.Execute;

  /**
   * `url` defaults to GRAPHMEM_URL, else http://127.0.0.1:8000/graphql; `key` to GRAPHMEM_KEY;
   * `namespace` to GRAPHMEM_NAMESPACE (one or the other is required). `retries` (3): extra
   * attempts for retryable failures, and for reads and idempotent writes whose answer was lost.
   */
  constructor(options: MemoryOptions = {}) {
    this.#settings = readSettings(options);
    this.#execute = (call) => execute(this.#settings, call);
  }

  get namespace(): string {
    return this.#settings.namespace;
  }

  /** The GraphQL endpoint it talks to. */
  get url(): string {
    return this.#settings.url;
  }

  /** Log turns verbatim, oldest first, in batches under the server's caps; sending them
   * again (or more of them) is safe. `.episodeIds` are the ids to give as evidence. */
  record(turns: Iterable<Turn>, options: { sessionId?: string } = {}): Promise<RecordResult> {
    return ops.record(this.#execute, this.namespace, turns, options.sessionId ?? null);
  }

  /** Assert `subject predicate object` (a string object names an entity). */
  remember(subject: string, predicate: string, object: Value,
           options: ops.RememberOptions = {}): Promise<Remembered> {
    return ops.remember(this.#execute, this.namespace, subject, predicate, object, options);
  }

  /** What to know for this turn, within `budget` tokens; `.text` goes in the prompt.
   * `asOf`: as memory stood then. */
  recall(query: string, options: { budget?: number; sessionId?: string; asOf?: Moment } = {},
  ): Promise<Recall> {
    return ops.recall(this.#execute, this.namespace, query, options.budget ?? 1000,
                      options.sessionId ?? null, options.asOf ?? null);
  }

  /** Hybrid search over episodes, facts, summaries, entities (`kinds` narrows it). */
  search(query: string, options: { limit?: number; kinds?: SearchKind[] } = {}): Promise<Hit[]> {
    return ops.search(this.#execute, this.namespace, query, options.limit ?? 10,
                      options.kinds ?? null);
  }

  /** Facts with the entity as subject or object: current ones, or those true in the world at
   * `validAt` as memory believed them at `asOf`. */
  about(entity: string, options: { validAt?: Moment; asOf?: Moment } = {}): Promise<Fact[]> {
    return ops.about(this.#execute, this.namespace, entity, options.validAt ?? null,
                     options.asOf ?? null);
  }

  /** Every version of the subject's facts (of one predicate), newest first. */
  history(subject: string, predicate?: string): Promise<Fact[]> {
    return ops.history(this.#execute, this.namespace, subject, predicate ?? null);
  }

  /** Evidence episodes, citing summaries and supersession of one fact. */
  why(factId: string): Promise<Provenance> {
    return ops.why(this.#execute, this.namespace, factId);
  }

  /** Replace a fact's object; the old fact stays as superseded history. `evidence`: the
   * episodes that say so (the user's turn). */
  correct(factId: string, object: Value,
          options: { reason: string; evidence?: string[] }): Promise<Fact> {
    return ops.correct(this.#execute, this.namespace, factId, object, options.reason,
                       options.evidence ?? null);
  }

  /** Withdraw a fact; it stays as retracted history. */
  retract(factId: string, options: { reason: string }): Promise<Fact> {
    return ops.retract(this.#execute, this.namespace, factId, options.reason);
  }

  /**
   * Erase an entity's facts, some episodes, or (`namespace: true`) everything. For an entity,
   * `mentions` says what happens to the turns that name it: `"keep"` (default), `"redact"`
   * or `"erase"`; `dryRun: true` returns the `ErasurePlan` and writes nothing.
   */
  forget(target: { entity: string; mentions?: Mentions; dryRun: true }): Promise<ErasurePlan>;
  forget(target: { entity?: string; episodes?: string[]; namespace?: boolean;
                   mentions?: Mentions; dryRun?: false }): Promise<Receipt>;
  forget(target: ops.ForgetTarget & { dryRun?: boolean }): Promise<Receipt | ErasurePlan> {
    return target.dryRun ? ops.forgetPlan(this.#execute, this.namespace, target)
      : ops.forget(this.#execute, this.namespace, target);
  }

  /** Open conflicts, newest first. */
  conflicts(): Promise<Conflict[]> {
    return ops.conflicts(this.#execute, this.namespace);
  }

  /** Settle a conflict by keeping the candidate fact `keep`. */
  resolve(conflictId: string, keep: string, options: { reason: string }): Promise<Conflict> {
    return ops.resolve(this.#execute, this.namespace, conflictId, keep, options.reason);
  }

  /** Make `alias` another name of `entity` (e.g. `alias("user", "Dana")`). */
  alias(entity: string, alias: string): Promise<Entity> {
    return ops.alias(this.#execute, this.namespace, entity, alias);
  }

  /** How `predicate` resolves competing values in this namespace, for later writes. */
  setPolicy(predicate: string, cardinality: Cardinality,
            strategy: Strategy = "recency"): Promise<PredicatePolicy> {
    return ops.setPolicy(this.#execute, this.namespace, predicate, cardinality, strategy);
  }

  /** The freshest summary of a conversation, or null before there is one. */
  summary(sessionId: string): Promise<Summary | null> {
    return ops.summary(this.#execute, this.namespace, sessionId);
  }

  /** The key stays out of logs: only the endpoint and namespace show. */
  toString(): string {
    return `Memory(url=${this.url}, namespace=${this.namespace})`;
  }
}
