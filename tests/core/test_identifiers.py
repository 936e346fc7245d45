"""The one identifier validator and namespace names, with hostile input (pure logic)."""

from __future__ import annotations

import pytest

from graphmem.core.errors import InvalidInput
from graphmem.core.identifiers import normalise_predicate, relationship_type
from graphmem.core.namespaces import grant_matches, parse_namespace
from graphmem.facts.entities import entity_key


@pytest.mark.parametrize(("raw", "expected"), [
    ("works_at", "works_at"), ("Works At", "works_at"), ("lives-in", "lives_in"),
    ("  preferred  language ", "preferred_language"), ("ＷＯＲＫＳ_ＡＴ", "works_at"),
])
def test_predicates_normalise(raw: str, expected: str) -> None:
    assert normalise_predicate(raw) == expected
    assert relationship_type(expected) == expected.upper()


@pytest.mark.parametrize("raw", [
    "Entity`) WITH n MATCH (x) DETACH DELETE x //", "a]->(b) DELETE b", "1st", "_x", "",
    "x" * 65, "works.at", "wörks_at", "a\u0000b", "works_at`",
])
def test_hostile_predicates_are_refused(raw: str) -> None:
    with pytest.raises(InvalidInput):
        relationship_type(normalise_predicate(raw))


@pytest.mark.parametrize("reserved", ["next", "supersedes", "evidenced_by", "subject"])
def test_predicates_cannot_impersonate_graphmem_structure(reserved: str) -> None:
    with pytest.raises(InvalidInput):
        relationship_type(normalise_predicate(reserved))


@pytest.mark.parametrize("good", ["acme", "acme/user-42", "a.b_c/D-9", "x/" * 7 + "y"])
def test_namespaces_accept_the_safe_alphabet(good: str) -> None:
    assert parse_namespace(good) == good


@pytest.mark.parametrize("bad", ["", "/acme", "acme/", "acme//u", "ac me", "acme/*", "a'b",
                                 "x/" * 8 + "y", "é", "a" * 64,
                                 "/".join(["a" * 63] * 3) + "/" + "b" * 10])  # over 200 characters
def test_namespaces_refuse_everything_else(bad: str) -> None:
    with pytest.raises(InvalidInput):
        parse_namespace(bad)


def test_grants() -> None:
    ns = parse_namespace("acme/user-42")
    assert grant_matches("acme/*", ns) and grant_matches("*", ns)
    assert grant_matches("acme/user-42", ns)
    assert not grant_matches("acme/user-4", ns) and not grant_matches("acm/*", ns)
    assert not grant_matches("acme/user-42/*", ns)


def test_entity_keys_fold_case_width_and_space() -> None:
    assert entity_key("  Alice\tSmith ") == entity_key("ＡＬＩＣＥ smith") == "alice smith"


def test_every_structural_type_graphmem_writes_is_reserved() -> None:
    """`candidate`, `concerns`, `revises`… were accepted as predicates (issue 16.12)."""
    import re as regex

    from graphmem.core.identifiers import RESERVED
    from graphmem.db.statements import cypher_root

    used: set[str] = set()
    for path in cypher_root().rglob("*.cypher"):
        if path.parent.name == "browser":  # the guide's example facts (WORKS_AT) are data
            continue
        if path.name.startswith("graphiti_"):  # they read Graphiti's graph, not graphmem's
            continue
        code = "\n".join(line for line in path.read_text().splitlines()
                         if not line.lstrip().startswith("//"))
        for group in regex.findall(r"\[\w*:([A-Z_|]+)", code):
            used.update(group.split("|"))
    assert used and used <= RESERVED, sorted(used - RESERVED)
    for name in ("candidate", "concerns", "revises", "produced", "into", "retracted_in",
                 "for_session", "about"):
        with pytest.raises(InvalidInput):
            relationship_type(normalise_predicate(name))
