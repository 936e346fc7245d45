"""Facts read as sentences in recall, search and why: a relation or an attribute reads
"Sam's sister is Mia", a verb phrase "Sam works at Acme", a whole number without ".0"."""

from __future__ import annotations

import pytest
from graphmem_client import AsyncMemory

from graphmem.facts.model import sentence


@pytest.mark.parametrize(("predicate", "read"), [
    ("works_at", "Sam works at X"), ("allergic_to", "Sam is allergic to X"),
    ("likes", "Sam likes X"), ("is_a", "Sam is a X"), ("has_pet", "Sam has pet X"),
    ("visiting", "Sam is visiting X"), ("married", "Sam married X"),
    ("married_to", "Sam is married to X"), ("interested_in", "Sam is interested in X"),
    ("afraid_of", "Sam is afraid of X"), ("responsible_for", "Sam is responsible for X"),
    ("working_at", "Sam is working at X"), ("born_in", "Sam was born in X"),
    ("lives_in", "Sam lives in X"), ("plays", "Sam plays X"), ("studied", "Sam studied X"),
    ("belongs_to", "Sam belongs to X"), ("went_to", "Sam went to X"),
    ("moved_to", "Sam moved to X"), ("graduated_from", "Sam graduated from X"),
    ("spent_on", "Sam spent on X"), ("known_as", "Sam is known as X"),
    ("sister", "Sam's sister is X"), ("age", "Sam's age is X"),
    ("favourite_gym", "Sam's favourite gym is X"), ("hobbies", "Sam's hobbies are X"),
    ("status", "Sam's status is X"), ("address", "Sam's address is X"),
])
def test_a_predicate_reads_as_a_verb_phrase_or_a_noun(predicate: str, read: str) -> None:
    assert sentence("Sam", predicate, "X") == read


async def test_recall_reads_relations_and_numbers_as_sentences(memory: AsyncMemory) -> None:
    await memory.remember("Sam", "sister", "Mia")
    await memory.remember("Sam", "age", 34)
    await memory.remember("Sam", "works_at", "Acme Robotics")

    recalled = (await memory.recall("Tell me about Sam")).text
    for line in ("Sam's sister is Mia", "Sam's age is 34", "Sam works at Acme Robotics"):
        assert line in recalled
    for wrong in ("Sam sister Mia", "34.0", "Sam age 34"):
        assert wrong not in recalled
