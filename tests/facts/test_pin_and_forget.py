"""A user's own say over memory, through the API: pin a fact (always remember) and forget a
fact or an episode (with what memory learned only from it), over the real Neo4j."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graphmem.core.errors import GraphmemError, InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.facts import changes
from graphmem.facts import store as facts
from graphmem.facts.model import Outcome, Source
from graphmem.governance import forgetting
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, ep, fact
from tests.support.graph import namespace_contents

PIN = """mutation($ns: String!, $id: ID!) { pinFact(namespace: $ns, factId: $id) {
  id pinned pinnedAt pinnedBy status } }"""
UNPIN = """mutation($ns: String!, $id: ID!) { unpinFact(namespace: $ns, factId: $id) {
  pinned pinnedAt } }"""
FORGET = """mutation($ns: String!, $id: ID!) { forgetFact(namespace: $ns, factId: $id,
  reason: "the user asked") { status reason pinned forgottenAt } }"""
FORGET_EPISODE = """mutation($ns: String!, $id: ID!, $erase: Boolean!) {
  forgetEpisode(namespace: $ns, id: $id, reason: "not mine to keep", erase: $erase) {
    episode { content redactedAt } receipt { scope verified }
    forgottenFacts { object status reason forgottenAt } } }"""
RECALL = """query($ns: String!, $q: String!) { recall(namespace: $ns, query: $q) {
  pieces { layer text fact { id pinned } } } }"""
NAMING_NOBODY = "Suggest a recipe for dinner tonight"
ERASE = """mutation($ns: String!, $ids: [String!]!) { eraseEpisodes(namespace: $ns, ids: $ids) {
  verified } }"""


async def _facts(gql: GraphQLClient, ns: str, *made: dict[str, Any]) -> list[str]:
    rows = (await gql.ok(ASSERT, ns=ns, facts=list(made)))["assertFacts"]
    return [row["fact"]["id"] for row in rows]


async def test_a_pinned_fact_is_recalled_every_turn_and_survives_its_evidence(
        gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "I am allergic to penicillin"),
                                     ep("m2", 2, "I like jazz")])
    allergy, jazz = await _facts(gql, ns,
                                 fact("user", "allergic_to", "penicillin", evidence=["m1"]),
                                 fact("user", "likes", "jazz", evidence=["m2"]))
    pinned = (await gql.ok(PIN, ns=ns, id=allergy))["pinFact"]
    assert pinned["pinned"] and pinned["pinnedBy"] == "tests-admin"
    again = (await gql.ok(PIN, ns=ns, id=allergy))["pinFact"]
    assert again["pinnedAt"] == pinned["pinnedAt"]  # pinning twice keeps the first pin

    # A question naming nobody still gets the pinned fact, first and marked.
    pieces = (await gql.ok(RECALL, ns=ns, q=NAMING_NOBODY))["recall"]["pieces"]
    facts_layer = [p for p in pieces if p["layer"] == "facts"]
    assert facts_layer[0]["fact"] == {"id": allergy, "pinned": True}
    assert facts_layer[0]["text"].endswith("[pinned: always remember]")
    assert jazz not in {p["fact"]["id"] for p in facts_layer}

    await gql.ok(ERASE, ns=ns, ids=["m1", "m2"])  # both facts lose their only evidence
    history = await gql.ok("""query($ns: String!) { facts(namespace: $ns,
        includeHistory: true) { nodes { id status } } }""", ns=ns)
    assert {f["id"]: f["status"] for f in history["facts"]["nodes"]} == {
        allergy: "ACTIVE", jazz: "RETRACTED"}  # the unpinned twin goes, the pinned stays

    unpinned = (await gql.ok(UNPIN, ns=ns, id=allergy))["unpinFact"]
    assert unpinned == {"pinned": False, "pinnedAt": None}
    pieces = (await gql.ok(RECALL, ns=ns, q=NAMING_NOBODY))["recall"]["pieces"]
    assert not [p for p in pieces if p["layer"] == "facts"]


async def test_only_believed_facts_are_pinned(gql: GraphQLClient, db: Database,
                                              ns: str) -> None:
    [tea] = await _facts(gql, ns, fact("user", "likes", "tea"))
    await gql.ok("""mutation($ns: String!, $id: ID!) { retractFact(namespace: $ns,
        factId: $id, reason: "no") { id } }""", ns=ns, id=tea)
    refused = await gql(PIN, ns=ns, id=tea)
    assert refused["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    assert "only believed facts can be pinned or unpinned" in refused["errors"][0]["message"]
    before = await namespace_contents(db, ns)  # the refusal's audit event included
    with pytest.raises(InvalidInput):
        await changes.pin(db, Namespace(ns), tea, True, "someone")
    assert await namespace_contents(db, ns) == before


async def test_a_forgotten_fact_is_not_asserted_again_by_machines(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    [tea] = await _facts(gql, ns, fact("user", "likes", "tea"))
    await gql.ok(PIN, ns=ns, id=tea)
    forgotten = (await gql.ok(FORGET, ns=ns, id=tea))["forgetFact"]
    assert forgotten["status"] == "RETRACTED" and forgotten["reason"] == "the user asked"
    assert not forgotten["pinned"] and forgotten["forgottenAt"]
    for source in (Source.EXTRACTION, Source.INFERENCE, Source.AGENT_ASSERTION,
                   Source.IMPORT):
        [again] = await facts.assert_facts(db, Namespace(ns), [facts.NewFact(
            subject="user", predicate="likes", object="tea", source=source)])
        assert (again.fact_id, again.outcome) == (tea, Outcome.FORGOTTEN), source
    believed = await gql.ok("""query($ns: String!) { facts(namespace: $ns) { nodes {
        object } } }""", ns=ns)
    assert believed["facts"]["nodes"] == []
    # The user saying it again is the user changing their mind: believed anew.
    [told] = (await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "tea",
                                                      source="USER_STATEMENT")]))["assertFacts"]
    assert told["outcome"] == "CREATED" and told["fact"]["id"] != tea


async def test_forgetting_an_episode_forgets_what_was_learned_only_from_it(
        gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        ep("m1", 1, "I moved to Porto and I am a nurse"), ep("m2", 2, "Porto is lovely"),
        ep("m3", 3, "I am allergic to cats")])
    porto, nurse, cats = await _facts(
        gql, ns, fact("user", "lives_in", "Porto", evidence=["m1", "m2"]),
        fact("user", "works_as", "nurse", evidence=["m1"]),
        fact("user", "allergic_to", "cats", evidence=["m1"]))
    await gql.ok(PIN, ns=ns, id=cats)  # pinned: the user wants it kept whatever happens

    done = (await gql.ok(FORGET_EPISODE, ns=ns, id="m1", erase=False))["forgetEpisode"]
    assert done["episode"]["content"] == "[redacted]" and done["receipt"] is None
    assert [(f["object"], f["status"], f["reason"]) for f in done["forgottenFacts"]] == [
        ("nurse", "RETRACTED", "not mine to keep")]
    believed = await gql.ok("""query($ns: String!) { facts(namespace: $ns) { nodes {
        id } } }""", ns=ns)
    assert {f["id"] for f in believed["facts"]["nodes"]} == {porto, cats}
    assert nurse not in {f["id"] for f in believed["facts"]["nodes"]}

    erased = (await gql.ok(FORGET_EPISODE, ns=ns, id="m2", erase=True))["forgetEpisode"]
    assert erased["episode"] is None and erased["receipt"]["verified"]
    assert [f["object"] for f in erased["forgottenFacts"]] == ["Porto"]
    assert all(f["forgottenAt"] for f in erased["forgottenFacts"])


async def test_bad_forget_requests_write_nothing(gql: GraphQLClient, db: Database,
                                                 ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1)])
    [tea] = await _facts(gql, ns, fact("user", "likes", "tea", evidence=["m1"]))
    before = await namespace_contents(db, ns)
    here = Namespace(ns)
    for attempt in (changes.forget(db, here, "fact_nope", "x", None),
                    changes.forget(db, here, tea, " ", None),
                    forgetting.forget_episode(db, here, "nope", "x", None),
                    forgetting.forget_episode(db, here, "m1", "", None, erase=True)):
        with pytest.raises(GraphmemError):
            await attempt
    assert await namespace_contents(db, ns) == before


async def test_recall_offers_the_newest_twenty_pins(gql: GraphQLClient, ns: str) -> None:
    """Pins at the cap and one past it: of 21 pinned facts, recall offers the 20 pinned last,
    and not the first pin."""
    made = await _facts(gql, ns, *[fact("user", "likes", f"tune {i:02d}") for i in range(21)])
    pins = " ".join(f'p{i}: pinFact(namespace: $ns, factId: "{fact_id}") {{ pinned }}'
                    for i, fact_id in enumerate(made))  # one request, pinned in this order
    await gql.ok(f"mutation($ns: String!) {{ {pins} }}", ns=ns)
    recalled = await gql.ok("""query($ns: String!, $q: String!) { recall(namespace: $ns,
        query: $q, tokenBudget: 4000) { pieces { layer fact { id pinned } } } }""",
                            ns=ns, q=NAMING_NOBODY)
    offered = [p["fact"]["id"] for p in recalled["recall"]["pieces"] if p["layer"] == "facts"]
    assert len(offered) == 20 and set(offered) == set(made[1:])  # made[0]: the oldest pin


async def test_forgetting_writes_an_observation_that_never_repeats_the_fact(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """The observation a forgetting writes names the fact's id; what the fact said is not
    written again — not in the note, not where notes are searched or shown as evidence."""
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "I once had a crush on Ottoline")])
    [crush] = await _facts(gql, ns, fact("user", "had_crush_on", "Ottoline", evidence=["m1"]))
    await gql.ok(FORGET, ns=ns, id=crush)
    notes, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) WHERE e.note RETURN e.content AS content", {"ns": ns},
        database_=db.name)
    assert [crush in r["content"] for r in notes] == [True], notes
    assert not [r for r in notes if "ottoline" in r["content"].lower()], notes
    shown = await gql.ok("""query($ns: String!, $id: ID!) {
        provenance(namespace: $ns, factId: $id) { evidence { content kind } }
        search(namespace: $ns, query: "Forgot fact", includeHistory: true) {
          hits { episode { content kind } } } }""", ns=ns, id=crush)
    notes_shown = [e for e in shown["provenance"]["evidence"] if e["kind"] == "OBSERVATION"] + [
        h["episode"] for h in shown["search"]["hits"]
        if h["episode"] and h["episode"]["kind"] == "OBSERVATION"]
    assert notes_shown and "ottoline" not in json.dumps(notes_shown).lower(), shown
