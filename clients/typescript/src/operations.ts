/**
 * The facade's calls: each sends the generated documents it needs (`generated/graphql.ts`,
 * graphql-codegen over the server's SDL and the Python client's `queries/*.graphql`) and
 * shapes the answer. `Memory` binds them to its settings.
 */

import { InvalidInput, PayloadTooLarge } from "./errors.js";
import * as gen from "./generated/graphql.js";
import type {
  Conflict, Entity, ErasurePlan, Fact, Hit, Mentions, Moment, Piece, PredicatePolicy,
  Provenance, Recall, Receipt, RecordResult, Remembered, SearchKind, Source, Summary, Turn, Value,
} from "./models.js";
import type { Call } from "./transport.js";

/** Sends one GraphQL request on the memory's connection: its data, or a typed error. */
export type Execute = (call: Call) => Promise<Record<string, unknown>>;

/** Episodes per request until the server names its cap (1000 by default). */
export const BATCH = 500;
/** Bytes per request: half the server's default body cap (8 MiB). */
export const BATCH_BYTES = 4 * 1024 * 1024;
const PAGE = 100;
const ABOUT = 200;  // facts per end at another instant, as the entity's own lists hold now
const CAP = /^send 1 to (\d+) /;
// Writes idempotent by their content: sending one again after a lost answer changes nothing.
const REPEATABLE = new Set(["RecordEpisodes", "AssertFacts", "SetPredicatePolicy"]);

async function send<R, V>(execute: Execute, document: gen.TypedDocumentString<R, V>,
                          operation: string, variables: V): Promise<R> {
  const text = document.toString();
  const repeatable = text.trimStart().startsWith("query") || REPEATABLE.has(operation);
  const data = await execute({ document: text, operation, repeatable,
                               variables: variables as Record<string, unknown> });
  return data as R;
}

/** Upload in batches that fit the server's caps, each idempotent by its externalIds: an
 * interrupted upload sent again (or a superset of it) writes every episode once. */
export async function record(execute: Execute, namespace: string, turns: Iterable<Turn>,
                             sessionId: string | null): Promise<RecordResult> {
  const now = new Date();
  const parsed = [...turns];
  const episodes = await Promise.all(parsed.map(
    (turn, position) => episodeInput(turn, position, sessionId, now)));
  warnUnlessResumable(parsed);
  const result: RecordResult = { created: 0, duplicates: 0, episodeIds: [], batches: 0 };
  let size = BATCH;
  for (let start = 0; start < episodes.length;) {
    const batch = fitting(episodes.slice(start, start + size));
    let done: gen.RecordEpisodesMutation["recordEpisodes"];
    try {
      ({ recordEpisodes: done } = await send(execute, gen.RecordEpisodesDocument,
                                             "RecordEpisodes", { namespace, episodes: batch }));
    } catch (error) {
      if (error instanceof InvalidInput && error.field === "episodes") {  // over the count cap
        const cap = CAP.exec(error.detail);
        if (cap && Number(cap[1]) < batch.length) {
          size = Number(cap[1]);
          continue;
        }
      } else if (error instanceof PayloadTooLarge && batch.length > 1) {
        size = Math.max(1, Math.floor(batch.length / 2));
        continue;
      }
      throw error;
    }
    result.created += done.created;
    result.duplicates += done.duplicates;
    result.episodeIds.push(...done.episodes.map((episode) => episode.id));
    result.batches += 1;
    start += batch.length;
  }
  return result;
}

export interface RememberOptions {
  /** Episode ids (`record(...).episodeIds`) or externalIds that say so. */
  evidence?: string[];
  validFrom?: Moment;
  validTo?: Moment;
  confidence?: number;
  /** Who said it: `agent_assertion` by default (`user_statement` outranks it). */
  source?: Source;
}

export async function remember(execute: Execute, namespace: string, subject: string,
                               predicate: string, object: Value,
                               options: RememberOptions): Promise<Remembered> {
  const fact: gen.FactInput = { subject, predicate, evidence: options.evidence ?? [],
                                ...objectInput(object) };
  if (options.validFrom !== undefined) fact.validFrom = instant(options.validFrom);
  if (options.validTo !== undefined) fact.validTo = instant(options.validTo);
  if (options.confidence !== undefined) fact.confidence = options.confidence;
  if (options.source !== undefined) fact.source = options.source.toUpperCase() as gen.Source;
  const { assertFacts } = await send(execute, gen.AssertFactsDocument, "AssertFacts",
                                     { namespace, facts: [fact] });
  const asserted = assertFacts[0]!;
  return { outcome: asserted.outcome, fact: asserted.fact, id: asserted.fact.id };
}

