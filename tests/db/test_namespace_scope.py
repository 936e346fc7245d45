"""Structural isolation: every statement the service runs is scoped by namespace, as Neo4j
plans it (EXPLAIN), whatever the Cypher's syntax.

Every operator that finds nodes without walking to them (an index seek or scan, a label
scan, a fulltext or vector index call, a seek by element id, a count from the count store)
must find them in the namespace, before the node reaches anything that returns, writes,
counts, cuts or leaves the plan: either the seek itself is on ``ns = $ns`` (an index on
``(ns, …)``), or a filter with ``node.ns = $ns`` as one of its conjuncts sits between the
finding operator and the first operator that is not a plain row pipe (Filter, Expand,
Apply, Projection…). Nodes reached by traversal from a node need no check: relationships
never cross namespaces (every write creates them between nodes of one namespace).
Every statement also takes ``$ns``, except the few that are deliberately not about one
namespace (listed with why); each of those must still need its exemption.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from graphmem.db.database import Database
from graphmem.db.statements import cypher_root, statement
from tests.support.graph import plan_of

UNSCOPED = {  # statement -> why it is not about one namespace
    "console/browser/01_namespaces": "lists the namespaces, for a person exploring in Browser",
    "governance/memory/namespaces": "lists the namespaces under a key's prefix grant (viewer), "
                                    "names only",
    "retrieval/embeddings/claim": "the service-wide embedding queue; writes back by node id",
    "retrieval/embeddings/claimable": "whether that queue holds a node no worker has claimed",
    "retrieval/embeddings/release": "gives a claimed batch of the service-wide queue back, by "
                                    "node id",
    "retrieval/embeddings/pending_count": "the size of that queue",
    "retrieval/embeddings/store": "writes vectors to queued nodes by id",
    "retrieval/embeddings/mark_all": "re-embedding the whole database",
    "retrieval/embeddings/set_aside": "takes claimed nodes of the service-wide queue out of "
                                      "it, by id",
    "retrieval/embeddings/requeue_set_aside": "queues what was set aside again, in every namespace "
                                              "(at a worker's start)",
    "retrieval/embeddings/space": "the database's embedding space",
    "retrieval/embeddings/record_space": "the database's embedding space",
    "governance/erasure/receipt": "the tombstone outlives the namespace (it holds only a digest)",
    "jobs/claim": "the service-wide job queue; a job carries its namespace to the worker",
    "jobs/reclaim": "puts back jobs of dead workers, whichever namespace",
    "jobs/depth": "the queue-depth gauge",
    "events/since_any": "the process's one poll for its subscriptions, over the namespaces "
                        "they were authorised for; each event goes only to listeners of its "
                        "own namespace (events/feed.py)",
    "governance/retention/namespaces": "the sweeper's round: which namespaces have policies",
    "governance/pruning/namespaces": "the worker's round: which namespaces have a pruning policy",
    "governance/sessions/idle_ephemeral": "the worker's sweep: ephemeral sessions of every "
                                          "namespace idle past their time to live",
    "episodes/encryption/pending": "key rotation (a CLI command) visits every namespace's "
                                   "episodes, or one's when $ns is given",
    "episodes/encryption/store": "key rotation writes back by id, each row checked against its "
                                 "own namespace",
    "jobs/enqueue_regeneration": "the worker's sweep for stale summaries; each job is "
                                 "created in the summary's own namespace",
    "events/prune": "drops every namespace's events past their keeping time",
    "events/webhooks/claim": "the service-wide delivery queue; a delivery carries its namespace",
    "events/webhooks/due": "whether that queue holds a due delivery",
    "events/webhooks/record": "writes a claimed delivery's outcome back by id",
    "portability/checkpoint": "an import's progress, by a digest of file and target",
    "portability/checkpoint_line": "an import's progress, by a digest of file and target",
    "portability/finish_import": "an import's progress, by a digest of file and target",
    "portability/held_elsewhere": "an import's check that no id of its file is another "
                                  "namespace's (lines only come back)",
    **{f"portability/graphiti_{name}": "reads Graphiti's graph (its own database), one "
                                       "group_id at a time"
       for name in ("episodes", "sagas", "entities", "edges")},
}
COUNTED = {  # statement -> why nodes of other namespaces may be counted (never returned)
    "retrieval/search/find": "the vector indexes span namespaces: hits of other namespaces are "
                             "counted, so a short list is fetched again further out; each hit "
                             "is returned only under a flag that tests node.ns = $ns",
}
SYSTEM = {  # statements about the store, not about any namespace's memory
    "db/write_probe", "db/migrations_applied", "db/migration_record", "security/api_key_lookup",
    "governance/erasure/secret", "governance/holds_memory",
}
NAMES = sorted(p.relative_to(cypher_root()).with_suffix("").as_posix()
               for p in cypher_root().rglob("*.cypher")
               if p.parent.name not in ("migrations", "migration_steps")
               and p.relative_to(cypher_root()).with_suffix("").as_posix() not in SYSTEM
               and "indexes" not in p.name)
# Operators rows pass through unchanged, or joined with other rows: nothing leaves the plan
# there, so the namespace check may still follow.
PIPES = re.compile(r"(Filter|Projection|CacheProperties|Eager|Argument|Unwind|Optional|Sort"
                   r"|PartialSort|Distinct|OrderedDistinct|CartesianProduct|\w*HashJoin"
                   r"|\w*Apply|(Optional)?Expand\(\w+\)|VarLengthExpand\(.*\)|Union)")
FINDER = re.compile(r"\w*(Seek|Scan|CountFromCountStore)(\(\w+\))?")
INDEX_VARIABLE = re.compile(r"(?:UNIQUE|INDEX) `?(\w+)`?:")
AGGREGATIONS = re.compile(r"(Eager|Ordered)Aggregation")


def _operator(plan: Any) -> str:
    return str(plan["operatorType"]).split("@")[0]


def _details(plan: Any) -> str:
    return " ".join(str(plan.get("args", {}).get("Details", "")).split())


def _unwrap(text: str) -> str:
    """``text`` without parentheses around the whole of it."""
    while text.startswith("(") and _closing(text) == len(text) - 1:
        text = text[1:-1].strip()
    return text


def _closing(text: str) -> int:
    depth = 0
    for i, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if depth == 0:
            return i
    return -1


def _conjuncts(text: str) -> list[str]:
    """The predicates a filter requires all of (its top-level ANDs)."""
    text = _unwrap(text.strip())
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if depth == 0 and text.startswith(" AND ", i):
            parts.append(text[start:i])
            start = i + 5
    if not parts:
        return [text]
    return [c for part in [*parts, text[start:]] for c in _conjuncts(part)]


def _tests_namespace(predicate: str, variable: str) -> bool:
    node_ns = rf"(cache\[{variable}\.ns\]|{variable}\.ns)"
    return re.fullmatch(rf"{node_ns} = \$ns|\$ns = {node_ns}", predicate) is not None


def _checks(plan: Any, variable: str) -> bool:
    """Does this operator drop every row whose ``variable`` is outside ``$ns``?"""
    operator, details = _operator(plan), _details(plan)
    if operator == "Filter":
        where = details
    elif operator.startswith(("Expand(", "VarLengthExpand(")) and " WHERE " in details:
        where = details.split(" WHERE ", 1)[1]
    else:
        return False
    return any(_tests_namespace(c, variable) for c in _conjuncts(where))


def _found(plan: Any) -> list[tuple[str | None, bool]]:
    """(variable, found in $ns by the operator itself) for each node this operator finds
    without walking to it; variable None: it finds nothing that could be checked."""
    operator, details = _operator(plan), _details(plan)
    if operator == "ProcedureCall":
        if not details.startswith("db.index."):
            return []
        return [(name, False) for name in re.findall(r"(\w+) :: NODE\b", details)]
    if not FINDER.fullmatch(operator):
        return []
    if operator.startswith(("Directed", "Undirected", "Relationship")) \
            or "CountStore" in operator:
        return [(None, False)]
    seeks = list(INDEX_VARIABLE.finditer(details))
    if not seeks:
        first = re.match(r"`?(\w+)`?", details)
        return [(first.group(1) if first else None, False)]
    ends = [m.start() for m in seeks[1:]] + [len(details)]
    return [(m.group(1), re.search(r"\bns = \$ns\b", details[m.start():end]) is not None)
            for m, end in zip(seeks, ends, strict=True)]


def _leaks(path: list[Any], variable: str | None, counted: bool) -> str | None:
    """Where ``variable``, found by ``path[-1]``, gets out before it is checked (None: it
    never does). ``path`` runs from the plan's root down to the finding operator."""
    if variable is None:
        return f"{_operator(path[-1])} ({_details(path[-1])}) finds nodes of every namespace"
    flagged = False  # a projection computed whether the node is in $ns
    for plan in reversed(path[:-1]):
        operator = _operator(plan)
        if counted and flagged and AGGREGATIONS.fullmatch(operator):
            return None
        if variable not in plan.get("identifiers", []):
            return f"{variable} leaves the plan at {operator} unchecked"
        if _checks(plan, variable):
            return None
        flagged |= operator == "Projection" and re.search(
            rf"(cache\[{variable}\.ns\]|\b{variable}\.ns) = \$ns\b", _details(plan)) is not None
        if not PIPES.fullmatch(operator):
            return f"{variable} reaches {operator} before its namespace is checked"
    return f"{variable} is never checked"


