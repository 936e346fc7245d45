"""Slots: what a layer above ``db`` gives a ``Database`` to hold (a keyring, an archive store,
a background process), declared once with its type, so this layer holds it without knowing
it. A module of its own, so what needs only the declaration (the background process's own
imports) does not load the driver."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class Slot(Generic[T]):
    """A declared, typed place on a ``Database`` for what a layer above this one gives it
    (the keyring of encryption at rest, the archive store): this layer holds the value
    without knowing its type, and each ``Database`` (each app, CLI command or test that
    made one) holds its own, so nothing is shared through a module of the process."""

    name: str
