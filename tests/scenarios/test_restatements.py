"""Saying a fact again: the evidence is kept, and confidence follows README *Confidence*: an
unqualified restatement is not certainty; a stated confidence from as strong a source sets
it, lower too; a weaker source leaves it."""

from __future__ import annotations

from graphmem_client import AsyncMemory
from graphmem_client._operations import Call, Steps


async def confidence_of(memory: AsyncMemory, subject: str) -> float:
    (fact,) = await memory.about(subject)
    return fact.confidence


async def test_saying_it_again_without_a_confidence_does_not_make_it_certain(
        memory: AsyncMemory) -> None:
    first = await memory.remember("Sam", "plays", "cello", confidence=0.7)
    again = await memory.remember("Sam", "plays", "cello")

    assert (first.outcome, again.outcome) == ("CREATED", "EVIDENCE_ADDED")
    assert again.fact.id == first.fact.id
    assert await confidence_of(memory, "Sam") == 0.7


async def test_a_stated_confidence_sets_it_lower_as_well_as_higher(memory: AsyncMemory) -> None:
    await memory.remember("Sam", "plays", "cello", confidence=0.7)
    await memory.remember("Sam", "plays", "cello", confidence=0.2)
    assert await confidence_of(memory, "Sam") == 0.2
    await memory.remember("Sam", "plays", "cello", confidence=0.9)
    assert await confidence_of(memory, "Sam") == 0.9


async def test_each_statement_is_kept_as_evidence(memory: AsyncMemory) -> None:
    turns = await memory.record([
        {"role": "user", "actor": "Sam", "content": "I play the cello, I think.",
         "external_id": "m1"},
        {"role": "user", "actor": "Sam", "content": "Yes, cello, every Sunday.",
         "external_id": "m2"}], session_id="chat-1")
    first, second = turns.episode_ids
    fact = (await memory.remember("Sam", "plays", "cello", evidence=[first],
                                  confidence=0.6)).fact
    await memory.remember("Sam", "plays", "cello", evidence=[second])

    why = await memory.why(fact.id)
    assert sorted(e.id for e in why.evidence) == sorted([first, second])
    assert await confidence_of(memory, "Sam") == 0.6


async def test_a_weaker_source_does_not_override_what_the_user_said(
        memory: AsyncMemory) -> None:
    def assert_fact(source: str, confidence: float) -> Steps[None]:
        yield Call("""mutation A($namespace: String!, $facts: [FactInput!]!) {
                   assertFacts(namespace: $namespace, facts: $facts) { outcome } }""", "A",
                   {"namespace": memory.namespace, "facts": [{
                       "subject": "Sam", "predicate": "allergic_to", "object": "peanuts",
                       "source": source, "confidence": confidence}]})

    await memory.run(assert_fact("USER_STATEMENT", 0.95))
    await memory.run(assert_fact("EXTRACTION", 0.5))
    (fact,) = await memory.about("Sam")
    assert (fact.confidence, fact.source) == (0.95, "USER_STATEMENT")

    await memory.run(assert_fact("AGENT_ASSERTION", 0.4))  # weaker than the user: no change
    await memory.run(assert_fact("USER_CORRECTION", 1.0))  # stronger: it is the user's word
    (fact,) = await memory.about("Sam")
    assert (fact.confidence, fact.source) == (1.0, "USER_CORRECTION")