def unscoped_lookups(plan: Any, counted: bool = False) -> list[str]:
    """Every node lookup in ``plan`` (a driver's ``summary.plan``) that can reach a node of
    another namespace, described; [] when the plan is scoped."""
    found: list[str] = []

    def visit(path: list[Any]) -> None:
        for variable, seeks_ns in _found(path[-1]):
            leak = None if seeks_ns else _leaks(path, variable, counted)
            if leak:
                found.append(f"{_operator(path[-1])} {_details(path[-1])}: {leak}")
        for child in path[-1].get("children", []):
            visit([*path, child])

    visit([plan])
    return found


def _takes_ns(text: str) -> bool:
    return re.search(r"\$ns\b", text) is not None


@pytest.mark.parametrize("name", [n for n in NAMES if n not in UNSCOPED])
async def test_statement_is_scoped(db: Database, name: str) -> None:
    text = statement(name)
    assert _takes_ns(text), f"{name} never uses $ns"
    leaks = unscoped_lookups(await plan_of(db, text), counted=name in COUNTED)
    assert not leaks, f"{name} looks nodes up outside $ns:\n" + "\n".join(leaks)


@pytest.mark.parametrize("name", sorted(UNSCOPED))
async def test_unscoped_statement_still_needs_its_exemption(db: Database, name: str) -> None:
    text = statement(name)
    leaks = unscoped_lookups(await plan_of(db, text))
    assert leaks or not _takes_ns(text), f"{name} is scoped now: drop it from UNSCOPED"


