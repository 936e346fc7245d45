"""The one validator for identifiers that become graph structure (predicates → relationship types).

Even though graphmem passes relationship types as parameters (Cypher 5.26 dynamic types,
``[:$($type)]``), every predicate goes through here first, so that the stored type is always
``[A-Z][A-Z0-9_]{0,63}`` and hostile strings are a typed error, never Cypher.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NewType

from graphmem.core.errors import InvalidInput

RelType = NewType("RelType", str)

_PREDICATE = re.compile(r"[a-z][a-z0-9_]{0,63}")
_REL_TYPE = re.compile(r"[A-Z][A-Z0-9_]{0,63}")
_SEPARATORS = re.compile(r"[\s\-]+")
# Types graphmem uses for its own structure; a predicate may not impersonate them. A test
# reads every statement in cypher/ and fails when one uses a type missing here.
RESERVED = frozenset({
    "NEXT", "IN_SESSION", "EVIDENCED_BY", "CITES", "SUPERSEDES", "SUBJECT", "OBJECT",
    "SUMMARIZES", "ALIAS_OF", "MERGED_INTO", "HAS_ALIAS", "CANDIDATE", "CONCERNS", "REVISES",
    "PRODUCED", "INTO", "RETRACTED_IN", "FOR_SESSION", "ABOUT", "CARRIES", "SENT_TO",
    "EVIDENCED_BY_TURN", "SUMMARIZES_TURN", "RETRACTED_IN_TURN",  # federated memory's
})


@lru_cache(maxsize=4096)  # a batch names a few predicates hundreds of times
def normalise_predicate(raw: str) -> str:
    """``"Works at"`` → ``works_at``: NFKC, lower case, runs of spaces/hyphens to ``_``."""
    text = unicodedata.normalize("NFKC", raw).strip().lower()
    text = _SEPARATORS.sub("_", text)
    if not _PREDICATE.fullmatch(text):
        raise InvalidInput(
            f"invalid predicate {raw[:80]!r}: use a lower-case word like works_at "
            "(letters, digits, underscores; starting with a letter; at most 64 chars)",
            field="predicate",
        )
    return text


@lru_cache(maxsize=4096)
def relationship_type(predicate: str) -> RelType:
    """The Neo4j relationship type for a normalised predicate (``works_at`` → ``WORKS_AT``)."""
    rel = predicate.upper()
    if not _REL_TYPE.fullmatch(rel) or rel in RESERVED:
        raise InvalidInput(f"predicate {predicate!r} is reserved or invalid", field="predicate")
    return RelType(rel)


def actor_key(name: str) -> str:
    """How a speaker's name is matched in a search query: case and spacing do not count."""
    return " ".join(name.casefold().split())
