"""recall over the real app and Neo4j: whom "I" stands for, facts that compete by relevance to
the question, and recall as memory stood at an instant (issue 37, items 3, 4 and 11)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from graphmem.summaries import store as summaries
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, POLICY, RECORD, fact

RECALL = """
query($ns: String!, $q: String!, $session: String, $speaker: String) {
  recall(namespace: $ns, query: $q, sessionId: $session, speaker: $speaker) {
    pieces { layer text }
    plan { layer ran reason items leftOut }
    entities { name }
  }
}"""
AS_OF = """query($ns: String!, $q: String!, $at: DateTime!) {
  recall(namespace: $ns, query: $q, asOf: $at) { pieces { layer text } timeRange { start end } }
}"""
BUDGETED = """query($ns: String!, $q: String!, $budget: Int!) {
  recall(namespace: $ns, query: $q, tokenBudget: $budget) {
    pieces { layer text tokens } plan { layer ran items leftOut } }
}"""
ALIAS = """mutation($ns: String!, $name: String!, $alias: String!) {
  addAlias(namespace: $ns, name: $name, alias: $alias) { name } }"""


def turn(ext: str, minute: int, content: str, actor: str = "Sam",
         kind: str = "USER_MESSAGE", session: str = "s1") -> dict[str, Any]:
    return {"externalId": ext, "sessionId": session, "kind": kind, "actor": actor,
            "content": content, "occurredAt": f"2026-11-02T10:{minute:02d}:00Z"}


async def sam_talks(gql: GraphQLClient, ns: str, db: Database) -> None:
    """A conversation with Sam, and what an agent remembered of it: ten facts about Sam (some
    learned from Sam's turns), three about Sam's sister."""
    await gql.ok(RECORD, ns=ns, eps=[
        turn("t1", 1, "I started at Acme Robotics last month"),
        turn("a1", 2, "Congratulations on the new job!", "assistant", "AGENT_MESSAGE"),
        turn("t2", 3, "I'm allergic to peanuts, so no satay for me"),
        turn("t3", 4, "Der Kegel is my favourite bouldering gym, I go every Friday"),
        turn("t4", 5, "My sister Ana is a nurse at St Mary's Hospital"),
        turn("t5", 6, "Ramen beats any other food"),
    ])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("Sam", "works_at", "Acme Robotics", evidence=["t1"]),
        fact("Sam", "lives_in", "Berlin"),
        fact("Sam", "allergic_to", "peanuts", evidence=["t2"]),
        fact("Sam", "likes", "bouldering", evidence=["t3"]),
        fact("Sam", "favourite_gym", "Der Kegel", evidence=["t3"]),
        fact("Sam", "favourite_food", "ramen", evidence=["t5"]),
        fact("Sam", "sister", "Ana", evidence=["t4"]),
        fact("Sam", "owns", "Rex", objectType="dog"),
        fact("Sam", "speaks", "German"),
        fact("Sam", "plays", "guitar"),
        fact("Ana", "works_at", "St Mary's Hospital", evidence=["t4"]),
        fact("Ana", "lives_in", "Munich"),
        fact("Ana", "likes", "tennis"),
    ])
    await embed_all_pending(db, WordLlamaEmbedder(), 256)


async def facts_shown(gql: GraphQLClient, ns: str, q: str, **more: Any) -> list[str]:
    return facts_of((await gql.ok(RECALL, ns=ns, q=q, **more))["recall"])


def facts_of(found: dict[str, Any]) -> list[str]:
    return [re.sub(r" \(since [\d-]+\)", "", p["text"])
            for p in found["pieces"] if p["layer"] == "facts"]


async def test_i_is_the_sessions_speaker(gql: GraphQLClient, ns: str, db: Database) -> None:
    """Turns recorded as Sam's, facts about Sam: "I" in session s1 is Sam."""
    await sam_talks(gql, ns, db)
    work = (await gql.ok(RECALL, ns=ns, q="Where do I work?", session="s1"))["recall"]
    shown = facts_of(work)
    assert shown[:1] == ["Sam works at Acme Robotics"]
    assert {"Sam lives in Berlin", "Sam likes bouldering",
            "Ana works at St Mary's Hospital"}.isdisjoint(shown)
    assert "Sam" in [e["name"] for e in work["entities"]]
    steps = {s["layer"]: s for s in work["plan"]}
    assert "'Sam'" in steps["facts"]["reason"]
    assert work["pieces"][0]["text"].startswith("Sam works at Acme Robotics")  # before turns
    # Outside a session, the namespace's user turns have one speaker: Sam again.
    assert (await facts_shown(gql, ns, "Where do I work?"))[:1] == ["Sam works at Acme Robotics"]
    # A speaker named by the caller is whom "I" stands for, and only they.
    assert await facts_shown(gql, ns, "Where do I work?", session="s1", speaker="Ana") == [
        "Ana works at St Mary's Hospital"]


async def test_i_is_never_guessed_between_two_speakers(gql: GraphQLClient, ns: str) -> None:
    """Tenants of one namespace that differ in who speaks: with two speakers and no session,
    "I" is only ``user``; in a session, its speaker and ``user``; a named speaker, only that
    one; and a question that says no "I" (though "Kim" holds an "i") names nobody else."""
    await gql.ok(RECORD, ns=ns, eps=[turn("t1", 1, "I started at Acme Robotics"),
                                     turn("k1", 2, "Initech hired me", "Kim", session="s2")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("Sam", "works_at", "Acme Robotics"),
                                       fact("Kim", "works_at", "Initech"),
                                       fact("user", "works_at", "Globex")])
    assert await facts_shown(gql, ns, "Where do I work?") == ["user works at Globex"]
    assert sorted(await facts_shown(gql, ns, "Where do I work?", session="s1")) == [
        "Sam works at Acme Robotics", "user works at Globex"]
    assert await facts_shown(gql, ns, "Where do I work?", speaker="Kim") == [
        "Kim works at Initech"]
    assert await facts_shown(gql, ns, "Where does Kim work?") == ["Kim works at Initech"]


async def test_recall_as_of_reads_time_words_and_pins_as_they_were_then(
        gql: GraphQLClient, ns: str) -> None:
    """Travelling back to an instant: "yesterday" is the day before it, not before today, and
    a fact pinned since then (it was not even recorded) is not offered then."""
    before = datetime.now(UTC)
    made = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "opera")])
    await gql.ok("""mutation($ns: String!, $id: ID!) { pinFact(namespace: $ns, factId: $id) {
        id } }""", ns=ns, id=made["assertFacts"][0]["fact"]["id"])
    weather = "Will it rain?"
    now = (await gql.ok(AS_OF, ns=ns, q=weather, at=datetime.now(UTC).isoformat()))["recall"]
    assert "user likes opera" in " ".join(facts_of(now))  # pinned: offered every turn
    then = (await gql.ok(AS_OF, ns=ns, q=weather, at=before.isoformat()))["recall"]
    assert not [p for p in then["pieces"] if "opera" in p["text"]]
    said = (await gql.ok(AS_OF, ns=ns, q="What did I say yesterday?",
                         at="2026-03-10T12:00:00Z"))["recall"]["timeRange"]
    assert [datetime.fromisoformat(said[k]) for k in ("start", "end")] == [
        datetime(2026, 3, 9, tzinfo=UTC), datetime(2026, 3, 10, tzinfo=UTC)]


