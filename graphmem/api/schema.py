"""The GraphQL schema: root fields wired to the per-concept resolver modules."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from functools import partial

import dateutil.parser
import strawberry
from graphql.error import GraphQLError
from graphql.validation import ASTValidationRule
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaxTokensLimiter,
    ParserCache,
    ValidationCache,
)
from strawberry.extensions.base_extension import SchemaExtension
from strawberry.extensions.max_aliases import create_validator as alias_rule
from strawberry.extensions.query_depth_limiter import create_validator as depth_rule
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.types.base_scalars import DateTimeDefinition, wrap_parser
from strawberry.types import ExecutionContext

from graphmem.api import audit as audit_api
from graphmem.api import conflicts as conflict_api
from graphmem.api import entities as entity_api
from graphmem.api import episodes as episode_api
from graphmem.api import erasure as erasure_api
from graphmem.api import events as event_api
from graphmem.api import facts as fact_api
from graphmem.api import jobs as job_api
from graphmem.api import pruning as pruning_api
from graphmem.api import retention as retention_api
from graphmem.api import search as search_api
from graphmem.api import stats as stats_api
from graphmem.api import summaries as summary_api
from graphmem.api import traversal as traversal_api
from graphmem.api import viewer as viewer_api
from graphmem.api.cost import QueryCostLimit
from graphmem.api.errors import TypedErrors, code_of
from graphmem.api.pagination import Connection
from graphmem.api.timing import OperationTiming
from graphmem.core.config import Settings
from graphmem.core.timeutil import check_range

log = logging.getLogger(__name__)
DOCUMENT_CACHE = 512  # distinct query texts kept parsed and validated (bounded: LRU)


@strawberry.type(description="Read memory. Every field is scoped to one namespace.")
class Query:
    episodes: Connection[episode_api.Episode] = strawberry.field(
        resolver=episode_api.list_episodes,
        description="The episodic log in time order, filtered, with keyset pagination.")
    episode: episode_api.Episode | None = strawberry.field(
        resolver=episode_api.episode, description="One episode by id.")
    facts: Connection[fact_api.Fact] = strawberry.field(
        resolver=fact_api.list_facts,
        description="Facts, currently valid and not retracted unless asked otherwise.")
    entity: entity_api.Entity | None = strawberry.field(
        resolver=entity_api.entity, description="One entity by name or alias, with its facts.")
    provenance: fact_api.Provenance = strawberry.field(
        resolver=fact_api.fact_provenance,
        description="Why memory believes a fact: evidence, citing summaries, supersession.")
    traverse: traversal_api.Traversal = strawberry.field(
        resolver=traversal_api.traverse,
        description="Walk fact edges breadth-first from an entity (at most 4 hops).")
    timeline: Connection[traversal_api.TimelineEntry] = strawberry.field(
        resolver=traversal_api.timeline,
        description="The facts about an entity in world-time order: its story.")
    verify_fact: fact_api.Verification = strawberry.field(
        resolver=fact_api.verify_fact,
        description="Check a fact against its evidence episodes: do they still exist, and do "
                    "they mention what it says?")
    conflicts: Connection[conflict_api.Conflict] = strawberry.field(
        resolver=conflict_api.list_conflicts,
        description="Disputes between facts, newest first, with their candidates.")
    predicate_policies: list[conflict_api.PredicatePolicy] = strawberry.field(
        resolver=conflict_api.predicate_policies,
        description="How each known predicate resolves competing values: defaults merged "
                    "with this namespace's overrides. Unlisted predicates are `many`.")
    search: search_api.SearchResult = strawberry.field(
        resolver=search_api.search,
        description="Hybrid search over episodes, facts, summaries and entities: BM25 per "
                    "kind, graph expansion, reciprocal rank fusion; each hit says why.")
    recall: search_api.RecallResult = strawberry.field(
        resolver=search_api.recall,
        description="The layered read for an agent's turn: session summary, current facts "
                    "about the entities named, episodes when time or detail is asked; within "
                    "a token budget, with a plan saying which layers ran and why.")
    audit_log: Connection[audit_api.AuditEvent] = strawberry.field(
        resolver=audit_api.audit_log,
        description="Memory-changing operations in a namespace, newest first (admin keys).")
    memory_stats: stats_api.MemoryStats = strawberry.field(
        resolver=stats_api.memory_stats,
        description="Counts by kind, stale summaries, open conflicts, pending embeddings, "
                    "pipeline jobs waiting or failed.")
    summary: summary_api.Summary | None = strawberry.field(
        resolver=summary_api.session_summary, description="The freshest summary of a session.")
    jobs: Connection[job_api.Job] = strawberry.field(
        resolver=job_api.list_jobs,
        description="Pipeline jobs (extraction, summaries), newest first.")
    job: job_api.Job | None = strawberry.field(resolver=job_api.job,
                                               description="One pipeline job by id.")
    webhooks: list[event_api.Webhook] = strawberry.field(
        resolver=event_api.list_webhooks,
        description="Where this namespace's events are POSTed, with each delivery log (admin).")
    retention_policies: list[retention_api.RetentionPolicy] = strawberry.field(
        resolver=retention_api.retention_policies,
        description="How long this namespace keeps episodes, by kind and sensitivity.")
    pruning_policy: pruning_api.PruningPolicy | None = strawberry.field(
        resolver=pruning_api.pruning_policy,
        description="Which facts this namespace lets go of (null: none is set).")
    pipelines: job_api.PipelineSwitches = strawberry.field(
        resolver=job_api.pipelines,
        description="Whether new episodes are extracted and sessions summarised.")
    sessions: Connection[episode_api.Session] = strawberry.field(
        resolver=episode_api.list_sessions,
        description="A namespace's conversations, the most recently active first.")
    erasure_plan: erasure_api.SubjectErasurePlan = strawberry.field(
        resolver=erasure_api.erasure_plan,
        description="What `eraseSubject` with the same arguments would remove — facts, "
                    "turns (erased or redacted) and summaries — without writing anything: "
                    "a dry run to show before asking to confirm.")
    viewer: viewer_api.Viewer = strawberry.field(
        resolver=viewer_api.viewer,
        description="The API key in use: its name, grants and the namespaces it may read.")


@strawberry.type(description="Write memory. Each mutation is one transaction: it writes all or "
                             "nothing.")
class Mutation:
    record_episodes: episode_api.RecordEpisodesResult = strawberry.field(
        resolver=episode_api.record_episodes,
        description="Append a batch of episodes; idempotent by `externalId`.")
    assert_facts: list[fact_api.AssertedFact] = strawberry.field(
        resolver=fact_api.assert_facts,
        description="Assert a batch of facts with evidence; a repeat adds evidence, no duplicate.")
    retract_fact: fact_api.Fact = strawberry.field(
        resolver=fact_api.retract_fact,
        description="Withdraw a believed fact, with a reason; it stays as history and an "
                    "observation episode records the change.")
    forget_fact: fact_api.Fact = strawberry.field(
        resolver=fact_api.forget_fact,
        description="A user's \"forget this\": the fact is retracted with the reason and "
                    "unpinned, and extraction, inference, imports and agents may not assert it "
                    "again (outcome FORGOTTEN); only the user's own statement brings it back.")
    pin_fact: fact_api.Fact = strawberry.field(
        resolver=fact_api.pin_fact,
        description="Always remember a believed fact: pruning, retention and erasure of its "
                    "evidence leave it believed; recall marks it pinned and offers it first.")
    unpin_fact: fact_api.Fact = strawberry.field(
        resolver=fact_api.unpin_fact, description="Undo `pinFact`.")
    correct_fact: fact_api.AssertedFact = strawberry.field(
        resolver=fact_api.correct_fact,
        description="Replace a believed fact's object (source user_correction, same "
                    "validity); the old fact is superseded, an observation episode is its "
                    "evidence.")
    resolve_conflict: conflict_api.Conflict = strawberry.field(
        resolver=conflict_api.resolve_conflict,
        description="Settle a dispute by keeping one candidate; the others are superseded.")
    set_predicate_policy: conflict_api.PredicatePolicy = strawberry.field(
        resolver=conflict_api.set_predicate_policy,
        description="Override how a predicate resolves competing values in this namespace "
                    "(applies to later writes).")
    erase_episodes: erasure_api.ErasureReceipt = strawberry.field(
        resolver=erasure_api.erase_episodes,
        description="Erase episodes: covering summaries turn stale, facts left without "
                    "evidence are retracted, sessions are relinked; the receipt verifies.")
    erase_subject: erasure_api.ErasureReceipt = strawberry.field(
        resolver=erasure_api.erase_subject,
        description="Erase an entity: every fact about it, its aliases, orphaned entities and "
                    "values, optionally the episodes evidencing it, and the turns that "
                    "mention it as `mentions` says (kept, each mention redacted, or erased); "
                    "summaries covering any of it are withdrawn; the receipt verifies. "
                    "`erasurePlan` shows what it would take.")
    destroy_namespace_key: bool = strawberry.field(
        resolver=erasure_api.destroy_namespace_key,
        description="Erase a namespace cryptographically (admin; encryption with a key per "
                    "namespace): its key is destroyed, so its sealed episode content, sealed "
                    "exports and archived objects can never be read again, while other "
                    "namespaces work on. Facts, summaries and entity names are not encrypted: "
                    "`eraseNamespace` removes those. False: it had no key.")
    erase_namespace: erasure_api.ErasureReceipt = strawberry.field(
        resolver=erasure_api.erase_namespace,
        description="Erase everything a namespace holds, in bounded batches; the receipt "
                    "proves nothing remains (graph and fulltext indexes re-queried).")
    set_retention_policy: retention_api.RetentionPolicy = strawberry.field(
        resolver=retention_api.set_retention_policy,
        description="Keep episodes of a kind and sensitivity for at most so many days, then "
                    "delete or redact them (the worker sweeps; `sweepRetention` now).")
    remove_retention_policy: bool = strawberry.field(
        resolver=retention_api.remove_retention_policy,
        description="Remove the policy for a (kind, sensitivity) pair.")
    sweep_retention: list[retention_api.RetentionApplied] = strawberry.field(
        resolver=retention_api.sweep_retention,
        description="Apply this namespace's retention policies now (or count, `dryRun`).")
    forget_episode: erasure_api.ForgottenEpisode = strawberry.field(
        resolver=erasure_api.forget_episode,
        description="A user's \"forget this\" for something they said: the facts taken only "
                    "from it are forgotten (see `forgetFact`; pinned ones stay), and the "
                    "episode is redacted, or erased with a receipt (`erase`).")
    set_pruning_policy: pruning_api.PruningPolicy = strawberry.field(
        resolver=pruning_api.set_pruning_policy,
        description="Let go of facts nobody needs: believed, unpinned facts below a "
                    "confidence that no answer returned for so many days are retracted "
                    "(reason: pruned) by the worker's sweeps, or now with `pruneFacts`.")
    remove_pruning_policy: bool = strawberry.field(
        resolver=pruning_api.remove_pruning_policy,
        description="Remove the namespace's pruning policy.")
    prune_facts: pruning_api.PruneReport = strawberry.field(
        resolver=pruning_api.prune_facts,
        description="Apply the pruning policy now (or list what it would retract, `dryRun`).")
    mark_session_ephemeral: erasure_api.EphemeralSession = strawberry.field(
        resolver=erasure_api.mark_session_ephemeral,
        description="Memory for one conversation only: the session's episodes, the facts "
                    "taken only from them and its summaries are erased, with a receipt, when "
                    "it is closed (`closeSession`) or idle past `idleMinutes`.")
    close_session: erasure_api.ErasureReceipt = strawberry.field(
        resolver=erasure_api.close_session,
        description="The conversation is over: erase an ephemeral session now.")
    rehydrate: list[episode_api.Episode] = strawberry.field(
        resolver=episode_api.rehydrate,
        description="Bring archived episodes' content back from the archive store (checked "
                    "against its address and the episode's content hash), in the order "
                    "asked; episodes not archived come back as they are.")
    redact_episode: episode_api.Episode = strawberry.field(
        resolver=episode_api.redact_episode,
        description="Replace an episode's content with `[redacted]`, keeping its place, time "
                    "and provenance links; covering summaries turn stale (and are rebuilt).")
    add_alias: entity_api.Entity = strawberry.field(
        resolver=entity_api.add_alias, description="Make another name resolve to an entity.")
    merge_entities: entity_api.MergeResult = strawberry.field(
        resolver=entity_api.merge_entities,
        description="Fold one entity into another: facts, provenance and aliases move; the "
                    "merge is recorded.")
    write_summary: summary_api.Summary = strawberry.field(
        resolver=summary_api.write_summary,
        description="Store a summary linked to what it covers and cites.")
    extract_facts: job_api.Job = strawberry.field(
        resolver=job_api.extract_facts,
        description="Extract facts from episodes (LLM if configured, else offline patterns), "
                    "through conflict resolution; queued, or run now with `wait`.")
    summarize: job_api.Job = strawberry.field(
        resolver=job_api.summarize,
        description="Summarise a session (folding new episodes into its summary) or, without "
                    "a session, the namespace's session summaries; queued, or now with `wait`.")
    set_pipelines: job_api.PipelineSwitches = strawberry.field(
        resolver=job_api.set_pipelines,
        description="Switch extraction and summarisation on or off for new episodes.")
    retry_job: job_api.Job = strawberry.field(
        resolver=job_api.retry_job,
        description="Queue a failed job again, now, with fresh attempts.")
    add_webhook: event_api.AddedWebhook = strawberry.field(
        resolver=event_api.add_webhook,
        description="POST this namespace's events (of some kinds) to a URL, signed (admin).")
    remove_webhook: bool = strawberry.field(
        resolver=event_api.remove_webhook,
        description="Stop a webhook; its delivery log goes with it (admin).")


@strawberry.type(description="Be told what changes, as it is committed (graphql-transport-ws on "
                             "/graphql; send the key as `Authorization` in `connection_init`).")
class Subscription:
    memory_events = strawberry.subscription(
        resolver=event_api.memory_events,
        description="A namespace's changes from now on, each once, in the order they happened.")
    memory_event_batches = strawberry.subscription(
        resolver=event_api.memory_event_batches,
        description="The same changes, in batches of what arrived together (one message for "
                    "a large transaction's changes): for listeners that follow busy "
                    "namespaces.")


class _ParserCache(ParserCache):
    """strawberry's parser cache parses as its hook begins, outside the handling that makes a
    syntax error the request's error: a subscribe message with a syntax error (or over the
    token limit) ended in a bare `complete` on a WebSocket. A document that does not parse is
    left to strawberry's own parse, which reports it."""

    def on_parse(self) -> Iterator[None]:
        with contextlib.suppress(GraphQLError):
            self.execution_context.graphql_document = self.cached_parse_document(
                self.execution_context.query, **self.execution_context.parse_options)
        yield


