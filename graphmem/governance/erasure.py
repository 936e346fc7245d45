"""Erasure that proves itself: a namespace's memory deleted in bounded batches, then the
graph and every fulltext index re-queried to show nothing remains, and a content-free
receipt left for audit.

Vectors live on the nodes themselves, so deleting a node removes its embedding from the
vector indexes; the node count proves it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.archive import stores as archive_stores
from graphmem.archive import tiering
from graphmem.core.errors import ConcurrentChange, DecryptionFailed, InvalidInput, NotFound
from graphmem.core.identifiers import actor_key
from graphmem.core.namespaces import Namespace, lucene_key
from graphmem.core.timeutil import maybe_datetime, to_native
from graphmem.db.database import Database, Tx
from graphmem.db.slots import Slot
from graphmem.episodes.store import relink, resolve_refs
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.facts import entities, plan_writer
from graphmem.governance import mentions, subject_plan
from graphmem.governance.mentions import MentionScope
from graphmem.retrieval.fact_cache import FactCache
from graphmem.security import encryption
from graphmem.summaries import store as summaries

BATCH = 2_000


@dataclass(frozen=True)
class Receipt:
    id: str
    scope: str
    requested_at: datetime
    completed_at: datetime
    counts: dict[str, int]
    remaining_nodes: int
    remaining_searchable: int

    @property
    def verified(self) -> bool:
        return self.remaining_nodes == 0 and self.remaining_searchable == 0


MAX_EPISODES = 1_000
MIN_CONTENT_PROBE = 24  # characters: an erased text shorter than this is not searched for
MIN_NAME_PROBE = 3
PROBE_CHARS = 200
# What a summary of erased content says until the worker rebuilds it from what remains.
WITHDRAWN = "[withdrawn: content it covered was erased]"


SECRET: Slot[bytes] = Slot("erasure secret")  # read once per database


async def digest(db: Database, ns: str) -> str:
    """How an erased namespace is named where a trace must stay (receipts, the audit log): an
    HMAC under the service's own secret. A plain SHA-256 of a name was reversed by guessing
    names (``acme/user-1``, ``acme/user-2``…); this one only the service can recompute, to
    find the receipt of a namespace an operator names."""
    secret = await db.learn(SECRET, lambda: _secret(db))
    return "hmac-sha256:" + hmac.new(secret, ns.encode(), hashlib.sha256).hexdigest()


async def _secret(db: Database) -> bytes:
    row = (await db.write("governance/erasure/secret", candidate=secrets.token_hex(32)))[0]
    return bytes.fromhex(row["secret"])


async def erase_episodes(db: Database, ns: Namespace, refs: list[str], actor: str | None,
                         cache: FactCache | None = None,
                         retract_orphans: bool = True,
                         before: Callable[[Tx, list[str]], Awaitable[Any]] | None = None,
                         ) -> Receipt:
    """Erase episodes (ids or externalIds) in one transaction. Summaries covering them
    become stale, facts whose only evidence they were are retracted (the record stays, so
    history is honest about what memory believed) unless ``retract_orphans`` is off (they
    stay believed, with no evidence), sessions are relinked around the gap. A pinned fact
    stays believed. ``before`` runs first in the same transaction, with the episodes' ids."""
    if not 1 <= len(refs) <= MAX_EPISODES:
        raise InvalidInput(f"give 1 to {MAX_EPISODES} episodes", field="ids")
    requested = datetime.now(UTC)
    counts = await db.transaction(
        lambda tx: _erase_episodes(tx, ns, refs, actor, retract_orphans, before))
    ids = counts.pop("_ids")
    probes = _probes(db, ns, counts.pop("_contents"))
    archived = await _drop_archived(db, ns, counts.pop("_archived"))
    left = (await db.read("governance/erasure/episodes_remaining", ns=ns, ids=ids))[0]
    receipt = Receipt(f"erasure_{uuid.uuid4().hex}", "episodes", requested,
                      datetime.now(UTC), counts, left["nodes"] + archived,
                      await _copies(db, ns, probes, None))
    await _tombstone(db, ns, receipt, actor)
    return receipt


