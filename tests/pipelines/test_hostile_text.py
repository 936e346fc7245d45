"""Adversarial text for the offline pipelines: the extraction gate and the pattern extractor
run inside `graphmem serve`'s event loop (its workers, or `extractFacts(wait: true)`), so a
turn that makes a regular expression backtrack stalls every tenant of the process, not only
its sender. Each text below is a turn at the size cap (GRAPHMEM_MAX_EPISODE_CHARS,
200,000 characters) and must be read in linear time."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import httpx
import pytest

from graphmem.db.database import Database
from graphmem.episodes.store import MAX_CONTENT_CHARS
from graphmem.pipelines import patterns, selection
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient

pytestmark = pytest.mark.hostile("extraction")

SAID = datetime(2026, 5, 1, tzinfo=UTC)
# Each was quadratic before: a run without an "@" (the gate's address pattern), a run of
# marks without a space (sentence ends), abbreviations that never end a sentence.
TEXTS = {
    "dots": "." * MAX_CONTENT_CHARS,
    "one long word": "a" * MAX_CONTENT_CHARS,
    "marks without a space": "I live in Paris " + "?!" * (MAX_CONTENT_CHARS // 2 - 8),
    "abbreviations": "My name is Dana. " + "St. " * (MAX_CONTENT_CHARS // 4 - 5),
}
BOUND_S = 3.0  # each takes well under a second on a loaded CI machine


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_the_gate_and_the_extractor_read_any_turn_in_linear_time(name: str) -> None:
    text = TEXTS[name]
    assert len(text) <= MAX_CONTENT_CHARS
    started = time.monotonic()
    selection.decide("document", text)
    patterns.extract("ep_1", text, "user", SAID)
    assert time.monotonic() - started < BOUND_S, name


async def test_a_turn_of_dots_does_not_stall_the_service(
        client: httpx.AsyncClient, db: Database, gql: GraphQLClient, ns: str) -> None:
    """One tenant's 200,000 dots, extracted on request, while another client asks /healthz:
    the extraction ends promptly and the service answers throughout. Before: the gate
    alone held the event loop for about a minute."""
    own = GraphQLClient(client, await create_key(db, "hostile-text", grants=[ns], admin=False))
    await own.ok("""mutation($ns: String!, $eps: [EpisodeInput!]!) {
        recordEpisodes(namespace: $ns, episodes: $eps) { created } }""", ns=ns, eps=[
        {"externalId": "doc", "kind": "DOCUMENT", "actor": "user", "content": TEXTS["dots"],
         "occurredAt": SAID.isoformat()}])

    async def probe(stop: asyncio.Event) -> float:
        """The longest time between two answers: a held event loop answers nobody."""
        longest, last = 0.0, time.monotonic()
        while not stop.is_set():
            assert (await client.get("/healthz")).status_code == 200
            longest, last = max(longest, time.monotonic() - last), time.monotonic()
            await asyncio.sleep(0.02)
        return longest

    stop = asyncio.Event()
    prober = asyncio.create_task(probe(stop))
    started = time.monotonic()
    job = await own.ok("""mutation($ns: String!) { extractFacts(namespace: $ns,
        episodeIds: ["doc"], wait: true) { state selected skipped facts } }""", ns=ns)
    took = time.monotonic() - started
    stop.set()
    stalled = await prober
    assert job["extractFacts"] == {"state": "DONE", "selected": 0, "skipped": 1, "facts": 0}
    assert took < 2 * BOUND_S and stalled < 2 * BOUND_S, (took, stalled)
    learned, _, _ = await db.driver.execute_query(
        "MATCH (n) WHERE n.ns = $ns AND (n:Fact OR n:Entity OR n:Value) RETURN count(n) AS n",
        {"ns": ns}, database_=db.name)
    assert learned[0]["n"] == 0  # nothing learned from dots
