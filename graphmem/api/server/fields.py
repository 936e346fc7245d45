"""``resolver``: ``@strawberry.field(description=…)`` on a method, with the method's type kept;
``selects``: what a field's selection asks for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import strawberry
from strawberry.types import Info

F = TypeVar("F", bound=Callable[..., object])


def resolver(description: str) -> Callable[[F], F]:
    """Strawberry types its decorator form as ``Any``, yet once the class is processed it puts
    the method itself back on the class, so the method's own type is the true one."""
    return cast(Callable[[F], F], strawberry.field(description=description))


def selects(info: Info, names: set[str] | frozenset[str]) -> bool:
    """Whether the field being resolved asks, directly or through fragments, for any of these
    subfields: a loader leaves out what nobody asked for (an episode's content)."""
    def any_of(selections: list[Any]) -> bool:
        return any(getattr(s, "name", None) in names or any_of(getattr(s, "selections", []))
                   for s in selections)

    return any(any_of(field.selections) for field in info.selected_fields)
