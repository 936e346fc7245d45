"""The export format's own rules, without a database: every label memory is kept under is
in it, values survive the trip through JSON, and hostile lines are typed errors."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

from graphmem.core.errors import InvalidInput
from graphmem.db.statements import cypher_root, statement
from graphmem.portability.format import (
    LABELS,
    NodeRecord,
    RelRecord,
    decode,
    encode,
    parse,
    remapped,
)

NOT_EXPORTED = {  # label -> why it is not a namespace's memory
    "Job": "queue state: an importing service queues its own work",
    "ErasureReceipt": "the service's tombstone of an erasure (a digest, no namespace)",
    "EmbeddingSpace": "the database's vector indexes",
    "Migration": "the database's schema history",
    "ServerSecret": "the service's own secret",
    "Event": "the outbox: changes already told, kept a few days",
    "Webhook": "where events go, with its signing secret: set again where imported",
    "Delivery": "a webhook's delivery log",
    "NamespaceKey": "a key's salt: where it is the whole point that it can be destroyed",
    "WriteProbe": "/readyz's one node proving Neo4j writes again (no namespace)",
}
# Labels only a sync makes (portability/federation/, through the import's own statements).
MADE_BY_SYNC = {"DeviceTurn": "a reference to a turn held on a device (federated memory)"}
CREATED = re.compile(r"(?:CREATE|MERGE)\s*\(\w*:(\w+)")


def test_every_label_a_namespace_holds_is_exported_in_the_statement_order() -> None:
    created = {label for path in cypher_root().rglob("*.cypher")
               if "portability" not in path.parts
               for label in CREATED.findall(path.read_text())}
    assert created | set(MADE_BY_SYNC) == set(LABELS) | set(NOT_EXPORTED), \
        created ^ (set(LABELS) | set(NOT_EXPORTED))
    for name in ("portability/nodes", "portability/count_nodes"):
        order = re.findall(r"MATCH \(n:(\w+) \{ns: \$ns\}\)", statement(name))
        assert order == list(LABELS), name
    starts = re.findall(r"MATCH \(a:(\w+) \{ns: \$ns\}\)", statement("portability/relationships"))
    assert starts == list(LABELS)


def test_instants_and_lists_come_back_as_they_were() -> None:
    moment = datetime(2026, 5, 1, 9, 30, 0, 123456, tzinfo=UTC)
    for value in (moment, [1.5, 2.0], "enc:v1:k1:abc", 3, True):
        assert decode(json.loads(json.dumps(encode(value))), "here") == value
    assert type(decode(json.loads(json.dumps(encode(1.0))), "here")) is float
    for edge in (2**63 - 1, -2**63):  # Neo4j's integers, to the last one
        assert decode(edge, "here") == edge


def test_ids_remapped_into_another_namespace_are_stable_and_distinct() -> None:
    assert remapped("ep_1", "a/b") == remapped("ep_1", "a/b") != remapped("ep_1", "a/c")
    assert remapped("fact_9", "x").startswith("fact_")


@pytest.mark.parametrize(("line", "says"), [
    ('{"node": "Entity`) WITH n MATCH (x) DETACH DELETE x //", "key": "e"}', "unknown label"),
    ('{"rel": "KNOWS]->() DETACH DELETE a //", "from": ["Entity", "a"], '
     '"to": ["Entity", "b"]}', "relationship type"),
    ('{"rel": "knows", "from": ["Entity", "a"], "to": ["Entity", "b"]}', "relationship type"),
    ('{"node": "Entity", "key": "e", "props": {"Bad Name": 1}}', "property names"),
    ('{"node": "Entity", "key": "e", "props": {"embedding": [0.1]}}', "not imported"),
    ('{"node": "Entity", "key": "e", "props": {"id": "other"}}', "not imported"),
    ('{"node": "Episode", "key": 7}', "needs its id"),
    ('{"node": "Episode", "key": "e", "props": {"at": {"$datetime": "2026-05-01"}}}',
     "timezone"),
    ('{"node": "Episode", "key": "e", "props": {"xs": [1, "a"]}}', "one type"),
    ('{"node": "Episode", "key": "e", "props": {"n": 9223372036854775808}}', "64 bits"),
    ('{"node": "Episode", "key": "e", "props": {"n": -9223372036854775809}}', "64 bits"),
    ("[]", "JSON object"), ('{"what": 1}', "expected a node"),
])
def test_a_hostile_or_broken_line_is_a_typed_error_naming_it(line: str, says: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse(line, 7)
    assert refused.value.details["line"] == 7 and says in refused.value.message


def test_a_good_line_reads_as_its_record() -> None:
    node = parse('{"node": "Session", "key": "s1", "props": {"last_seq": 3}}', 2)
    assert node == NodeRecord("Session", "s1", {"last_seq": 3})
    rel = parse('{"rel": "IN_SESSION", "from": ["Episode", "ep_1"], "to": ["Session", "s1"]}', 3)
    assert rel == RelRecord("IN_SESSION", ("Episode", "ep_1"), ("Session", "s1"), {})
