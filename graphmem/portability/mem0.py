"""Mem0 → the export format, so a Mem0 user's memories import like any graphmem export.

Reads what Mem0 hands out: ``Memory.get_all()`` of the open-source library (``{"results":
[...]}``) or the platform's ``get_all``/export (a list), each memory an object with ``id``,
``memory`` (its text) and, when present, ``created_at``, ``updated_at``, ``user_id``,
``agent_id``, ``app_id``, ``run_id``, ``actor_id``, ``role``, ``hash``, ``metadata`` and
``categories``.

What maps: each memory becomes an observation episode (``externalId`` ``mem0:<id>``, so a
second import of the same memories changes nothing) at its ``created_at``, in a session per
``run_id`` (``mem0`` without one), spoken by its ``actor_id``/``agent_id`` (``mem0`` without),
with every Mem0 field kept in its metadata under ``mem0``, recorded as of the newest memory
(graphmem's ids and times are derived from the file, so importing it again changes nothing).
What cannot: Mem0 keeps a memory
as one sentence, not subject-predicate-object, so no facts are made (switch extraction on
with ``setPipelines`` and graphmem derives them, with the memory as evidence); a memory's
earlier texts (Mem0's history is a separate call), scores and embeddings (recomputed here).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.episodes.store import EpisodeKind, NewEpisode
from graphmem.portability.episode_log import Arrival, episode_log
from graphmem.portability.format import header, remapped

KEPT = ("id", "hash", "user_id", "agent_id", "app_id", "run_id", "actor_id", "role",
        "categories", "metadata", "created_at", "updated_at")
MAX_TEXT = 100_000


def records(data: Any, into: Namespace, user: str | None = None,
            ) -> Iterator[dict[str, Any]]:
    """The export records for Mem0's memories (of ``user`` only, when given). Everything is
    derived from the memories (ids, sessions, times), so converting and importing them again
    changes nothing; they are recorded as of the newest memory."""
    episodes = sorted(_episodes(_memories(data), user),
                      key=lambda e: (e.occurred_at, e.external_id or ""))
    newest = max((e.occurred_at for e in episodes), default=datetime(2000, 1, 1, tzinfo=UTC))
    log = episode_log(into, [Arrival(remapped(f"ep_{e.external_id}", into), e, newest)
                             for e in episodes])
    yield header(into, True, newest)
    yield from log.nodes
    yield from log.relationships
    yield {"end": {"nodes": len(log.nodes), "relationships": len(log.relationships)}}


def _memories(data: Any) -> list[Any]:
    memories = data.get("results") if isinstance(data, dict) else data
    if not isinstance(memories, list):
        raise InvalidInput("a Mem0 export is a list of memories or {\"results\": [...]}")
    return memories


def _episodes(memories: list[Any], user: str | None) -> Iterator[NewEpisode]:
    seen: dict[str, int] = {}
    for index, memory in enumerate(memories):
        where = f"memory {index}"
        if not isinstance(memory, dict) or not isinstance(memory.get("id"), str) \
                or not isinstance(memory.get("memory"), str) or not memory["memory"].strip():
            raise InvalidInput(f"{where}: needs a string id and a non-empty memory", index=index)
        if memory["id"] in seen:
            raise InvalidInput(f"{where}: its id repeats memory {seen[memory['id']]}'s",
                               index=index)
        seen[memory["id"]] = index
        if user is not None and memory.get("user_id") != user:
            continue
        if len(memory["memory"]) > MAX_TEXT:
            raise InvalidInput(f"{where}: longer than {MAX_TEXT} characters", index=index)
        speaker = memory.get("actor_id") or memory.get("agent_id") or "mem0"
        yield NewEpisode(
            content=memory["memory"], kind=EpisodeKind.OBSERVATION,
            occurred_at=_instant(memory.get("created_at") or memory.get("updated_at"), where),
            external_id=f"mem0:{memory['id']}"[:256], session_id=str(memory.get("run_id")
                                                                     or "mem0")[:256],
            actor=str(speaker)[:256],
            metadata={"mem0": {k: memory[k] for k in KEPT if memory.get(k) is not None}})


def _instant(value: Any, where: str) -> datetime:
    if value is None:
        raise InvalidInput(f"{where}: needs created_at (or updated_at)")
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise InvalidInput(f"{where}: created_at {str(value)[:40]!r} is not ISO 8601") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