def test_every_exemption_names_a_statement() -> None:
    assert set(UNSCOPED) <= set(NAMES), set(UNSCOPED) - set(NAMES)
    assert set(COUNTED) <= set(NAMES), set(COUNTED) - set(NAMES)
    assert not set(UNSCOPED) & set(COUNTED)


# How a lookup may be written, and whether the namespace check must accept it.
FORMS = {
    "MATCH (f:Fact {ns: $ns, id: $id}) RETURN f.text": True,
    "MATCH (f:Fact {id: $id, ns: $ns}) USING INDEX SEEK f:Fact(id) RETURN f.text": True,
    "MATCH (f:Fact) WHERE f.id = $id AND f.ns = $ns RETURN f.text": True,
    "MATCH (f:Fact {ns: $ns})-[:SUBJECT]->(s) RETURN s.name": True,
    "UNWIND $ids AS id OPTIONAL MATCH (f:Fact {ns: $ns, id: id}) RETURN f.text": True,
    "MATCH (f:Fact) WHERE f.id = $id RETURN f.text": False,
    "MATCH (f:Fact {id: $id}) RETURN f.text": False,
    "MATCH (f:Fact) WHERE f.id = $id RETURN count(f) AS known": False,
    "MATCH (f:Fact) WHERE f.id = $id AND (f.ns = $ns OR $all) RETURN f.text": False,
    "MATCH (f:Fact) WHERE f.id = $id SET f.status = 'retracted'": False,
    "MATCH (f:Fact {id: $id}) WITH f LIMIT 1 WHERE f.ns = $ns RETURN f.text": False,
    "MATCH (e:Entity {ns: $ns}) WHERE EXISTS { MATCH (f:Fact {id: $id}) } RETURN e.id": False,
    "MATCH (f:Fact) WHERE f.id = $id RETURN f.ns = $ns AS mine, f.text": False,
    "CALL db.index.fulltext.queryNodes('fact_search', $q) YIELD node RETURN node.text": False,
    "CALL db.index.fulltext.queryNodes('fact_search', $q) YIELD node WHERE node.ns = $ns "
    "RETURN node.text": True,
    "RETURN COUNT { MATCH (:Fact) } AS facts": False,
    "MATCH (n) WHERE elementId(n) = $id RETURN n.text": False,
}


@pytest.mark.parametrize("text", FORMS)
async def test_the_check_reads_the_plan_not_the_syntax(db: Database, text: str) -> None:
    leaks = unscoped_lookups(await plan_of(db, text))
    assert (not leaks) is FORMS[text], leaks