export async function recall(execute: Execute, namespace: string, query: string, budget: number,
                             sessionId: string | null, asOf: Moment | null): Promise<Recall> {
  const { recall: answer } = await send(execute, gen.RecallDocument, "Recall", {
    namespace, query, sessionId, tokenBudget: budget, asOf: asOf === null ? null : instant(asOf),
  });
  const pieces: Piece[] = answer.pieces.map((p) => ({
    layer: p.layer, text: p.text, tokens: p.tokens, factId: p.fact?.id ?? null,
    episodeId: p.episode?.id ?? null, summaryId: p.summary?.id ?? null,
  }));
  return { text: promptText(pieces), pieces, tokensUsed: answer.tokensUsed,
           tokenBudget: answer.tokenBudget };
}

const HEADINGS: Readonly<Record<string, string>> = {
  summary: "Summary of the conversation so far:", facts: "What memory believes:",
  episodes: "Relevant earlier turns:",
};

/** The pieces by layer, each layer under a heading, in the order recall gave them. */
function promptText(pieces: Piece[]): string {
  const sections = new Map<string, string[]>();
  for (const piece of pieces) {
    sections.set(piece.layer, [...(sections.get(piece.layer) ?? []), piece.text.trim()]);
  }
  return [...sections].map(([layer, lines]) =>
    [HEADINGS[layer] ?? `${layer}:`, ...lines.map((line) => `- ${line}`)].join("\n"),
  ).join("\n\n");
}

export async function search(execute: Execute, namespace: string, query: string, limit: number,
                             kinds: SearchKind[] | null): Promise<Hit[]> {
  const { search: found } = await send(execute, gen.SearchDocument, "Search", {
    namespace, query, limit,
    kinds: kinds ? kinds.map((kind) => kind.toUpperCase() as gen.SearchKind) : null,
  });
  return found.hits.map((hit) => {
    const item = hit.episode ?? hit.fact ?? hit.summary ?? hit.entity;
    if (!item) throw new Error("a search hit holds no item");
    const text = hit.episode?.content ?? hit.fact?.text ?? hit.summary?.text
      ?? hit.entity?.name ?? "";
    return { kind: hit.kind, score: hit.score, id: item.id, text, episode: hit.episode,
             fact: hit.fact, summary: hit.summary };
  });
}

/** Now: the entity's facts (by name or alias, either end). At another instant: the facts
 * query, which finds the subject by name or alias and the object by its name. */
export async function about(execute: Execute, namespace: string, entity: string,
                            validAt: Moment | null, asOf: Moment | null): Promise<Fact[]> {
  if (validAt === null && asOf === null) {
    const { entity: found } = await send(execute, gen.AboutDocument, "About",
                                         { namespace, name: entity });
    return found ? [...found.factsOut, ...found.factsIn] : [];
  }
  const at = await send(execute, gen.AboutAtDocument, "AboutAt", {
    namespace, name: entity, validAt: validAt === null ? null : instant(validAt),
    asOf: asOf === null ? null : instant(asOf), first: ABOUT,
  });
  return [...at.asSubject.nodes, ...at.asObject.nodes];
}

/** Every version, newest belief first, whatever its status. */
export async function history(execute: Execute, namespace: string, subject: string,
                              predicate: string | null): Promise<Fact[]> {
  const found: Fact[] = [];
  for (let after: string | null = null; ;) {
    const { facts }: gen.HistoryQuery = await send(execute, gen.HistoryDocument, "History",
                                                   { namespace, subject, predicate, first: PAGE,
                                                     after });
    found.push(...facts.nodes);
    if (!facts.pageInfo.hasNextPage) return found;
    after = facts.pageInfo.endCursor;
  }
}

export async function why(execute: Execute, namespace: string,
                          factId: string): Promise<Provenance> {
  const { provenance } = await send(execute, gen.ProvenanceDocument, "Provenance",
                                    { namespace, factId });
  return provenance;
}

