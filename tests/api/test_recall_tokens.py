"""`recall` answers "within `tokenBudget` tokens (counted with the Llama-2 tokenizer)": each
piece's `tokens` is what that tokenizer counts in the piece's text as returned (with its day,
speaker, "since", pinned and disputed marks), `tokensUsed` is their sum, and it stays within
the budget however tight."""

from __future__ import annotations

import pytest

from graphmem.retrieval import tokens
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, POLICY, RECORD, fact, said

RECALL = """query($ns: String!, $q: String!, $budget: Int!) { recall(namespace: $ns, query: $q,
  sessionId: "chat", tokenBudget: $budget, referenceTime: "2026-11-29T12:00:00Z") {
  pieces { layer text tokens } tokensUsed tokenBudget plan { layer items leftOut tokens } } }"""


async def _memory(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        {**said(f"m{i}", f"2026-10-{i + 5:02d}T09:00:00Z", text), "sessionId": "chat"}
        for i, text in enumerate([
            "I adopted a dog called Biscuit, a scruffy terrier",
            "Biscuit hates the vacuum cleaner and barks at the postman",
            "We walked Biscuit along the river Douro at dawn"])])
    await gql.ok(POLICY, ns=ns, p="walks_at", c="ONE", s="MANUAL")
    made = await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "owns", "Biscuit", evidence=["m0"], validFrom="2026-10-05T00:00:00Z"),
        fact("Biscuit", "walks_at", "the river Douro"), fact("Biscuit", "walks_at", "the park"),
        fact("user", "is_allergic_to", "penicillin")])
    await gql.ok("""mutation($ns: String!, $id: ID!) { pinFact(namespace: $ns, factId: $id) {
        id } }""", ns=ns, id=made["assertFacts"][3]["fact"]["id"])
    await gql.ok("""mutation($ns: String!) { writeSummary(namespace: $ns, summary: {
        text: "The user has a terrier, Biscuit, walked by the Douro.", sessionId: "chat",
        covers: ["m0", "m1", "m2"]}) { id } }""", ns=ns)


@pytest.mark.parametrize("budget", [1000, 80, 50])
async def test_what_recall_returns_is_counted_as_returned_and_fits(
        gql: GraphQLClient, ns: str, budget: int) -> None:
    await _memory(gql, ns)
    answer = (await gql.ok(RECALL, ns=ns, budget=budget,
                           q="What did I say about Biscuit and the Douro last month?"))["recall"]
    pieces = answer["pieces"]
    assert [(p["text"], p["tokens"]) for p in pieces] == [
        (p["text"], tokens.count(p["text"])) for p in pieces]
    assert answer["tokensUsed"] == sum(tokens.count(p["text"]) for p in pieces) <= budget
    assert answer["tokenBudget"] == budget
    for step in answer["plan"]:  # each layer's share, counted the same way
        assert step["tokens"] == sum(tokens.count(p["text"]) for p in pieces
                                     if p["layer"] == step["layer"])
    if budget == 1000:  # every kind of line, marks included, was counted above
        texts = " ".join(p["text"] for p in pieces)
        assert {p["layer"] for p in pieces} == {"summary", "facts", "episodes"}
        assert "[pinned: always remember]" in texts and "[disputed" in texts
        assert "(since 2026-10-05)" in texts and "] user: " in texts
    else:
        assert sum(step["leftOut"] for step in answer["plan"]) >= 1


async def test_a_turn_is_dated_in_words_without_its_time_of_day(gql: GraphQLClient,
                                                                ns: str) -> None:
    """A turn's line carries its day as words ("7 October 2026", 5 tokens) instead of
    "2026-10-07 09:00" (15: the tokenizer counts each digit), so a budget holds more turns
    (on the LoCoMo dev split, recall's evidence share at 1,000 tokens 0.833 -> 0.842)."""
    await _memory(gql, ns)
    answer = (await gql.ok(RECALL, ns=ns, budget=1000,
                           q="What did I say about the river Douro at dawn?"))["recall"]
    lines = [p["text"] for p in answer["pieces"] if p["layer"] == "episodes"]
    assert "[7 October 2026] user: We walked Biscuit along the river Douro at dawn" in lines
    assert not [line for line in lines if "09:00" in line or "2026-10" in line]
