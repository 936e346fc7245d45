/**
 * What the facade takes and gives. Results are the generated GraphQL types (camelCase, times
 * as ISO 8601 strings) where the answer already has the right shape, and small interfaces
 * where the facade reshapes it (`Recall`, `Hit`, `Receipt`, ...).
 */

import type {
  ConflictFieldsFragment,
  EpisodeFieldsFragment,
  ErasurePlanQuery,
  FactFieldsFragment,
  SetPredicatePolicyMutation,
  SummaryFieldsFragment,
} from "./generated/graphql.js";

/** A subject–predicate–object statement and where it stands: `recordedAt` is when memory
 * started believing it, `retractedAt` when that ended, `endedBy` the key that ended it. */
export type Fact = FactFieldsFragment;
/** One stored turn (or tool call, observation, document). */
export type Episode = EpisodeFieldsFragment;
export type Summary = SummaryFieldsFragment;
/** Facts the predicate's policy could not settle; `resolve` keeps one candidate. */
export type Conflict = ConflictFieldsFragment;
/** How a predicate resolves competing values (`cardinality` ONE or MANY, `strategy`). */
export type PredicatePolicy = SetPredicatePolicyMutation["setPredicatePolicy"];
/** What `forget({ entity, dryRun: true })` would remove; nothing was written. */
export type ErasurePlan = Omit<ErasurePlanQuery["erasurePlan"], "mentions"> & { mentions: Mentions };

/** A string object names an entity; numbers and booleans are literals. */
export type Value = string | number | boolean;
/** An instant: a `Date`, or an ISO 8601 string (without a zone it is UTC). */
export type Moment = Date | string;
export type Source = "user_statement" | "user_correction" | "agent_assertion" | "extraction"
  | "inference" | "import";
export type Cardinality = "one" | "many";
export type Strategy = "recency" | "confidence" | "source_priority" | "manual";
export type Mentions = "keep" | "redact" | "erase";
export type SearchKind = "episode" | "fact" | "summary" | "entity";

/**
 * One conversation turn to record, e.g. `{ role: "user", content: "I moved to Porto" }`.
 *
 * `role` is a chat role (user, assistant, system, tool) or an episode kind (tool_call,
 * observation, document, ...). `externalId` makes sending it again a no-op; without one,
 * `record` derives it from the turn's session, position, role, actor, content and time. To
 * resume an upload in another process, give `occurredAt` (or `externalId`): a turn without a
 * time is stamped when `record` reads it.
 */
export interface Turn {
  content: string;
  role?: string;
  actor?: string;
  occurredAt?: Moment;
  externalId?: string;
  sessionId?: string;
  metadata?: Record<string, unknown>;
  importance?: number;
  sensitivity?: string;
}

/** What `record` did: new episodes, ones already stored, their ids in input order. */
export interface RecordResult {
  created: number;
  duplicates: number;
  episodeIds: string[];
  batches: number;
}

/** What `remember` did: `outcome` is CREATED, EVIDENCE_ADDED, DISPUTED or SUPERSEDED. */
export interface Remembered {
  outcome: string;
  fact: Fact;
  id: string;
}

/** One piece of recalled context: `layer` is summary, facts or episodes. */
export interface Piece {
  layer: string;
  text: string;
  tokens: number;
  factId: string | null;
  episodeId: string | null;
  summaryId: string | null;
}

/** What an agent should know for one turn; `text` goes into the prompt as it is. */
export interface Recall {
  text: string;
  pieces: Piece[];
  tokensUsed: number;
  tokenBudget: number;
}

/** A search hit: `kind` (EPISODE, FACT, SUMMARY, ENTITY), its id and text, and the item. */
export interface Hit {
  kind: string;
  score: number;
  id: string;
  text: string;
  episode: Episode | null;
  fact: Fact | null;
  summary: Summary | null;
}

/** Why memory believes a fact: evidence, citing summaries, what it replaced or lost to. */
export interface Provenance {
  fact: Fact;
  evidence: Episode[];
  citedBy: Summary[];
  supersedes: Fact[];
  supersededBy: Fact[];
}

/** Proof of an erasure: counts by kind, and a re-query that found nothing left. */
export interface Receipt {
  id: string;
  scope: string;
  counts: Record<string, number>;
  remainingNodes: number;
  remainingSearchable: number;
  verified: boolean;
}

/** A person or thing: its name and the other names that resolve to it. */
export interface Entity {
  id: string;
  name: string;
  aliases: string[];
}
