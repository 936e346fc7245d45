"""The GraphQL schema: root fields wired to the per-concept resolver modules."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import strawberry
from graphql.error import GraphQLError
from strawberry.extensions import (
    DisableIntrospection,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
)
from strawberry.extensions.base_extension import SchemaExtension
from strawberry.types import ExecutionContext

from graphmem.api import episodes as episode_api
from graphmem.api.errors import TypedErrors
from graphmem.config import Settings

log = logging.getLogger(__name__)


@strawberry.type(description="Read memory. Every field is scoped to one namespace.")
class Query:
    episodes: episode_api.Connection[episode_api.Episode] = strawberry.field(
        resolver=episode_api.list_episodes,
        description="The episodic log in time order, filtered, with keyset pagination.")
    episode: episode_api.Episode | None = strawberry.field(
        resolver=episode_api.episode, description="One episode by id.")


@strawberry.type(description="Write memory. Each mutation is one transaction: it writes all or "
                             "nothing.")
class Mutation:
    record_episodes: episode_api.RecordEpisodesResult = strawberry.field(
        resolver=episode_api.record_episodes,
        description="Append a batch of episodes; idempotent by `externalId`.")


class _Schema(strawberry.Schema):
    def process_errors(self, errors: list[GraphQLError],
                       execution_context: ExecutionContext | None = None) -> None:
        """Log codes only: messages and variables may carry memory content."""
        for error in errors:
            code = (error.extensions or {}).get("code", "UNKNOWN")
            log.info("graphql error %s at %s", code, error.path)


def build_schema(settings: Settings) -> strawberry.Schema:
    # Factories, so every request gets fresh extension instances.
    extensions: list[Callable[[], SchemaExtension]] = [
        partial(QueryDepthLimiter, max_depth=settings.max_query_depth),
        partial(MaxTokensLimiter, max_token_count=settings.max_query_tokens),
        partial(MaxAliasesLimiter, max_alias_count=settings.max_aliases),
        TypedErrors,
    ]
    if not settings.introspection:
        extensions.append(DisableIntrospection)
    return _Schema(query=Query, mutation=Mutation, extensions=extensions)  # type: ignore[arg-type]


def sdl() -> str:
    """The SDL as exported to ``schema/graphmem.graphql`` (independent of runtime settings)."""
    return build_schema(Settings.model_construct()).as_str() + "\n"


