"""One typed settings object, read from the environment (``GRAPHMEM_*``), then an optional
env file, then defaults. Secrets are ``SecretStr`` so they never show in ``repr`` or logs."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from graphmem.core.errors import ConfigError


class SearchWeights(BaseModel):
    """How search weighs its evidence (``GRAPHMEM_SEARCH_WEIGHTS`` as JSON, e.g.
    ``{"vector": 0.3}``; keys left out keep these defaults). Chosen on real conversations by
    leave-one-conversation-out: ``bin/bench retrieval --locomo ../shared/data/locomo-dev``
    prints, per left-out conversation, the weights fitted on the others and their figures.

    Each retriever's list is normalised to 0..1 (BM25 by its best score; vectors between the
    list's farthest and nearest) before weighing, so no list wins by its scale alone; when
    turns are searched too, the other kinds' lists by the turns' scale."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bm25: float = Field(1.0, ge=0, description="The keyword list (Lucene BM25).")
    vector: float = Field(0.3, ge=0, description=(
        "The embedding list (fitted with the local sentence transformer; WordLlama, a static "
        "model, is worth about 0.1)."))
    own_words: float = Field(0.5, ge=0, description=(
        "Lucene boost of a turn's own words beside its window (previous, own, next turn)."))
    speaker: float = Field(4.0, ge=0, description=(
        "Lucene boost of turns spoken by an actor the query names."))
    session: float = Field(0.4, ge=0, description=(
        "A session's score (its best three candidate turns), added to each of its turns."))
    time: float = Field(0.5, ge=0, description=(
        "The soft prior of a time read from the query on when a turn was said: full inside "
        "it, decaying outside."))
    event: float = Field(0.0, ge=0, description=(
        "The same prior on the time a turn's words tell of (\"last week\" said on 8 May)."))
    earliest: float = Field(0.0, ge=0, description=(
        "For a query asking for a first mention (\"when did she first …\"): of the best ten "
        "turns, the one said first gains this much, the last said nothing."))
    per_session: int = Field(0, ge=0, description=(
        "At most this many turns of one session rank before every other session's turns "
        "(0: no cap): evidence spread over sessions is not crowded out."))
    named: float = Field(0.0, ge=0, description=(
        "Turns linked to an entity the query names (the evidence of its current facts), "
        "each by its similarity to the query among them: they join the candidates."))
    fact_keys: float = Field(0.0, ge=0, description=(
        "A fact matching the query (its sentence, by BM25 or vector) lends its score to the "
        "turns it was learned from, in episode searches too: facts as extra keys."))
    graph: float = Field(0.5, ge=0, description=(
        "What a fact, summary or entity hit passes on to the episodes or facts it brings."))
    fact: float = Field(0.9, ge=0, description="Fact hits against episode hits.")
    summary: float = Field(0.3, ge=0, description=(
        "Summary hits against episode hits (a summary mostly points into its episodes)."))
    entity: float = Field(0.6, ge=0, description="Entity hits against episode hits.")


DEFAULT_SEARCH_WEIGHTS = SearchWeights()