class _ValidationCache(ValidationCache):
    """strawberry's cache validates every document it has not seen, overwriting errors found
    before it: a document the cost limit refused must not be walked by the validators."""

    def on_validate(self) -> Iterator[None]:
        if self.execution_context.pre_execution_errors:
            yield
            return
        yield from super().on_validate()


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


def build_schema(settings: Settings) -> strawberry.Schema:
    # The limit rules are made once, so a document's validation (limits included) is cached:
    # agents send the same few documents every turn, and validating one costs milliseconds.
    limits: list[type[ASTValidationRule]] = [depth_rule(settings.max_query_depth, None),
                                             alias_rule(settings.max_aliases)]
    # Factories, so every request gets fresh extension instances (the caches are shared).
    extensions: list[Callable[[], SchemaExtension]] = [
        partial(MaxTokensLimiter, max_token_count=settings.max_query_tokens),
        partial(_ParserCache, maxsize=DOCUMENT_CACHE),
        # Before the validators, which walk every fragment spread (and before their cache).
        partial(QueryCostLimit, max_cost=settings.max_query_cost, page=settings.max_page),
        partial(AddValidationRules, limits),
        partial(_ValidationCache, maxsize=DOCUMENT_CACHE),
        TypedErrors,
        event_api.SubscriptionsOnSockets,
        OperationTiming,
        audit_api.AuditTrail,
    ]
    if not settings.introspection:
        extensions.append(DisableIntrospection)
    return _Schema(query=Query, mutation=Mutation, subscription=Subscription,
                   extensions=extensions,
                   config=StrawberryConfig(scalar_map={datetime: DATETIME}))


def sdl() -> str:
    """The SDL as exported to ``schema/graphmem.graphql`` (independent of runtime settings)."""
    return build_schema(Settings.model_construct()).as_str() + "\n"


