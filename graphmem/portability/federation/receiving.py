"""Taking a sync in: a device's push on the shared side (kept, resolved and stamped in one
transaction), and a pulled page on a device (kept with the cursor after it, in one
transaction, so an interrupted sync resumes after its last page)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Tx
from graphmem.facts import plan_writer
from graphmem.facts import store as facts
from graphmem.portability.federation.batches import Batch, merge, read
from graphmem.portability.federation.content import (
    OWN_LINKS,
    SYNCED,
    Content,
    check_device,
    labels,
)
from graphmem.portability.federation.cursors import advance, parse_cursor
from graphmem.portability.federation.erasure import erase_here
from graphmem.portability.federation.stamps import stamp, stamp_own_changes, syncable
from graphmem.portability.format import RelRecord


@dataclass
class Received:
    """What taking in a push or a pulled page did."""

    sequence: int = 0  # the shared side's sequence number after a push
    nodes: int = 0
    relationships: int = 0
    changed: int = 0  # nodes a push changed (stamped for the other devices' pulls)
    ended: list[str] = field(default_factory=list)  # facts the shared side's resolution ended
    disputed: int = 0  # disputes its resolution opened
    forgotten: int = 0  # facts of the sync its receiver holds forgotten: left as they are
    erased: dict[str, int] = field(default_factory=dict)  # a page's tombstones, erased here


async def receive_push(db: Database, ns: Namespace, device: str, lines: list[str],
                       actor: str) -> Received:
    """A device's push into the shared namespace ``ns``, in one transaction: the whole of it
    checked first (a bad one writes nothing), then kept, resolved and stamped."""
    check_device(device)
    batch, barred = await read(db, ns, lines, SYNCED)
    return await db.transaction(lambda tx: _keep_push(tx, ns, device, batch, barred, actor))


async def receive_page(db: Database, ns: Namespace, lines: list[str], content: Content,
                       peer: str, cursor: str, erased: list[tuple[str, str]]) -> Received:
    """A pulled page into the device's namespace ``ns``, with the cursor after it, in one
    transaction: an interrupted sync resumes after its last page. ``erased`` (kind, id): what
    the shared side erased since, erased here first."""
    batch, barred = await read(db, ns, lines, SYNCED)
    allowed = labels(content)
    kept = Batch([(n, r) for n, r in batch.nodes if r.label in allowed],
                 [(n, r) for n, r in batch.rels
                  if r.start[0] in allowed and r.end[0] in allowed], batch.renamed)
    seq, label, key = parse_cursor(cursor)

    async def write(tx: Tx) -> Received:
        gone = await erase_here(tx, ns, erased)
        done = await _keep_page(tx, ns, kept, barred)
        done.erased = gone
        await advance(tx, ns, peer, seq, label, key)
        return done

    return await db.transaction(write)


async def _keep_push(tx: Tx, ns: Namespace, device: str, batch: Batch, barred: set[str],
                     actor: str) -> Received:
    await stamp_own_changes(tx, ns)
    done = await merge(tx, ns, batch, barred, authority="held")
    fact_ids = sorted({key for label, key in done.keys if label == "Fact"})
    around = await tx.run("portability/federation/around", ns=ns, ids=fact_ids)
    decided = await facts.reconcile_in(
        tx, ns, [(row["subject_id"], row["predicate"]) for row in around], actor)
    await plan_writer.settle_orphaned(tx, ns, datetime.now(UTC))  # a settled conflict sent
    resolved = set(decided.ended) | {s.winner for s in decided.supersessions} \
        | {r.id for r in decided.revisions} | {i for ids in decided.disputes for i in ids}
    touched = [("Fact", i) for i in sorted(resolved)]
    for row in await tx.run("portability/federation/around", ns=ns, ids=sorted(resolved)):
        touched.append(("Entity", row["subject_id"]))  # its edges' statuses moved
        touched += [("Conflict", c) for c in row["conflicts"]]
        touched += [("Summary", s) for s in row["summaries"]]
    # Whatever else the push moved (a node it did not send, changed beside one it did) is
    # stamped for every device too, the pushing one included.
    others = await syncable(tx, ns) - set(done.keys)
    stamped = await stamp(tx, ns, device, done.keys, set(touched) | others)
    return Received(sequence=stamped.sequence, nodes=done.nodes, relationships=done.rels,
                    changed=stamped.changed, ended=sorted(decided.ended),
                    disputed=len(decided.disputes), forgotten=len(barred))


async def _keep_page(tx: Tx, ns: Namespace, batch: Batch, barred: set[str]) -> Received:
    turns = sorted(str(r.key) for _, r in batch.nodes if r.label == "DeviceTurn")
    own = set((await tx.run("portability/federation/own_turns", ns=ns, ids=turns))[0]["ids"]) \
        if turns else set()
    done = await merge(tx, ns, _as_own_turns(batch, own), barred, authority="sent")
    await plan_writer.settle_orphaned(tx, ns, datetime.now(UTC))
    return Received(nodes=done.nodes, relationships=done.rels, forgotten=len(barred))


def _as_own_turns(batch: Batch, own: set[str]) -> Batch:
    """References to this device's own turns made the turns again: the episode is the
    evidence here, not a reference to it."""
    if not own:
        return batch
    rels = []
    for number, rel in batch.rels:
        if rel.end[0] == "DeviceTurn" and rel.end[1] in own and rel.type in OWN_LINKS:
            rel = RelRecord(OWN_LINKS[rel.type], rel.start, ("Episode", rel.end[1]), rel.props)
        rels.append((number, rel))
    return Batch([(n, r) for n, r in batch.nodes
                  if not (r.label == "DeviceTurn" and r.key in own)], rels, batch.renamed)
