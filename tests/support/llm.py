"""Extraction through a local OpenAI-compatible endpoint: settings, turns, one job run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.core.config import Settings
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes import store as episodes
from graphmem.episodes.store import EpisodeKind, NewEpisode
from graphmem.jobs import queue as jobs
from graphmem.jobs.queue import JobKind
from graphmem.pipelines.worker import Worker

T0 = datetime(2026, 5, 1, 9, tzinfo=UTC)


def llm_settings(url: str, **overrides: Any) -> Settings:
    return Settings(**{**Settings().model_dump(), "llm_model": "test-model",
                       "llm_base_url": url, "llm_input_usd_per_million": 2.0,
                       "llm_output_usd_per_million": 8.0, "llm_timeout_s": 2.0, **overrides})


async def record_turns(db: Database, ns: str, *texts: str) -> list[str]:
    result = await episodes.record(db, Namespace(ns), [
        NewEpisode(content=text, kind=EpisodeKind.USER_MESSAGE, actor="Dana",
                   occurred_at=T0 + timedelta(minutes=i), session_id="s1")
        for i, text in enumerate(texts)])
    return [e.id for e in result.episodes]


async def extract_with(db: Database, ns: str, settings: Settings, ids: list[str]) -> jobs.Job:
    queued = await jobs.enqueue(db, Namespace(ns), JobKind.EXTRACT, ids)
    ran = await Worker(db, settings).run_one(queued.id)
    assert ran is not None
    return ran


def reply_fact(episode: int, predicate: str, obj: str, **extra: Any) -> dict[str, Any]:
    return {"episode": episode, "subject": "Dana", "predicate": predicate, "object": obj,
            "object_is_entity": True, "confidence": 0.95, "quote": obj, **extra}
