"""An answer's size is bounded while it is built, not only once it was: ten aliases of a
fact's long evidence stop at the size cap with an error on the field that crossed it; and an
answer that asks for no content reads none."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from graphmem.observability import metrics
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, ep, fact
from tests.support.server import serving

pytestmark = pytest.mark.hostile("cost")

CAP, TURNS, TURN_CHARS = 1_000_000, 40, 50_000  # the evidence: 2 MB, twice the cap
EVIDENCE = "facts(namespace: $ns, first: 1) { nodes { evidence { content } } }"


def statement_runs(name: str) -> float:
    for sample in next(iter(metrics.CYPHER_SECONDS.collect())).samples:
        if sample.name.endswith("_count") and sample.labels.get("statement") == name:
            return float(sample.value)
    return 0.0


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with serving(GRAPHMEM_MAX_RESPONSE_BYTES=str(CAP)) as url:
        yield url


async def long_evidence(post: GraphQLClient, ns: str) -> None:
    turns = [ep(f"t{i}", i % 60, f"{i} " + "x" * TURN_CHARS) for i in range(TURNS)]
    await post.ok("""mutation($ns: String!, $eps: [EpisodeInput!]!) {
        recordEpisodes(namespace: $ns, episodes: $eps) { created } }""", ns=ns, eps=turns)
    await post.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "tea",
                                             evidence=[t["externalId"] for t in turns])])


async def test_aliases_of_long_evidence_stop_at_the_cap_while_built(
        service: str, admin_token: str, ns: str) -> None:
    async with httpx.AsyncClient(base_url=service, timeout=60) as http:
        post = GraphQLClient(http, admin_token)
        await long_evidence(post, ns)
        aliases = " ".join(f"a{i}: {EVIDENCE}" for i in range(10))
        body = await post(f"query($ns: String!) {{ {aliases} }}", ns=ns)
    errors = body["errors"]
    assert {e["extensions"]["code"] for e in errors} == {"QUERY_TOO_COSTLY"}
    # Refused on the field that crossed the cap, not by replacing a finished answer.
    assert all(e.get("path") and e["path"][-1] == "content" for e in errors), errors[0]
    assert len(str(body)) < 2 * CAP


async def test_an_answer_without_content_reads_none(gql: GraphQLClient, ns: str) -> None:
    await long_evidence(gql, ns)
    full, refs = statement_runs("facts/evidence_of"), statement_runs("facts/evidence_refs_of")
    light = await gql.ok("""query($ns: String!) { facts(namespace: $ns) { nodes {
        evidence { id externalId occurredAt contentHash } } } }""", ns=ns)
    assert len(light["facts"]["nodes"][0]["evidence"]) == TURNS
    assert statement_runs("facts/evidence_of") == full
    assert statement_runs("facts/evidence_refs_of") == refs + 1
    # Asked for through a fragment, the content is read and served.
    heavy = await gql.ok("""query($ns: String!) { facts(namespace: $ns) { nodes {
        evidence { ...body } } } } fragment body on Episode { externalId content }""", ns=ns)
    assert heavy["facts"]["nodes"][0]["evidence"][0]["content"].endswith("x" * 100)
    assert statement_runs("facts/evidence_of") == full + 1
