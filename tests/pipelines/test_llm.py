"""The LLM pipelines against a local OpenAI-compatible endpoint (recorded replies, the real
`openai` client over loopback): structured output and its fallbacks, malformed answers,
refusals, rate limits and timeouts, usage and cost, and summaries."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.facts import provenance
from graphmem.facts import store as facts
from graphmem.jobs import queue as jobs
from graphmem.jobs.queue import JobKind, JobState
from graphmem.pipelines.worker import Worker
from tests.support.chat_endpoint import Reply, chat_endpoint, facts_reply
from tests.support.llm import extract_with, llm_settings, record_turns, reply_fact


async def _current(db: Database, ns: str, predicate: str) -> list[str]:
    page = await facts.page(db, Namespace(ns), facts.FactFilter(subject="Dana",
                            predicate=predicate), first=10, after=None)
    return [f.object for _, f in page.items]


async def test_structured_extraction_with_usage_and_cost(db: Database, ns: str) -> None:
    with chat_endpoint(facts_reply(reply_fact(1, "works_at", "Acme Robotics"),
                                   reply_fact(2, "lives_in", "Lisbon", valid_from="2026-04-01"),
                                   reply_fact(9, "likes", "ghosts"))) as llm:
        ids = await record_turns(db, ns, "I started at Acme Robotics.",
                                 "I moved to Lisbon in April.")
        job = await extract_with(db, ns, llm_settings(llm.url), ids)
    assert job.state is JobState.DONE, job.error
    assert job.stats["producer"] == "llm:test-model/extract-v1"
    assert job.stats["candidates"] == 2  # message 9 does not exist: dropped
    assert (job.stats["llm_calls"], job.stats["tokens_in"], job.stats["tokens_out"]) == (1, 120, 30)
    assert abs(job.stats["cost_usd"] - (120 * 2.0 + 30 * 8.0) / 1e6) < 1e-12
    request = llm.seen[0]
    assert request["response_format"]["type"] == "json_schema"
    assert "[1] (2026-05-01T09:00:00+00:00, Dana) I started at Acme Robotics." in \
        request["messages"][1]["content"]
    produced = await provenance.produced_facts(db, Namespace(ns), [job.id])
    assert {(f.predicate, f.object, f.confidence) for f in produced[0]} == {
        ("works_at", "Acme Robotics", 0.9), ("lives_in", "Lisbon", 0.9)}  # capped at 0.9
    lisbon = next(f for f in produced[0] if f.object == "Lisbon")
    assert lisbon.valid_from == datetime(2026, 4, 1, tzinfo=UTC)


async def test_current_facts_are_in_the_prompt_and_corrections_replace(db: Database,
                                                                       ns: str) -> None:
    with chat_endpoint(facts_reply(reply_fact(1, "lives_in", "Lisbon"))) as llm:
        ids = await record_turns(db, ns, "I live in Lisbon.")
        first = await extract_with(db, ns, llm_settings(llm.url), ids)
    [lisbon] = await provenance.produced_facts(db, Namespace(ns), [first.id])
    correction = reply_fact(1, "lives_in", "Porto", corrects=lisbon[0].id)
    with chat_endpoint(facts_reply(correction)) as llm:
        await extract_with(db, ns, llm_settings(llm.url),
                       await record_turns(db, ns, "Actually it's Porto, not Lisbon."))
        assert f"[{lisbon[0].id}] Dana lives in Lisbon" in llm.seen[0]["messages"][1]["content"]
    assert await _current(db, ns, "lives_in") == ["Porto"]
    old = (await facts.by_ids(db, Namespace(ns), [lisbon[0].id]))[lisbon[0].id]
    assert old.status.value == "superseded"


async def test_endpoints_without_structured_output_fall_back(db: Database, ns: str) -> None:
    fenced = "```json\n" + json.dumps({"facts": [reply_fact(1, "works_at", "Globex")]}) + "\n```"
    rejecting = frozenset({"json_schema", "json_object"})
    with chat_endpoint(Reply(content=fenced, rejects=rejecting)) as llm:
        ids = await record_turns(db, ns, "I work at Globex now.")
        job = await extract_with(db, ns, llm_settings(llm.url), ids)
        formats = [(r.get("response_format") or {}).get("type") for r in llm.seen]
    assert job.state is JobState.DONE, job.error
    assert formats == ["json_schema", "json_object", None]
    assert await _current(db, ns, "works_at") == ["Globex"]


async def test_bad_answers_are_retried_or_failed_with_a_clear_error(db: Database,
                                                                     ns: str) -> None:
    cases = [
        (Reply(content='{"facts": [{"episode": 1,'), JobState.QUEUED, "malformed JSON"),
        # the model's words (here a piece of the turn) stay out of the error
        (Reply(content='{"facts": [{"episode": "Lisbon"}]}'), JobState.QUEUED, "does not match"),
        (Reply(refusal="I can't help with that."), JobState.FAILED, "refused"),
        (Reply(content='{"facts": []}', finish_reason="content_filter"), JobState.FAILED,
         "refused"),
        (Reply(status=429), JobState.QUEUED, "rate limiting (429)"),
        (Reply(status=503), JobState.QUEUED, "answered 503"),
        (Reply(content="{}", delay_s=3.0), JobState.QUEUED, "timed out"),
    ]
    for reply, state, error in cases:
        with chat_endpoint(reply) as llm:
            job = await extract_with(db, ns, llm_settings(llm.url, llm_timeout_s=0.5),
                                 await record_turns(db, ns, "I live in Lisbon."))
        assert (job.state, job.attempts) == (state, 1), (error, job)
        assert job.error is not None and error in job.error
        assert "Lisbon" not in job.error  # errors never quote memory content
    assert await _current(db, ns, "lives_in") == []  # nothing half-written


async def test_a_failed_job_succeeds_when_retried(db: Database, ns: str) -> None:
    ids = await record_turns(db, ns, "I work at Initech.")
    with chat_endpoint(Reply(status=500), facts_reply(reply_fact(1, "works_at", "Initech"))) as llm:
        settings = llm_settings(llm.url)
        failed = await extract_with(db, ns, settings, ids)
        assert failed.state is JobState.QUEUED
        await jobs.retry(db, Namespace(ns), failed.id)  # skip the backoff
        done = await Worker(db, settings).run_one(failed.id)
    assert done is not None and done.state is JobState.DONE and done.attempts == 1
    assert await _current(db, ns, "works_at") == ["Initech"]


async def test_llm_session_summaries_fold_into_the_previous_one(db: Database, ns: str) -> None:
    await record_turns(db, ns, "I moved to Lisbon.", "I work at Acme.")
    with chat_endpoint(Reply(content="Dana lives in Lisbon and works at Acme.")) as llm:
        settings = llm_settings(llm.url)
        queued = await jobs.enqueue(db, Namespace(ns), JobKind.SUMMARIZE_SESSION, [], "s1")
        first = await Worker(db, settings).run_one(queued.id)
    assert first is not None and first.state is JobState.DONE, first and first.error
    assert first.stats["producer"] == "llm:test-model/summary-v1"
    await record_turns(db, ns, "I got a cat named Miso.")
    with chat_endpoint(Reply(content="Dana lives in Lisbon, works at Acme, has a cat.")) as llm:
        queued = await jobs.enqueue(db, Namespace(ns), JobKind.SUMMARIZE_SESSION, [], "s1")
        await Worker(db, llm_settings(llm.url)).run_one(queued.id)
        prompt = llm.seen[0]["messages"][1]["content"]
    assert "Dana lives in Lisbon and works at Acme." in prompt  # the previous summary
    assert "Miso" in prompt and "I moved to Lisbon." not in prompt  # only what is new


async def test_a_correction_only_replaces_the_named_fact_of_that_predicate(db: Database,
                                                                          ns: str) -> None:
    with chat_endpoint(facts_reply(reply_fact(1, "lives_in", "Paris"))) as llm:
        ids = await record_turns(db, ns, "I live in Paris.")
        first = await extract_with(db, ns, llm_settings(llm.url), ids)
    [paris] = await provenance.produced_facts(db, Namespace(ns), [first.id])
    with chat_endpoint(facts_reply(reply_fact(1, "works_at", "Acme", corrects=paris[0].id))) as llm:
        ids = await record_turns(db, ns, "I'm at Acme, actually.")
        await extract_with(db, ns, llm_settings(llm.url), ids)
    assert await _current(db, ns, "lives_in") == ["Paris"]  # not "corrected" into a job
    assert await _current(db, ns, "works_at") == ["Acme"]


async def test_only_a_refused_format_moves_down_a_mode(db: Database, ns: str) -> None:
    with chat_endpoint(Reply(status=400), facts_reply(reply_fact(1, "works_at", "Initech"))) as llm:
        settings = llm_settings(llm.url)
        worker = Worker(db, settings)
        ids = await record_turns(db, ns, "I work at Initech.")
        queued = await jobs.enqueue(db, Namespace(ns), JobKind.EXTRACT, ids)
        failed = await worker.run_one(queued.id)
        assert failed is not None and failed.error is not None and "(400)" in failed.error
        await jobs.retry(db, Namespace(ns), queued.id)
        done = await worker.run_one(queued.id)
        formats = [(r.get("response_format") or {}).get("type") for r in llm.seen]
    assert done is not None and done.state is JobState.DONE
    assert formats == ["json_schema", "json_schema"]  # a prompt-size 400 says nothing of it
