"""Summaries by the pipelines over the real Neo4j, offline (extractive): triggered as
sessions grow, recursive, level 2 over sessions, rebuilt when they go stale."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.core.config import Settings
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes import store as episodes
from graphmem.episodes.store import EpisodeKind, NewEpisode
from graphmem.governance import erasure
from graphmem.jobs import queue as jobs
from graphmem.jobs import switches
from graphmem.jobs.queue import JobKind, JobState, Triggers
from graphmem.pipelines.worker import Worker
from graphmem.summaries import store as summaries
from tests.support.client import GraphQLClient

T0 = datetime(2026, 5, 1, 9, tzinfo=UTC)
TRIGGERS = Triggers(extract_by_default=False, summarize_by_default=False, job_episodes=20,
                    summary_every_episodes=3, summary_every_tokens=100_000)
LINES = ["I moved to Lisbon last month.", "Thanks!", "I work at Acme Robotics on motion planning.",
         "My daughter starts school in September.", "ok", "I prefer tea to coffee."]


def _settings(**overrides: object) -> Settings:
    return Settings(**{**Settings().model_dump(), **overrides})


async def _say(db: Database, ns: str, session: str, texts: list[str], start: int = 0) -> list[str]:
    result = await episodes.record(db, Namespace(ns), [
        NewEpisode(content=text, kind=EpisodeKind.USER_MESSAGE, actor="user",
                   occurred_at=T0 + timedelta(minutes=start + i), session_id=session,
                   external_id=f"{session}-{start + i}")
        for i, text in enumerate(texts)], TRIGGERS)
    return [e.id for e in result.episodes]


async def _queued(db: Database, ns: str) -> list[jobs.Job]:
    page = await jobs.page(db, Namespace(ns), JobState.QUEUED, 50, None)
    return [job for _, job in page.items]


async def _summarise_on(db: Database, ns: str, settings: Settings) -> None:
    await switches.set_switches(db, Namespace(ns), settings, None, True, "tests")


async def test_sessions_are_summarised_as_they_grow_and_recursively(
        db: Database, settings: Settings, ns: str) -> None:
    await _summarise_on(db, ns, settings)
    first = await _say(db, ns, "s1", LINES[:3])
    [job] = await _queued(db, ns)
    assert (job.kind, job.session_id) == (JobKind.SUMMARIZE_SESSION, "s1")
    await Worker(db, settings).run_one(job.id)
    one = await summaries.latest(db, Namespace(ns), "s1")
    assert one is not None and one.producer == "extractive-v1" and one.level == 1
    assert "Lisbon" in one.text and "Acme Robotics" in one.text and "Thanks" not in one.text

    await _say(db, ns, "s1", LINES[3:4], start=3)
    assert await _queued(db, ns) == []  # one new episode: below the threshold
    second = await _say(db, ns, "s1", LINES[4:], start=4)
    [job] = await _queued(db, ns)
    done = await Worker(db, settings).run_one(job.id)
    assert done is not None and done.state is JobState.DONE
    two = await summaries.latest(db, Namespace(ns), "s1")
    assert two is not None and two.id != one.id
    assert "Lisbon" in two.text and "tea" in two.text  # the old summary folded in
    covered, _, _ = await db.driver.execute_query(
        "MATCH (s:Summary {ns: $ns, id: $id}) RETURN s.id AS id",
        {"ns": ns, "id": two.id}, database_=db.name)
    assert covered
    rows, _, _ = await db.driver.execute_query(
        "MATCH (:Summary {ns: $ns, id: $id})-[:SUMMARIZES]->(n) RETURN n.id AS id",
        {"ns": ns, "id": two.id}, database_=db.name)
    assert {r["id"] for r in rows} == {one.id, *second, *(await _ids(db, ns, ["s1-3"]))}
    assert not set(first) & {r["id"] for r in rows}  # reached through the previous summary


async def _ids(db: Database, ns: str, refs: list[str]) -> list[str]:
    rows = await db.read("episodes/resolve", ns=ns, refs=refs)
    return [row["id"] for row in rows]


async def test_enough_session_summaries_make_a_namespace_summary(db: Database,
                                                                  ns: str) -> None:
    settings = _settings(summary_fanout=2)
    await _summarise_on(db, ns, settings)
    await _say(db, ns, "s1", LINES[:3])
    await _say(db, ns, "s2", LINES[3:])
    worker = Worker(db, settings)
    for job in await _queued(db, ns):
        await worker.run_one(job.id)
    [top] = await _queued(db, ns)
    assert top.kind is JobKind.SUMMARIZE_NAMESPACE
    await worker.run_one(top.id)
    rows = await db.read("summaries/latest_namespace", ns=ns)
    [level2] = [summaries.Summary.from_row(row["summary"]) for row in rows]
    assert level2.scope == "namespace" and level2.session_id is None
    assert "Lisbon" in level2.text and "tea" in level2.text


async def test_stale_summaries_are_rebuilt_from_what_remains(db: Database, settings: Settings,
                                                             ns: str) -> None:
    await _summarise_on(db, ns, settings)
    await _say(db, ns, "s1", LINES[:3])
    worker = Worker(db, settings)
    for job in await _queued(db, ns):
        await worker.run_one(job.id)
    await erasure.erase_episodes(db, Namespace(ns), ["s1-0"], "tests")
    stale = await summaries.latest(db, Namespace(ns), "s1")
    assert stale is not None and stale.stale

    await worker.housekeeping()
    [job] = await _queued(db, ns)
    assert (job.kind, job.session_id) == (JobKind.SUMMARIZE_SESSION, "s1")
    await worker.run_one(job.id)
    fresh = await summaries.latest(db, Namespace(ns), "s1")
    assert fresh is not None and not fresh.stale
    assert "Acme Robotics" in fresh.text and "Lisbon" not in fresh.text  # erased stays erased


async def test_summarize_on_request(gql: GraphQLClient, db: Database, ns: str) -> None:
    await _say(db, ns, "s1", LINES)
    done = await gql.ok("""mutation($ns: String!) { summarize(namespace: $ns, sessionId: "s1",
        wait: true) { state kind summaries producer } }""", ns=ns)
    assert done["summarize"] == {"state": "DONE", "kind": "SUMMARIZE_SESSION", "summaries": 1,
                                 "producer": "extractive-v1"}
    latest = await gql.ok("""query($ns: String!) { summary(namespace: $ns, sessionId: "s1") {
        text producer } }""", ns=ns)
    assert "Lisbon" in latest["summary"]["text"]
    missing = await gql("""mutation($ns: String!) { summarize(namespace: $ns,
        sessionId: "nope") { id } }""", ns=ns)
    assert missing["errors"][0]["extensions"]["code"] == "NOT_FOUND"


async def test_erasure_reaches_the_newest_summary_of_a_long_chain(
        db: Database, settings: Settings, ns: str) -> None:
    await _summarise_on(db, ns, settings)
    worker = Worker(db, settings)
    await _say(db, ns, "s1", ["My passport number is X1234567.", "I live in Lisbon.",
                              "I work at Acme."])
    for round_ in range(1, 13):  # a chain of 13 recursive summaries
        for job in await _queued(db, ns):
            await worker.run_one(job.id)
        await _say(db, ns, "s1", [f"Note {round_}: I visited Porto.", "ok", "I like tea."],
                   start=round_ * 3)
    for job in await _queued(db, ns):
        await worker.run_one(job.id)
    chained = await summaries.latest(db, Namespace(ns), "s1")
    assert chained is not None and "X1234567" in chained.text
    await erasure.erase_episodes(db, Namespace(ns), ["s1-0"], "tests")
    stale = await summaries.latest(db, Namespace(ns), "s1")
    assert stale is not None and stale.stale  # however far up the chain it is
    await worker.housekeeping()
    for job in await _queued(db, ns):
        await worker.run_one(job.id)
    rebuilt = await summaries.latest(db, Namespace(ns), "s1")
    assert rebuilt is not None and not rebuilt.stale and "X1234567" not in rebuilt.text


async def test_a_rebuild_covers_sessions_under_a_stale_namespace_summary_once(
        db: Database, ns: str) -> None:
    settings = _settings(summary_fanout=2)
    await _summarise_on(db, ns, settings)
    worker = Worker(db, settings)
    await _say(db, ns, "s1", LINES[:3])
    await _say(db, ns, "s2", LINES[3:])
    for _ in range(2):
        for job in await _queued(db, ns):
            await worker.run_one(job.id)
    assert await db.read("summaries/latest_namespace", ns=ns)
    await erasure.erase_episodes(db, Namespace(ns), ["s1-0"], "tests")  # s1 and level 2 stale

    await worker.housekeeping()
    kinds = sorted(j.kind.value for j in await _queued(db, ns))
    assert kinds == ["summarize_namespace", "summarize_session"]
    for job in sorted(await _queued(db, ns), key=lambda j: j.kind.value, reverse=True):
        await worker.run_one(job.id)  # the session first, then the namespace
    s1 = await summaries.latest(db, Namespace(ns), "s1")
    assert s1 is not None and not s1.stale and "Lisbon" not in s1.text
    [top] = await db.read("summaries/latest_namespace", ns=ns)
    assert "Acme Robotics" in top["summary"]["text"] and "tea" in top["summary"]["text"]
    assert "Lisbon" not in top["summary"]["text"]
    await worker.housekeeping()
    assert await _queued(db, ns) == []  # rebuilt once: no endless jobs
