"""Prometheus metrics, served at ``/metrics``. Labels are bounded by construction (GraphQL
root fields, named Cypher statements, retriever and layer names): never ids or content."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from starlette.requests import Request
from starlette.responses import Response

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)

REQUEST_SECONDS = Histogram(
    "graphmem_request_seconds", "GraphQL operation latency by root field.",
    ["operation"], buckets=_BUCKETS)
REQUEST_ERRORS = Counter(
    "graphmem_request_errors_total", "GraphQL errors by code.", ["code"])
CYPHER_SECONDS = Histogram(
    "graphmem_cypher_seconds", "Cypher latency by named statement.", ["statement"],
    buckets=_BUCKETS)
RETRIEVAL_HITS = Counter(
    "graphmem_retrieval_hits_total", "Search hits by retriever, recall pieces by layer.",
    ["source"])
EMBEDDER_SECONDS = Histogram(
    "graphmem_embedder_seconds", "Embedding batch latency.", ["embedder"], buckets=_BUCKETS)
EMBEDDED_NODES = Counter(
    "graphmem_embedded_nodes_total", "Nodes this process claimed and embedded.")
EMBEDDING_QUEUE = Gauge(
    "graphmem_embedding_queue", "Nodes waiting for an embedding.")
FACT_CACHE = Counter(
    "graphmem_fact_cache_total", "Recall fact cache lookups by result.", ["result"])


@contextmanager
def timed(histogram: Histogram, *labels: str) -> Iterator[None]:
    began = time.perf_counter()
    try:
        yield
    finally:
        histogram.labels(*labels).observe(time.perf_counter() - began)


async def endpoint(request: Request) -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
JOBS = Counter(
    "graphmem_jobs_total", "Pipeline job attempts by kind and outcome.", ["kind", "outcome"])
JOB_QUEUE = Gauge(
    "graphmem_job_queue", "Pipeline jobs by state (queued, running, failed), service-wide.",
    ["state"])
JOB_SECONDS = Histogram(
    "graphmem_job_seconds", "Pipeline job run time by kind.", ["kind"],
    buckets=(*_BUCKETS, 30, 60, 300))
EXTRACTION_EPISODES = Counter(
    "graphmem_extraction_episodes_total",
    "Episodes seen by extraction: selected for it, or skipped by the heuristics.", ["decision"])
LLM_TOKENS = Counter(
    "graphmem_llm_tokens_total", "LLM tokens used by pipelines, by direction.", ["direction"])
LLM_COST = Counter("graphmem_llm_cost_usd_total", "LLM cost in USD (from configured prices).")
HOUSEKEEPING_FAILURES = Counter(
    "graphmem_housekeeping_failures_total",
    "Worker housekeeping that failed and was passed over (a step, or one namespace's share "
    "of a round: retention, pruning, ephemeral sessions, a stored policy that cannot be read).",
    ["task"])
AUDIT_WRITE_FAILURES = Counter(
    "graphmem_audit_write_failures_total", "Audit events that could not be written.")