export async function correct(execute: Execute, namespace: string, factId: string,
                              object: Value, reason: string,
                              evidence: string[] | null): Promise<Fact> {
  const { correctFact } = await send(execute, gen.CorrectFactDocument, "CorrectFact", {
    namespace, factId, reason, evidence, ...objectInput(object),
  });
  return correctFact.fact;
}

export async function retract(execute: Execute, namespace: string, factId: string,
                              reason: string): Promise<Fact> {
  const { retractFact } = await send(execute, gen.RetractFactDocument, "RetractFact",
                                     { namespace, factId, reason });
  return retractFact;
}

export const MENTIONS: readonly Mentions[] = ["keep", "redact", "erase"];

export interface ForgetTarget {
  entity?: string;
  episodes?: string[];
  namespace?: boolean;
  mentions?: Mentions;
}

export async function forget(execute: Execute, namespace: string,
                             target: ForgetTarget): Promise<Receipt> {
  const { entity, episodes, mentions = "keep" } = target;
  if ([entity !== undefined, episodes !== undefined, target.namespace === true]
    .filter(Boolean).length !== 1) {
    throw new TypeError("forget takes exactly one of entity, episodes or namespace: true");
  }
  checkMentions(mentions);
  if (mentions !== "keep" && entity === undefined) {
    throw new TypeError("mentions goes with entity");
  }
  let receipt: gen.ReceiptFieldsFragment;
  if (entity !== undefined) {
    ({ eraseSubject: receipt } = await send(execute, gen.EraseSubjectDocument, "EraseSubject", {
      namespace, entity, mentions: mentions.toUpperCase() as gen.MentionScope,
    }));
  } else if (episodes !== undefined) {
    ({ eraseEpisodes: receipt } = await send(execute, gen.EraseEpisodesDocument,
                                             "EraseEpisodes", { namespace, ids: episodes }));
  } else {
    ({ eraseNamespace: receipt } = await send(execute, gen.EraseNamespaceDocument,
                                              "EraseNamespace", { namespace, confirm: namespace }));
  }
  const counts = Object.fromEntries(receipt.counts.map(({ kind, count }) => [kind, count]));
  return { ...receipt, counts };
}

/** `forget`'s dry run: what erasing the entity would remove (only an entity has one). */
export async function forgetPlan(execute: Execute, namespace: string,
                                 target: ForgetTarget): Promise<ErasurePlan> {
  const { entity, mentions = "keep" } = target;
  if (entity === undefined || target.episodes !== undefined || target.namespace) {
    throw new TypeError("dryRun: true goes with entity alone");
  }
  checkMentions(mentions);
  const { erasurePlan } = await send(execute, gen.ErasurePlanDocument, "ErasurePlan", {
    namespace, entity, mentions: mentions.toUpperCase() as gen.MentionScope,
  });
  return { ...erasurePlan, mentions: erasurePlan.mentions.toLowerCase() as Mentions };
}

function checkMentions(mentions: string): void {
  if (!(MENTIONS as readonly string[]).includes(mentions)) {
    throw new TypeError(`mentions must be one of ${MENTIONS.join(", ")}`);
  }
}

export async function conflicts(execute: Execute, namespace: string): Promise<Conflict[]> {
  const found: Conflict[] = [];
  for (let after: string | null = null; ;) {
    const { conflicts: page }: gen.OpenConflictsQuery = await send(
      execute, gen.OpenConflictsDocument, "OpenConflicts", { namespace, first: PAGE, after });
    found.push(...page.nodes);
    if (!page.pageInfo.hasNextPage) return found;
    after = page.pageInfo.endCursor;
  }
}

export async function resolve(execute: Execute, namespace: string, conflictId: string,
                              keep: string, reason: string): Promise<Conflict> {
  const { resolveConflict } = await send(execute, gen.ResolveConflictDocument, "ResolveConflict",
                                         { namespace, conflictId, keep, reason });
  return resolveConflict;
}

export async function alias(execute: Execute, namespace: string, entity: string,
                            alias: string): Promise<Entity> {
  const { addAlias } = await send(execute, gen.AddAliasDocument, "AddAlias",
                                  { namespace, name: entity, alias });
  return addAlias;
}

export async function setPolicy(execute: Execute, namespace: string, predicate: string,
                                cardinality: string, strategy: string): Promise<PredicatePolicy> {
  const { setPredicatePolicy } = await send(execute, gen.SetPredicatePolicyDocument,
                                            "SetPredicatePolicy", {
    namespace, predicate, cardinality: cardinality.toUpperCase() as gen.Cardinality,
    strategy: strategy.toUpperCase() as gen.Strategy,
  });
  return setPredicatePolicy;
}

