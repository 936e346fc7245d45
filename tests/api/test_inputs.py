"""Batch inputs built in one pass equal what strawberry's own conversion builds, for every
field set, defaulted or null."""

from __future__ import annotations

from typing import Any

import pytest
from graphql import GraphQLInputType, coerce_input_value
from strawberry.types.arguments import convert_argument

from graphmem.api.episodes import EpisodeInput
from graphmem.api.facts import FactInput
from graphmem.api.schema import build_schema
from graphmem.core.config import Settings

SCHEMA = build_schema(Settings.model_construct())
AT = "2026-05-01T09:30:00+02:00"


def both_ways(cls: type, sent: dict[str, Any]) -> tuple[Any, Any]:
    """The input as a client sends it (JSON), coerced by graphql-core as in a request, then
    built by ``batch_input`` and by strawberry's own conversion."""
    graphql_type: GraphQLInputType = SCHEMA._schema.type_map[cls.__name__]  # type: ignore[assignment]
    value = coerce_input_value(sent, graphql_type)
    config, registry = SCHEMA.config, SCHEMA.schema_converter.scalar_registry
    fast = convert_argument(value, cls, registry, config)
    definition = cls.__strawberry_definition__  # type: ignore[attr-defined]
    hook, definition.from_input = definition.from_input, None
    try:
        own = convert_argument(value, cls, registry, config)
    finally:
        definition.from_input = hook
    return fast, own


@pytest.mark.parametrize("value", [
    {"content": "hi", "kind": "USER_MESSAGE", "occurredAt": AT},
    {"content": "hi", "kind": "TOOL_CALL", "occurredAt": AT, "externalId": "m1",
     "sessionId": "s", "actor": "a", "metadata": {"k": [1, {"x": None}]}, "importance": 0.5,
     "sensitivity": "SENSITIVE"},
    {"content": "hi", "kind": "OBSERVATION", "occurredAt": AT, "externalId": None,
     "metadata": None, "importance": None},
])
def test_episode_inputs_are_built_as_strawberry_builds_them(value: dict[str, Any]) -> None:
    fast, own = both_ways(EpisodeInput, value)
    assert fast == own and fast.to_domain() == own.to_domain()


@pytest.mark.parametrize("value", [
    {"subject": "Dana", "predicate": "works_at", "object": "Acme", "evidence": ["m1", "m2"]},
    {"subject": "Dana", "predicate": "born_on", "value": {"date": "1990-01-02"},
     "confidence": 0.4, "source": "EXTRACTION", "validFrom": AT, "validTo": None,
     "subjectType": "person", "evidence": []},
    {"subject": "Dana", "predicate": "height", "value": {"number": 1.8, "string": None}},
])
def test_fact_inputs_are_built_as_strawberry_builds_them(value: dict[str, Any]) -> None:
    fast, own = both_ways(FactInput, value)
    assert fast == own and fast.to_domain() == own.to_domain()


def test_a_given_list_is_copied() -> None:
    evidence = ["m1"]
    fast, _ = both_ways(FactInput, {"subject": "a", "predicate": "p", "object": "b",
                                    "evidence": evidence})
    assert fast.evidence == evidence and fast.evidence is not evidence
