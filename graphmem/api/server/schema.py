"""A strawberry schema as graphmem serves it: root types merged from the topic modules' own,
the DateTime scalar, and the extensions every operation runs through (limits, caches, typed
errors, timing, the audit trail)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial

import dateutil.parser
import strawberry
from graphql.error import GraphQLError
from graphql.validation import ASTValidationRule
from strawberry.extensions import AddValidationRules, DisableIntrospection, MaxTokensLimiter
from strawberry.extensions.base_extension import SchemaExtension
from strawberry.extensions.max_aliases import create_validator as alias_rule
from strawberry.extensions.query_depth_limiter import create_validator as depth_rule
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.types.base_scalars import DateTimeDefinition, wrap_parser
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext
from strawberry.types.base import get_object_definition

from graphmem.api.server.extensions.audit import AuditTrail
from graphmem.api.server.extensions.cost import QueryCostLimit
from graphmem.api.server.extensions.errors import TypedErrors, code_of
from graphmem.api.server.extensions.parser_cache import TypedParserCache
from graphmem.api.server.extensions.sockets_only import SubscriptionsOnSockets
from graphmem.api.server.extensions.timing import OperationTiming
from graphmem.api.server.extensions.validation_cache import RefusalKeepingValidationCache
from graphmem.core.config import Settings
from graphmem.core.timeutil import check_range

log = logging.getLogger(__name__)
DOCUMENT_CACHE = 512  # distinct query texts kept parsed and validated (bounded: LRU)


def root(name: str, description: str, parts: Sequence[type], order: Sequence[str]) -> type:
    """One root type from the topic modules' own (strawberry's ``merge_types``), described,
    with the fields named in ``order`` first, in that order (the order the SDL has always
    printed them in); any other field follows them."""
    merged = merge_types(name, tuple(parts))
    definition = get_object_definition(merged, strict=True)
    rank = {field: place for place, field in enumerate(order)}
    definition.fields.sort(key=lambda f: rank.get(f.python_name, len(rank)))  # stable
    definition.description = description
    return merged


def _parse_datetime(value: str) -> datetime:
    """The standard library's C parser first: strawberry's default (dateutil's isoparse) was
    a tenth of a 500-episode `recordEpisodes` batch; dateutil still reads what it cannot."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        parsed = dateutil.parser.isoparse(value)
    return check_range(parsed)


DATETIME = replace(DateTimeDefinition, parse_value=wrap_parser(_parse_datetime, "DateTime"))


class _Schema(strawberry.Schema):
    def process_errors(self, errors: list[GraphQLError],
                       execution_context: ExecutionContext | None = None) -> None:
        """Log codes only: messages and variables may carry memory content."""
        for error in errors:
            log.info("graphql error %s at %s", code_of(error), error.path)


def build(query: type, mutation: type, subscription: type,
          settings: Settings) -> strawberry.Schema:
    # The limit rules are made once, so a document's validation (limits included) is cached:
    # agents send the same few documents every turn, and validating one costs milliseconds.
    limits: list[type[ASTValidationRule]] = [depth_rule(settings.max_query_depth, None),
                                             alias_rule(settings.max_aliases)]
    # Factories, so every request gets fresh extension instances (the caches are shared).
    extensions: list[Callable[[], SchemaExtension]] = [
        partial(MaxTokensLimiter, max_token_count=settings.max_query_tokens),
        partial(TypedParserCache, maxsize=DOCUMENT_CACHE),
        # Before the validators, which walk every fragment spread (and before their cache).
        partial(QueryCostLimit, max_cost=settings.max_query_cost, page=settings.max_page),
        partial(AddValidationRules, limits),
        partial(RefusalKeepingValidationCache, maxsize=DOCUMENT_CACHE),
        TypedErrors,
        SubscriptionsOnSockets,
        OperationTiming,
        AuditTrail,
    ]
    if not settings.introspection:
        extensions.append(DisableIntrospection)
    return _Schema(query=query, mutation=mutation, subscription=subscription,
                   extensions=extensions,
                   config=StrawberryConfig(scalar_map={datetime: DATETIME}))
