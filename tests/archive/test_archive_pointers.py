"""An archived episode whose pointer leaves its namespace's archive (tampered with in the
graph, or left by an old import) is read from nowhere: rehydrate says ARCHIVE_MISSING, never
INTERNAL, and nothing is read or deleted outside the namespace's objects."""

from __future__ import annotations

import pytest

from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep

pytestmark = pytest.mark.hostile("archive")

REHYDRATE = """mutation($ns: String!, $ids: [ID!]!) { rehydrate(namespace: $ns, ids: $ids) {
  content } }"""


@pytest.mark.parametrize("key", ["../..", "../../etc/passwd", "", "x" * 5000, "/etc/hostname",
                                 "a\x00b", "other/ab/" + "a" * 64])
async def test_a_pointer_outside_the_namespace_is_archive_missing(
        gql: GraphQLClient, db: Database, ns: str, key: str) -> None:
    made = await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "hello")])
    episode = made["recordEpisodes"]["episodes"][0]["id"]
    await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns, id: $id}) "
        "SET e.archive_key = $key, e.archived_at = datetime(), e.content = '[archived]'",
        {"ns": ns, "id": episode, "key": key}, database_=db.name)
    body = await gql(REHYDRATE, ns=ns, ids=[episode])
    assert [e["extensions"]["code"] for e in body["errors"]] == ["ARCHIVE_MISSING"]