async def _erase_episodes(tx: Tx, ns: Namespace, refs: list[str], actor: str | None,
                          retract_orphans: bool = True,
                          before: Callable[[Tx, list[str]], Awaitable[Any]] | None = None,
                          ) -> dict[str, Any]:
    found = await resolve_refs(tx, ns, refs, "ids")
    ids = sorted({e.id for e in found.values()})
    if before is not None:
        await before(tx, ids)
    plan = (await tx.run("governance/erasure/episodes_plan", ns=ns, ids=ids))[0]
    await entities.lock(tx, ns, [i for i in plan["entities"] if i])
    now = datetime.now(UTC)
    stale = await summaries.mark_stale(tx, ns, ids, "a covered episode was erased", WITHDRAWN)
    orphaned = [i for i in plan["orphaned"] if i] if retract_orphans else []
    done = (await tx.run("governance/erasure/episodes_delete", ns=ns, ids=ids, now=to_native(now),
                         actor=actor, orphaned=orphaned,
                         speakers=_speakers(plan["actors"])))[0]
    await relink(tx, ns, plan["sessions"])
    await outbox.emit(tx, ns, EventKind.FACT_RETRACTED, orphaned, now)
    if done["retracted"]:
        await plan_writer.settle_orphaned(tx, ns, now)
    speakers = {"speakers": done["speakers"]} if done["speakers"] else {}
    return {"episodes": done["erased"], "facts_retracted": done["retracted"],
            "summaries_stale": stale, **speakers, "_ids": ids, "_contents": plan["contents"],
            "_archived": plan["archived"]}


def _speakers(names: list[str]) -> list[dict[str, Any]]:
    """The erased turns' speakers as ``{key, names}``: one speaker may be recorded under
    names that differ in case or spacing (``actor_key``)."""
    by_key: dict[str, list[str]] = {}
    for name in names:
        by_key.setdefault(actor_key(name), []).append(name)
    return [{"key": key, "names": sorted(set(spelled))} for key, spelled in by_key.items()]


async def erase_subject(db: Database, ns: Namespace, name: str, with_episodes: bool,
                        actor: str | None, cache: FactCache | None = None,
                        scope: MentionScope = MentionScope.KEEP) -> Receipt:
    """Erase an entity: every fact version about it (either end), its aliases and merge
    records, entities and values left orphaned, and — when asked — the episodes that
    evidence its facts (with the episode cascade). The turns that name it (its name or an
    alias, as a whole word) stay, have each mention redacted or are erased, as ``scope``
    says (``subject_plan`` works out what goes; its dry run shows the same). Summaries
    covering or citing any of it are withdrawn."""
    requested = datetime.now(UTC)
    entity = await entities.by_name(db, ns, name)
    if entity is None:
        raise NotFound(f"no entity named {name!r}", field="entity")
    objects: mentions.Objects = {}  # archived turns read ahead, not inside the transaction
    if scope is not MentionScope.KEEP:
        await mentions.find(db, db.read, ns, [entity.name, *entity.aliases], objects)
    counts = await db.transaction(
        lambda tx: _erase_subject(tx, ns, entity, with_episodes, scope, actor, objects))
    archived = await _drop_archived(db, ns, counts.pop("_archived", []))
    if cache is not None:
        cache.forget(ns)
    nodes, resolvable = await subject_remaining(db, ns, entity)
    nodes += archived
    names = [n for n in {entity.name, *entity.aliases} if len(n) >= MIN_NAME_PROBE]
    if scope is MentionScope.KEEP:
        copies = await _copies(db, ns, names, None if with_episodes else ["observation"])
    else:  # no turn may name it any more: looked for as a mention is (whole words)
        copies = await _copies(db, ns, names, []) + len(
            await mentions.find(db, db.read, ns, [entity.name, *entity.aliases]))
    receipt = Receipt(f"erasure_{uuid.uuid4().hex}", "subject", requested, datetime.now(UTC),
                      counts, nodes, resolvable + copies)
    await _tombstone(db, ns, receipt, actor)
    return receipt


