"""Another system's messages as the export format's episode log: the episodes, their sessions
(with arrival order) and speakers, shared by the importers from peers (Mem0, Graphiti). The
content is plaintext (the file's header says ``decrypted``): where encryption is on, the import
seals it for its target."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.core.identifiers import actor_key
from graphmem.core.namespaces import Namespace
from graphmem.episodes.store import NewEpisode, stored_row
from graphmem.portability.format import node, relationship

DEFAULT_SESSION = "imported"


@dataclass(frozen=True)
class Arrival:
    """One episode to import: the id it gets, and when memory recorded it."""

    id: str
    episode: NewEpisode
    recorded_at: datetime


@dataclass(frozen=True)
class EpisodeLog:
    nodes: list[dict[str, Any]]  # actors, sessions, then episodes
    relationships: list[dict[str, Any]]  # each episode IN_SESSION


def episode_log(into: Namespace, arrivals: list[Arrival]) -> EpisodeLog:
    """The records for ``arrivals``, numbered in each session in their order here."""
    seqs: dict[str, int] = defaultdict(int)
    rows = []
    for arrival in arrivals:
        session = arrival.episode.session_id or DEFAULT_SESSION
        seqs[session] += 1
        row = stored_row(into, arrival.episode, arrival.episode.content_hash(None),
                         seqs[session], arrival.recorded_at, None)  # the import seals it
        rows.append({**row, "id": arrival.id, "session_id": session})
    actors = {actor_key(r["actor"]): r["actor"] for r in rows if r["actor"]}
    nodes = [node("Actor", key, {"name": name}) for key, name in sorted(actors.items())]
    for session, last in sorted(seqs.items()):
        times = [r["occurred_at"] for r in rows if r["session_id"] == session]
        nodes.append(node("Session", session, {"created_at": min(times),
                                               "updated_at": max(times),
                                               "last_seq": last, "pending_tokens": 0}))
    nodes += [node("Episode", r["id"], {k: v for k, v in r.items() if k != "id"})
              for r in rows]
    links = [relationship("IN_SESSION", ("Episode", r["id"]), ("Session", r["session_id"]))
             for r in rows]
    return EpisodeLog(nodes, links)
