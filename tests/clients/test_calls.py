"""The calls a new user looked for (issue 37): correction evidence, who said a fact, time travel
and history, aliases, policies and summaries; sync against `graphmem serve`, async through the
ASGI app."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from graphmem_client import AsyncMemory, GraphQLValidation, Memory, NotFound, Turn

from tests.support.http import HTTP

JAN, MARCH, JUNE = (datetime(2026, month, 1, tzinfo=UTC) for month in (1, 3, 6))


@pytest.fixture
def memory(server_url: str, admin_token: str, ns: str) -> Iterator[Memory]:
    with Memory(server_url, admin_token, ns) as opened:
        yield opened


def test_a_correction_cites_the_users_turn(memory: Memory) -> None:
    said = memory.record([Turn(content="I work at Acme Robotics", external_id="t1")],
                         session_id="chat-1")
    works = memory.remember("user", "works_at", "Acme Robotics", evidence=said.episode_ids)
    fixed = memory.record([Turn(content="Actually it's Globex, not Acme", external_id="t2")],
                          session_id="chat-1")
    corrected = memory.correct(works.id, "Globex", reason="the user corrected it",
                               evidence=fixed.episode_ids)
    assert corrected.object == "Globex" and corrected.source == "USER_CORRECTION"
    evidence = memory.why(corrected.id).evidence
    assert "Actually it's Globex, not Acme" in [e.content for e in evidence]
    assert "I work at Acme Robotics" not in [e.content for e in evidence]
    # By externalId too; without evidence only graphmem's own note of the change is there.
    again = memory.correct(corrected.id, "Initech", reason="again", evidence=["t2"])
    assert fixed.episode_ids[0] in [e.id for e in memory.why(again.id).evidence]
    bare = memory.correct(again.id, "Hooli", reason="no turn")
    assert [e.kind for e in memory.why(bare.id).evidence] == ["OBSERVATION"]
    with pytest.raises(NotFound):
        memory.correct(bare.id, "Pied Piper", reason="x", evidence=["no-such-turn"])
    assert {f.object for f in memory.about("user")} == {"Hooli"}


def test_remember_says_who_said_it(memory: Memory) -> None:
    stated = memory.remember("user", "likes", "jazz", source="user_statement")
    assert stated.fact.source == "USER_STATEMENT"
    assert memory.remember("user", "likes", "tea").fact.source == "AGENT_ASSERTION"
    with pytest.raises(ValueError, match="source"):
        memory.remember("user", "likes", "cake", source="hearsay")  # type: ignore[arg-type]
    assert "cake" not in {f.object for f in memory.about("user")}


def test_about_travels_in_time_and_history_lists_every_version(memory: Memory) -> None:
    acme = memory.remember("Dana", "works_at", "Acme Robotics", valid_from=JAN)
    before = datetime.now(UTC)
    globex = memory.remember("Dana", "works_at", "Globex", valid_from=JUNE)
    assert globex.outcome == "CREATED"

    assert [f.object for f in memory.about("Dana")] == ["Globex"]
    assert [f.object for f in memory.about("Dana", valid_at=MARCH)] == ["Acme Robotics"]
    believed = memory.about("Dana", as_of=before)
    assert [(f.id, f.object) for f in believed] == [(acme.id, "Acme Robotics")]
    assert [f.subject for f in memory.about("Acme Robotics", valid_at=MARCH.isoformat())] \
        == ["Dana"]
    assert memory.about("Globex", valid_at=MARCH) == []
    assert memory.about("Nobody", as_of=before) == []

    versions = memory.history("Dana", "works_at")
    by_id = {f.id: f for f in versions}
    assert by_id[acme.id].status == "SUPERSEDED" and by_id[globex.id].status == "ACTIVE"
    ended = by_id[acme.id]
    assert ended.retracted_at is not None and ended.ended_by == "tests-admin"
    assert by_id[globex.id].retracted_at is None and by_id[globex.id].ended_by is None
    assert {f.predicate for f in versions} == {"works_at"}
    memory.remember("Dana", "lives_in", "Porto")
    assert {f.predicate for f in memory.history("Dana")} == {"works_at", "lives_in"}
    assert memory.history("Nobody") == []


def test_alias_policy_and_summary(memory: Memory, server_url: str, admin_token: str,
                                  ns: str) -> None:
    memory.remember("user", "lives_in", "Porto")
    entity = memory.alias("user", "Dana")
    assert entity.name == "user" and "Dana" in entity.aliases
    assert [f.object for f in memory.about("Dana")] == ["Porto"]
    with pytest.raises(NotFound):
        memory.alias("Nobody", "Someone")

    policy = memory.set_policy("favorite_color", "one", "manual")
    assert (policy.predicate, policy.cardinality, policy.strategy, policy.is_default) == (
        "favorite_color", "ONE", "MANUAL", False)
    memory.remember("user", "favorite_color", "blue")
    assert memory.remember("user", "favorite_color", "green").outcome == "DISPUTED"
    assert len(memory.conflicts()) == 1
    with pytest.raises(GraphQLValidation):
        memory.set_policy("favorite_color", "some")  # type: ignore[arg-type]

    assert memory.summary("chat-1") is None
    turn = memory.record([Turn(content="Let's plan the Porto move.")], session_id="chat-1")
    written = HTTP.post(server_url, headers={"Authorization": f"Bearer {admin_token}"}, json={
        "query": """mutation($ns: String!, $s: SummaryInput!) {
            writeSummary(namespace: $ns, summary: $s) { id } }""",
        "variables": {"ns": ns, "s": {"text": "Dana is planning a move to Porto.",
                                      "covers": turn.episode_ids, "sessionId": "chat-1"}}})
    summary_id = written.json()["data"]["writeSummary"]["id"]
    summary = memory.summary("chat-1")
    assert summary is not None and summary.id == summary_id
    assert (summary.text, summary.session_id, summary.stale) == (
        "Dana is planning a move to Porto.", "chat-1", False)
    assert memory.summary("chat-2") is None


async def test_the_async_client_has_the_same_calls(amemory: AsyncMemory) -> None:
    said = await amemory.record([Turn(content="I moved to Lisbon, not Porto")])
    porto = await amemory.remember("user", "lives_in", "Porto", valid_from=JAN,
                                   source="user_statement")
    lisbon = await amemory.correct(porto.id, "Lisbon", reason="user", evidence=said.episode_ids)
    assert said.episode_ids[0] in [e.id for e in (await amemory.why(lisbon.id)).evidence]
    assert [f.object for f in await amemory.about("user", valid_at=MARCH)] == ["Lisbon"]
    assert {f.status for f in await amemory.history("user")} == {"ACTIVE", "SUPERSEDED"}
    assert "Dana" in (await amemory.alias("user", "Dana")).aliases
    assert (await amemory.set_policy("pet", "many")).cardinality == "MANY"
    assert await amemory.summary("chat-1") is None
