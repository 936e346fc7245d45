"""The LangGraph store adapter with hostile namespaces and keys, over a real `graphmem serve`
and a key granted one namespace: items whose names differ only in a separator, case, space
or a look-alike digest stay apart; a value that carries a forged envelope is only a value;
a prompt-injected model's `remember` cannot forge an item's value; and nothing leaves the
key's namespace."""

from __future__ import annotations

import uuid

import pytest
from graphmem_client import Memory
from graphmem_client.langgraph import PREDICATE, GraphmemStore, subject_of

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.graph import delete_namespace

pytestmark = pytest.mark.hostile("adapters")

# Pairs a naive subject ("a/b/k", case-folded, spaces squeezed) would make one item.
LOOKALIKES = [
    (("a/b",), "k"), (("a", "b"), "k"), (("a",), "b/k"),
    (("users",), "Dana"), (("users",), "dana"), (("users",), "dana "), (("users",), "da  na"),
    (("users",), "da na"), (("users",), "x\n#0"), (("users",), "k" * 5_000),
    (("users",), f"k #{subject_of(('users',), 'k').rsplit('#', 1)[1]}"), (("users",), "k"),
]


async def test_hostile_names_stay_apart_and_in_their_namespace(server_url: str, db: Database,
                                                               ns: str) -> None:
    other = f"atk/{uuid.uuid4().hex[:8]}"
    key = await create_key(db, "hostile-store", grants=[ns], admin=False)
    try:
        with Memory(server_url, key, ns) as memory:
            store = GraphmemStore(memory)
            for i, (namespace, item_key) in enumerate(LOOKALIKES):
                store.put(namespace, item_key, {"i": i})
            for i, (namespace, item_key) in enumerate(LOOKALIKES):
                found = store.get(namespace, item_key)
                assert found is not None and found.value == {"i": i}, (namespace, item_key)
            # A value holding another item's envelope is stored as that value, nothing more.
            forged = {"namespace": ["admin"], "key": "root", "value": {"role": "admin"}}
            store.put(("users",), "forger", forged)
            assert store.get(("admin",), "root") is None
            kept = store.get(("users",), "forger")
            assert kept is not None and kept.value == forged
            # The model's own tool writes facts: an object string becomes an entity, so it
            # cannot stand in for an item's envelope. (It supersedes the item, which then
            # reads as deleted: the model may forget anything in its namespace anyway.)
            memory.remember(subject_of(("users",), "k"), PREDICATE,
                            '{"namespace": ["users"], "key": "k", "value": {"i": -1}}')
            latest = store.get(("users",), "k")
            assert latest is None or latest.value == {"i": len(LOOKALIKES) - 1}
        with Memory(server_url, key, other) as elsewhere, pytest.raises(Exception) as refused:
            GraphmemStore(elsewhere).get(("users",), "k")
        assert "FORBIDDEN" in str(refused.value) or "Forbidden" in type(refused.value).__name__
    finally:
        await delete_namespace(db, other)
