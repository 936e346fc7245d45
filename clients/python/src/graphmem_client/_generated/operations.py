__all__ = [
    "ABOUT_AT_GQL",
    "ABOUT_GQL",
    "ADD_ALIAS_GQL",
    "ASSERT_FACTS_GQL",
    "CORRECT_FACT_GQL",
    "ERASE_EPISODES_GQL",
    "ERASE_NAMESPACE_GQL",
    "ERASE_SUBJECT_GQL",
    "ERASURE_PLAN_GQL",
    "HISTORY_GQL",
    "OPEN_CONFLICTS_GQL",
    "PROVENANCE_GQL",
    "RECALL_GQL",
    "RECORD_EPISODES_GQL",
    "RESOLVE_CONFLICT_GQL",
    "RETRACT_FACT_GQL",
    "SEARCH_GQL",
    "SESSION_SUMMARY_GQL",
    "SET_PREDICATE_POLICY_GQL",
]

OPEN_CONFLICTS_GQL = """
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
}
"""

RESOLVE_CONFLICT_GQL = """
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
}
"""

ADD_ALIAS_GQL = """
mutation AddAlias($namespace: String!, $name: String!, $alias: String!) {
  addAlias(namespace: $namespace, name: $name, alias: $alias) {
    id
    name
    aliases
  }
}
"""

RECORD_EPISODES_GQL = """
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
"""

ERASE_SUBJECT_GQL = """
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
}
"""

ERASURE_PLAN_GQL = """
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
"""

ERASE_EPISODES_GQL = """
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
}
"""

ERASE_NAMESPACE_GQL = """
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
}
"""

ASSERT_FACTS_GQL = """
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
}
"""

CORRECT_FACT_GQL = """
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
}
"""

RETRACT_FACT_GQL = """
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
}
"""

ABOUT_GQL = """
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
}
"""

ABOUT_AT_GQL = """
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
}
"""

HISTORY_GQL = """
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
}
"""

PROVENANCE_GQL = """
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

fragment SummaryFields on Summary {
  id
  sessionId
  level
  text
  stale
}
"""

SET_PREDICATE_POLICY_GQL = """
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
"""

RECALL_GQL = """
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
"""

SEARCH_GQL = """
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

fragment SummaryFields on Summary {
  id
  sessionId
  level
  text
  stale
}
"""

SESSION_SUMMARY_GQL = """
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
}
"""
