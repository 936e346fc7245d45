"""A life that changes: a new job, a pinned allergy, a chat meant to be forgotten, a fact the
user asked memory to forget. Recall answers with what holds now; what ended is history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem_client import AsyncMemory

from tests.scenarios.gql import graphql

PIN = """mutation Pin($namespace: String!, $id: ID!) {
  pinFact(namespace: $namespace, factId: $id) { id } }"""
UNPIN = """mutation Unpin($namespace: String!, $id: ID!) {
  unpinFact(namespace: $namespace, factId: $id) { id } }"""
FORGET = """mutation Forget($namespace: String!, $id: ID!) {
  forgetFact(namespace: $namespace, factId: $id, reason: "the user asked") { status } }"""
HISTORY = """query History($namespace: String!) { facts(namespace: $namespace,
  where: {subject: "Sam", predicate: "works_at"}, includeHistory: true) {
  nodes { object status validFrom validTo } } }"""
EPHEMERAL = """mutation Ephemeral($namespace: String!) {
  markSessionEphemeral(namespace: $namespace, sessionId: "incognito") { sessionId } }"""
CLOSE = """mutation Close($namespace: String!) {
  closeSession(namespace: $namespace, sessionId: "incognito") { verified } }"""


async def test_a_new_job_replaces_the_old_one_which_stays_history(memory: AsyncMemory) -> None:
    january, june = datetime(2026, 1, 5, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    said = await memory.record([
        {"role": "user", "actor": "Sam", "content": "I work at Zalando.", "occurred_at": january},
        {"role": "user", "actor": "Sam", "content": "Big news: I started at Acme today!",
         "occurred_at": june}], session_id="chat-1")
    await memory.remember("Sam", "works_at", "Zalando", evidence=said.episode_ids[:1])
    await memory.remember("Sam", "works_at", "Acme", evidence=said.episode_ids[1:])

    recalled = (await memory.recall("Where does Sam work?")).text
    assert "Sam works at Acme" in recalled
    assert "Zalando" not in recalled
    history = (await graphql(memory, HISTORY))["facts"]["nodes"]
    assert {(f["object"], f["status"]) for f in history} >= {("Zalando", "SUPERSEDED"),
                                                             ("Acme", "ACTIVE")}
    assert any(f["object"] == "Zalando" and f["validTo"] for f in history)


async def test_a_pinned_allergy_is_offered_on_every_turn_until_unpinned(
        memory: AsyncMemory) -> None:
    allergy = (await memory.remember("Sam", "allergic_to", "peanuts")).fact
    await memory.remember("Sam", "likes", "jazz")
    await graphql(memory, PIN, id=allergy.id)

    recalled = (await memory.recall("Any ideas for dinner tonight?")).text
    assert "Sam is allergic to peanuts" in recalled and "[pinned" in recalled
    assert "jazz" not in recalled  # not pinned, not asked about

    await graphql(memory, UNPIN, id=allergy.id)
    assert "peanuts" not in (await memory.recall("Any ideas for dinner tonight?")).text


async def test_an_incognito_chat_leaves_nothing_once_closed(memory: AsyncMemory) -> None:
    await graphql(memory, EPHEMERAL)
    now = datetime.now(UTC)
    said = await memory.record([
        {"role": "user", "content": "My bank PIN is 4321, keep it for this chat only.",
         "occurred_at": now},
        {"role": "assistant", "content": "Noted for this chat.",
         "occurred_at": now + timedelta(seconds=1)}], session_id="incognito")
    await memory.remember("user", "bank_pin", "4321", evidence=said.episode_ids[:1])
    assert "4321" in (await memory.recall("What is my bank PIN?")).text

    receipt = (await graphql(memory, CLOSE))["closeSession"]
    assert receipt["verified"] is True
    assert "4321" not in (await memory.recall("What is my bank PIN? 4321")).text
    assert await memory.search("4321 bank PIN") == []
    assert await memory.about("user") == []


async def test_a_forgotten_fact_is_not_brought_back_by_the_agent(memory: AsyncMemory) -> None:
    smokes = (await memory.remember("Sam", "smokes", "cigarettes")).fact
    await graphql(memory, FORGET, id=smokes.id)

    again = await memory.remember("Sam", "smokes", "cigarettes")  # the agent, later
    assert again.outcome == "FORGOTTEN"
    assert "cigarettes" not in (await memory.recall("Does Sam smoke cigarettes?")).text
    assert [h for h in await memory.search("smokes cigarettes") if "cigarettes" in h.text] == []