class Settings(BaseSettings):
    """Every knob graphmem has. Unset ``neo4j_uri`` means "run the local Neo4j under ``home``"."""

    model_config = SettingsConfigDict(
        env_prefix="GRAPHMEM_",
        env_file=None,  # graphmem.env under the home: see get_settings
        env_file_encoding="utf-8",
        extra="ignore",
    )

    home: Path = Field(Path(".graphmem"), description="Project-local state: Neo4j home, keys.")

    # Neo4j: an external server by URI, or the local one when the URI is unset.
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"
    neo4j_connect_timeout_s: float = Field(60.0, gt=0)
    # How long one write keeps retrying through transient errors (lock contention between
    # writers to one entity, a leader change, a restart) before the client gets a retryable
    # DATABASE_UNAVAILABLE. Contended writes need the time: 20 clients writing one entity at
    # once all succeed at 30 s (the driver's default), not all at 10 s on a loaded machine.
    # Plus neo4j_timeout_s, it bounds how long any request waits for Neo4j (db/database.py).
    neo4j_max_retry_s: float = Field(30.0, ge=0)
    # No request may hold the database: Neo4j ends a transaction that runs longer (the driver
    # sends the bound with every statement and transaction) and the client gets QUERY_TIMEOUT.
    neo4j_timeout_s: float = Field(15.0, gt=0, description=(
        "How long one statement or transaction of a request may run in Neo4j before it is "
        "ended with QUERY_TIMEOUT (not retryable)."))
    neo4j_admin_timeout_s: float = Field(600.0, gt=0, description=(
        "The same bound for long administrative work: migrations, namespace erasure batches, "
        "exports; also the local Neo4j's db.transaction.timeout, which bounds sessions "
        "graphmem does not open (Neo4j Browser)."))

    # The local Neo4j server (ignored when neo4j_uri is set).
    local_bolt_port: int = Field(7687, ge=1, le=65535)
    local_http_port: int = Field(7474, ge=1, le=65535)
    local_heap: str = "512m"
    local_pagecache: str = "256m"
    # Neo4j's dbms.cypher.min_replan_interval: how soon a query is planned again once the
    # store's statistics have moved (Neo4j's default: 10 s). The test suite sets an hour: its
    # store empties and fills all the time, and planning again was most of Neo4j's CPU there.
    local_min_replan_s: float = Field(10.0, ge=0)
    # More options for the local Neo4j's JVM, after the launcher's own (shell words, as
    # neo4j.conf's server.jvm.additional): its just-in-time compiler, its collector.
    local_jvm_options: Annotated[tuple[str, ...], NoDecode] = ()

    # The HTTP service.
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    graphiql: bool = True
    introspection: bool = True
    auth_required: bool = True
    auth_cache_s: float = Field(10.0, ge=0)  # a revoked key stops working within this
    # How often the process looks for new events for its `memoryEvents` subscriptions, and how
    # many may run at once in a process, for one API key and on one WebSocket.
    event_poll_s: float = Field(0.5, gt=0, le=60)
    max_subscriptions: int = Field(500, ge=1)
    max_subscriptions_per_key: int = Field(50, ge=1)
    max_subscriptions_per_socket: int = Field(10, ge=1, le=100)
    # WebSockets: how many one API key may hold open in a process, and how long one may sit
    # with nothing running and nothing said before it is closed.
    max_sockets_per_key: int = Field(32, ge=1)
    socket_idle_s: float = Field(300.0, gt=0)
    # Webhooks: each delivery is tried this many times, the first retry after
    # ``webhook_backoff_s`` (doubling, capped like jobs'), each attempt within
    # ``webhook_timeout_s`` as a whole (under the dispatcher's 60 s lease); addresses that are
    # not public are refused unless allowed (a webhook must not make the service call into its
    # own network).
    webhook_max_attempts: int = Field(8, ge=1, le=50)
    webhook_backoff_s: float = Field(5.0, gt=0)
    webhook_timeout_s: float = Field(10.0, gt=0, le=50)
    webhook_poll_s: float = Field(1.0, gt=0, le=60)
    webhook_allow_private: bool = False
    max_body_bytes: int = Field(8 * 1024 * 1024, gt=0)
    max_query_depth: int = Field(12, gt=0)
    max_query_tokens: int = Field(5000, gt=0)
    max_aliases: int = Field(30, gt=0)
    # Estimated values an answer could hold (fields times page sizes, see
    # api/server/extensions/cost.py), and the size of the answer itself: above either,
    # QUERY_TOO_COSTLY.
    # 150,000 admits three nested lists under a page of 50 (about 116,000) and refuses the
    # five nested lists under one item that took 6 s and 13 MB on a small graph.
    max_query_cost: int = Field(150_000, gt=0)
    max_response_bytes: int = Field(32 * 1024 * 1024, gt=0)
    max_batch: int = Field(1000, gt=0)
    max_episode_chars: int = Field(200_000, gt=0)  # an episode's content; split larger documents
    max_page: int = Field(200, gt=0)
    rate_limit_per_minute: int = Field(1200, ge=0)  # per API key; 0 disables
    # How many `graphmem serve` processes share the keys of one database: each enforces its
    # share of the per-key limit (the limiter is per process, and a balancer spreads a key).
    processes: int = Field(1, ge=1)

    @property
    def rate_limit_per_process(self) -> int:
        """This process's share of the per-key limit (0: no limit)."""
        if self.rate_limit_per_minute == 0:
            return 0
        return max(1, self.rate_limit_per_minute // self.processes)

    # Federated memory (`graphmem sync`, on a device): the shared service's URL, a key
    # granted only the namespace, this device's name, and what leaves the device.
    sync_url: str | None = None
    sync_key: SecretStr | None = None
    sync_device: str | None = None
    sync_content: Literal["facts", "facts_and_summaries", "nothing"] = "facts_and_summaries"
    # ... and `graphmem serve` on a device syncing ``sync_namespaces`` (comma-separated)
    # every ``sync_interval_s`` in its background (0: never, the default), in pages of
    # ``sync_page`` nodes.
    sync_interval_s: float = Field(0.0, ge=0)
    sync_namespaces: Annotated[tuple[str, ...], NoDecode] = ()
    sync_page: int = Field(500, ge=1, le=2000)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_json: bool = True
    # OpenTelemetry spans: "otlp" exports to OTEL_EXPORTER_OTLP_ENDPOINT (the `tracing`
    # extra), "console" prints them. Spans name operations and statements, never content.
    tracing: Literal["off", "otlp", "console"] = "off"

    # Embeddings: "local" (E5-small-v2, a sentence transformer from Maven Central, offline),
    # "bge-small" (the local model before 0.2.0), "wordllama" (a static model in a PyPI
    # wheel), "openai" (any OpenAI-compatible endpoint), or "none" (search runs on BM25 and
    # the graph alone).
    embedder: Literal["local", "bge-small", "wordllama", "openai", "none"] = "local"
    # Whether this process (`serve` or `worker`) embeds what waits. Off on the serving
    # processes and on in `graphmem worker`, the embedding leaves the processes that answer.
    embedding_worker: bool = True
    embedding_model: str = "text-embedding-3-small"
    embedding_dimension: int = Field(256, ge=8, le=4096)
    embedding_base_url: str | None = None
    embedding_api_key: SecretStr | None = None
    embedding_batch_size: int = Field(256, ge=1, le=2048)
    embedding_timeout_s: float = Field(30.0, gt=0)
    # Nearest neighbours are always *some* neighbours: below this cosine similarity a vector
    # match is dropped. A floor for what shares nothing, not a relevance cut: unrelated
    # questions scored 0.31-0.53 against LoCoMo turns with BGE-small and 0.67-0.78 with E5
    # (each model has its own scale; search and recall normalise the lists they get).
    vector_min_similarity: float = Field(0.2, ge=-1, le=1)
    search_weights: SearchWeights = DEFAULT_SEARCH_WEIGHTS

    # Pipelines: extraction and summarisation jobs, run by workers inside `graphmem serve`
    # (``workers`` of them; 0 leaves them to `graphmem worker`). Namespaces switch each
    # pipeline on or off with `setPipelines`; these are the defaults for those that did not.
    workers: int = Field(1, ge=0, le=32)
    extract_by_default: bool = False
    summarize_by_default: bool = False
    job_episodes: int = Field(20, ge=1, le=500)  # episodes per extraction job
    job_max_attempts: int = Field(5, ge=1, le=100)
    job_backoff_s: float = Field(2.0, gt=0)  # the first retry's delay; doubles, capped
    job_backoff_cap_s: float = Field(600.0, gt=0)
    job_lease_s: float = Field(300.0, gt=0)  # a silent worker's job is reclaimed after this
    summary_every_episodes: int = Field(20, ge=2)
    summary_every_tokens: int = Field(2000, ge=50)  # estimated at ingest as characters / 4
    summary_budget_tokens: int = Field(250, ge=20)
    summary_fanout: int = Field(5, ge=2)  # fresh session summaries per namespace summary
    pattern_confidence: float = Field(0.6, ge=0, le=1)  # the offline extractor's facts

    # Encryption at rest of episode content: "<id>:<base64 32 bytes>" entries, comma
    # separated; the first encrypts, all decrypt (see graphmem/security/encryption.py).
    encryption_keys: SecretStr | None = None
    # A key per namespace (HKDF of the master with a salt kept per namespace), so one
    # namespace can be erased cryptographically (destroyNamespaceKey).
    encryption_per_namespace: bool = False

    # Retention: the worker applies namespaces' retention policies this often. Facts whose
    # only evidence a sweep deleted are retracted, or kept believed with no evidence.
    retention_sweep_s: float = Field(3600.0, gt=0)
    retention_orphaned_facts: Literal["retract", "keep"] = "retract"
    # Use tracking: how often the ids answers returned are written as `last_used_at` (the
    # pruning policy spares facts in use). Pruning sweeps run with retention's.
    usage_flush_s: float = Field(10.0, gt=0)
    # Tiered storage (graphmem/archive): where archived episode content goes. Unset: the
    # directory `archive` in the home. `s3://bucket/prefix` for an S3-compatible store, with
    # its endpoint for one other than AWS.
    archive_url: str | None = None
    archive_s3_endpoint: str | None = None

    # The LLM for extraction and summaries: any OpenAI-compatible endpoint. Without a model
    # the offline pipelines run (patterns and extractive summaries).
    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout_s: float = Field(60.0, gt=0)
    # "auto" tries a JSON schema, then JSON mode, then instructions alone, and remembers
    # what the endpoint accepted.
    llm_structured_output: Literal["auto", "json_schema", "json_object", "prompt"] = "auto"
    llm_max_confidence: float = Field(0.9, ge=0, le=1)  # models are sure of too much
    llm_input_usd_per_million: float = Field(0.0, ge=0)
    llm_output_usd_per_million: float = Field(0.0, ge=0)

    @field_validator("sync_namespaces", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(name.strip() for name in value.split(",") if name.strip())
        return value

    @field_validator("local_jvm_options", mode="before")
    @classmethod
    def _shell_words(cls, value: object) -> object:
        # ValueError (an unclosed quote, a word that is no option): a configuration error
        words = shlex.split(value) if isinstance(value, str) else value
        if isinstance(words, (list, tuple)) and not all(
                isinstance(word, str) and word.startswith("-") for word in words):
            raise ValueError("must be JVM options, each starting with '-'")
        return words

    @field_validator("neo4j_uri")
    @classmethod
    def _known_scheme(cls, uri: str | None) -> str | None:
        schemes = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")
        if uri is not None and not uri.startswith(schemes):
            raise ValueError(f"must start with one of {', '.join(schemes)}")
        return uri

    @property
    def uses_local_neo4j(self) -> bool:
        return self.neo4j_uri is None

    @property
    def local_neo4j_home(self) -> Path:
        return self.home.resolve() / "neo4j"


def create_private_file(path: Path, text: str) -> None:
    """Write a secret under ``home``: created owner-only (0600) and never overwritten."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)


def env_file() -> Path:
    """``graphmem.env`` in the home (``GRAPHMEM_HOME``, or ``.graphmem``): the home decides
    where settings come from, whichever directory the process starts in."""
    return Path(os.environ.get("GRAPHMEM_HOME") or ".graphmem") / "graphmem.env"


def get_settings() -> Settings:
    """The settings of the environment and the home's file, read anew (an app, a CLI command
    keeps what it read); a bad value fails with the key's name, not a traceback."""
    try:
        return Settings(_env_file=env_file())
    except ValidationError as exc:
        problems = "; ".join(
            f"GRAPHMEM_{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid configuration: {problems}") from None
