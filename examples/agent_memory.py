"""What an agent developer would copy: record a conversation, assert facts with evidence,
write a summary, print the provenance of one fact, then let the user change jobs and ask
memory what is true now, what was true before, and why.

Run `bin/serve` in one terminal, create a key (`.venv/bin/graphmem keys create demo -n 'demo/*'`),
then:  GRAPHMEM_KEY=gm_... .venv/bin/python examples/agent_memory.py
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import httpx

URL = os.environ.get("GRAPHMEM_URL", "http://127.0.0.1:8000/graphql")
NAMESPACE = "demo/user-42"


def graphql(query: str, **variables: Any) -> dict[str, Any]:
    response = httpx.post(URL, json={"query": query, "variables": variables}, timeout=30,
                          headers={"Authorization": f"Bearer {os.environ['GRAPHMEM_KEY']}"})
    body: dict[str, Any] = response.json()
    if body.get("errors"):
        sys.exit(f"graphmem error: {json.dumps(body['errors'], indent=2)}")
    return dict(body["data"])


conversation = [
    ("u1", "user", "USER_MESSAGE", "Hi! I'm Dana. I just started a new job at Acme Robotics."),
    ("a1", "assistant", "AGENT_MESSAGE", "Congratulations, Dana! What will you work on?"),
    ("u2", "user", "USER_MESSAGE", "Motion planning. Also, I moved to Lisbon last month."),
]
recorded = graphql(
    """mutation($ns: String!, $eps: [EpisodeInput!]!) {
         recordEpisodes(namespace: $ns, episodes: $eps) { created duplicates episodes { id } } }""",
    ns=NAMESPACE,
    eps=[{"externalId": ext, "sessionId": "chat-1", "actor": actor, "kind": kind,
          "content": text, "occurredAt": f"2026-05-01T09:0{i}:00Z"}
         for i, (ext, actor, kind, text) in enumerate(conversation)])
print("episodes:", recorded["recordEpisodes"]["created"], "created,",
      recorded["recordEpisodes"]["duplicates"], "already there")

asserted = graphql(
    """mutation($ns: String!, $facts: [FactInput!]!) {
         assertFacts(namespace: $ns, facts: $facts) { outcome fact { id text } } }""",
    ns=NAMESPACE,
    facts=[
        {"subject": "Dana", "predicate": "works_at", "object": "Acme Robotics",
         "source": "USER_STATEMENT", "evidence": ["u1"], "subjectType": "person"},
        {"subject": "Dana", "predicate": "lives_in", "object": "Lisbon",
         "source": "USER_STATEMENT", "evidence": ["u2"], "confidence": 0.9},
    ])
for item in asserted["assertFacts"]:
    print(f"fact {item['outcome'].lower()}: {item['fact']['text']}")
works_at = asserted["assertFacts"][0]["fact"]["id"]

episode_ids = [e["id"] for e in recorded["recordEpisodes"]["episodes"]]
graphql(
    """mutation($ns: String!, $s: SummaryInput!) { writeSummary(namespace: $ns, summary: $s) {
         id } }""",
    ns=NAMESPACE, s={"text": "Dana started at Acme Robotics (motion planning), lives in Lisbon.",
                     "covers": episode_ids, "cites": [works_at], "sessionId": "chat-1",
                     "producer": "example"})

audit = graphql(
    """query($ns: String!, $id: ID!) { provenance(namespace: $ns, factId: $id) {
         fact { text source confidence assertedBy recordedAt }
         evidence { sessionId actor occurredAt content }
         citedBy { text } } }""",
    ns=NAMESPACE, id=works_at)["provenance"]
print("\nwhy does the agent believe:", audit["fact"]["text"])
print(json.dumps(audit, indent=2))

# Months later the user changes jobs. Memory keeps the history and says why it changed.
graphql("""mutation($ns: String!, $eps: [EpisodeInput!]!) {
             recordEpisodes(namespace: $ns, episodes: $eps) { created } }""",
        ns=NAMESPACE, eps=[{"externalId": "u3", "sessionId": "chat-2", "actor": "user",
                            "kind": "USER_MESSAGE", "occurredAt": "2026-09-02T10:00:00Z",
                            "content": "Actually, I switched jobs in August: I'm at Globex now."}])
graphql("""mutation($ns: String!, $facts: [FactInput!]!) {
             assertFacts(namespace: $ns, facts: $facts) { outcome } }""",
        ns=NAMESPACE, facts=[{"subject": "Dana", "predicate": "works_at", "object": "Globex",
                              "source": "USER_STATEMENT", "evidence": ["u3"],
                              "validFrom": "2026-08-01T00:00:00Z"}])
employer = """query($ns: String!, $at: DateTime) {
  facts(namespace: $ns, where: {subject: "Dana", predicate: "works_at"}, validAt: $at) {
    nodes { object validFrom validTo supersedes { fact { object } strategy reason } } } }"""
now = graphql(employer, ns=NAMESPACE)["facts"]["nodes"]
june = graphql(employer, ns=NAMESPACE, at="2026-06-15T00:00:00Z")["facts"]["nodes"]
print("\nDana works at", now[0]["object"], "now; in June she worked at", june[0]["object"],
      f"(until {june[0]['validTo']})")
for link in now[0]["supersedes"]:
    print(f"  {now[0]['object']} superseded {link['fact']['object']}: {link['strategy']}, "
          f"{link['reason']}")
