"""``resolver``: ``@strawberry.field(description=…)`` on a method, with the method's type kept;
``selects``: what a field's selection asks for; ``mirror``: an API object from a domain one."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import strawberry
from strawberry.types import Info

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")


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


def mirror(cls: type[T], source: object, **given: object) -> T:
    """An API type's object made from a domain object, as every ``.of`` makes one: each of
    ``cls``'s fields (its resolvers aside) from ``source``'s attribute of the same name,
    except those ``given``. A field neither has fails at once (AttributeError)."""
    taken = {name: getattr(source, name) for name in _data_fields(cast(type, cls))
             if name not in given}
    return cls(**taken, **given)


@functools.cache
def _data_fields(cls: type) -> tuple[str, ...]:
    """The fields an API type is made with: its own, not its resolvers' (a list of facts
    made per item: worked out once a type)."""
    return tuple(f.name for f in dataclasses.fields(cast(Any, cls)) if f.init)