async def _erase_subject(tx: Tx, ns: Namespace, entity: entities.Entity, with_episodes: bool,
                         scope: MentionScope, actor: str | None,
                         objects: mentions.Objects) -> dict[str, Any]:
    plan = await subject_plan.plan(tx.db, tx.run, ns, entity, with_episodes, scope, objects)
    subject = plan.subject
    await entities.lock(tx, ns, [entity.id, *subject["other_entities"]])
    stale = await summaries.mark_stale(tx, ns, plan.changed_ids, "what it covered was erased",
                                       WITHDRAWN)
    done = (await tx.run("governance/erasure/subject_delete", ns=ns, id=entity.id,
                         facts=subject["facts"], others=subject["others"],
                         other_entities=subject["other_entities"]))[0]
    counts: dict[str, Any] = {**done, "summaries_stale": stale, "_archived": []}
    if scope is not MentionScope.KEEP:
        counts.update(await _rewrite_mentions(tx, ns, plan, actor))
    if plan.erase_ids:
        cascade = await _erase_episodes(tx, ns, plan.erase_ids, actor)
        counts["_archived"] += cascade["_archived"]
        counts["episodes"] = cascade["episodes"]
        counts["facts_retracted"] = cascade["facts_retracted"]
        counts.update({k: v for k, v in cascade.items() if k == "speakers"})
    await plan_writer.settle_orphaned(tx, ns, datetime.now(UTC))
    return counts


async def _rewrite_mentions(tx: Tx, ns: Namespace, plan: subject_plan.SubjectPlan,
                            actor: str | None) -> dict[str, Any]:
    """Each mention in the turns that stay replaced; archived turns naming it (or keeping a
    neighbour's copy that does) back in the graph, their objects to delete after commit."""
    matcher = mentions.pattern(plan.names)
    rows = [{**mentions.redacted(tx.db, m, matcher, ns), "redacted": True} for m in plan.redact
            if matcher is not None]
    rows += [{**mentions.restored(m), "redacted": False} for m in plan.restore]
    if not rows:
        return {"mentions_redacted": 0, "archived_restored": 0}
    done = (await tx.run("governance/erasure/mentions_rewrite", ns=ns, rows=rows, actor=actor,
                         now=to_native(datetime.now(UTC))))[0]
    await relink(tx, ns, done["sessions"])  # the neighbours' copies of what was said
    moved = [m for m in [*plan.redact, *plan.restore] if m.row.get("archive_key")]
    return {"mentions_redacted": len(plan.redact), "archived_restored": len(plan.restore),
            "_archived": [m.row["archive_key"] for m in moved]}


async def _drop_archived(db: Database, ns: Namespace, keys: list[str]) -> int:
    """Delete erased episodes' archive objects; how many are still there (the receipt counts
    them as remaining: the erasure is not verified until they are gone)."""
    store = archive_stores.active(db)
    if not keys:
        return 0
    if store is None:
        return len(keys)
    with contextlib.suppress(Exception):  # a store away: the receipt says what is left
        await tiering.forget_objects(db, store, ns, keys)
    try:
        return len(set(keys) & set(await tiering.objects_of(store, ns)))
    except Exception:  # cannot tell: count them all as left
        return len(keys)


def _probes(db: Database, ns: Namespace, contents: list[str]) -> list[str]:
    """What to look for to find a copy of erased contents: the start of each, as stored and
    (when sealed) as plaintext. Short ones ("ok", "thanks") prove nothing: they are skipped."""
    probes = set()
    for stored in contents:
        try:
            plain = encryption.reveal(db, stored, ns) or ""
        except DecryptionFailed:  # sealed under a key this process lacks: its copies are too
            plain = ""
        for text in {stored, plain}:
            if len(text) >= MIN_CONTENT_PROBE:
                probes.add(text[:PROBE_CHARS])
    return sorted(probes)


async def _copies(db: Database, ns: Namespace, probes: list[str],
                  episode_kinds: list[str] | None) -> int:
    if not probes:
        return 0
    rows = await db.read("governance/erasure/copies_remaining", ns=ns, probes=probes,
                         episode_kinds=episode_kinds)
    return int(rows[0]["copies"])


async def _tombstone(db: Database, ns: Namespace, receipt: Receipt, actor: str | None) -> None:
    """The receipt, and (unless the whole namespace went: its events went with it, and an
    event would keep its name) the event that says the erasure is done."""
    ns_digest = await digest(db, ns)

    async def write(tx: Tx) -> None:
        await tx.run("governance/erasure/receipt", id=receipt.id, scope=receipt.scope,
                     ns_digest=ns_digest, requested_at=receipt.requested_at,
                     completed_at=receipt.completed_at,
                     counts=json.dumps(receipt.counts, sort_keys=True),
                     verified=receipt.verified, actor=actor)
        if receipt.scope != "namespace":
            await outbox.emit(tx, ns, EventKind.ERASURE_DONE, [receipt.id], receipt.completed_at)

    await db.transaction(write)