async def test_a_disputed_claim_comes_with_its_rivals_though_they_do_not_bear(
        gql: GraphQLClient, ns: str) -> None:
    """"Is Dana still at Acme?" meets only the Acme claim's words; the Globex claim it is
    disputed against is offered with it all the same (never one value of a conflict alone),
    and a fact that bears on nothing is not."""
    await gql.ok(POLICY, ns=ns, p="works_at", c="ONE", s="MANUAL")
    await gql.ok(ASSERT, ns=ns, facts=[fact("Dana", "works_at", "Acme"),
                                       fact("Dana", "works_at", "Globex"),
                                       fact("Dana", "lives_in", "Lisbon")])
    shown = await facts_shown(gql, ns, "Is Dana still at Acme?")
    assert sorted(shown) == ["Dana works at Acme [disputed, not settled; also claimed: Globex]",
                             "Dana works at Globex [disputed, not settled; also claimed: Acme]"]


async def test_a_stale_summary_is_not_recalled(gql: GraphQLClient, db: Database,
                                              ns: str) -> None:
    """A summary whose cited fact was retracted may still say it: recall leaves it out (and
    says why) until one is written again; the fresh one is offered."""
    await gql.ok(RECORD, ns=ns, eps=[turn("t1", 1, "I started at Acme Robotics last month")])
    made = await gql.ok(ASSERT, ns=ns, facts=[fact("Sam", "works_at", "Acme Robotics",
                                                   evidence=["t1"])])
    await summaries.write(db, Namespace(ns), summaries.NewSummary(
        "Sam works at Acme Robotics.", session_id="s1", covers=["t1"],
        cites=[made["assertFacts"][0]["fact"]["id"]]))
    ask = {"q": "What does Sam do?", "session": "s1"}
    fresh = (await gql.ok(RECALL, ns=ns, **ask))["recall"]
    assert [p["text"] for p in fresh["pieces"] if p["layer"] == "summary"] == [
        "Sam works at Acme Robotics."]
    await gql.ok("""mutation($ns: String!, $id: ID!) { retractFact(namespace: $ns, factId: $id,
        reason: "wrong") { id } }""", ns=ns, id=made["assertFacts"][0]["fact"]["id"])
    stale = (await gql.ok(RECALL, ns=ns, **ask))["recall"]
    assert [p for p in stale["pieces"] if p["layer"] == "summary"] == []
    step = next(s for s in stale["plan"] if s["layer"] == "summary")
    assert not step["ran"] and "stale" in step["reason"]


