"""``resolver``: ``@strawberry.field(description=…)`` on a method, with the method's type kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import strawberry

F = TypeVar("F", bound=Callable[..., object])


def resolver(description: str) -> Callable[[F], F]:
    """Strawberry types its decorator form as ``Any``, yet once the class is processed it puts
    the method itself back on the class, so the method's own type is the true one."""
    return cast(Callable[[F], F], strawberry.field(description=description))
