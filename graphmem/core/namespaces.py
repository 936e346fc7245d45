"""Namespaces: the unit of isolation and of erasure (usually one per end user, `acme/user-42`).

Domain functions take a ``Namespace``, never a bare ``str``: the only way to make one is
``parse_namespace``, so every query is scoped by a validated name.
"""

from __future__ import annotations

import hashlib
import re
from typing import NewType

from graphmem.core.errors import InvalidInput

Namespace = NewType("Namespace", str)

MAX_LENGTH = 200
_SEGMENT = r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62})"
_NAMESPACE = re.compile(rf"{_SEGMENT}(?:/{_SEGMENT}){{0,7}}")


def parse_namespace(raw: str) -> Namespace:
    """Accept ``segment(/segment)*``: letters, digits, ``. _ -``, at most 8 segments."""
    if len(raw) > MAX_LENGTH or not _NAMESPACE.fullmatch(raw):
        raise InvalidInput(
            "namespace must be 1-8 segments separated by '/', each starting with a letter or "
            f"digit and using only letters, digits, '.', '_' or '-' (at most {MAX_LENGTH} chars)",
            field="namespace",
        )
    return Namespace(raw)


def grant_matches(grant: str, namespace: Namespace) -> bool:
    """A grant is an exact namespace or a prefix ending in ``/*`` (``acme/*``), or ``*``."""
    if grant == "*":
        return True
    if grant.endswith("/*"):
        return namespace.startswith(grant[:-1])
    return grant == namespace


def lucene_key(namespace: str) -> str:
    """The namespace as one opaque token for the fulltext indexes (their ``ns_key`` field).

    Lucene's analyzers split and lowercase a namespace ("acme/bob" is the terms acme, bob),
    so a phrase on it also matched "evil/acme/bob" and "ACME/Bob". A hex digest is one
    term under every analyzer; the trailing ``x`` keeps the English stemmer off its end."""
    return f"ns{hashlib.sha256(namespace.encode()).hexdigest()[:40]}x"