export async function summary(execute: Execute, namespace: string,
                              sessionId: string): Promise<Summary | null> {
  const { summary: found } = await send(execute, gen.SessionSummaryDocument, "SessionSummary",
                                        { namespace, sessionId });
  return found;
}

// A chat role (OpenAI's and Anthropic's words) or a graphmem episode kind, to the episode kind.
const KINDS: Readonly<Record<string, gen.EpisodeKind>> = {
  user: "USER_MESSAGE", assistant: "AGENT_MESSAGE", agent: "AGENT_MESSAGE",
  system: "OBSERVATION", tool: "TOOL_RESULT", tool_call: "TOOL_CALL",
  tool_result: "TOOL_RESULT", observation: "OBSERVATION", error: "ERROR",
  document: "DOCUMENT", user_message: "USER_MESSAGE", agent_message: "AGENT_MESSAGE",
};

/** The `EpisodeInput` a turn becomes (`position`: its place in the upload). */
async function episodeInput(turn: Turn, position: number, sessionId: string | null,
                            now: Date): Promise<gen.EpisodeInput> {
  if (typeof turn?.content !== "string") throw new TypeError("a turn needs content (a string)");
  const role = (turn.role ?? "user").trim().toLowerCase();
  const kind = KINDS[role];
  if (!kind) {
    throw new TypeError(`unknown role ${JSON.stringify(turn.role)}: use one of `
                        + Object.keys(KINDS).sort().join(", "));
  }
  const session = turn.sessionId ?? sessionId;
  const at = instant(turn.occurredAt ?? now);
  const actor = turn.actor ?? role;
  const episode: gen.EpisodeInput = {
    content: turn.content, kind, occurredAt: at, sessionId: session, actor,
    externalId: turn.externalId ?? await derivedId(session, position, kind, actor,
                                                   turn.content, at),
  };
  if (turn.metadata !== undefined) episode.metadata = turn.metadata;
  if (turn.importance !== undefined) episode.importance = turn.importance;
  if (turn.sensitivity !== undefined) {
    episode.sensitivity = turn.sensitivity.toUpperCase() as gen.Sensitivity;
  }
  return episode;
}

async function derivedId(...parts: unknown[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(parts));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `gmc_${[...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Warn when an upload of several turns could not be sent again safely: a live chat
 * recording one turn at a time is not an upload to resume. */
function warnUnlessResumable(turns: Turn[]): void {
  const unstable = turns.filter((t) => t.occurredAt === undefined && t.externalId === undefined)
    .length;
  if (turns.length > 1 && unstable) {
    const message = `${unstable} of ${turns.length} turns have no occurredAt or externalId: `
      + "their ids come from this moment, so recording the same turns again writes them again; "
      + "give each turn its time (or an externalId) to make the upload resumable";
    const process = (globalThis as { process?: { emitWarning?: (m: string, t: string) => void } })
      .process;
    if (process?.emitWarning) process.emitWarning(message, "NotResumable");
    else console.warn(`NotResumable: ${message}`);
  }
}

/** The longest head of `batch` under `BATCH_BYTES` (at least one episode). */
function fitting(batch: gen.EpisodeInput[]): gen.EpisodeInput[] {
  const encoder = new TextEncoder();
  let total = 0;
  for (const [index, episode] of batch.entries()) {
    total += encoder.encode(episode.content).length
      + (episode.metadata === undefined ? 0 : JSON.stringify(episode.metadata).length) + 256;
    if (total > BATCH_BYTES && index) return batch.slice(0, index);
  }
  return batch;
}

/** A string names an entity; numbers and booleans are literals. */
function objectInput(value: Value): { object?: string; value?: gen.LiteralInput } {
  if (typeof value === "boolean") return { value: { boolean: value } };
  if (typeof value === "number") return { value: { number: value } };
  return { object: value };
}

/** An instant as the API takes it: a `Date` in UTC, a string as given, a string without a
 * zone read as UTC (as the Python client reads a naive datetime). */
export function instant(value: Moment): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError("an invalid Date");
    return value.toISOString();
  }
  return /T\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value}Z` : value;
}
