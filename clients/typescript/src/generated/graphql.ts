/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** one: one value at a time (a new value overlapping a believed one is resolved by the strategy); many: values accumulate. */
export type Cardinality =
  | 'MANY'
  | 'ONE';

/** open: awaiting a decision (its candidates are disputed); resolved: settled by resolveConflict or because all but one candidate ended. */
export type ConflictStatus =
  | 'OPEN'
  | 'RESOLVED';

/** An episode to record. Give `externalId` to make retries safe. */
export type EpisodeInput = {
  /** Who produced it. */
  actor?: string | null | undefined;
  /** The full content (never truncated). */
  content: string;
  /** Idempotency key: recording it again is a no-op. */
  externalId?: string | null | undefined;
  /** 0..1. */
  importance?: number | null | undefined;
  /** What it records. */
  kind: EpisodeKind;
  /** A JSON object. */
  metadata?: unknown;
  /** When it happened; must carry a timezone. */
  occurredAt: string;
  /** Sensitivity class. */
  sensitivity?: Sensitivity;
  /** Session to append to. */
  sessionId?: string | null | undefined;
};

/** What an episode records. */
export type EpisodeKind =
  | 'AGENT_MESSAGE'
  | 'DOCUMENT'
  | 'ERROR'
  | 'OBSERVATION'
  | 'TOOL_CALL'
  | 'TOOL_RESULT'
  | 'USER_MESSAGE';

/** A fact to assert. Give `object` (an entity name) or `value` (a literal), not both. */
export type FactInput = {
  /** 0..1. Left out: 1.0 for a new fact; restating a fact memory holds keeps its confidence (README: *Confidence*). */
  confidence?: number | null | undefined;
  /** Episode ids or externalIds it was taken from. */
  evidence?: Array<string>;
  /** The object entity's name. */
  object?: string | null | undefined;
  /** e.g. organisation. */
  objectType?: string | null | undefined;
  /** A lower-case word like `works_at`. */
  predicate: string;
  /** Who said it. */
  source?: Source;
  /** The subject entity's name (resolved exactly by normalised name or alias). */
  subject: string;
  /** e.g. person. */
  subjectType?: string | null | undefined;
  /** True from. */
  validFrom?: string | null | undefined;
  /** True until. */
  validTo?: string | null | undefined;
  /** A literal object. */
  value?: LiteralInput | null | undefined;
};

/** active: believed now; disputed: contradicted, awaiting resolution; superseded: replaced by a newer fact; retracted: withdrawn. */
export type FactStatus =
  | 'ACTIVE'
  | 'DISPUTED'
  | 'RETRACTED'
  | 'SUPERSEDED';

/** A typed literal object: set exactly one field. */
export type LiteralInput = {
  /** A boolean. */
  boolean?: boolean | null | undefined;
  /** A calendar date. */
  date?: string | null | undefined;
  /** A number. */
  number?: number | null | undefined;
  /** A free string. */
  string?: string | null | undefined;
};

/** What erasing an entity does to the turns that mention it (its name or any alias as a whole word, any case: "Biscuit's" mentions Biscuit, "Biscuits" does not): KEEP leaves them as they are; REDACT replaces each mention with [redacted] and keeps the rest of the turn; ERASE erases those turns (with the episode cascade). */
export type MentionScope =
  | 'ERASE'
  | 'KEEP'
  | 'REDACT';

/** created: a new believed fact (it may have superseded others: see `fact.supersedes`); evidence_added: the same believed fact existed, so the new evidence was attached to it instead of writing a duplicate; disputed: stored, but its predicate's policy could not decide against a believed value, so both are disputed in an open conflict; superseded: stored as history only, because a stronger believed fact covers its whole validity; forgotten: not stored, because the user asked memory to forget this fact (`forgetFact`): only a user's own statement or correction brings it back. */
export type Outcome =
  | 'CREATED'
  | 'DISPUTED'
  | 'EVIDENCE_ADDED'
  | 'FORGOTTEN'
  | 'SUPERSEDED';

