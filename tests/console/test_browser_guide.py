"""The Neo4j Browser guide: every slide's query runs on a real memory graph and finds it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from graphmem.console import browser_guide
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes.store import EpisodeKind, NewEpisode, record
from graphmem.facts import entity_merge, policies
from graphmem.facts import store as facts
from graphmem.summaries import store as summaries

SLIDES = browser_guide.slides()
EXPECTED = {  # what each slide must show of the memory built below
    "01_namespaces": ["{ns}"],
    "02_conversation": ["I'm Alice", "A. Smith here again"],
    "03_entity": ["Acme", "jazz"],  # the merged entity's facts show under Alice
    "04_why": ["Alice works at Acme", "I'm Alice, I work at Acme.",
               "held on device phone, said 2026-04-30T08:00", "content hash c0ffee"],
    "05_trace": ["I'm Alice", "'session_id': 's1'", "likes jazz.", "'held on device phone'"],
    "06_history": ["likes jazz", "active"],
    "07_summaries": ["Alice works at Acme and likes jazz.", "A. Smith here again"],
    "08_merges": ["'from_name': 'A. Smith'"],
    "09_conflicts": ["'status': 'open'", "'predicate': 'works_at'"],
}


@pytest.fixture
async def memory(db: Database, ns: str) -> dict[str, str]:
    """A small memory: a conversation, facts with evidence, a summary, a merge."""
    space = Namespace(ns)
    start = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    said = ["I'm Alice, I work at Acme.", "A. Smith here again: I like jazz."]
    episodes = (await record(db, space, [
        NewEpisode(content=text, kind=EpisodeKind.USER_MESSAGE, occurred_at=start
                   + timedelta(minutes=i), external_id=f"m{i}", session_id="s1", actor="user")
        for i, text in enumerate(said)])).episodes
    asserted = await facts.assert_facts(db, space, [
        facts.NewFact("Alice", "works_at", "Acme", evidence=["m0"]),
        facts.NewFact("A. Smith", "likes", "jazz", evidence=["m1"])])
    await summaries.write(db, space, summaries.NewSummary(
        "Alice works at Acme and likes jazz.", session_id="s1",
        covers=[e.id for e in episodes], cites=[a.fact_id for a in asserted]))
    await entity_merge.merge_entities(db, space, into="Alice", merged="A. Smith")
    await policies.set_policy(db, space, "works_at", policies.Cardinality.ONE,
                              policies.Strategy.MANUAL, "test")
    await facts.assert_facts(db, space, [facts.NewFact("Alice", "works_at", "Initech")])
    # Federated memory: the fact was said on another device too, which keeps that turn.
    await db.driver.execute_query(
        """MATCH (f:Fact {ns: $ns, id: $id})
           CREATE (f)-[:EVIDENCED_BY_TURN]->(:DeviceTurn {ns: $ns, id: 'ep_phone_1',
             device: 'phone', said_at: datetime('2026-04-30T08:00:00Z'),
             content_hash: 'c0ffee'})""", {"ns": ns, "id": asserted[0].fact_id},
        database_=db.name)
    return {"ns": ns, "session": "s1", "entity": "alice ", "fact": asserted[0].fact_id}


@pytest.mark.parametrize("slide", SLIDES, ids=[s.name for s in SLIDES])
async def test_every_slide_query_finds_the_memory(db: Database, memory: dict[str, str],
                                                  slide: browser_guide.Slide) -> None:
    records, _, _ = await db.driver.execute_query(slide.query, memory)
    found = str([record.data() for record in records])
    for expected in EXPECTED[slide.name.removeprefix("console/browser/")]:
        assert expected.format(**memory) in found, slide.name


async def test_a_turn_held_on_another_device_is_shown_as_held_there(
        db: Database, memory: dict[str, str]) -> None:
    """A reference to a turn another device holds is listed as held there, with when it was
    said and its content hash, beside the episodes this memory holds: not as an episode
    with no words."""
    why = next(s for s in SLIDES if s.name.endswith("/04_why"))
    records, _, _ = await db.driver.execute_query(why.query, memory)
    [row] = [r.data() for r in records if "works at Acme" in r["fact"]]
    assert row["said"] == ["I'm Alice, I work at Acme."]
    assert row["held_elsewhere"] == [
        "held on device phone, said 2026-04-30T08:00:00Z, content hash c0ffee"]
    trace = next(s for s in SLIDES if s.name.endswith("/05_trace"))
    records, _, _ = await db.driver.execute_query(trace.query, memory)
    assert {tuple(r["held_on"]) for r in records} == {("held on device phone",)}
    assert all(r["held"].end_node["device"] == "phone" for r in records)


def test_every_slide_has_a_title_text_and_query() -> None:
    assert {s.name.removeprefix("console/browser/") for s in SLIDES} == set(EXPECTED)
    for slide in SLIDES:
        assert slide.title and slide.text and "MATCH" in slide.query, slide.name


async def test_guide_is_served_cross_origin_with_every_query(client: httpx.AsyncClient) -> None:
    browser = "http://localhost:7474"
    # Neo4j Browser asks first (a CORS preflight), as a browser does for a non-simple fetch.
    preflight = await client.options("/browser/guide", headers={
        "Origin": browser, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-requested-with, content-type"})
    assert preflight.status_code == 200, preflight.text
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "GET" in preflight.headers["access-control-allow-methods"]
    assert {"x-requested-with", "content-type"} <= {
        h.strip().lower() for h in preflight.headers["access-control-allow-headers"].split(",")}
    response = await client.get("/browser/guide", headers={"Origin": browser})
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    assert response.text.count("code runnable") == len(SLIDES) + 4  # plus the :param lines
    for slide in SLIDES:
        assert slide.title in response.text


async def test_guide_applies_its_style_from_where_it_was_fetched(
        client: httpx.AsyncClient) -> None:
    guide = (await client.get("/browser/guide")).text
    assert "exec-topic='style http://graphmem.test/browser/style.grass'" in guide
    preflight = await client.options("/browser/style.grass", headers={
        "Origin": "http://localhost:7474", "Access-Control-Request-Method": "GET"})
    assert preflight.status_code == 200
    style = await client.get("/browser/style.grass", headers={"Origin": "http://localhost:7474"})
    assert style.headers["access-control-allow-origin"] == "*"
    for rule in ('node.Entity {', 'caption: "{name}"', 'node.Value {', 'caption: "{value}"',
                 'node.Fact {', 'caption: "{text}"', "node.DeviceTurn {",
                 'caption: "held on {device}"', "relationship.CANDIDATE {",
                 "relationship.SUPERSEDES {"):
        assert rule in style.text, rule
