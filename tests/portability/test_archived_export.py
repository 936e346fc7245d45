"""Archived episodes through export and import, over the real service and archive store: a
file carries their content (never a key into the source's archive), so erasing an imported
copy costs the source nothing; a file that points into another namespace's archive is
refused; no namespace deletes an archive object outside its own prefix."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.applications import Starlette

from graphmem.archive import stores, tiering
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.portability.importing import import_lines
from tests.archive.test_tiering import EPISODES, REHYDRATE, _archived
from tests.portability.files import exported, lines
from tests.support.client import GraphQLClient
from tests.support.graph import namespace_contents

ERASE = """mutation($ns: String!, $ids: [String!]!) { eraseEpisodes(namespace: $ns, ids: $ids) {
  verified } }"""


def _episodes(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r.get("node") == "Episode"]


@pytest.mark.hostile("import")
async def test_erasing_an_imported_copy_keeps_the_sources_archived_content(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str, other: str) -> None:
    before = await _archived(gql, db, ns, 6)
    records = await exported(db, ns)
    content = {e["externalId"]: e["content"] for e in before}
    carried = {e["props"]["external_id"]: e["props"] for e in _episodes(records)}
    for external_id, props in carried.items():
        assert props["content"] == content[external_id]  # the text, not "[archived]"
        assert not {"archive_key", "archived_at", "archive_bytes"} & set(props)
    store = stores.active(db)
    assert store is not None
    objects = await tiering.objects_of(store, Namespace(ns))
    assert len(objects) == 6  # the export read them, it did not take them

    await import_lines(db, lines(records), into=other)
    copy = {e["externalId"]: e for e in (await gql.ok(EPISODES, ns=other))["episodes"]["nodes"]}
    assert {k: e["content"] for k, e in copy.items()} == content
    assert not any(e["archivedAt"] for e in copy.values())
    assert (await gql.ok(ERASE, ns=other, ids=["t0", "t1"]))["eraseEpisodes"]["verified"]

    assert await tiering.objects_of(store, Namespace(ns)) == objects
    back = (await gql.ok(REHYDRATE, ns=ns, ids=["t0", "t1"]))["rehydrate"]
    assert [e["content"] for e in back] == [content["t0"], content["t1"]]


@pytest.mark.hostile("import")
async def test_a_file_pointing_into_another_namespaces_archive_is_refused(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str, other: str) -> None:
    """What exports wrote before: the placeholder and the source's archive key."""
    await _archived(gql, db, ns, 3)
    store = stores.active(db)
    assert store is not None
    records = await exported(db, ns)
    [key, *_] = await tiering.objects_of(store, Namespace(ns))
    line = next(i for i, r in enumerate(records) if r.get("node") == "Episode")
    records[line]["props"] |= {"content": "[archived]", "metadata": "{}", "archive_key": key}
    for into, climbing in ((other, key),
                           (ns, f"{tiering.namespace_prefix(Namespace(ns))}/../{key}")):
        records[line]["props"]["archive_key"] = climbing
        with pytest.raises(InvalidInput, match=f"line {line + 1}: Episode is archived in "
                                               "another namespace's archive"):
            await import_lines(db, lines(records), into=into)
    assert await namespace_contents(db, other) == []


@pytest.mark.hostile("import")
async def test_a_namespace_never_deletes_another_namespaces_archive_object(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str, other: str) -> None:
    await _archived(gql, db, ns, 2)
    store = stores.active(db)
    assert store is not None
    keys = await tiering.objects_of(store, Namespace(ns))
    await tiering.forget_objects(db, store, Namespace(other), keys)  # none of other's
    assert await tiering.objects_of(store, Namespace(ns)) == keys
    assert tiering.owned(Namespace(other), keys) == []
    assert tiering.owned(Namespace(ns), keys) == keys