/** What a hit is. */
export type SearchKind =
  | 'ENTITY'
  | 'EPISODE'
  | 'FACT'
  | 'SUMMARY';

/** How sensitive an episode is; retention can key on it. */
export type Sensitivity =
  | 'FINANCIAL'
  | 'HEALTH'
  | 'PERSONAL'
  | 'PUBLIC'
  | 'SENSITIVE';

/** Who said it, highest priority first: user_correction > user_statement > agent_assertion > extraction > inference; import is for migrated data. */
export type Source =
  | 'AGENT_ASSERTION'
  | 'EXTRACTION'
  | 'IMPORT'
  | 'INFERENCE'
  | 'USER_CORRECTION'
  | 'USER_STATEMENT';

/** recency: the value that became true later in world time wins (at the same start, the newer statement); confidence: the more confident wins, a tie is a dispute; source_priority: user_correction > user_statement > agent_assertion > extraction > inference, a tie is a dispute; manual: every overlap is a dispute. */
export type Strategy =
  | 'CONFIDENCE'
  | 'MANUAL'
  | 'RECENCY'
  | 'SOURCE_PRIORITY';

export type OpenConflictsQueryVariables = Exact<{
  namespace: string;
  first: number;
  after?: string | null | undefined;
}>;


export type OpenConflictsQuery = { conflicts: { nodes: Array<{ id: string, status: ConflictStatus, subject: string, predicate: string, createdAt: string, resolvedAt: string | null, reason: string | null, kept: string | null, candidates: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }> }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ResolveConflictMutationVariables = Exact<{
  namespace: string;
  conflictId: string | number;
  keep: string | number;
  reason: string;
}>;


export type ResolveConflictMutation = { resolveConflict: { id: string, status: ConflictStatus, subject: string, predicate: string, createdAt: string, resolvedAt: string | null, reason: string | null, kept: string | null, candidates: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }> } };

export type AddAliasMutationVariables = Exact<{
  namespace: string;
  name: string;
  alias: string;
}>;


export type AddAliasMutation = { addAlias: { id: string, name: string, aliases: Array<string> } };

export type RecordEpisodesMutationVariables = Exact<{
  namespace: string;
  episodes: Array<EpisodeInput> | EpisodeInput;
}>;


export type RecordEpisodesMutation = { recordEpisodes: { created: number, duplicates: number, episodes: Array<{ id: string, externalId: string | null }> } };

export type EraseSubjectMutationVariables = Exact<{
  namespace: string;
  entity: string;
  mentions?: MentionScope;
}>;


export type EraseSubjectMutation = { eraseSubject: { id: string, scope: string, remainingNodes: number, remainingSearchable: number, verified: boolean, counts: Array<{ kind: string, count: number }> } };

export type ErasurePlanQueryVariables = Exact<{
  namespace: string;
  entity: string;
  mentions?: MentionScope;
}>;


export type ErasurePlanQuery = { erasurePlan: { entity: string, names: Array<string>, mentions: MentionScope, facts: Array<{ id: string, text: string, status: string }>, factsRetracted: Array<{ id: string, text: string, status: string }>, turns: Array<{ id: string, kind: string, occurredAt: string, sessionId: string | null, excerpt: string, action: string }>, summaries: Array<{ id: string, sessionId: string | null, excerpt: string }> } };

export type EraseEpisodesMutationVariables = Exact<{
  namespace: string;
  ids: Array<string> | string;
}>;


export type EraseEpisodesMutation = { eraseEpisodes: { id: string, scope: string, remainingNodes: number, remainingSearchable: number, verified: boolean, counts: Array<{ kind: string, count: number }> } };

export type EraseNamespaceMutationVariables = Exact<{
  namespace: string;
  confirm: string;
}>;


export type EraseNamespaceMutation = { eraseNamespace: { id: string, scope: string, remainingNodes: number, remainingSearchable: number, verified: boolean, counts: Array<{ kind: string, count: number }> } };

export type AssertFactsMutationVariables = Exact<{
  namespace: string;
  facts: Array<FactInput> | FactInput;
}>;


