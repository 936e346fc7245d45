"""Facts as extra keys for their turns, and the turns linked to the entities a question
names, over the real app and Neo4j: each signal lifts the turns it links and nothing else,
and neither weighs unless its weight says so (both are 0 by default)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import httpx
import pytest

from graphmem.core.config import SearchWeights, Settings
from graphmem.db.database import Database
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD

SEARCH = """
query($ns: String!, $q: String!, $kinds: [SearchKind!] = [EPISODE]) {
  search(namespace: $ns, query: $q, kinds: $kinds) {
    hits { kind episode { externalId } fact { text } matches { retriever via } }
  }
}"""
Weighted = Callable[[SearchWeights], AbstractAsyncContextManager[GraphQLClient]]


def turn(ext: str, session: str, second: int, actor: str, content: str) -> dict[str, Any]:
    return {"externalId": ext, "sessionId": session, "kind": "USER_MESSAGE", "actor": actor,
            "content": content, "occurredAt": f"2023-05-08T13:00:{second:02d}Z"}


@pytest.fixture
def weighted(settings: Settings, db: Database, admin_token: str) -> Weighted:
    """The real app, its search weighing as ``weights`` say."""
    from graphmem.app import create_app

    @asynccontextmanager
    async def serving(weights: SearchWeights) -> AsyncIterator[GraphQLClient]:
        app = create_app(settings.model_copy(update={"search_weights": weights}))
        async with app.router.lifespan_context(app):
            while not app.state.runtime.ready:
                await asyncio.sleep(0.1)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport,
                                         base_url="http://graphmem.test") as http:
                yield GraphQLClient(http, admin_token)

    return serving


async def seed(gql: GraphQLClient, db: Database, ns: str, turns: list[dict[str, Any]],
               facts: list[dict[str, Any]]) -> None:
    await gql.ok(RECORD, ns=ns, eps=turns)
    await gql.ok(ASSERT, ns=ns, facts=facts)
    await embed_all_pending(db, WordLlamaEmbedder(), 256)


async def hits(gql: GraphQLClient, ns: str, q: str, **args: Any) -> list[dict[str, Any]]:
    return list((await gql.ok(SEARCH, ns=ns, q=q, **args))["search"]["hits"])


def order(found: list[dict[str, Any]]) -> list[str]:
    return [h["episode"]["externalId"] for h in found if h["episode"]]


def vias(found: list[dict[str, Any]], ext: str) -> list[str | None]:
    return [m["via"] for h in found if h["episode"] and h["episode"]["externalId"] == ext
            for m in h["matches"] if m["retriever"] == "graph"]


# Rita's hobby is told in words the question does not use; another turn has the word.
NAMED_TURNS = [
    turn("clay", "s1", 0, "Rita", "Signed up for a ceramics course yesterday, wheel and kiln"),
    turn("reply", "s1", 30, "Tom", "Nice, the weather is lovely today"),
    turn("chess", "s2", 0, "Ada", "My hobby used to be chess, not any more"),
    turn("golf", "s2", 30, "Tom", "I play golf on Sundays at the club"),
]
NAMED_FACTS = [
    {"subject": "Rita", "predicate": "takes", "object": "ceramics course", "evidence": ["clay"]},
    {"subject": "Tom", "predicate": "plays", "object": "golf", "evidence": ["golf"]},
]


async def test_the_entity_a_question_names_brings_its_evidence_turns(
        gql: GraphQLClient, weighted: Weighted, ns: str, db: Database) -> None:
    await seed(gql, db, ns, NAMED_TURNS, NAMED_FACTS)
    question = "What hobby does Rita have?"
    before = await hits(gql, ns, question)  # named: 0, the default
    assert order(before)[0] == "chess" and vias(before, "clay") == []
    async with weighted(SearchWeights(named=2.0)) as named:
        after = await hits(named, ns, question)
    assert order(after)[0] == "clay"
    assert [v[:4] for v in vias(after, "clay") if v] == ["ent_"]  # through Rita's entity
    # Tom's fact is about someone the question does not name: his turn gains nothing.
    assert vias(after, "golf") == [] and "golf" not in order(after)[:2]
    assert all(h["kind"] == "EPISODE" for h in after)


async def test_a_question_naming_nobody_known_brings_nothing(
        weighted: Weighted, ns: str, db: Database, gql: GraphQLClient) -> None:
    await seed(gql, db, ns, NAMED_TURNS, NAMED_FACTS)
    async with weighted(SearchWeights(named=2.0)) as named:
        found = await hits(named, ns, "What hobby does Maria have?")
    assert all(vias(found, ext) == [] for ext in ("clay", "golf", "chess", "reply"))
    assert order(found)[0] == "chess"


# The fact's sentence has the question's word; the turn it was learned from does not.
KEY_TURNS = [
    turn("studio", "s1", 0, "Sam", "Signed up at the clay studio downtown, wheel on Tuesdays"),
    turn("ok", "s1", 30, "Ana", "Sounds fun, enjoy it"),
    turn("messy", "s2", 0, "Ana", "Pottery is too messy for me, I tried once"),
    turn("bye", "s2", 30, "Sam", "Fair enough, see you Friday"),
]
KEY_FACTS = [{"subject": "Sam", "predicate": "likes", "object": "pottery",
              "evidence": ["studio"]}]


async def test_a_fact_matching_the_question_lifts_the_turn_it_was_learned_from(
        gql: GraphQLClient, weighted: Weighted, ns: str, db: Database) -> None:
    await seed(gql, db, ns, KEY_TURNS, KEY_FACTS)
    question = "Who is into pottery?"
    before = await hits(gql, ns, question)  # fact_keys: 0, the default
    assert order(before)[0] == "messy"
    async with weighted(SearchWeights(fact_keys=2.0)) as keyed:
        after = await hits(keyed, ns, question)
        every_kind = await hits(keyed, ns, question, kinds=None)
    assert order(after)[0] == "studio"
    assert vias(after, "studio") and vias(after, "messy") == []  # the fact lifts its turn only
    # The fact was a key, not a hit: an episode search returns episodes only...
    assert all(h["kind"] == "EPISODE" for h in after)
    # ...and a search of every kind returns it as the hit it is.
    assert any(h["fact"] and "pottery" in h["fact"]["text"] for h in every_kind)
