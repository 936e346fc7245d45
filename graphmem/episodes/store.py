"""Episodes: the lossless, append-only, timestamped log of what happened.

Recording is idempotent by ``external_id`` (the client's key): the same key with the same
content is reported as a duplicate; with different content it is a ``DuplicateConflict`` naming
the fields that differ, and the whole batch writes nothing. "Content" is every field a client
sends (``IDENTITY_FIELDS``): a retry must send the same ``occurredAt``, not a new "now".
Sessions get a ``NEXT`` chain in (occurred_at, arrival) order.
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from functools import partial
from typing import Any

from graphmem.core.errors import DuplicateConflict, InvalidInput, NotFound, SessionClosed
from graphmem.core.identifiers import actor_key
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import Page, decode_cursor, encode_cursor, instant
from graphmem.core.time_expressions import event_time
from graphmem.core.timeutil import maybe_datetime, parse_stored_datetime, require_aware, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.jobs.queue import Triggers, enqueue_after_record
from graphmem.security import encryption, namespace_keys
from graphmem.security.encryption import Keyring

MAX_CONTENT_CHARS = 200_000  # the default of GRAPHMEM_MAX_EPISODE_CHARS
# What makes a submission the same episode as one recorded with its externalId, in the order
# its content hash has always been made from (stored hashes stay comparable).
IDENTITY_FIELDS = ("sessionId", "occurredAt", "kind", "actor", "content", "metadata",
                   "importance", "sensitivity")


class EpisodeKind(StrEnum):
    USER_MESSAGE = "user_message"
    AGENT_MESSAGE = "agent_message"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    OBSERVATION = "observation"
    ERROR = "error"
    DOCUMENT = "document"


# The metadata of graphmem's own notes of a change it made (a correction, a retraction, a
# forgetting): evidence for `why` and history, never a turn of the conversation.
CHANGE_NOTE: dict[str, Any] = {"by": "graphmem", "change": True}


class Sensitivity(StrEnum):
    PUBLIC = "public"
    PERSONAL = "personal"
    SENSITIVE = "sensitive"
    HEALTH = "health"
    FINANCIAL = "financial"


@dataclass(frozen=True)
class NewEpisode:
    content: str
    kind: EpisodeKind
    occurred_at: datetime
    external_id: str | None = None
    session_id: str | None = None
    actor: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    importance: float | None = None
    sensitivity: Sensitivity = Sensitivity.PERSONAL

    @property
    def is_change_note(self) -> bool:
        """graphmem's own note of a change: stored with ``note: true``, which search and
        recall leave out unless history is asked for."""
        return self.kind is EpisodeKind.OBSERVATION and self.metadata == CHANGE_NOTE

    def identity(self) -> dict[str, Any]:
        """The fields that make two submissions of one external_id "the same episode", by
        their GraphQL names."""
        return {"sessionId": self.session_id, "occurredAt": self.occurred_at.isoformat(),
                "kind": self.kind.value, "actor": self.actor, "content": self.content,
                "metadata": self.metadata, "importance": self.importance,
                "sensitivity": self.sensitivity.value}

    def differs_from(self, other: NewEpisode) -> list[str]:
        """The identity fields (GraphQL names) in which two submissions differ."""
        mine, theirs = self.identity(), other.identity()
        return [name for name in IDENTITY_FIELDS if mine[name] != theirs[name]]

    def content_hash(self, keyring: Keyring | None, like: str | None = None) -> str:
        """What makes two submissions of one external_id "the same episode" (SHA-256, or an
        HMAC under ``keyring`` when content is encrypted; ``like``: a stored hash to compare
        with)."""
        identity = self.identity()
        canonical = json.dumps([identity[name] for name in IDENTITY_FIELDS],
                               sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return encryption.fingerprinted(keyring, canonical, like)


@dataclass(frozen=True)
class Episode:
    id: str
    namespace: str
    content: str
    kind: EpisodeKind
    occurred_at: datetime
    recorded_at: datetime
    external_id: str | None
    session_id: str | None
    seq: int
    actor: str | None
    metadata: dict[str, Any]
    importance: float | None
    sensitivity: Sensitivity
    content_hash: str
    redacted_at: datetime | None = None
    # An erased entity's mentions replaced (governance/mentions); the rest of it as said.
    mentions_redacted_at: datetime | None = None
    archived_at: datetime | None = None  # content in the archive store (graphmem/archive)

    @classmethod
    def from_row(cls, row: Row, db: Database) -> Episode:
        """An episode read from ``db`` (its content opened with ``db``'s keys)."""
        ns = row["ns"]
        return cls(
            id=row["id"],
            namespace=ns,
            content=encryption.reveal(db, row["content"], ns) or "",
            kind=EpisodeKind(row["kind"]),
            occurred_at=parse_stored_datetime(row["occurred_at"]),
            recorded_at=parse_stored_datetime(row["recorded_at"]),
            external_id=row.get("external_id"),
            session_id=row.get("session_id"),
            seq=row.get("seq") or 0,
            actor=row.get("actor"),
            metadata=json.loads(encryption.reveal(db, row.get("metadata"), ns) or "{}"),
            importance=row.get("importance"),
            sensitivity=Sensitivity(row.get("sensitivity") or Sensitivity.PERSONAL),
            content_hash=row["content_hash"],
            redacted_at=maybe_datetime(row.get("redacted_at")),
            mentions_redacted_at=maybe_datetime(row.get("mentions_redacted_at")),
            archived_at=maybe_datetime(row.get("archived_at")),
        )

    @property
    def cursor(self) -> str:
        return encode_cursor([self.occurred_at.isoformat(), self.seq, self.id])

    def as_new(self) -> NewEpisode:
        """The submission it was recorded from (its content hash is made from this)."""
        return NewEpisode(content=self.content, kind=self.kind, occurred_at=self.occurred_at,
                          external_id=self.external_id, session_id=self.session_id,
                          actor=self.actor, metadata=self.metadata, importance=self.importance,
                          sensitivity=self.sensitivity)


@dataclass(frozen=True)
class RecordResult:
    episodes: list[Episode]  # in input order; duplicates are the episodes already stored
    created: int
    duplicates: int


@dataclass(frozen=True)
class EpisodeFilter:
    session_id: str | None = None
    occurred_from: datetime | None = None
    occurred_to: datetime | None = None
    kinds: list[EpisodeKind] | None = None
    actor: str | None = None
    text_contains: str | None = None


def validate(episode: NewEpisode, max_chars: int = MAX_CONTENT_CHARS) -> None:
    require_aware(episode.occurred_at, "occurredAt")
    if not episode.content:
        raise InvalidInput("content must not be empty", field="content")
    if len(episode.content) > max_chars:
        raise InvalidInput(f"content exceeds {max_chars} characters: split the document into "
                           "several episodes", field="content", limit=max_chars)
    if episode.importance is not None and not 0.0 <= episode.importance <= 1.0:
        raise InvalidInput("importance must be between 0 and 1", field="importance")
    for name, value in (("externalId", episode.external_id), ("sessionId", episode.session_id),
                        ("actor", episode.actor)):
        if value is not None and not 1 <= len(value) <= 256:
            raise InvalidInput(f"{name} must be 1-256 characters", field=name)


async def record(db: Database, ns: Namespace, batch: list[NewEpisode],
                 triggers: Triggers | None = None,
                 max_chars: int = MAX_CONTENT_CHARS) -> RecordResult:
    """Record a batch in one transaction; see the module docstring for idempotency. With
    ``triggers``, the same transaction queues the pipelines' jobs for what was new."""
    for episode in batch:
        validate(episode, max_chars)
    return await db.transaction(lambda tx: record_in(tx, ns, batch, triggers))


async def record_in(tx: Tx, ns: Namespace, batch: list[NewEpisode],
                    triggers: Triggers | None = None) -> RecordResult:
    """Record inside a running transaction (validated already)."""
    await namespace_keys.prepare(tx.db, ns, create=True)  # sealing below needs its key
    keys = sorted({e.external_id for e in batch if e.external_id is not None})
    stored = {
        row["episode"]["external_id"]: Episode.from_row(row["episode"], tx.db)
        for row in await tx.run("episodes/existing", ns=ns, external_ids=keys)
    } if keys else {}
    now = datetime.now(UTC)
    fresh: dict[str, tuple[NewEpisode, str]] = {}  # external_id -> (episode, hash) in this batch
    to_create: list[tuple[int, NewEpisode, str]] = []  # (position, episode, hash)
    for position, episode in enumerate(batch):
        key = episode.external_id
        if key is not None and key in stored:
            known = stored[key]
            # A redacted episode (or one whose mentions of an erased entity were) cannot be
            # compared any more: a retry of it is a duplicate, and says nothing again.
            keyring = encryption.active(tx.db)
            if known.content_hash != episode.content_hash(keyring, known.content_hash) \
                    and known.redacted_at is None and known.mentions_redacted_at is None:
                differs = episode.differs_from(known.as_new())
                raise DuplicateConflict(
                    f"externalId {key!r} was already recorded with different "
                    f"{', '.join(differs) or 'content'}: a retry must send the same fields",
                    external_id=key, index=position, field=differs[0] if differs else None,
                    differs=differs)
            continue
        digest = episode.content_hash(encryption.active(tx.db))
        if key is not None and key in fresh:
            if fresh[key][1] != digest:
                differs = episode.differs_from(fresh[key][0])
                raise DuplicateConflict(
                    f"externalId {key!r} appears twice in the batch with different "
                    f"{', '.join(differs)}", external_id=key, index=position,
                    field=differs[0] if differs else None, differs=differs)
            continue
        if key is not None:
            fresh[key] = (episode, digest)
        to_create.append((position, episode, digest))

    rows, last = await _rows_with_seq(tx, ns, [(e, digest) for _, e, digest in to_create], now)
    if rows:
        chained = chain_appended(rows, last)
        await tx.run("episodes/create", ns=ns, episodes=rows, actors=actors_of(batch),
                     links=chained.links, windows=chained.windows)
        if chained.relink:
            await relink(tx, ns, [row for row in rows if row["session_id"] in chained.relink])
        if triggers is not None:
            await enqueue_after_record(tx, ns, rows, triggers, now)

    created = {pos: _recorded(ns, episode, row)
               for (pos, episode, _), row in zip(to_create, rows, strict=True)}
    by_key = {e.external_id: e for e in created.values() if e.external_id is not None}
    result = [
        created.get(pos) or stored.get(ep.external_id or "") or by_key[ep.external_id or ""]
        for pos, ep in enumerate(batch)
    ]
    return RecordResult(result, created=len(created), duplicates=len(batch) - len(created))


def _recorded(ns: Namespace, episode: NewEpisode, row: Row) -> Episode:
    """The episode just stored from ``episode`` as ``row``, without reading the row back
    (which would decrypt what was just sealed)."""
    return Episode(id=row["id"], namespace=ns, content=episode.content, kind=episode.kind,
                   occurred_at=row["occurred_at"], recorded_at=row["recorded_at"],
                   external_id=episode.external_id, session_id=episode.session_id,
                   seq=row["seq"], actor=episode.actor, metadata=episode.metadata,
                   importance=episode.importance, sensitivity=episode.sensitivity,
                   content_hash=row["content_hash"])


async def _rows_with_seq(tx: Tx, ns: Namespace, episodes: list[tuple[NewEpisode, str]],
                         now: datetime) -> tuple[list[Row], dict[str, Row]]:
    """The new episodes' rows, and each session's last stored turn (none when it has none)."""
    counts: dict[str, int] = defaultdict(int)
    tokens: dict[str, int] = defaultdict(int)  # estimated, for the summary trigger
    for episode, _ in episodes:
        if episode.session_id is not None:
            counts[episode.session_id] += 1
            tokens[episode.session_id] += len(episode.content) // 4 + 1
    bases: dict[str, int] = {}
    last: dict[str, Row] = {}
    if counts:
        reserved = await tx.run(
            "episodes/reserve_seq", ns=ns, now=now,
            sessions=[{"session_id": s, "count": c, "tokens": tokens[s]}
                      for s, c in sorted(counts.items())],
        )
        if closed := sorted(row["session_id"] for row in reserved if row["closed"]):
            raise SessionClosed.of(closed[0])  # the whole batch: one transaction
        bases = {row["session_id"]: row["base"] for row in reserved}
        last = {row["session_id"]: row["last"] for row in reserved if row["last"] is not None}
    rows = []
    for episode, digest in episodes:
        seq = 0
        if episode.session_id is not None:
            bases[episode.session_id] += 1
            seq = bases[episode.session_id]
        rows.append(stored_row(ns, episode, digest, seq, now, tx.db))
    return rows, last


def stored_row(ns: Namespace, episode: NewEpisode, digest: str, seq: int,
               now: datetime, seal_with: Database | None) -> Row:
    """An episode as its node stores it: content sealed as ``seal_with`` seals it (escaped
    when encryption is off), or, with None, as it is (an import seals it for its target)."""
    sealed = partial(encryption.seal, seal_with) if seal_with else (lambda text, _ns: text)
    return {
        "id": f"ep_{uuid.uuid4().hex}",
        "external_id": episode.external_id,
        "session_id": episode.session_id,
        "seq": seq,
        "kind": episode.kind.value,
        "actor": episode.actor,
        "content": sealed(episode.content, ns),
        "occurred_at": to_native(episode.occurred_at),
        "recorded_at": to_native(now),
        "importance": episode.importance,
        "sensitivity": episode.sensitivity.value,
        "metadata": sealed(json.dumps(episode.metadata, sort_keys=True, ensure_ascii=False), ns),
        "content_hash": digest,
    } | ({"note": True} if episode.is_change_note else {}) | event_fields(episode)


def event_fields(episode: NewEpisode) -> Row:
    """When what the turn tells of happened, if its words say ("last week" said on 8 May):
    search's time prior matches a query's time against this as well as the time it was said."""
    told = event_time(episode.content, episode.occurred_at)
    if told is None:
        return {}
    return {"event_start": to_native(told.start), "event_end": to_native(told.end)}


@dataclass(frozen=True)
class Chained:
    links: list[Row]  # NEXT edges to create: {head: stored id} or {from: index}, {to: index}
    windows: list[Row]  # {id, window}: stored turns whose search window changes
    relink: set[str]  # sessions `episodes/relink` must rebuild


def chain_appended(rows: list[Row], last: dict[str, Row]) -> Chained:
    """Give each new turn its search context (the turn before it) and window (the turns
    around it), and its place in its session's NEXT chain, wherever the batch only appends
    to the session (no new turn occurred before its last stored one): the create statement
    then writes them once. Sessions the batch inserts into are left to `episodes/relink`
    (their new turns get the turn before them in the batch as context meanwhile). The
    window is the one `episodes/relink` makes: keep the two alike."""
    place = {row["id"]: i for i, row in enumerate(rows)}  # in the create's list
    by_session: dict[str, list[Row]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: (r["occurred_at"], r["seq"])):
        if row["session_id"] is not None:
            by_session[row["session_id"]].append(row)
    links: list[Row] = []
    windows: list[Row] = []
    relink: set[str] = set()
    for sid, turns in by_session.items():
        head = last.get(sid)
        if head is not None and turns[0]["occurred_at"] < parse_stored_datetime(
                head["occurred_at"]):
            relink.add(sid)  # context from the batch until the relink: no head here
            head = None
        chain = ([head] if head is not None else []) + turns
        for i in range(len(chain) - len(turns), len(chain)):
            row, before = chain[i], chain[i - 1] if i > 0 else None
            row["context"] = before["content"] if before else None
            row["context_actor"] = before["actor"] if before else None
            if sid in relink:
                continue
            row["window"] = window(row, chain[i + 1] if i + 1 < len(chain) else None)
            if before is not None:
                origin = {"head": head["id"]} if before is head \
                    else {"from": place[before["id"]]}
                links.append({**origin, "to": place[row["id"]]})
        if head is not None:
            windows.append({"id": head["id"], "window": window(head, turns[0])})
    return Chained(links, windows, relink)


def window(turn: Row, after: Row | None) -> str:
    """A turn as BM25 sees it: the turn before it (its context), itself and the one after,
    each with its speaker."""
    def spoken(actor: str | None, text: str) -> str:
        return f"{actor}: {text}" if actor is not None else text

    parts = [spoken(turn["actor"], turn["content"])]
    if turn.get("context") is not None:
        parts.insert(0, spoken(turn.get("context_actor"), turn["context"]))
    if after is not None:
        parts.append(spoken(after["actor"], after["content"]))
    return "\n".join(parts)


def actors_of(batch: list[NewEpisode]) -> list[Row]:
    """The distinct speakers of a batch, as the namespace's `Actor` nodes remember them."""
    named = {actor_key(e.actor): e.actor for e in batch if e.actor and actor_key(e.actor)}
    return [{"key": key, "name": name} for key, name in sorted(named.items())]


def _earliest_per_session(rows: list[Row]) -> list[Row]:
    """Per session among ``rows`` (session_id, occurred_at): where its chain must be relinked."""
    earliest: dict[str, Any] = {}
    for row in rows:
        sid = row["session_id"]
        if sid is not None and (sid not in earliest or row["occurred_at"] < earliest[sid]):
            earliest[sid] = row["occurred_at"]
    return [{"session_id": s, "earliest": t} for s, t in sorted(earliest.items())]


async def relink(tx: Tx, ns: Namespace, rows: list[Row]) -> None:
    """Rebuild the chain of each session among ``rows`` (session_id, occurred_at) from its
    earliest one, with each turn's copies of its neighbours (search context)."""
    if sessions := _earliest_per_session(rows):
        await tx.run("episodes/relink", ns=ns, sessions=sessions)


async def page(db: Database, ns: Namespace, where: EpisodeFilter, first: int,
               after: str | None) -> Page[Episode]:
    for name, moment in (("occurredFrom", where.occurred_from), ("occurredTo", where.occurred_to)):
        if moment is not None:
            require_aware(moment, name)
    key = decode_cursor(after, lambda k: (instant(k[0]), int(k[1]), str(k[2])))
    after_t, after_seq, after_id = key or (None, None, None)
    rows = await db.read(
        "episodes/page", ns=ns, limit=first + 1,
        session_id=where.session_id,
        **{"from": to_native(where.occurred_from), "to": to_native(where.occurred_to)},
        kinds=[k.value for k in where.kinds] if where.kinds else None,
        actor=where.actor, text=where.text_contains,
        after_t=to_native(after_t), after_seq=after_seq, after_id=after_id,
    )
    episodes = [Episode.from_row(row["episode"], db) for row in rows]
    return Page([(e.cursor, e) for e in episodes[:first]], has_next=len(episodes) > first)


async def by_ids(db: Database, ns: Namespace, ids: list[str]) -> dict[str, Episode]:
    return {row["id"]: Episode.from_row(row, db) for row in await stored_rows(db.read, ns, ids)}


async def stored_rows(read: Callable[..., Awaitable[list[Row]]], ns: Namespace,
                      ids: list[str]) -> list[Row]:
    """Episodes by id as stored (content still sealed), read with ``db.read`` or ``tx.run``."""
    return [row["episode"] for row in await read("episodes/by_ids", ns=ns, ids=ids)]


@dataclass(frozen=True)
class EpisodeRef:
    id: str
    occurred_at: datetime


async def resolve_refs(source: Database | Tx, ns: Namespace, refs: list[str],
                       field: str) -> dict[str, EpisodeRef]:
    """Each reference (an episode id or a client's externalId) -> its episode in ``ns``;
    ``NotFound`` naming ``field`` and the first missing ones when any is not there (another
    namespace's episode is not there either). In a transaction when given one."""
    wanted = sorted(set(refs))
    if not wanted:
        return {}
    read = source.run if isinstance(source, Tx) else source.read
    found = {row["ref"]: EpisodeRef(row["id"], parse_stored_datetime(row["occurred_at"]))
             for row in await read("episodes/resolve", ns=ns, refs=wanted)}
    missing = [ref for ref in wanted if ref not in found]
    if missing:
        raise NotFound(f"episodes not found in this namespace: {missing[:10]}", field=field,
                       missing=missing[:10])
    return found
