"""A user's "forget this" for an episode: what memory took only from it is forgotten too.

Distinct from an operator's erasure: the user names one thing they said, with a reason, and
memory lets go of it and of what it learned from it alone. The facts whose only evidence it
is (counting episodes the user forgot before as none) are retracted and forgotten: extraction,
inference, imports and agents may not assert them again, and a pinned one stays, as the user
asked. The episode itself is redacted (its place, time and provenance stay, its content is
gone, the reason kept on it) or, when asked, erased with a receipt. All in one transaction;
the audit trail records it as ``forgetEpisode``.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Tx
from graphmem.episodes import redaction
from graphmem.episodes.store import Episode, by_ids, resolve_refs
from graphmem.facts import changes
from graphmem.facts import store as facts
from graphmem.facts.model import Fact
from graphmem.governance import erasure
from graphmem.retrieval.fact_cache import FactCache


@dataclass(frozen=True)
class ForgottenEpisode:
    episode: Episode | None  # redacted; None when erased
    receipt: erasure.Receipt | None  # when erased
    facts: list[Fact]  # forgotten with it


async def forget_episode(db: Database, ns: Namespace, ref: str, reason: str,
                         actor: str | None, erase: bool = False,
                         cache: FactCache | None = None) -> ForgottenEpisode:
    if not reason.strip() or len(reason) > changes.MAX_REASON:
        raise InvalidInput(f"reason must be 1-{changes.MAX_REASON} characters",
                           field="reason")
    forgotten: list[str] = []

    async def let_go(tx: Tx, ids: list[str]) -> None:
        """The facts learned only from the episode, forgotten before it goes."""
        # a retried transaction starts afresh
        forgotten[:] = await changes.learned_only_from(tx, ns, ids)
        if forgotten:
            await changes.forget_in(tx, ns, forgotten, reason, actor)
        await redaction.mark_forgotten(tx, ns, ids)

    if erase:
        receipt = await erasure.erase_episodes(db, ns, [ref], actor, cache, before=let_go)
        return ForgottenEpisode(None, receipt, await facts.in_order(db, ns, forgotten))
    episode_id = (await resolve_refs(db, ns, [ref], "id"))[ref].id

    async def redact(tx: Tx) -> None:
        await let_go(tx, [episode_id])
        await redaction.redact_in(tx, ns, [episode_id], reason, actor)

    await db.transaction(redact)
    return ForgottenEpisode((await by_ids(db, ns, [episode_id]))[episode_id], None,
                            await facts.in_order(db, ns, forgotten))
