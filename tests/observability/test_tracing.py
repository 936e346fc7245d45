"""OpenTelemetry spans over the real app and Neo4j: one trace per request, continuing the
client's, with a span per transaction and named statement, and never memory content."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.db.database import Database
from graphmem.observability.tracing import Tracing
from tests.support.apps import own_app
from tests.support.chat_endpoint import chat_endpoint, facts_reply
from tests.support.collector import otlp_collector
from tests.support.documents import RECORD, said
from tests.support.llm import extract_with, llm_settings, record_turns, reply_fact

SECRET = "Zanzibar treasure map"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CLIENT_SPAN = "00f067aa0ba902b7"
EPISODES = """query($ns: String!) { episodes(namespace: $ns) { nodes { content } } }"""


def exporting(*into: Tracing) -> InMemorySpanExporter:
    """Spans of each of ``into``, kept in memory for the test to read."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    for tracing in into:
        tracing.install(provider)
    return exporter


@pytest.fixture
def spans(app: Starlette, db: Database) -> Iterator[InMemorySpanExporter]:
    """The spans of the suite's app and of the test's database (each has its own tracing)."""
    into = (app.state.runtime.db.tracing, db.tracing)
    yield exporting(*into)
    for tracing in into:
        tracing.install(None)


async def post(client: httpx.AsyncClient, token: str, query: str, **variables: Any) -> None:
    await client.post("/graphql", json={"query": query, "variables": variables}, headers={
        "Authorization": f"Bearer {token}", "traceparent": f"00-{TRACE_ID}-{CLIENT_SPAN}-01"})


def named(spans: tuple[ReadableSpan, ...], prefix: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name.startswith(prefix)]


def ancestors(span: ReadableSpan, by_id: dict[int, ReadableSpan]) -> Iterator[ReadableSpan]:
    while span.parent is not None and span.parent.span_id in by_id:
        span = by_id[span.parent.span_id]
        yield span


async def test_a_request_is_one_trace_continuing_the_clients(
        client: httpx.AsyncClient, admin_token: str, ns: str,
        spans: InMemorySpanExporter) -> None:
    await post(client, admin_token, RECORD, ns=ns,
               eps=[said("t1", "2026-05-01T10:00:00Z", SECRET)])
    finished = spans.get_finished_spans()
    (request,) = named(finished, "graphql")
    assert request.name == "graphql mutation:recordEpisodes"
    assert f"{request.context.trace_id:032x}" == TRACE_ID
    assert request.parent is not None and f"{request.parent.span_id:016x}" == CLIENT_SPAN
    assert request.attributes is not None
    assert request.attributes["http.response.status_code"] == 200
    assert request.status.status_code is not StatusCode.ERROR

    statements = named(finished, "cypher ")
    by_id = {s.context.span_id: s for s in finished}
    assert {"cypher episodes/reserve_seq", "cypher episodes/create"} <= {s.name for s in statements}
    for statement in statements:  # every statement sits in the request, most in its transaction
        assert request in ancestors(statement, by_id)
        assert statement.attributes and statement.attributes["db.system.name"] == "neo4j"
    (write,) = named(finished, "transaction")
    assert write.attributes and write.attributes["graphmem.attempts"] == 1
    (audit,) = named(finished, "cypher governance/audit/record")
    assert write in ancestors(audit, by_id), "the audit event commits with the change"


async def test_spans_hold_no_memory_content(
        client: httpx.AsyncClient, admin_token: str, ns: str,
        spans: InMemorySpanExporter) -> None:
    await post(client, admin_token, RECORD, ns=ns,
               eps=[said("t1", "2026-05-01T10:00:00Z", SECRET)])
    await post(client, admin_token, EPISODES, ns=ns)
    inlined = '{ search(namespace: "NS", query: "SECRET") { hits { score } } }'
    await post(client, admin_token, inlined.replace("NS", ns).replace("SECRET", SECRET))
    finished = spans.get_finished_spans()
    assert len(named(finished, "graphql")) == 3
    for span in finished:
        text = f"{span.name} {dict(span.attributes or {})} {span.events}"
        assert "Zanzibar" not in text, span.name


async def test_a_failed_operation_is_marked_with_its_code(
        client: httpx.AsyncClient, admin_token: str, spans: InMemorySpanExporter) -> None:
    await post(client, admin_token, EPISODES, ns="not a namespace!")
    (request,) = named(spans.get_finished_spans(), "graphql")
    assert request.status.status_code is StatusCode.ERROR
    assert request.attributes and request.attributes["error.type"] == "INVALID_INPUT"


async def test_work_outside_a_request_or_job_starts_no_trace(
        db: Database, spans: InMemorySpanExporter) -> None:
    await db.read("jobs/depth")  # what an idle worker polls
    assert spans.get_finished_spans() == ()


async def test_a_job_is_a_trace_with_its_llm_calls(
        db: Database, ns: str, spans: InMemorySpanExporter) -> None:
    with chat_endpoint(facts_reply(reply_fact(1, "works_at", "Zanzibar Robotics"))) as llm:
        ids = await record_turns(db, ns, "I started at Zanzibar Robotics.")
        await extract_with(db, ns, llm_settings(llm.url), ids)
    finished = spans.get_finished_spans()
    (job,) = named(finished, "job extract")
    assert job.parent is None and job.attributes and job.attributes["graphmem.job.attempt"] == 1
    (chat,) = named(finished, "chat test-model")
    assert chat.parent is not None and chat.parent.span_id == job.context.span_id
    assert chat.attributes and (chat.attributes["gen_ai.usage.input_tokens"],
                                chat.attributes["gen_ai.usage.output_tokens"]) == (120, 30)
    by_id = {s.context.span_id: s for s in finished}
    assert any(job in ancestors(s, by_id) for s in named(finished, "cypher facts/"))
    for span in finished:
        assert "Zanzibar" not in f"{span.name} {dict(span.attributes or {})}", span.name


async def test_otlp_exports_to_the_configured_collector(
        settings: Settings, admin_token: str, app: Starlette, ns: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An app made with ``tracing="otlp"`` exports to the collector, and flushes what it
    holds when it stops."""
    with otlp_collector(monkeypatch) as received:
        async with own_app(settings, admin_token, app, tracing="otlp") as own:
            transport = httpx.ASGITransport(app=own.app)
            async with httpx.AsyncClient(transport=transport,
                                         base_url="http://graphmem.test") as client:
                await post(client, admin_token, EPISODES, ns=ns)
    exported = received.spans()
    names = {span.name for _, span in exported}
    assert "graphql query:episodes" in names and "cypher episodes/page" in names
    services = {a.value.string_value for resource, _ in exported
                for a in resource.attributes if a.key == "service.name"}
    assert services == {"graphmem"}


def test_an_exception_marks_its_span_by_type_never_by_message() -> None:
    """A library's message may quote what it was given: the span says the exception's type,
    records no exception event, and so never carries the message."""
    tracing = Tracing()
    spans = exporting(tracing)
    with pytest.raises(ValueError), tracing.span("work"):
        raise ValueError(f"could not store {SECRET}")
    (span,) = spans.get_finished_spans()
    assert span.status.status_code is StatusCode.ERROR
    assert span.attributes and span.attributes["error.type"] == "ValueError"
    assert list(span.events) == []
    assert SECRET not in f"{span.name} {dict(span.attributes)} {span.events} {span.status}"
