"""First person: the user says "I" and memory knows them by name. "Where do I work?" finds
the facts about Sam when Sam is the one talking, and recall answers what was asked, not
everything about Sam (README: *Whom "I" stands for*, *Which facts*)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from graphmem_client import AsyncMemory, InvalidInput

SAM = [("works_at", "Acme Robotics"), ("sister", "Mia"), ("allergic_to", "peanuts"),
       ("likes", "bouldering"), ("favourite_food", "ramen"), ("lives_in", "Berlin"),
       ("plays", "guitar")]


async def sam_said_things(memory: AsyncMemory) -> None:
    now = datetime.now(UTC)
    await memory.record([
        {"role": "user", "actor": "Sam", "content": line, "occurred_at": now + timedelta(seconds=i)}
        for i, line in enumerate(["Hi, I'm Sam.", "My sister Mia is a nurse in Hamburg.",
                                  "Ramen is my favourite food, but no peanuts please."])],
        session_id="chat-1")
    for predicate, value in SAM:
        await memory.remember("Sam", predicate, value)
    await memory.remember("Mia", "works_at", "St Georg hospital")


async def test_i_is_the_person_talking(memory: AsyncMemory) -> None:
    await sam_said_things(memory)
    recalled = (await memory.recall("Where do I work?", session_id="chat-1")).text
    assert "Sam works at Acme Robotics" in recalled
    for unrelated in ("peanuts", "guitar", "ramen"):
        assert unrelated not in recalled


async def test_my_sisters_job_is_one_hop_away(memory: AsyncMemory) -> None:
    await sam_said_things(memory)
    recalled = (await memory.recall("What's my sister's job?", session_id="chat-1")).text
    assert "Sam's sister is Mia" in recalled
    assert "Mia works at St Georg hospital" in recalled
    assert "Acme Robotics" not in recalled


async def test_recall_answers_what_was_asked_not_everything(memory: AsyncMemory) -> None:
    await sam_said_things(memory)
    allergy = (await memory.recall("What is Sam allergic to?")).text
    assert "Sam is allergic to peanuts" in allergy
    assert "bouldering" not in allergy and "guitar" not in allergy
    food = (await memory.recall("What food does Sam like?")).text
    assert "Sam's favourite food is ramen" in food
    assert "Berlin" not in food


async def test_a_name_aliased_to_user_is_the_same_person(memory: AsyncMemory) -> None:
    """Facts stored under "user" before the agent learned the name, and under the name
    after: the alias makes them one person, and "I" finds both."""
    await memory.remember("user", "lives_in", "Porto")
    await memory.alias("user", "Dana")  # the user said their name
    await memory.remember("Dana", "works_at", "Globex")
    recalled = (await memory.recall("Where do I live and work?")).text
    assert "user lives in Porto" in recalled and "Globex" in recalled


async def test_a_name_already_in_use_is_merged_not_aliased(memory: AsyncMemory) -> None:
    await memory.remember("user", "lives_in", "Porto")
    await memory.remember("Dana", "works_at", "Globex")
    with pytest.raises(InvalidInput, match="merge them"):
        await memory.alias("user", "Dana")


async def test_recall_as_memory_stood_before_a_move(memory: AsyncMemory) -> None:
    await memory.remember("user", "lives_in", "Lisbon")
    before = datetime.now(UTC)
    lisbon = (await memory.about("user"))[0]
    await memory.correct(lisbon.id, "Porto", reason="the user moved")
    assert "Porto" in (await memory.recall("Where do I live?")).text
    then = (await memory.recall("Where do I live?", as_of=before)).text
    assert "Lisbon" in then and "Porto" not in then
