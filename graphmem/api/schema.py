"""The GraphQL schema: each topic module's own root fields (its ``Query``, ``Mutation``,
``Subscription``) merged into one schema, served with the server's extensions
(``server/schema.py``)."""

from __future__ import annotations

import strawberry

from graphmem.api import (
    audit,
    conflicts,
    entities,
    episodes,
    erasure,
    events,
    facts,
    jobs,
    pruning,
    retention,
    search,
    stats,
    summaries,
    sync,
    traversal,
    viewer,
)
from graphmem.api.server.schema import build, root
from graphmem.core.config import Settings

# The root fields in the order the SDL has always listed them (clients diff it); a field added
# to a topic module needs no place here: it follows these.
_QUERY_ORDER = (
    "episodes", "episode", "facts", "entity", "provenance", "traverse", "timeline",
    "verify_fact", "conflicts", "predicate_policies", "search", "recall", "audit_log",
    "memory_stats", "summary", "jobs", "job", "webhooks", "retention_policies",
    "pruning_policy", "pipelines", "sessions", "erasure_plan", "viewer")
_MUTATION_ORDER = (
    "record_episodes", "assert_facts", "retract_fact", "forget_fact", "pin_fact", "unpin_fact",
    "correct_fact", "resolve_conflict", "set_predicate_policy", "erase_episodes",
    "erase_subject", "destroy_namespace_key", "erase_namespace", "set_retention_policy",
    "remove_retention_policy", "sweep_retention", "forget_episode", "set_pruning_policy",
    "remove_pruning_policy", "prune_facts", "mark_session_ephemeral", "close_session",
    "rehydrate", "redact_episode", "add_alias", "merge_entities", "write_summary",
    "extract_facts", "summarize", "set_pipelines", "retry_job", "add_webhook",
    "remove_webhook")

Query = root("Query", "Read memory. Every field is scoped to one namespace.", (
    episodes.Query, facts.Query, entities.Query, traversal.Query, conflicts.Query,
    search.Query, audit.Query, stats.Query, summaries.Query, jobs.Query, events.Query,
    retention.Query, pruning.Query, erasure.Query, viewer.Query, sync.Query), _QUERY_ORDER)
Mutation = root("Mutation", "Write memory. Each mutation is one transaction: it writes all or "
                            "nothing.", (
    episodes.Mutation, facts.Mutation, entities.Mutation, conflicts.Mutation,
    summaries.Mutation, jobs.Mutation, events.Mutation, retention.Mutation, pruning.Mutation,
    erasure.Mutation, sync.Mutation), _MUTATION_ORDER)
Subscription = root("Subscription", "Be told what changes, as it is committed "
                                    "(graphql-transport-ws on /graphql; send the key as "
                                    "`Authorization` in `connection_init`).",
                    (events.Subscription,), ())


def build_schema(settings: Settings) -> strawberry.Schema:
    return build(Query, Mutation, Subscription, settings)


def sdl() -> str:
    """The SDL as exported to ``schema/graphmem.graphql`` (independent of runtime settings)."""
    return build_schema(Settings.model_construct()).as_str() + "\n"