async def test_my_sisters_job_is_one_hop_away(gql: GraphQLClient, ns: str,
                                             db: Database) -> None:
    await sam_talks(gql, ns, db)
    shown = await facts_shown(gql, ns, "What's my sister's job?", session="s1")
    assert shown[:2] == ["Sam's sister is Ana", "Ana works at St Mary's Hospital"]
    assert {"Ana likes tennis", "Ana lives in Munich", "Sam likes bouldering",
            "Sam lives in Berlin"}.isdisjoint(shown)


async def test_i_reaches_entities_aliased_to_the_speaker(gql: GraphQLClient, ns: str,
                                                          db: Database) -> None:
    """Facts kept under a fuller name that the speaker's name is an alias of."""
    await gql.ok(RECORD, ns=ns, eps=[turn("k1", 1, "I moved to Hamburg", "Kim", session="s2")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("Kim Berger", "lives_in", "Hamburg"),
                                       fact("user", "likes", "jazz")])
    await gql.ok(ALIAS, ns=ns, name="Kim Berger", alias="Kim")
    found = (await gql.ok(RECALL, ns=ns, q="Where do I live?", session="s2"))["recall"]
    assert [e["name"] for e in found["entities"]] == ["Kim Berger", "user"]
    shown = facts_of(found)
    assert shown == ["Kim Berger lives in Hamburg"]  # and not: user likes jazz


async def test_facts_compete_by_relevance_to_the_question(gql: GraphQLClient, ns: str,
                                                         db: Database) -> None:
    await sam_talks(gql, ns, db)
    allergic = (await gql.ok(RECALL, ns=ns, q="What is Sam allergic to?"))["recall"]
    shown = facts_of(allergic)
    assert shown == ["Sam is allergic to peanuts"]
    steps = {s["layer"]: s for s in allergic["plan"]}
    assert "9 that do not bear on it left out" in steps["facts"]["reason"]

    food = await facts_shown(gql, ns, "What food does Sam like?")
    assert food[0] == "Sam's favourite food is ramen"
    assert {"Sam lives in Berlin", "Sam is allergic to peanuts", "Sam plays guitar",
            "Sam works at Acme Robotics"}.isdisjoint(food)

    climbing = await facts_shown(gql, ns, "Where can I go bouldering?", session="s1")
    assert set(climbing[:2]) == {"Sam likes bouldering", "Sam's favourite gym is Der Kegel"}
    assert {"Sam is allergic to peanuts", "Sam's favourite food is ramen",
            "Sam works at Acme Robotics"}.isdisjoint(climbing)

    # Nothing in particular asked: everything about Sam, within the budget.
    everything = await facts_shown(gql, ns, "Tell me about Sam")
    assert len([f for f in everything if f.startswith(("Sam ", "Sam's "))]) == 10




async def test_a_question_naming_nobody_gets_the_facts_search_finds(gql: GraphQLClient, ns: str,
                                                                    db: Database) -> None:
    await sam_talks(gql, ns, db)
    found = (await gql.ok(RECALL, ns=ns, q="Who has a peanut allergy?"))["recall"]
    assert found["entities"] == []
    shown = facts_of(found)
    assert shown == ["Sam is allergic to peanuts"]  # search's other hits share no word with it
    # A fact about someone the question does not name must account for all it asks.
    other = (await gql.ok(RECALL, ns=ns, q="Where does Tomasz live?"))["recall"]
    assert facts_of(other) == []
    assert {s["layer"]: s["ran"] for s in other["plan"]}["episodes"]


