"""An import's first pass over the real service: a record the API would refuse (or a read
would fail on) is refused at its line, and a bad file writes nothing, wherever its fault is:
a late line, an altered end record, a line changed under an intact count. Through the code
and through `graphmem import`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graphmem.core.errors import InvalidInput
from graphmem.db.database import Database
from graphmem.portability.importing import import_lines
from tests.portability.files import exported, lines
from tests.portability.test_cli import graphmem
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact, said
from tests.support.graph import namespace_contents

EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 50) { nodes {
  externalId kind content metadata sensitivity } } }"""
SEARCH = """query($ns: String!) { search(namespace: $ns, query: "heron", limit: 5) {
  hits { score } } }"""
Change = Callable[[dict[str, Any]], None]


async def a_memory(gql: GraphQLClient, db: Database, ns: str) -> list[dict[str, Any]]:
    await gql.ok(RECORD, ns=ns, eps=[
        {**said(f"t{i}", f"2026-07-01T10:00:{i:02d}Z", f"turn {i}: the heron by the mill pond"),
         "sessionId": "walk"} for i in range(30)])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "herons", evidence=["t3"])])
    await gql.ok("""mutation($ns: String!) { setRetentionPolicy(namespace: $ns, policy: {
        maxAgeDays: 30, action: DELETE}) { action } }""", ns=ns)
    return await exported(db, ns)


def changed(records: list[dict[str, Any]], label: str, change: Change,
            nth: int = 0) -> tuple[list[str], int]:
    """The file with the ``nth`` node of ``label`` changed, and that node's line number."""
    found = [i for i, r in enumerate(records) if r.get("node") == label][nth]
    record = json.loads(json.dumps(records[found]))
    change(record["props"])
    file = lines(records)
    file[found] = json.dumps(record)
    return file, found + 1


def _set(name: str, value: Any) -> Change:
    return lambda props: props.__setitem__(name, value)


GARBAGE: list[tuple[str, str, Change, str]] = [
    ("Episode", "evil kind", _set("kind", "evil"), "'evil' is not a valid EpisodeKind"),
    ("Episode", "integer content", _set("content", 12345), "not a valid Episode"),
    ("Episode", "non-JSON metadata", _set("metadata", "{not json"), "JSONDecodeError"),
    ("Episode", "JSON metadata that is not an object", _set("metadata", "[1, 2]"),
     "metadata is not a dict"),
    ("Episode", "bad sensitivity", _set("sensitivity", "nope"),
     "'nope' is not a valid Sensitivity"),
    ("Episode", "importance above 1", _set("importance", 7.5), "importance must be between"),
    ("Episode", "a time as a plain string", _set("occurred_at", "2026-07-01T10:00:00Z"),
     "not a valid Episode"),
    ("Episode", "a time past year 9999 in UTC",
     _set("occurred_at", {"$datetime": "9999-12-31T23:59:59-14:00"}), "ISO 8601 instant"),
    ("Episode", "a time before year 1 in UTC",
     _set("occurred_at", {"$datetime": "0001-01-01T00:00:00+14:00"}), "ISO 8601 instant"),
    ("Episode", "a list of lists", _set("seq", [[1], [2]]), "properties are strings"),
    ("Episode", "an integer past 64 bits", _set("seq", 2**70), "64 bits"),
    ("Fact", "an unknown status", _set("status", "evil"), "'evil' is not a valid FactStatus"),
    ("Fact", "confidence 9", _set("confidence", 9), "confidence must be between 0 and 1"),
    ("Fact", "a string confidence", _set("confidence", "high"), "confidence is not a float"),
    ("Fact", "a predicate not as stored", _set("predicate", "Likes Very Much"),
     "predicate is not in its normal form"),
    ("RetentionPolicy", "action evil", _set("action", "evil"), "'evil' is not a valid Action"),
    ("RetentionPolicy", "a max age of 1e12 s", _set("max_age_s", 1e12), "maxAgeDays"),
]


@pytest.mark.hostile("import")
@pytest.mark.parametrize(("label", "what", "change", "says"), GARBAGE,
                         ids=[case[1] for case in GARBAGE])
async def test_typed_garbage_is_refused_at_its_line_and_nothing_written(
        db: Database, gql: GraphQLClient, ns: str, other: str, label: str, what: str,
        change: Change, says: str) -> None:
    records = await a_memory(gql, db, ns)
    file, number = changed(records, label, change, nth=-1)
    with pytest.raises(InvalidInput) as refused:
        await import_lines(db, file, into=other, chunk=10)
    assert refused.value.details["line"] == number, refused.value.message
    assert refused.value.message.startswith(f"line {number}"), refused.value.message
    assert says in refused.value.message, refused.value.message
    assert await namespace_contents(db, other) == []
    assert (await gql.ok(EPISODES, ns=other))["episodes"]["nodes"] == []  # no INTERNAL
    assert (await gql.ok(SEARCH, ns=other))["search"]["hits"] == []
    assert len((await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]) == 30  # source untouched


