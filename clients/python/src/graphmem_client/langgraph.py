"""``GraphmemStore``: graphmem as LangGraph's long-term store (the ``langgraph`` extra).

::

    from graphmem_client import Memory
    from graphmem_client.langgraph import GraphmemStore

    store = GraphmemStore(Memory(namespace="acme/user-42"))
    store.put(("memories", "dana"), "prefs", {"food": "pizza"})
    store.get(("memories", "dana"), "prefs").value          # {"food": "pizza"}
    store.search(("memories",), query="pizza")               # by prefix, ranked by graphmem

Each item is one graphmem fact in the ``Memory``'s namespace: the subject names the LangGraph
namespace tuple and key (with a digest, so keys differing only in case stay apart), the
predicate is ``langgraph_item`` (one value, RECENCY: a new put supersedes the last), and the
object is a literal string, JSON of ``{"namespace", "key", "value"}``. A delete retracts the
fact. So ``get`` sees the latest value while ``why``/the ``facts`` history keep every earlier
one, with when it was recorded and what replaced it.

The facade has no call for predicate policies or for listing facts by predicate: this module
sends those two GraphQL documents itself, through the ``Memory``'s own request loop (same
auth, retries and typed errors).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Generator, Iterable
from datetime import datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from graphmem_client import _generated as gen
from graphmem_client._operations import Call, search, set_policy
from graphmem_client.memory import AsyncMemory, Memory

__all__ = ["PREDICATE", "GraphmemStore"]

PREDICATE = "langgraph_item"
_PAGE = 200  # the server's default page cap
_SEARCH_CAP = 100  # search answers at most this many hits
_ITEMS = """query LanggraphItems($namespace: String!, $where: FactWhere, $first: Int!,
                               $after: String) {
  facts(namespace: $namespace, where: $where, first: $first, after: $after) {
    nodes { id object objectKind recordedAt }
    pageInfo { hasNextPage endCursor } } }"""

Steps = Generator[Call, dict[str, Any], Any]


class GraphmemStore(BaseStore):
    """A LangGraph ``BaseStore`` over one graphmem namespace.

    ``memory`` serves ``batch`` (and ``abatch``, in a thread, when there is no
    ``async_memory``); ``async_memory`` serves ``abatch``. Supports get, put (overwrite),
    delete, search by namespace prefix with ``filter`` (equality and ``$eq``, ``$ne``,
    ``$gt``, ``$gte``, ``$lt``, ``$lte`` on top-level value keys) and an optional
    natural-language ``query`` (graphmem's hybrid search, ``score`` set), and
    list_namespaces. Not supported: TTLs, and ``index``/per-field embeddings (graphmem
    indexes the whole item).
    """

    supports_ttl = False

    def __init__(self, memory: Memory | None = None, *,
                 async_memory: AsyncMemory | None = None) -> None:
        if memory is None and async_memory is None:
            raise ValueError("GraphmemStore needs memory= or async_memory=")
        self.memory = memory
        self.async_memory = async_memory
        self._policy_set: set[str] = set()  # graphmem namespaces whose policy is in place

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self.memory is None:
            raise ValueError("GraphmemStore needs memory= (a Memory) for sync calls")
        memory = self.memory
        return [memory.run(self._op(memory.namespace, op)) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if self.async_memory is None:
            return await asyncio.to_thread(self.batch, list(ops))
        memory = self.async_memory
        return [await memory.run(self._op(memory.namespace, op)) for op in ops]

    def _op(self, ns: str, op: Op) -> Steps:
        validate_op_namespace(op)
        if isinstance(op, GetOp):
            found = yield from _current(ns, op.namespace, op.key)
            return found[1] if found else None
        if isinstance(op, PutOp):
            return (yield from self._put(ns, op))
        if isinstance(op, SearchOp):
            return (yield from _search(ns, op))
        if isinstance(op, ListNamespacesOp):
            return (yield from _list_namespaces(ns, op))
        raise TypeError(f"unknown operation {type(op).__name__}")

    def _put(self, ns: str, op: PutOp) -> Steps:
        if op.ttl is not None:
            raise NotImplementedError("GraphmemStore does not support TTLs")
        if op.value is None:
            found = yield from _current(ns, op.namespace, op.key)
            if found:
                yield Call(gen.RETRACT_FACT_GQL, "RetractFact", {
                    "namespace": ns, "factId": found[0], "reason": "langgraph store delete"})
            return None
        if ns not in self._policy_set:
            yield from set_policy(ns, PREDICATE, "one", "recency")
            self._policy_set.add(ns)
        envelope = json.dumps({"namespace": list(op.namespace), "key": op.key,
                               "value": op.value}, ensure_ascii=False, sort_keys=True)
        yield Call(gen.ASSERT_FACTS_GQL, "AssertFacts", {"namespace": ns, "facts": [{
            "subject": subject_of(op.namespace, op.key), "predicate": PREDICATE,
            "value": {"string": envelope}}]})
        return None


def subject_of(namespace: tuple[str, ...], key: str) -> str:
    """The graphmem subject of an item: readable, and unique through its digest."""
    digest = hashlib.sha256(json.dumps([list(namespace), key]).encode()).hexdigest()[:24]
    readable = " ".join("/".join([*namespace, key]).split())[:200]
    return f"langgraph {readable} #{digest}"


def _current(ns: str, namespace: tuple[str, ...], key: str) -> Steps:
    """(fact id, Item) of the item's current value, or None."""
    where = {"subject": subject_of(namespace, key), "predicate": PREDICATE}
    for fact_id, item in (yield from _items(ns, where)):
        if item.namespace == namespace and item.key == key:
            return fact_id, item
    return None


def _items(ns: str, where: dict[str, str]) -> Steps:
    """Every current (fact id, Item) matching ``where``, newest first."""
    found: list[tuple[str, Item]] = []
    after = None
    while True:
        data = yield Call(_ITEMS, "LanggraphItems", {"namespace": ns, "where": where,
                                                    "first": _PAGE, "after": after})
        page = data["facts"]
        for node in page["nodes"]:
            item = _item(node["object"], node["recordedAt"]) \
                if node["objectKind"] == "string" else None
            if item is not None:
                found.append((node["id"], item))
        if not page["pageInfo"]["hasNextPage"]:
            return sorted(found, key=lambda pair: pair[1].updated_at, reverse=True)
        after = page["pageInfo"]["endCursor"]


def _item(text: str, recorded_at: str) -> Item | None:
    try:
        envelope = json.loads(text)
        namespace, key, value = envelope["namespace"], envelope["key"], envelope["value"]
    except (ValueError, KeyError, TypeError):
        return None  # not written by this store
    at = datetime.fromisoformat(recorded_at)
    # A put replaces the item, so (as in LangGraph's InMemoryStore) created_at is its time.
    return Item(value=value, key=key, namespace=tuple(namespace), created_at=at, updated_at=at)


def _search(ns: str, op: SearchOp) -> Steps:
    if op.query:
        wanted = min(_SEARCH_CAP, max(4 * (op.offset + op.limit), 20))
        hits = yield from search(ns, op.query, wanted, ["fact"])
        ranked = []
        for hit in hits:
            fact = hit.fact
            item = _item(fact.object, fact.recorded_at.isoformat()) \
                if fact is not None and fact.predicate == PREDICATE \
                and fact.status == "ACTIVE" and fact.recorded_at is not None else None
            if item is not None:
                ranked.append((item, hit.score))
    else:
        ranked = [(item, None) for _, item in (yield from _items(ns, {"predicate": PREDICATE}))]
    chosen = [(item, score) for item, score in ranked
              if _has_prefix(item.namespace, op.namespace_prefix)
              and all(_matches(item.value.get(k), v) for k, v in (op.filter or {}).items())]
    return [SearchItem(namespace=item.namespace, key=item.key, value=item.value,
                       created_at=item.created_at, updated_at=item.updated_at, score=score)
            for item, score in chosen[op.offset:op.offset + op.limit]]


def _list_namespaces(ns: str, op: ListNamespacesOp) -> Steps:
    items = yield from _items(ns, {"predicate": PREDICATE})
    namespaces = {item.namespace for _, item in items}
    chosen = {n[:op.max_depth] if op.max_depth is not None else n for n in namespaces
              if all(_condition(c, n) for c in op.match_conditions or ())}
    return sorted(chosen)[op.offset:op.offset + op.limit]


def _has_prefix(namespace: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    return namespace[:len(prefix)] == prefix


def _condition(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    part = namespace[:len(path)] if condition.match_type == "prefix" \
        else namespace[len(namespace) - len(path):]
    return all(p in ("*", n) for n, p in zip(part, path, strict=True))


def _matches(value: Any, wanted: Any) -> bool:
    """LangGraph's filter semantics: equality, nested dicts, and comparison operators."""
    if isinstance(wanted, dict) and any(k.startswith("$") for k in wanted):
        return all(_compare(value, k, v) for k, v in wanted.items())
    if isinstance(wanted, dict):
        return isinstance(value, dict) and all(_matches(value.get(k), v)
                                               for k, v in wanted.items())
    return bool(value == wanted)


def _compare(value: Any, operator: str, wanted: Any) -> bool:
    if operator == "$eq":
        return bool(value == wanted)
    if operator == "$ne":
        return bool(value != wanted)
    if value is None:
        return False
    comparisons = {"$gt": float.__gt__, "$gte": float.__ge__, "$lt": float.__lt__,
                   "$lte": float.__le__}
    if operator not in comparisons:
        raise ValueError(f"unsupported filter operator {operator}")
    return comparisons[operator](float(value), float(wanted))
