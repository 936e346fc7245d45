"""Input objects built in one pass, for the batch writes (`recordEpisodes`, `assertFacts`).

Strawberry converts an input object field by field and works out each field's GraphQL name
and type again for every object: about 150 µs an object here, so a 500-episode batch spent
as long in it as Neo4j spent writing. ``batch_input`` works the fields out once per type and
builds objects through strawberry's own ``from_input`` hook: scalars and enums are taken as
graphql-core already coerced them; lists and nested inputs still go through strawberry.
``tests/api/test_inputs.py`` checks both ways build equal objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING
from typing import Any, TypeVar

from strawberry.types.arguments import InputContext
from strawberry.types.base import (
    StrawberryList,
    StrawberryMaybe,
    StrawberryOptional,
    get_object_definition,
    has_object_definition,
)
from strawberry.types.lazy_type import LazyType

T = TypeVar("T")
# (GraphQL name, Python name, type, whether the value needs strawberry's conversion)
_Plan = list[tuple[str, str, Any, bool]]


def batch_input(cls: type[T]) -> type[T]:
    """Decorate a ``@strawberry.input`` class (above that decorator) to be built in one
    pass."""
    definition = get_object_definition(cls, strict=True)
    plan: _Plan = []
    # Strawberry's implicit None for fields without a default (graphql-core has checked that
    # the required ones are present).
    nulls: dict[str, object] = {f.python_name: None for f in definition.fields
                                if f.default_value is MISSING and f.default_factory is MISSING}

    def build(type_: type, value: Mapping[str, Any], context: InputContext) -> Any:
        if not plan:  # worked out whole, then kept: a failure half-way keeps nothing
            fields = [(context.config.name_converter.from_field(f), f.python_name,
                       resolved := f.resolve_type(type_definition=definition),
                       _needs_conversion(resolved)) for f in definition.fields]
            plan.extend(fields)
        kwargs = dict(nulls)
        for graphql_name, python_name, field_type, convert in plan:
            if graphql_name in value:
                given = value[graphql_name]
                kwargs[python_name] = (context.convert(given, field_type, graphql_name)
                                       if convert and given is not None else given)
        return type_(**kwargs)

    definition.from_input = build
    return cls


def _needs_conversion(field_type: Any) -> bool:
    """Lists (copied, and their items converted), nested inputs and ``Maybe`` (wrapped in
    ``Some``); not scalars or enums."""
    while isinstance(field_type, StrawberryOptional):
        if isinstance(field_type, StrawberryMaybe):
            return True
        field_type = field_type.of_type
    return (isinstance(field_type, StrawberryList | LazyType)
            or has_object_definition(field_type))
