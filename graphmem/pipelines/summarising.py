"""Summary jobs: level 1 per session, level 2 over the namespace's session summaries.

Summaries are recursive: the new one is the previous one plus what came after it, and it
``SUMMARIZES`` both, so the chain reaches every episode. A stale summary (what it covers
changed or was erased) is not folded into: the session is summarised again from its
episodes. Level 2 folds the session summaries nothing summarises yet into the previous
namespace summary. The writer is the LLM when configured, else the extractive summariser.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.core.config import Settings
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Tx
from graphmem.episodes.store import Episode
from graphmem.jobs import queue as jobs
from graphmem.pipelines import extractive, prompts
from graphmem.pipelines.llm import LLM, Usage
from graphmem.summaries import store as summaries
from graphmem.summaries.store import NewSummary, Summary

EXTRACTIVE_VERSION = "extractive-v1"
MAX_EPISODES = 5_000  # per job; a longer backlog is folded by the next job
LLM_CHUNK_TOKENS = 3_000  # new material per LLM call (estimated as characters / 4)


@dataclass(frozen=True)
class Material:
    previous: Summary | None  # folded into, and covered by, the new summary
    lines: list[extractive.Line]
    covers: list[str]  # episode or summary ids
    last_seq: int | None = None  # a session summary: how far it reaches


async def run(db: Database, settings: Settings, llm: LLM | None, claim: jobs.Claim) -> jobs.Job:
    ns = Namespace(claim.job.namespace)
    if claim.job.kind is jobs.JobKind.SUMMARIZE_SESSION:
        material = await _session_material(db, ns, claim.job.session_id or "")
        level, scope = 1, "session"
    else:
        material = await _namespace_material(db, ns)
        level, scope = 2, "namespace"
    text, usage = await write_text(material, settings, llm) if material.lines else ("", Usage())
    if not text.strip():  # nothing (left) to summarise: stale ones count as rebuilt
        return await db.transaction(lambda tx: _finish(tx, claim, settings, None, "", Usage()))
    producer = f"{llm.name}/{prompts.SUMMARY_VERSION}" if llm else EXTRACTIVE_VERSION
    new = NewSummary(text=text, scope=scope, level=level, session_id=claim.job.session_id,
                     covers=([material.previous.id] if material.previous else [])
                     + material.covers, producer=producer)

    async def apply(tx: Tx) -> jobs.Job:
        await jobs.own(tx, claim)
        summary = await summaries.write_in(tx, ns, new)
        await _mark_rebuilt(tx, claim)
        if material.last_seq is not None:
            await summaries.mark_summarized(tx, ns, claim.job.session_id, material.last_seq)
            await jobs.enqueue_namespace_summary(tx, ns, settings.summary_fanout)
        return await _finish(tx, claim, settings, summary, producer, usage)

    return await db.transaction(apply)


async def write_text(material: Material, settings: Settings,
                     llm: LLM | None) -> tuple[str, Usage]:
    budget = settings.summary_budget_tokens
    previous = material.previous.text if material.previous else None
    if llm is None:
        return extractive.summarise(material.lines, previous, budget), Usage()
    usage = Usage()
    for chunk in _chunks(material.lines):
        text, used = await llm.text(
            prompts.SUMMARY_SYSTEM.format(budget=budget),
            prompts.SUMMARY_USER.format(previous=previous or "(none yet)", material="\n".join(
                f"{line.actor}: {line.text}" if line.actor else line.text for line in chunk)),
            max_tokens=budget * 2)
        previous, usage = text, usage + used
    assert previous is not None
    return previous, usage


def _chunks(lines: list[extractive.Line]) -> list[list[extractive.Line]]:
    chunks: list[list[extractive.Line]] = [[]]
    size = 0
    for line in lines:
        if chunks[-1] and size + len(line.text) // 4 > LLM_CHUNK_TOKENS:
            chunks.append([])
            size = 0
        chunks[-1].append(line)
        size += len(line.text) // 4
    return chunks


async def _session_material(db: Database, ns: Namespace, session_id: str) -> Material:
    frontier = await summaries.session_frontier(db, ns, session_id)
    if frontier is None:
        return Material(None, [], [])
    latest = frontier["latest"]
    previous = Summary.from_row(latest) if latest and not latest.get("stale") else None
    after = frontier["summarized_seq"] if previous else 0
    found = await summaries.session_material(db, ns, session_id, after, MAX_EPISODES)
    episodes = sorted((Episode.from_row(row, db) for row in found),
                      key=lambda e: (e.occurred_at, e.seq))
    return Material(previous, [extractive.Line(e.actor, e.content) for e in episodes],
                    [e.id for e in episodes], max((e.seq for e in episodes), default=None))


async def _namespace_material(db: Database, ns: Namespace) -> Material:
    """Fold the session summaries nothing fresh covers into the newest namespace summary; with
    none fresh (never written, or stale), start again from each session's newest summary."""
    previous, waiting = await summaries.to_fold(db, ns, limit=200)
    return Material(previous,
                    [extractive.Line(f"session {s.session_id}" if s.session_id else None,
                                     s.text) for s in waiting],
                    [s.id for s in waiting])


async def _mark_rebuilt(tx: Tx, claim: jobs.Claim) -> None:
    session = claim.job.session_id if claim.job.kind is jobs.JobKind.SUMMARIZE_SESSION else None
    await summaries.mark_rebuilt(tx, claim.job.namespace, session, datetime.now(UTC))


async def _finish(tx: Tx, claim: jobs.Claim, settings: Settings, summary: Summary | None,
                  producer: str, usage: Usage) -> jobs.Job:
    if summary is None:
        await jobs.own(tx, claim)
        await _mark_rebuilt(tx, claim)
    return await jobs.finish(tx, claim, {
        "producer": producer or None, "summaries": 1 if summary else 0,
        "llm_calls": usage.calls, "tokens_in": usage.tokens_in,
        "tokens_out": usage.tokens_out, "cost_usd": usage.cost_usd(settings),
    }, [], [summary.id] if summary else [])
