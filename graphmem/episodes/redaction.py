"""Redaction: an episode's content is replaced, its structure stays.

The node keeps its id, time, session position and provenance links (facts it evidences still
point at it, so an auditor sees *that* there was evidence and that it was redacted, when, by
whom and why); the content, the next turn's copy of it (search context), metadata and the
embedding are gone, and the fulltext index follows the node. Summaries covering it (and those
built on them) are withdrawn: their text, which may repeat the redacted words, is replaced and
they are stale, rebuilt without it where summaries are switched on.
"""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import to_native
from graphmem.db.database import Database, Tx
from graphmem.episodes.store import Episode, by_ids, relink, resolve_refs
from graphmem.summaries import store as summaries

PLACEHOLDER = "[redacted]"
WITHDRAWN = "[withdrawn: content it covered was redacted]"
MAX_REASON = 1_000


async def redact_episode(db: Database, ns: Namespace, ref: str, reason: str,
                         actor: str | None) -> Episode:
    """Redact one episode (id or externalId); redacting it again changes nothing."""
    if not reason.strip() or len(reason) > MAX_REASON:
        raise InvalidInput(f"reason must be 1-{MAX_REASON} characters", field="reason")
    episode_id = (await resolve_refs(db, ns, [ref], "id"))[ref].id
    await db.transaction(lambda tx: redact_in(tx, ns, [episode_id], reason, actor))
    return (await by_ids(db, ns, [episode_id]))[episode_id]


async def mark_forgotten(tx: Tx, ns: Namespace, ids: list[str]) -> None:
    """Episodes a user asked memory to forget (redacted or erased in the same transaction)."""
    await tx.run("episodes/forget", ns=ns, ids=ids, now=to_native(datetime.now(UTC)))


async def redact_in(tx: Tx, ns: Namespace, ids: list[str], reason: str,
                    actor: str | None) -> dict[str, int]:
    """Redact episodes by id inside a running transaction (retention sweeps use it too)."""
    stale = await summaries.mark_stale(tx, ns, ids, "a covered episode was redacted",
                                       WITHDRAWN)
    rows = await tx.run("episodes/redact", ns=ns, ids=ids, placeholder=PLACEHOLDER,
                        reason=reason, actor=actor, now=to_native(datetime.now(UTC)))
    await relink(tx, ns, rows[0]["sessions"])  # the neighbours' copies of the redacted text
    return {"episodes_redacted": int(rows[0]["redacted"]), "summaries_stale": stale}