async def erase_session(db: Database, ns: Namespace, session_id: str, actor: str | None,
                        cache: FactCache | None = None,
                        idle_at: datetime | None = None) -> Receipt:
    """Erase a session: its episodes (with their cascade), every fact version taken only from
    them (deleted, not retracted: nothing of the conversation stays, except a fact a user
    pinned), the entities and values left without facts, its summaries; the session leaves
    its tombstone (a turn for it is refused from then on). With ``idle_at`` (the worker's
    sweep), only if it is still idle at that time under its lock, else ``ConcurrentChange``."""
    requested = datetime.now(UTC)
    counts = await db.transaction(
        lambda tx: _erase_session(tx, ns, session_id, actor, requested, idle_at))
    ids, facts, probes = counts.pop("_ids"), counts.pop("_facts"), counts.pop("_contents")
    archived = await _drop_archived(db, ns, counts.pop("_archived"))
    if cache is not None:
        cache.forget(ns)
    left = (await db.read("governance/erasure/session_remaining", ns=ns, session_id=session_id,
                          ids=ids, facts=facts))[0]
    receipt = Receipt(f"erasure_{uuid.uuid4().hex}", "session", requested, datetime.now(UTC),
                      counts, left["nodes"] + archived,
                      await _copies(db, ns, _probes(db, ns, probes), None))
    await _tombstone(db, ns, receipt, actor)
    return receipt


async def _erase_session(tx: Tx, ns: Namespace, session_id: str, actor: str | None,
                         now: datetime, idle_at: datetime | None) -> dict[str, Any]:
    rows = await tx.run("governance/erasure/session_plan", ns=ns, session_id=session_id,
                        now=to_native(now))
    if not rows:
        raise NotFound(f"no session {session_id!r} in this namespace", field="sessionId")
    plan = rows[0]
    if idle_at is not None and not _idle(plan, idle_at):
        raise ConcurrentChange(f"session {session_id!r} was written to since it was idle")
    await entities.lock(tx, ns, plan["entities"])
    stale = await summaries.mark_stale(tx, ns, plan["facts"] + plan["summaries"],
                                       "what it covered was erased", WITHDRAWN)
    counts: dict[str, Any] = {"episodes": 0, "facts_retracted": 0, "summaries_stale": stale,
                              "_archived": []}
    if plan["episodes"]:  # the episode cascade first, then what only they held
        cascade = await _erase_episodes(tx, ns, plan["episodes"], actor)
        counts["episodes"] = cascade["episodes"]
        counts["facts_retracted"] = cascade["facts_retracted"]
        counts["_archived"] = cascade["_archived"]
        counts.update({k: v for k, v in cascade.items() if k == "speakers"})
    done = (await tx.run("governance/erasure/session_delete", ns=ns, session_id=session_id,
                         facts=plan["facts"], summaries=plan["summaries"],
                         entities=plan["entities"], values=plan["values"],
                         now=to_native(now)))[0]
    await plan_writer.settle_orphaned(tx, ns, datetime.now(UTC))
    return {**counts, **done, "_ids": plan["episodes"], "_facts": plan["facts"],
            "_contents": plan["contents"]}


def _idle(plan: dict[str, Any], at: datetime) -> bool:
    """The sweep's rule (governance/sessions/idle_ephemeral), read again under the session's
    lock."""
    last, ttl_s = maybe_datetime(plan["updated_at"]), plan["ttl_s"]
    return last is not None and ttl_s is not None and last + timedelta(seconds=ttl_s) < at


