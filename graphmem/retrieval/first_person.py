"""Whom "I" stands for in a question: the user, under every name memory may hold them by.

An agent records the user's turns with the user's name as actor ("Sam") while facts may be
asserted about "Sam" or about the entity ``user`` (as the offline extractor writes them). So
a first-person question (I, me, my, mine, myself; we, us, our, ours) stands for:

- the ``speaker`` the caller names, when it names one (and only that name);
- else, in a session: the actors of the session's user turns, and ``user``;
- else: ``user``, and the actor of the namespace's user turns when exactly one actor speaks
  them (among its newest ``NAMESPACE_SCAN`` turns): a namespace is usually one end user,
  and two speakers leave "I" ambiguous, so neither is guessed.

Each name then links, as any name in a question does, to the entity called so or aliased so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes import sessions

USER = "user"
SESSION_SCAN = 200  # a session's newest user turns whose actors are read
NAMESPACE_SCAN = 1_000  # a namespace's newest turns, when no session is given
MAX_SPEAKERS = 5  # actors of one session's user turns taken for "I" (a group chat's)
WORDS = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})
_FIRST_PERSON = re.compile(r"\b(" + "|".join(sorted(WORDS)) + r")\b", re.IGNORECASE)


@dataclass(frozen=True)
class Speaker:
    names: tuple[str, ...]  # whom "I" stands for, before linking to entities
    why: str  # for the plan


def speaks_of_self(question: str) -> bool:
    return _FIRST_PERSON.search(question) is not None


async def resolve(db: Database, ns: Namespace, session_id: str | None,
                  speaker: str | None) -> Speaker:
    if speaker is not None:
        return Speaker((speaker,), f"'I' is {speaker!r}, as asked")
    if session_id is not None:
        actors = sorted(await sessions.user_actors(db, ns, session_id, SESSION_SCAN,
                                                   MAX_SPEAKERS))
        return Speaker((*actors, USER), "'I' is " + " or ".join(
            repr(name) for name in (*actors, USER)) + (
            f" (who speaks session {session_id!r})" if actors else ""))
    speakers = await sessions.user_actors(db, ns, None, NAMESPACE_SCAN, 2)
    if len(speakers) == 1:
        actor = speakers[0]
        return Speaker((actor, USER), f"'I' is {actor!r} (the one who speaks the user's "
                                      f"turns) or {USER!r}")
    return Speaker((USER,), f"'I' is {USER!r}")