@pytest.mark.hostile("import")
async def test_a_bad_late_line_writes_nothing_before_it(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    """Chunks of 10 lines: the bad line is far past the first chunks, which used to stay."""
    file = lines(await a_memory(gql, db, ns))
    late = len(file) - 5
    broken = [*file[:late], '{"node": "Episode", "key": "ep_x", "props": {"kind": 1}}',
              *file[late:]]
    with pytest.raises(InvalidInput, match=f"line {late + 1}:"):
        await import_lines(db, broken, into=other, chunk=10)
    assert await namespace_contents(db, other) == []


@pytest.mark.hostile("import")
async def test_an_altered_end_record_or_line_writes_nothing(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    records = await a_memory(gql, db, ns)
    counts = lines([*records[:-1], {"end": {**records[-1]["end"], "nodes": 7}}])
    with pytest.raises(InvalidInput, match="end record counts 7 nodes"):
        await import_lines(db, counts, into=other, chunk=10)
    assert await namespace_contents(db, other) == []
    end = records[-1]["end"]  # a relationship more than the file holds: as altered
    rels = lines([*records[:-1], {"end": {**end, "relationships": end["relationships"] + 1}}])
    with pytest.raises(InvalidInput, match="end record counts"):
        await import_lines(db, rels, into=other, chunk=10)
    assert await namespace_contents(db, other) == []
    # A valid line changed, the counts intact: the digest tells.
    file, _ = changed(records, "Episode", _set("content", "turn 4: the heron flew off"), nth=4)
    with pytest.raises(InvalidInput, match="digest"):
        await import_lines(db, file, into=other, chunk=10)
    assert await namespace_contents(db, other) == []
    assert (await import_lines(db, lines(records), into=other, chunk=10)).nodes == \
        records[-1]["end"]["nodes"]  # the file as exported still imports


@pytest.mark.hostile("import")
@pytest.mark.parametrize(("line", "says"), [
    ('{"end": {"nodes": 1e400, "relationships": 0}}', "expected a node, rel or end record"),
    ('{"node": "Actor", "key": "\\ud800", "props": {}}', "is not text"),
    ('{"node": "Actor", "key": "a", "props": {"at": {"$datetime": 5}}}', "ISO 8601 instant"),
    ('{"node": "Session", "key": "s", "props": {"ephemeral_ttl_s": "x"}}',
     "not a valid Session"),
    ('{"node": "Actor", "key": "a", "props": ' + '{"a":' * 50_000 + "1" + "}" * 50_001,
     "nested too deeply"),
], ids=["infinite count", "lone surrogate", "instant not a string", "ttl not a number",
        "deep nesting"])
async def test_malformed_lines_are_named_not_tracebacks(
        db: Database, gql: GraphQLClient, ns: str, other: str, line: str, says: str) -> None:
    records = await a_memory(gql, db, ns)
    file = lines(records)
    with pytest.raises(InvalidInput) as refused:
        await import_lines(db, [*file[:3], line, *file[3:]], into=other)
    assert refused.value.details["line"] == 4 and says in refused.value.message
    assert await namespace_contents(db, other) == []


@pytest.mark.hostile("import")
async def test_an_id_another_namespace_holds_writes_nothing(
        db: Database, gql: GraphQLClient, ns: str, other: str) -> None:
    """A file claiming to be ``other``'s, with the source's own ids: refused up front (the
    uniqueness constraint used to stop it half-way, after the chunks before)."""
    records = await a_memory(gql, db, ns)
    file = lines([{**records[0], "namespace": other}, *records[1:]])
    with pytest.raises(InvalidInput, match="id another namespace holds"):
        await import_lines(db, file, chunk=10)
    assert await namespace_contents(db, other) == []


@pytest.mark.hostile("import")
async def test_the_command_line_refuses_a_bad_file_with_its_line_and_writes_nothing(
        db: Database, gql: GraphQLClient, ns: str, other: str, tmp_path: Path) -> None:
    records = await a_memory(gql, db, ns)
    file, number = changed(records, "RetentionPolicy", _set("action", "evil"))
    path = tmp_path / "evil.jsonl"
    path.write_text("\n".join(file) + "\n")
    done = graphmem("import", str(path), "--into", other)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"graphmem: line {number}: not a valid RetentionPolicy (ValueError: 'evil' is " \
        "not a valid Action)" in done.stderr, done.stderr
    deep = tmp_path / "deep.jsonl"
    deep.write_text(lines(records)[0] + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    done = graphmem("import", str(deep), "--into", other)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "graphmem: line 2: nested too deeply" in done.stderr, done.stderr
    broken = tmp_path / "broken.jsonl"  # bytes that are not UTF-8 on line 3
    broken.write_bytes(("\n".join(lines(records)[:2]) + "\n").encode()
                       + b'{"node": "Actor", "key": "\xff"}\n')
    done = graphmem("import", str(broken), "--into", other)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "graphmem: line 3: a string there is not text" in done.stderr, done.stderr
    done = graphmem("import", str(broken), "--from", "mem0", "--into", other)
    assert done.returncode == 1 and "is not a JSON file" in done.stderr, done.stderr
    assert await namespace_contents(db, other) == []
    path.write_text("\n".join(lines(records)) + "\n")  # the file as exported, read twice
    done = graphmem("import", str(path), "--into", other)
    assert done.returncode == 0, done.stderr
    assert len(await namespace_contents(db, other)) == records[-1]["end"]["nodes"]
