"""A small memory for the console's browser tests, written through the GraphQL API: one
conversation (with a stored ``<script>``), facts with evidence, a value, a summary and an open
conflict."""

from __future__ import annotations

from typing import Any

import httpx

SCRIPT = ('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> '
          "is what I typed")
TURNS = [
    ("m1", "user", "I'm Alice, I live in Lisbon and I work at Acme."),
    ("m2", "user", "I was born in 1990."),
    ("m3", "agent", "Noted, Alice."),
    ("m4", "user", SCRIPT),
]


async def post(http: httpx.AsyncClient, key: str, query: str, **variables: Any) -> Any:
    answer = await http.post("/graphql", json={"query": query, "variables": variables},
                             headers={"Authorization": f"Bearer {key}"})
    body = answer.json()
    assert not body.get("errors"), body["errors"]
    return body["data"]


async def write_memory(url: str, key: str, ns: str) -> dict[str, str]:
    """The memory; returns the ids a test refers to."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        recorded = await post(http, key, """mutation($ns: String!, $eps: [EpisodeInput!]!) {
            recordEpisodes(namespace: $ns, episodes: $eps) { episodes { id } } }""", ns=ns,
                              eps=[{"externalId": ext, "sessionId": "chat-1", "actor": actor,
                                    "kind": "USER_MESSAGE" if actor == "user" else
                                    "AGENT_MESSAGE", "content": text,
                                    "occurredAt": f"2026-05-01T09:0{i}:00Z"}
                                   for i, (ext, actor, text) in enumerate(TURNS)])
        await post(http, key, """mutation($ns: String!) { setPredicatePolicy(namespace: $ns,
            predicate: "works_at", cardinality: ONE, strategy: MANUAL) { predicate } }""", ns=ns)
        asserted = await post(http, key, """mutation($ns: String!, $facts: [FactInput!]!) {
            assertFacts(namespace: $ns, facts: $facts) { fact { id } } }""", ns=ns, facts=[
            {"subject": "Alice", "predicate": "lives_in", "object": "Lisbon",
             "evidence": ["m1"], "source": "USER_STATEMENT", "confidence": 0.9},
            {"subject": "Alice", "predicate": "works_at", "object": "Acme", "evidence": ["m1"]},
            {"subject": "Alice", "predicate": "birth_year", "value": {"number": 1990},
             "evidence": ["m2"]},
            {"subject": "Alice", "predicate": "knows", "object": "Bob"},
            {"subject": "Bob", "predicate": "likes", "object": "Green tea"},
            {"subject": "Acme", "predicate": "located_in", "object": "Lisbon"},
        ])
        await post(http, key, """mutation($ns: String!, $facts: [FactInput!]!) {
            assertFacts(namespace: $ns, facts: $facts) { outcome } }""", ns=ns, facts=[
            {"subject": "Alice", "predicate": "works_at", "object": "Initech"}])
        episodes = [e["id"] for e in recorded["recordEpisodes"]["episodes"]]
        lives_in = asserted["assertFacts"][0]["fact"]["id"]
        await post(http, key, """mutation($ns: String!, $s: SummaryInput!) {
            writeSummary(namespace: $ns, summary: $s) { id } }""", ns=ns, s={
            "text": "Alice lives in Lisbon, works at Acme and was born in 1990.",
            "covers": episodes[:2], "cites": [lives_in], "sessionId": "chat-1"})
    return {"lives_in": lives_in}


async def write_versions(url: str, key: str, ns: str) -> None:
    """A turn saying where Bob lived: Paris from 2020, then Rome from 2024. Rome supersedes
    the open-ended Paris fact and leaves a revision of it, true 2020 → 2024: two versions of
    Paris, both taken from the same turn."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await post(http, key, """mutation($ns: String!, $eps: [EpisodeInput!]!) {
            recordEpisodes(namespace: $ns, episodes: $eps) { episodes { id } } }""", ns=ns,
                   eps=[{"externalId": "m5", "sessionId": "chat-2", "actor": "user",
                         "kind": "USER_MESSAGE", "occurredAt": "2026-05-02T09:00:00Z",
                         "content": "Bob lived in Paris from 2020 and in Rome since 2024."}])
        for city, year in (("Paris", 2020), ("Rome", 2024)):
            await post(http, key, """mutation($ns: String!, $facts: [FactInput!]!) {
                assertFacts(namespace: $ns, facts: $facts) { outcome } }""", ns=ns, facts=[
                {"subject": "Bob", "predicate": "lives_in", "object": city,
                 "validFrom": f"{year}-01-01T00:00:00Z", "evidence": ["m5"]}])
