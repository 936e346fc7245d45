"""GraphQL documents and inputs most tests send."""

from __future__ import annotations

from typing import Any

RECORD = """
mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) {
    created duplicates episodes { id externalId sessionId seq content occurredAt kind metadata }
  }
}"""


ASSERT = """
mutation($ns: String!, $facts: [FactInput!]!) {
  assertFacts(namespace: $ns, facts: $facts) {
    outcome fact { id subject predicate relationshipType object objectKind confidence status
                   evidence { externalId } }
  }
}"""


FACTS = """
query($ns: String!, $where: FactWhere, $history: Boolean! = false) {
  facts(namespace: $ns, where: $where, includeHistory: $history, first: 50) {
    nodes { id subject predicate object confidence source evidence { externalId content } }
  }
}"""


PROVENANCE = """
query($ns: String!, $id: ID!) {
  provenance(namespace: $ns, factId: $id) {
    fact { id text assertedBy recordedAt }
    evidence { externalId sessionId actor content occurredAt }
    citedBy { id text }
    supersedes { id } supersededBy { id }
  }
}"""


POLICY = """
mutation($ns: String!, $p: String!, $c: Cardinality!, $s: Strategy!) {
  setPredicatePolicy(namespace: $ns, predicate: $p, cardinality: $c, strategy: $s) {
    predicate cardinality strategy isDefault
  }
}"""


def ep(ext: str, minute: int, content: str | None = None, session: str | None = "s1",
       **extra: Any) -> dict[str, Any]:
    return {"externalId": ext, "sessionId": session, "kind": "USER_MESSAGE", "actor": "user",
            "content": f"message {ext}" if content is None else content,
            "occurredAt": f"2026-05-01T09:{minute:02d}:00+00:00", **extra}


def said(ext: str, when: str, content: str) -> dict[str, Any]:
    return {"externalId": ext, "sessionId": "chat", "kind": "USER_MESSAGE", "actor": "user",
            "content": content, "occurredAt": when}


def fact(subject: str, predicate: str, obj: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": predicate, **({"object": obj} if obj else {}),
            **extra}