export type AssertFactsMutation = { assertFacts: Array<{ outcome: Outcome, fact: { id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> } }> };

export type CorrectFactMutationVariables = Exact<{
  namespace: string;
  factId: string | number;
  reason: string;
  object?: string | null | undefined;
  value?: LiteralInput | null | undefined;
  evidence?: Array<string> | string | null | undefined;
}>;


export type CorrectFactMutation = { correctFact: { outcome: Outcome, fact: { id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> } } };

export type RetractFactMutationVariables = Exact<{
  namespace: string;
  factId: string | number;
  reason: string;
}>;


export type RetractFactMutation = { retractFact: { id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> } };

export type AboutQueryVariables = Exact<{
  namespace: string;
  name: string;
}>;


export type AboutQuery = { entity: { factsOut: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }>, factsIn: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }> } | null };

export type AboutAtQueryVariables = Exact<{
  namespace: string;
  name: string;
  validAt?: string | null | undefined;
  asOf?: string | null | undefined;
  first: number;
}>;


export type AboutAtQuery = { asSubject: { nodes: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }> }, asObject: { nodes: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }> } };

export type HistoryQueryVariables = Exact<{
  namespace: string;
  subject: string;
  predicate?: string | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type HistoryQuery = { facts: { nodes: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ProvenanceQueryVariables = Exact<{
  namespace: string;
  factId: string | number;
}>;


export type ProvenanceQuery = { provenance: { fact: { id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }, evidence: Array<{ id: string, externalId: string | null, sessionId: string | null, seq: number, kind: EpisodeKind, actor: string | null, content: string, occurredAt: string }>, citedBy: Array<{ id: string, sessionId: string | null, level: number, text: string, stale: boolean }>, supersedes: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }>, supersededBy: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }> } };

export type FactFieldsFragment = { id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> };

export type EpisodeFieldsFragment = { id: string, externalId: string | null, sessionId: string | null, seq: number, kind: EpisodeKind, actor: string | null, content: string, occurredAt: string };

export type SummaryFieldsFragment = { id: string, sessionId: string | null, level: number, text: string, stale: boolean };

export type ReceiptFieldsFragment = { id: string, scope: string, remainingNodes: number, remainingSearchable: number, verified: boolean, counts: Array<{ kind: string, count: number }> };

export type ConflictFieldsFragment = { id: string, status: ConflictStatus, subject: string, predicate: string, createdAt: string, resolvedAt: string | null, reason: string | null, kept: string | null, candidates: Array<{ id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> }> };

export type SetPredicatePolicyMutationVariables = Exact<{
  namespace: string;
  predicate: string;
  cardinality: Cardinality;
  strategy: Strategy;
}>;


export type SetPredicatePolicyMutation = { setPredicatePolicy: { predicate: string, cardinality: Cardinality, strategy: Strategy, isDefault: boolean } };

export type RecallQueryVariables = Exact<{
  namespace: string;
  query: string;
  sessionId?: string | null | undefined;
  tokenBudget: number;
  asOf?: string | null | undefined;
}>;


export type RecallQuery = { recall: { tokensUsed: number, tokenBudget: number, pieces: Array<{ layer: string, text: string, tokens: number, fact: { id: string } | null, episode: { id: string } | null, summary: { id: string } | null }> } };

export type SearchQueryVariables = Exact<{
  namespace: string;
  query: string;
  limit: number;
  kinds?: Array<SearchKind> | SearchKind | null | undefined;
}>;


export type SearchQuery = { search: { hits: Array<{ kind: SearchKind, score: number, episode: { id: string, externalId: string | null, sessionId: string | null, seq: number, kind: EpisodeKind, actor: string | null, content: string, occurredAt: string } | null, fact: { id: string, subject: string, predicate: string, object: string, objectKind: string, text: string, confidence: number, source: Source, status: FactStatus, validFrom: string | null, validTo: string | null, recordedAt: string, retractedAt: string | null, assertedBy: string | null, endedBy: string | null, reason: string | null, openConflicts: Array<string> } | null, summary: { id: string, sessionId: string | null, level: number, text: string, stale: boolean } | null, entity: { id: string, name: string } | null }> } };

export type SessionSummaryQueryVariables = Exact<{
  namespace: string;
  sessionId: string;
}>;


export type SessionSummaryQuery = { summary: { id: string, sessionId: string | null, level: number, text: string, stale: boolean } | null };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const EpisodeFieldsFragmentDoc = new TypedDocumentString(`
    fragment EpisodeFields on Episode {
  id
  externalId
  sessionId
  seq
  kind
  actor
  content
  occurredAt
}
    `, {"fragmentName":"EpisodeFields"}) as unknown as TypedDocumentString<EpisodeFieldsFragment, unknown>;
export const SummaryFieldsFragmentDoc = new TypedDocumentString(`
    fragment SummaryFields on Summary {
  id
  sessionId
  level
  text
  stale
}
    `, {"fragmentName":"SummaryFields"}) as unknown as TypedDocumentString<SummaryFieldsFragment, unknown>;
export const ReceiptFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReceiptFields on ErasureReceipt {
  id
  scope
  counts {
    kind
    count
  }
  remainingNodes
  remainingSearchable
  verified
}
    `, {"fragmentName":"ReceiptFields"}) as unknown as TypedDocumentString<ReceiptFieldsFragment, unknown>;
export const FactFieldsFragmentDoc = new TypedDocumentString(`
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}
    `, {"fragmentName":"FactFields"}) as unknown as TypedDocumentString<FactFieldsFragment, unknown>;
export const ConflictFieldsFragmentDoc = new TypedDocumentString(`
    fragment ConflictFields on Conflict {
  id
  status
  subject
  predicate
  createdAt
  resolvedAt
  reason
  kept
  candidates {
    ...FactFields
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}`, {"fragmentName":"ConflictFields"}) as unknown as TypedDocumentString<ConflictFieldsFragment, unknown>;
export const OpenConflictsDocument = new TypedDocumentString(`
    query OpenConflicts($namespace: String!, $first: Int!, $after: String) {
  conflicts(namespace: $namespace, status: OPEN, first: $first, after: $after) {
    nodes {
      ...ConflictFields
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}
fragment ConflictFields on Conflict {
  id
  status
  subject
  predicate
  createdAt
  resolvedAt
  reason
  kept
  candidates {
    ...FactFields
  }
}`) as unknown as TypedDocumentString<OpenConflictsQuery, OpenConflictsQueryVariables>;
export const ResolveConflictDocument = new TypedDocumentString(`
    mutation ResolveConflict($namespace: String!, $conflictId: ID!, $keep: ID!, $reason: String!) {
  resolveConflict(
    namespace: $namespace
    conflictId: $conflictId
    keep: $keep
    reason: $reason
  ) {
    ...ConflictFields
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}
fragment ConflictFields on Conflict {
  id
  status
  subject
  predicate
  createdAt
  resolvedAt
  reason
  kept
  candidates {
    ...FactFields
  }
}`) as unknown as TypedDocumentString<ResolveConflictMutation, ResolveConflictMutationVariables>;
export const AddAliasDocument = new TypedDocumentString(`
    mutation AddAlias($namespace: String!, $name: String!, $alias: String!) {
  addAlias(namespace: $namespace, name: $name, alias: $alias) {
    id
    name
    aliases
  }
}
    `) as unknown as TypedDocumentString<AddAliasMutation, AddAliasMutationVariables>;
export const RecordEpisodesDocument = new TypedDocumentString(`
    mutation RecordEpisodes($namespace: String!, $episodes: [EpisodeInput!]!) {
  recordEpisodes(namespace: $namespace, episodes: $episodes) {
    created
    duplicates
    episodes {
      id
      externalId
    }
  }
}
    `) as unknown as TypedDocumentString<RecordEpisodesMutation, RecordEpisodesMutationVariables>;
export const EraseSubjectDocument = new TypedDocumentString(`
    mutation EraseSubject($namespace: String!, $entity: String!, $mentions: MentionScope! = KEEP) {
  eraseSubject(namespace: $namespace, entity: $entity, mentions: $mentions) {
    ...ReceiptFields
  }
}
    fragment ReceiptFields on ErasureReceipt {
  id
  scope
  counts {
    kind
    count
  }
  remainingNodes
  remainingSearchable
  verified
}`) as unknown as TypedDocumentString<EraseSubjectMutation, EraseSubjectMutationVariables>;
export const ErasurePlanDocument = new TypedDocumentString(`
    query ErasurePlan($namespace: String!, $entity: String!, $mentions: MentionScope! = KEEP) {
  erasurePlan(namespace: $namespace, entity: $entity, mentions: $mentions) {
    entity
    names
    mentions
    facts {
      id
      text
      status
    }
    factsRetracted {
      id
      text
      status
    }
    turns {
      id
      kind
      occurredAt
      sessionId
      excerpt
      action
    }
    summaries {
      id
      sessionId
      excerpt
    }
  }
}
    `) as unknown as TypedDocumentString<ErasurePlanQuery, ErasurePlanQueryVariables>;
export const EraseEpisodesDocument = new TypedDocumentString(`
    mutation EraseEpisodes($namespace: String!, $ids: [String!]!) {
  eraseEpisodes(namespace: $namespace, ids: $ids) {
    ...ReceiptFields
  }
}
    fragment ReceiptFields on ErasureReceipt {
  id
  scope
  counts {
    kind
    count
  }
  remainingNodes
  remainingSearchable
  verified
}`) as unknown as TypedDocumentString<EraseEpisodesMutation, EraseEpisodesMutationVariables>;
export const EraseNamespaceDocument = new TypedDocumentString(`
    mutation EraseNamespace($namespace: String!, $confirm: String!) {
  eraseNamespace(namespace: $namespace, confirm: $confirm) {
    ...ReceiptFields
  }
}
    fragment ReceiptFields on ErasureReceipt {
  id
  scope
  counts {
    kind
    count
  }
  remainingNodes
  remainingSearchable
  verified
}`) as unknown as TypedDocumentString<EraseNamespaceMutation, EraseNamespaceMutationVariables>;
export const AssertFactsDocument = new TypedDocumentString(`
    mutation AssertFacts($namespace: String!, $facts: [FactInput!]!) {
  assertFacts(namespace: $namespace, facts: $facts) {
    outcome
    fact {
      ...FactFields
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}`) as unknown as TypedDocumentString<AssertFactsMutation, AssertFactsMutationVariables>;
export const CorrectFactDocument = new TypedDocumentString(`
    mutation CorrectFact($namespace: String!, $factId: ID!, $reason: String!, $object: String, $value: LiteralInput, $evidence: [String!]) {
  correctFact(
    namespace: $namespace
    factId: $factId
    reason: $reason
    object: $object
    value: $value
    evidence: $evidence
  ) {
    outcome
    fact {
      ...FactFields
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}`) as unknown as TypedDocumentString<CorrectFactMutation, CorrectFactMutationVariables>;
export const RetractFactDocument = new TypedDocumentString(`
    mutation RetractFact($namespace: String!, $factId: ID!, $reason: String!) {
  retractFact(namespace: $namespace, factId: $factId, reason: $reason) {
    ...FactFields
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}`) as unknown as TypedDocumentString<RetractFactMutation, RetractFactMutationVariables>;
export const AboutDocument = new TypedDocumentString(`
    query About($namespace: String!, $name: String!) {
  entity(namespace: $namespace, name: $name) {
    factsOut {
      ...FactFields
    }
    factsIn {
      ...FactFields
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}`) as unknown as TypedDocumentString<AboutQuery, AboutQueryVariables>;
export const AboutAtDocument = new TypedDocumentString(`
    query AboutAt($namespace: String!, $name: String!, $validAt: DateTime, $asOf: DateTime, $first: Int!) {
  asSubject: facts(
    namespace: $namespace
    where: {subject: $name}
    validAt: $validAt
    asOf: $asOf
    first: $first
  ) {
    nodes {
      ...FactFields
    }
  }
  asObject: facts(
    namespace: $namespace
    where: {object: $name}
    validAt: $validAt
    asOf: $asOf
    first: $first
  ) {
    nodes {
      ...FactFields
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}`) as unknown as TypedDocumentString<AboutAtQuery, AboutAtQueryVariables>;
export const HistoryDocument = new TypedDocumentString(`
    query History($namespace: String!, $subject: String!, $predicate: String, $first: Int!, $after: String) {
  facts(
    namespace: $namespace
    where: {subject: $subject, predicate: $predicate}
    includeHistory: true
    first: $first
    after: $after
  ) {
    nodes {
      ...FactFields
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}`) as unknown as TypedDocumentString<HistoryQuery, HistoryQueryVariables>;
export const ProvenanceDocument = new TypedDocumentString(`
    query Provenance($namespace: String!, $factId: ID!) {
  provenance(namespace: $namespace, factId: $factId) {
    fact {
      ...FactFields
    }
    evidence {
      ...EpisodeFields
    }
    citedBy {
      ...SummaryFields
    }
    supersedes {
      ...FactFields
    }
    supersededBy {
      ...FactFields
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}
fragment EpisodeFields on Episode {
  id
  externalId
  sessionId
  seq
  kind
  actor
  content
  occurredAt
}
fragment SummaryFields on Summary {
  id
  sessionId
  level
  text
  stale
}`) as unknown as TypedDocumentString<ProvenanceQuery, ProvenanceQueryVariables>;
export const SetPredicatePolicyDocument = new TypedDocumentString(`
    mutation SetPredicatePolicy($namespace: String!, $predicate: String!, $cardinality: Cardinality!, $strategy: Strategy!) {
  setPredicatePolicy(
    namespace: $namespace
    predicate: $predicate
    cardinality: $cardinality
    strategy: $strategy
  ) {
    predicate
    cardinality
    strategy
    isDefault
  }
}
    `) as unknown as TypedDocumentString<SetPredicatePolicyMutation, SetPredicatePolicyMutationVariables>;
export const RecallDocument = new TypedDocumentString(`
    query Recall($namespace: String!, $query: String!, $sessionId: String, $tokenBudget: Int!, $asOf: DateTime) {
  recall(
    namespace: $namespace
    query: $query
    sessionId: $sessionId
    tokenBudget: $tokenBudget
    asOf: $asOf
  ) {
    pieces {
      layer
      text
      tokens
      fact {
        id
      }
      episode {
        id
      }
      summary {
        id
      }
    }
    tokensUsed
    tokenBudget
  }
}
    `) as unknown as TypedDocumentString<RecallQuery, RecallQueryVariables>;
export const SearchDocument = new TypedDocumentString(`
    query Search($namespace: String!, $query: String!, $limit: Int!, $kinds: [SearchKind!]) {
  search(namespace: $namespace, query: $query, limit: $limit, kinds: $kinds) {
    hits {
      kind
      score
      episode {
        ...EpisodeFields
      }
      fact {
        ...FactFields
      }
      summary {
        ...SummaryFields
      }
      entity {
        id
        name
      }
    }
  }
}
    fragment FactFields on Fact {
  id
  subject
  predicate
  object
  objectKind
  text
  confidence
  source
  status
  validFrom
  validTo
  recordedAt
  retractedAt
  assertedBy
  endedBy
  reason
  openConflicts
}
fragment EpisodeFields on Episode {
  id
  externalId
  sessionId
  seq
  kind
  actor
  content
  occurredAt
}
fragment SummaryFields on Summary {
  id
  sessionId
  level
  text
  stale
}`) as unknown as TypedDocumentString<SearchQuery, SearchQueryVariables>;
export const SessionSummaryDocument = new TypedDocumentString(`
    query SessionSummary($namespace: String!, $sessionId: String!) {
  summary(namespace: $namespace, sessionId: $sessionId) {
    ...SummaryFields
  }
}
    fragment SummaryFields on Summary {
  id
  sessionId
  level
  text
  stale
}`) as unknown as TypedDocumentString<SessionSummaryQuery, SessionSummaryQueryVariables>;