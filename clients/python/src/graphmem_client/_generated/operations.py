__all__ = [
    "ABOUT_GQL",
    "ASSERT_FACTS_GQL",
    "CORRECT_FACT_GQL",
    "ERASE_EPISODES_GQL",
    "ERASE_NAMESPACE_GQL",
    "ERASE_SUBJECT_GQL",
    "OPEN_CONFLICTS_GQL",
    "PROVENANCE_GQL",
    "RECALL_GQL",
    "RECORD_EPISODES_GQL",
    "RESOLVE_CONFLICT_GQL",
    "RETRACT_FACT_GQL",
    "SEARCH_GQL",
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
  reason
  openConflicts
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
mutation EraseSubject($namespace: String!, $entity: String!) {
  eraseSubject(namespace: $namespace, entity: $entity) {
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
  reason
  openConflicts
}
"""

CORRECT_FACT_GQL = """
mutation CorrectFact($namespace: String!, $factId: ID!, $reason: String!, $object: String, $value: LiteralInput) {
  correctFact(
    namespace: $namespace
    factId: $factId
    reason: $reason
    object: $object
    value: $value
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
