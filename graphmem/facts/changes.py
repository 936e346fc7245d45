"""Changing what memory believes on purpose: retracting a fact, correcting it, forgetting
it, pinning it.

Each is first-class and leaves a trace: the old fact keeps its record with status, reason,
who and when; an ``observation`` Episode describes the change (a correction's evidence, a
retraction's ``RETRACTED_IN``); summaries citing the old fact become stale. Forgetting is a
user's retraction that also bars machines (extraction, inference, imports) from asserting
the fact again; pinning ("always remember") exempts a believed fact from pruning, retention
and the retraction of facts whose evidence was erased.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import to_native
from graphmem.db.database import Database, Tx
from graphmem.episodes.store import CHANGE_NOTE, EpisodeKind, NewEpisode, Sensitivity, record_in
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.facts import entities, plan_writer
from graphmem.facts import store as facts
from graphmem.facts.model import Fact, Source, sentence
from graphmem.summaries import store as summaries

MAX_REASON = 1_000


async def retract(db: Database, ns: Namespace, fact_id: str, reason: str,
                  actor: str | None) -> Fact:
    _check_reason(reason)
    return await db.transaction(lambda tx: _retract(tx, ns, fact_id, reason, actor))


async def forget(db: Database, ns: Namespace, fact_id: str, reason: str,
                 actor: str | None) -> Fact:
    """The user asked memory to forget this fact: retracted (and unpinned), and never
    asserted again by extraction, inference or an import (``Outcome.FORGOTTEN``)."""
    _check_reason(reason)
    return await db.transaction(lambda tx: forget_in(tx, ns, [fact_id], reason, actor))


async def forget_in(tx: Tx, ns: Namespace, fact_ids: list[str], reason: str,
                    actor: str | None) -> Fact:
    """Inside a running transaction: forget believed facts; the first one, as it is now."""
    for fact_id in fact_ids:  # the observation names the fact, never its content again
        await _retract(tx, ns, fact_id, reason, actor,
                       f"Forgot fact {fact_id} at the user's request. Reason: {reason}")
    await mark_forgotten(tx, ns, fact_ids, None)
    return (await facts.by_ids_in(tx, ns, fact_ids[:1]))[fact_ids[0]]


async def learned_only_from(tx: Tx, ns: Namespace, episode_ids: list[str]) -> list[str]:
    """The believed, unpinned facts whose only evidence is among ``episode_ids`` (episodes
    already forgotten count as none): what forgetting those episodes lets go of."""
    rows = await tx.run("facts/learned_only_from", ns=ns, ids=episode_ids)
    return sorted(rows[0]["orphaned"])


async def mark_forgotten(tx: Tx, ns: Namespace, fact_ids: list[str],
                         reason: str | None) -> None:
    """Mark retracted facts forgotten (and unpinned); ``reason`` replaces theirs if given."""
    await tx.run("facts/forget", ns=ns, ids=fact_ids, reason=reason,
                 now=to_native(datetime.now(UTC)))


async def pin(db: Database, ns: Namespace, fact_id: str, pinned: bool,
              actor: str | None) -> Fact:
    """Pin a believed fact (always remember) or unpin it. Pinning again keeps the first pin."""

    async def change(tx: Tx) -> Fact:
        await _believed_fact(tx, ns, fact_id, "pinned or unpinned")
        await tx.run("facts/pin", ns=ns, id=fact_id, pinned=pinned, actor=actor,
                     now=to_native(datetime.now(UTC)))
        return (await facts.by_ids_in(tx, ns, [fact_id]))[fact_id]

    return await db.transaction(change)


async def correct(db: Database, ns: Namespace, fact_id: str, new_object: str | None,
                  value: facts.Literal | None, reason: str, actor: str | None,
                  evidence: list[str] | None = None) -> facts.Asserted:
    """Replace a believed fact's object: the correction (source ``user_correction``) covers
    the same validity, supersedes the old one and goes through conflict resolution. Its
    evidence: ``evidence`` (episode ids or externalIds: the user's own turn saying so) and
    the observation graphmem writes of the change, who made it and why."""
    _check_reason(reason)
    return await db.transaction(
        lambda tx: _correct(tx, ns, fact_id, new_object, value, reason, actor, evidence or []))


async def _retract(tx: Tx, ns: Namespace, fact_id: str, reason: str, actor: str | None,
                   observed: str | None = None) -> Fact:
    old = await _believed_fact(tx, ns, fact_id)
    now = datetime.now(UTC)
    episode = await _observe(tx, ns, observed or f"Retracted “{old.text}”. Reason: {reason}",
                             actor, now)
    await tx.run("facts/retract", ns=ns, id=fact_id, episode_id=episode, reason=reason,
                 actor=actor, now=to_native(now))
    await outbox.emit(tx, ns, EventKind.FACT_RETRACTED, [fact_id], now)
    await plan_writer.settle_orphaned(tx, ns, now)
    await summaries.mark_stale(tx, ns, [fact_id], "a cited fact was retracted")
    return (await facts.by_ids_in(tx, ns, [fact_id]))[fact_id]


async def _correct(tx: Tx, ns: Namespace, fact_id: str, new_object: str | None,
                   value: facts.Literal | None, reason: str, actor: str | None,
                   evidence: list[str]) -> facts.Asserted:
    old = await _believed_fact(tx, ns, fact_id)
    shown = new_object if new_object is not None else value.typed()[2] if value else "?"
    now = datetime.now(UTC)
    episode = await _observe(
        tx, ns, f"Corrected “{old.text}” to “{sentence(old.subject, old.predicate, shown)}”. "
                f"Reason: {reason}", actor, now)
    return await replace_in(tx, ns, old, facts.NewFact(
        subject=old.subject, predicate=old.predicate, object=new_object, value=value,
        confidence=1.0, source=Source.USER_CORRECTION, evidence=[*evidence, episode]),
        reason, actor)


async def correct_in(tx: Tx, ns: Namespace, fact_id: str, new: facts.NewFact, reason: str,
                     actor: str | None) -> facts.Asserted:
    """Inside a running transaction: ``new`` replaces the believed fact outright (a
    pipeline read a correction in an episode, which is ``new``'s evidence)."""
    return await replace_in(tx, ns, await _believed_fact(tx, ns, fact_id), new, reason, actor)


async def replace_in(tx: Tx, ns: Namespace, old: Fact, new: facts.NewFact, reason: str,
                     actor: str | None) -> facts.Asserted:
    """The correction covers the old fact's validity: it was wrong all along."""
    return await facts.assert_in(
        tx, ns, dataclasses.replace(new, valid_from=old.valid_from, valid_to=old.valid_to),
        actor, correcting=(old.id, reason))


async def _believed_fact(tx: Tx, ns: Namespace, fact_id: str,
                         what: str = "retracted or corrected") -> Fact:
    """The fact, believed, with its entities locked (their caches move on)."""
    rows = await tx.run("facts/for_change", ns=ns, id=fact_id)
    if not rows:
        raise NotFound(f"no fact {fact_id!r} in this namespace", field="factId")
    await entities.lock(tx, ns, [i for i in (rows[0]["subject_id"], rows[0]["object_id"]) if i])
    rows = await tx.run("facts/for_change", ns=ns, id=fact_id)  # re-read under the lock
    fact = Fact.from_row(rows[0]["fact"])
    if fact.retracted_at is not None:
        raise InvalidInput(f"fact {fact_id!r} is {fact.status.value}: only believed facts "
                           f"can be {what}", field="factId")
    return fact


async def _observe(tx: Tx, ns: Namespace, text: str, actor: str | None, now: datetime) -> str:
    recorded = await record_in(tx, ns, [NewEpisode(
        content=text, kind=EpisodeKind.OBSERVATION, occurred_at=now, actor=actor or "graphmem",
        sensitivity=Sensitivity.PERSONAL, metadata=CHANGE_NOTE)])
    return recorded.episodes[0].id


def _check_reason(reason: str) -> None:
    if not reason.strip() or len(reason) > MAX_REASON:
        raise InvalidInput(f"reason must be 1-{MAX_REASON} characters", field="reason")
