"""An import may not bring back a conversation the user had erased: an earlier export of an
ephemeral session, imported after the session was closed, is refused at the line of its
first turn, with nothing written; into another namespace it imports as a copy."""

from __future__ import annotations

import pytest

from graphmem.core.errors import InvalidInput
from graphmem.db.database import Database
from graphmem.portability.importing import import_lines
from tests.portability.files import exported, lines
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep
from tests.support.graph import delete_namespace, namespace_contents

pytestmark = pytest.mark.hostile("import")

MARK = """mutation($ns: String!) { markSessionEphemeral(namespace: $ns, sessionId: "temp",
  idleMinutes: 30) { sessionId } }"""
CLOSE = """mutation($ns: String!) { closeSession(namespace: $ns, sessionId: "temp") {
  verified } }"""


async def test_an_erased_conversation_does_not_come_back_through_an_import(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("kept", 1, "I live in Porto", session="main")])
    await gql.ok(MARK, ns=ns)
    await gql.ok(RECORD, ns=ns, eps=[ep("t1", 2, "my pin is 4711", session="temp"),
                                     ep("t2", 3, "and my alarm code 0815", session="temp")])
    before_close = lines(await exported(db, ns))
    assert (await gql.ok(CLOSE, ns=ns))["closeSession"]["verified"]
    after_close = await namespace_contents(db, ns)

    with pytest.raises(InvalidInput, match=r"closed \(erased\)") as refused:
        await import_lines(db, before_close)
    assert "4711" not in refused.value.message
    assert await namespace_contents(db, ns) == after_close  # nothing written

    copy = f"{ns}-copy"
    try:  # elsewhere it is a copy like any other
        assert (await import_lines(db, before_close, into=copy)).nodes > 0
    finally:
        await delete_namespace(db, copy)