async def test_a_fact_meeting_one_word_of_the_question_leaves_the_rest_to_the_turns(
        gql: GraphQLClient, ns: str, db: Database) -> None:
    """"Rita likes painting" meets "paint" of "What did Rita paint for the shelter
    fundraiser?" and nothing else of it: the turns are searched too, and the one that answers
    is given. A fact that meets all a question asks ("Where does Rita work?") comes first,
    and the turns fill what it leaves of the budget."""
    await gql.ok(RECORD, ns=ns, eps=[
        turn("mural", 1, "I painted a sunset mural for the shelter fundraiser", "Rita"),
        turn("job", 2, "Globex took me on as a welder", "Rita"),
        turn("rain", 3, "The weather was awful all week", "Tom")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("Rita", "likes", "painting"),
                                       fact("Rita", "works_at", "Globex", evidence=["job"])])
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    asked = (await gql.ok(RECALL, ns=ns, q="What did Rita paint for the shelter fundraiser?"))
    steps = {s["layer"]: s for s in asked["recall"]["plan"]}
    assert steps["facts"]["ran"] and steps["episodes"]["ran"]
    assert "Rita likes painting" in facts_of(asked["recall"])
    said = [p["text"] for p in asked["recall"]["pieces"] if p["layer"] == "episodes"]
    assert any("sunset mural" in s for s in said)
    work = (await gql.ok(RECALL, ns=ns, q="Where does Rita work?"))["recall"]
    assert facts_of(work) == ["Rita works at Globex"]
    assert work["pieces"][0]["text"].startswith("Rita works at Globex")
    said = [p["text"] for p in work["pieces"] if p["layer"] == "episodes"]
    assert any("Globex took me on" in s for s in said)


async def test_when_facts_answer_the_turns_stating_a_replaced_value_are_left_out(
        gql: GraphQLClient, ns: str, db: Database) -> None:
    """After a move, "Where does Sam live?" is answered by the fact, and the turns fill the
    rest, but not those saying where Sam lived before: the superseded fact's evidence, and a
    turn naming its value without being evidence. "Where did Sam live before Lisbon?" asks
    more than the fact says, and gets them."""
    await gql.ok(RECORD, ns=ns, eps=[
        turn("p1", 1, "I live in Porto, by the river"),
        turn("p2", 2, "Porto in winter is grey but cosy, I will miss living there"),
        turn("l1", 3, "I moved to Lisbon last week, I live near the castle now")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("Sam", "lives_in", "Porto", evidence=["p1"])])
    await gql.ok(ASSERT, ns=ns, facts=[fact("Sam", "lives_in", "Lisbon", evidence=["l1"])])
    await embed_all_pending(db, WordLlamaEmbedder(), 256)

    now = (await gql.ok(RECALL, ns=ns, q="Where does Sam live?"))["recall"]
    assert facts_of(now) == ["Sam lives in Lisbon"]
    said = [p["text"] for p in now["pieces"] if p["layer"] == "episodes"]
    assert any("Lisbon last week" in s for s in said)
    assert not any("Porto" in p["text"] for p in now["pieces"])
    steps = {s["layer"]: s for s in now["plan"]}
    assert "2 left out: they state what memory has since replaced" in steps["episodes"]["reason"]

    before = (await gql.ok(RECALL, ns=ns, q="Where did Sam live before Lisbon?"))["recall"]
    said = [p["text"] for p in before["pieces"] if p["layer"] == "episodes"]
    assert any("Porto, by the river" in s for s in said)


async def test_facts_take_half_the_budget_while_the_turns_that_answer_wait(
        gql: GraphQLClient, ns: str, db: Database) -> None:
    """Thirty facts that each meet a word of the question (what an LLM pipeline writes) and
    the one turn that answers it: within 300 tokens the facts take at most half before the
    turns, the answering turn is given, and the budget the turns leave goes to more facts."""
    await gql.ok(RECORD, ns=ns, eps=[
        turn("mural", 1, "I painted a sunset mural for the shelter fundraiser", "Rita")])
    await gql.ok(ASSERT, ns=ns, facts=[
        {"subject": "Rita", "predicate": "observation",
         "value": {"string": f"Rita painted picture number {i} of her series"}}
        for i in range(30)])
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    found = (await gql.ok(BUDGETED, ns=ns, q="What did Rita paint for the shelter fundraiser?",
                          budget=300))["recall"]
    layers = [p["layer"] for p in found["pieces"]]
    assert "episodes" in layers and "sunset mural" in found["pieces"][
        layers.index("episodes")]["text"]
    first = layers.index("episodes")
    assert 0 < sum(p["tokens"] for p in found["pieces"][:first]) <= 150
    assert layers[first + 1:] and set(layers[first + 1:]) == {"facts"}  # the rest, after
    assert sum(p["tokens"] for p in found["pieces"]) <= 300
    steps = {s["layer"]: s for s in found["plan"]}
    assert steps["facts"]["items"] + steps["facts"]["leftOut"] == 30
    assert steps["facts"]["items"] == layers.count("facts") and steps["facts"]["leftOut"] > 0
