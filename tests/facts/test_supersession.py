"""Supersession never loops, and walking it is bounded: a cycle of SUPERSEDES links is refused
by every writer (import, conflict resolution) before it commits, and `provenance` over a
cycle stored anyway answers at once with each fact once; over a legitimate chain it is exact
up to its bound (100 links, 100 facts each way)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.applications import Starlette

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Tx
from graphmem.facts import supersession
from graphmem.portability.importing import import_lines
from tests.portability.files import exported, lines
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, PROVENANCE, fact
from tests.support.graph import namespace_contents

LINK = {"at": {"$datetime": "2026-05-01T09:00:00+00:00"}, "strategy": "recency",
        "actor": "someone", "reason": "newer"}


async def _facts(gql: GraphQLClient, ns: str, n: int) -> list[str]:
    """``n`` facts that do not compete (a MANY predicate), in the order asserted."""
    made = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", f"thing {i:03d}")
                                                for i in range(n)])
    return [row["fact"]["id"] for row in made["assertFacts"]]


async def _link(db: Database, ns: str, pairs: list[tuple[str, str]]) -> None:
    """SUPERSEDES links written directly, as a store holding them from before the check."""
    await db.driver.execute_query(
        "UNWIND $pairs AS p MATCH (w:Fact {ns: $ns, id: p[0]}), (l:Fact {ns: $ns, id: p[1]}) "
        "CREATE (w)-[:SUPERSEDES {at: datetime(), strategy: 'recency'}]->(l)",
        {"ns": ns, "pairs": [list(p) for p in pairs]}, database_=db.name)


def _with_links(file: list[str], pairs: list[tuple[str, str]]) -> list[str]:
    """The export with SUPERSEDES records added before its end record (counted in it)."""
    *body, end = file
    counts = json.loads(end)["end"]
    added = [json.dumps({"rel": "SUPERSEDES", "from": ["Fact", w], "to": ["Fact", lo],
                         "props": LINK}) for w, lo in pairs]
    return [*body, *added, json.dumps({"end": {
        "nodes": counts["nodes"], "relationships": counts["relationships"] + len(added)}})]


@pytest.mark.hostile("database")
async def test_an_imported_supersession_cycle_is_refused_and_nothing_written(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    ids = await _facts(gql, ns, 5)
    ring = [(ids[i], ids[(i + 1) % 5]) for i in range(5)]  # five facts superseding each other
    file = _with_links(lines(await exported(db, ns)), ring)
    with pytest.raises(InvalidInput) as refused:  # in small chunks: the whole file is checked
        await import_lines(db, file, into=other, chunk=2)  # before any chunk is written
    assert len(file) - 5 <= refused.value.details["line"] < len(file)  # a link of the ring
    assert "cannot supersede" in refused.value.message
    assert await namespace_contents(db, other) == []
    # A chain is not a cycle: the same links but the last import.
    assert (await import_lines(db, _with_links(lines(await exported(db, ns)), ring[:4]),
                               into=other)).relationships > 0


@pytest.mark.hostile("database")
async def test_a_link_closing_a_cycle_with_stored_links_is_refused(
        db: Database, gql: GraphQLClient, ns: str) -> None:
    """The file alone holds no cycle; with what the namespace holds, it would."""
    ids = await _facts(gql, ns, 3)
    await _link(db, ns, [(ids[0], ids[1]), (ids[1], ids[2])])
    before = await namespace_contents(db, ns)
    file = _with_links(lines(await exported(db, ns)), [(ids[2], ids[0])])
    with pytest.raises(InvalidInput, match="cannot supersede"):
        await import_lines(db, file)
    assert await namespace_contents(db, ns) == before


async def test_every_writer_checks_its_links_in_its_own_transaction(
        db: Database, gql: GraphQLClient, ns: str) -> None:
    """Conflict resolution writes its links through the same check (plan_writer): here a
    plan's links, one of them a fact superseding itself, roll back with the check."""
    ids = await _facts(gql, ns, 2)
    before = await namespace_contents(db, ns)
    for links in ([(ids[0], ids[0])], [(ids[0], ids[1]), (ids[1], ids[0])]):
        rows: list[dict[str, Any]] = [{"winner": w, "loser": lo, "strategy": "recency",
                                       "reason": None} for w, lo in links]

        async def write(tx: Tx, rows: list[dict[str, Any]] = rows) -> None:
            await tx.run("facts/supersede", ns=ns, now=None, actor="test", links=rows)
            await supersession.refuse_cycles(tx, Namespace(ns), rows)

        with pytest.raises(InvalidInput, match="cannot supersede"):
            await db.transaction(write)
        assert await namespace_contents(db, ns) == before


@pytest.mark.hostile("database")
async def test_provenance_over_a_stored_cycle_answers_at_once(
        app: Starlette, db: Database, gql: GraphQLClient, ns: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Five facts each superseding every other (20 links): walking their paths ran for
    minutes and ran Neo4j out of memory. Each fact is found once, the fact itself not."""
    # Should the walk ever multiply paths again, it is ended early for the shared Neo4j.
    monkeypatch.setattr(app.state.runtime.db, "timeout_s", 5.0)
    ids = await _facts(gql, ns, 5)
    await _link(db, ns, [(a, b) for a in ids for b in ids if a != b])
    started = time.monotonic()
    audit = (await gql.ok(PROVENANCE, ns=ns, id=ids[0]))["provenance"]
    assert time.monotonic() - started < 2.0
    others = sorted(ids[1:])
    assert sorted(f["id"] for f in audit["supersedes"]) == others
    assert sorted(f["id"] for f in audit["supersededBy"]) == others


async def test_provenance_follows_a_long_chain_to_its_bound(
        db: Database, gql: GraphQLClient, ns: str) -> None:
    ids = await _facts(gql, ns, 102)  # ids[i] supersedes ids[i - 1]: the newest is last
    await _link(db, ns, [(ids[i], ids[i - 1]) for i in range(1, len(ids))])
    middle = (await gql.ok(PROVENANCE, ns=ns, id=ids[50]))["provenance"]
    assert {f["id"] for f in middle["supersedes"]} == set(ids[:50])
    assert {f["id"] for f in middle["supersededBy"]} == set(ids[51:])
    newest = (await gql.ok(PROVENANCE, ns=ns, id=ids[-1]))["provenance"]
    assert {f["id"] for f in newest["supersedes"]} == set(ids[1:-1])  # 100 links, not 101
    assert newest["supersededBy"] == []
