"""A session's NEXT chain and its turns' search context and windows, however batches arrive:
a batch that only appends writes them in its create statement; one that inserts earlier is
rebuilt by `episodes/relink`. Either way the result is the one a full relink makes."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes import store
from graphmem.episodes.store import EpisodeKind, NewEpisode
from tests.support.graph import delete_namespace

START = datetime(2026, 3, 1, tzinfo=UTC)
SESSIONS = ["a", "b", "c"]
SNAPSHOT = """
MATCH (e:Episode {ns: $ns})
OPTIONAL MATCH (e)-[:NEXT]->(n)
RETURN e.session_id AS session, e.seq AS seq, e.context AS context,
       e.context_actor AS context_actor, e.window AS window, n.seq AS next
ORDER BY session, seq
"""
CHAIN_ORDER = """
MATCH (e:Episode {ns: $ns, session_id: $session})
WITH e ORDER BY e.occurred_at, e.seq
RETURN collect(e.seq) AS seqs
"""

turn = st.tuples(st.sampled_from(SESSIONS), st.integers(0, 40),
                 st.sampled_from(["user", "agent", None]))


async def _rows(db: Database, query: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = await db.driver.execute_query(query, params, database_=db.name)
    return [dict(r) for r in records]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(batches=st.lists(st.lists(turn, min_size=1, max_size=6), min_size=1, max_size=5))
async def test_batches_give_the_chain_and_windows_of_a_full_relink(
        db: Database, batches: list[list[tuple[str, int, str | None]]]) -> None:
    ns = Namespace(f"prop/{uuid.uuid4().hex[:10]}")
    try:
        n = 0
        for batch in batches:
            episodes = []
            for session, minute, actor in batch:
                n += 1
                episodes.append(NewEpisode(
                    content=f"turn {n}", kind=EpisodeKind.USER_MESSAGE, session_id=session,
                    occurred_at=START + timedelta(minutes=minute), actor=actor))
            await store.record(db, ns, episodes)
        recorded = await _rows(db, SNAPSHOT, ns=ns)
        for session in {s for batch in batches for s, _, _ in batch}:
            seqs = (await _rows(db, CHAIN_ORDER, ns=ns, session=session))[0]["seqs"]
            following = {r["seq"]: r["next"] for r in recorded if r["session"] == session}
            assert [following[s] for s in seqs] == [*seqs[1:], None]  # one chain, in order
        await db.transaction(lambda tx: tx.run("episodes/relink", ns=ns, sessions=[
            {"session_id": s, "earliest": START - timedelta(days=1)} for s in SESSIONS]))
        assert await _rows(db, SNAPSHOT, ns=ns) == recorded
    finally:
        await delete_namespace(db, ns)