async def erase_namespace(db: Database, ns: Namespace, confirm: str, actor: str | None,
                          cache: FactCache | None = None) -> Receipt:
    """Delete everything the namespace holds. ``confirm`` must repeat the namespace."""
    if confirm != ns:
        raise InvalidInput("confirm must repeat the namespace being erased", field="confirm")
    requested = datetime.now(UTC)
    counts: dict[str, int] = {}
    while True:  # bounded transactions, so a large namespace never needs one huge one
        # A batch deletes up to BATCH nodes of every kind, with their relationships: it has
        # the administrative time bound, not a request's.
        done = (await db.admin().write("governance/erasure/namespace_batch", ns=ns, batch=BATCH))[0]
        for kind, n in done.items():
            counts[kind] = counts.get(kind, 0) + n
        if not any(done.values()):
            break
    if cache is not None:
        cache.forget(ns)
    await db.write("governance/erasure/pseudonymise_audit", ns=ns, digest=await digest(db, ns))
    store = archive_stores.active(db)
    if store is not None:
        objects = await tiering.objects_of(store, ns)
        await store.delete(objects)
        counts["archived_objects"] = len(objects)
    nodes, searchable = await namespace_remaining(db, ns)
    if store is not None:
        nodes += len(await tiering.objects_of(store, ns))
    receipt = Receipt(f"erasure_{uuid.uuid4().hex}", "namespace", requested, datetime.now(UTC),
                      counts, nodes, searchable)
    await _tombstone(db, ns, receipt, actor)
    return receipt


async def namespace_remaining(db: Database, ns: Namespace) -> tuple[int, int]:
    """(nodes, searchable texts) the namespace still holds: what a namespace receipt
    reports, 0 and 0 once erased."""
    left = (await db.read("governance/erasure/namespace_remaining", ns=ns,
                          lucene=f"ns_key:{lucene_key(ns)}"))[0]
    return left["nodes"], left["searchable"]


async def subject_remaining(db: Database, ns: Namespace,
                            entity: entities.Entity) -> tuple[int, int]:
    """(nodes, names that still resolve) of an entity: its node, and its name or any alias
    still leading to an entity. What a subject receipt reports, 0 and 0 once erased."""
    keys = [entity.key, *map(entities.entity_key, entity.aliases)]
    left = (await db.read("governance/erasure/subject_remaining", ns=ns, id=entity.id,
                          keys=keys))[0]
    return left["nodes"], left["resolvable"]



@dataclass(frozen=True)
class TurnsErased:
    """What an erasure of turn references took: the receipt, and the facts and summaries by
    id (a shared service's tombstones for the devices' pulls)."""

    receipt: Receipt
    facts: list[str]
    summaries: list[str]


async def erase_held_turns(db: Database, ns: Namespace, turns: list[str], actor: str | None,
                           then: Callable[[Tx, list[str], list[str]], Awaitable[Any]],
                           ) -> TurnsErased:
    """Erase references to turns a device held and has erased (federated memory), with the
    facts they alone supported and the summaries they alone covered (those they partly
    covered become stale, their text withdrawn), in one transaction; ``then`` runs in it with
    the erased facts and summaries. A receipt, verified by a re-query, as every erasure."""
    requested = datetime.now(UTC)

    async def erase(tx: Tx) -> tuple[dict[str, int], Any]:
        counts, plan = await _erase_turns(tx, ns, turns, [], [])
        await then(tx, plan["facts"], plan["summaries"])
        return counts, plan

    counts, plan = await db.transaction(erase)
    left = (await db.read("governance/erasure/turns_remaining", ns=ns, turns=turns,
                          facts=plan["facts"], summaries=plan["summaries"]))[0]
    receipt = Receipt(f"erasure_{uuid.uuid4().hex}", "held_turns", requested,
                      datetime.now(UTC), counts, int(left["nodes"]), 0)
    await _tombstone(db, ns, receipt, actor)
    return TurnsErased(receipt, list(plan["facts"]), list(plan["summaries"]))


async def erase_synced_in(tx: Tx, ns: Namespace, turns: list[str], facts: list[str],
                          summaries_erased: list[str]) -> dict[str, int]:
    """On a device, inside a running transaction: what a shared service erased (its
    tombstones, pulled) erased here too, with what only those turns supported here."""
    return (await _erase_turns(tx, ns, turns, facts, summaries_erased))[0]


async def _erase_turns(tx: Tx, ns: Namespace, turns: list[str], facts: list[str],
                       summaries_erased: list[str]) -> tuple[dict[str, int], Any]:
    plan = (await tx.run("governance/erasure/turns_plan", ns=ns, turns=turns, facts=facts,
                         summaries=summaries_erased))[0]
    counts = (await tx.run(
        "governance/erasure/turns_delete", ns=ns, turns=turns, facts=plan["facts"],
        summaries=plan["summaries"], stale=plan["stale"], entities=plan["entities"],
        values=plan["values"], withdrawn=WITHDRAWN, now=datetime.now(UTC)))[0]
    return dict(counts), plan
